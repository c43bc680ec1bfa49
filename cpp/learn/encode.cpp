#include "learn/encode.hpp"

#include "base/require.hpp"
#include "game/seat_view.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ddz {

namespace {

constexpr int kPhases = 3;
constexpr int kClassicBids = 4;  // 0 (none yet) .. 3

// The hand-size slots of a layout: the landlord's hand in the standard deal of that many
// decks (20 cards with one, 33 with two), so that a layout depends on seats and decks only.
int max_hand(int decks) { return preset(decks == 1 ? "standard" : "four_player")->max_hand(); }

bool is_play_phase_action(const Action& a) { return a.type == ActionType::Play || a.type == ActionType::Pass; }

std::size_t at(int seat) { return static_cast<std::size_t>(seat); }

void one_hot(float* block, int index, int size) {
  if (index >= 0 && index < size) block[index] = 1.0f;
}

void thermometer(float* block, int n, int size) {
  std::fill(block, block + std::clamp(n, 0, size), 1.0f);
}

int bid_slot(const State& s, const Rules& rules) {
  switch (rules.bidding) {
    case Bidding::Classic: return std::min<int>(s.high_bid, kClassicBids - 1);
    case Bidding::CallRob: return s.caller >= 0 || s.phase != Phase::Bidding ? 1 : 0;
    case Bidding::None: break;
  }
  return 1;
}

}  // namespace

GameView view_of(const Game& g) {
  GameView v;
  v.state = g.state();
  v.rules = g.rules();
  // The last kDouZeroMaxRecent play-phase actions, gathered newest first, then reversed.
  constexpr int keep = kDouZeroMaxRecent;
  std::array<SeatAction, keep> newest{};
  int n = 0;
  g.visit_recent([&](int seat, const Action& a) {
    if (is_play_phase_action(a)) newest[at(n++)] = {seat, a};
    return n < keep;
  });
  const State& first = g.initial();
  if (g.started_from_position() && first.last.cards && first.last_by >= 0) {
    for (int k = first.passes; k >= 1 && n < keep; --k) {
      newest[at(n++)] = {(first.last_by + k) % first.seats, Action::pass()};
    }
    if (n < keep) newest[at(n++)] = {first.last_by, Action::play(first.last)};
  }
  std::reverse_copy(newest.begin(), newest.begin() + n, v.recent.begin());
  v.recent_count = n;
  return v;
}

// ---------------------------------------------------------------------------------------
// Our encoding.

ObservationLayout observation_layout(int seats, int decks) {
  require(seats >= 2, "an observation layout needs at least 2 seats");
  require(decks >= 1 && decks <= 2, "an observation layout has 1 or 2 decks");
  const int c = card_plane_size(decks), s = seats;
  const int sizes[kObservationBlocks] = {
      c, c, s * c, s * max_hand(decks), c, c, kNumMoveKinds, s, s, s, kPhases, kClassicBids, s, s, s, 1,
      (kNumRanks - 2) * decks + 1, 1, kHistoryLength * (c + s + 1), 1, 1, s, kNumRanks - 2,
      s >= kMaxSeats ? s + 1 : 0};  // the partner: four-seat layouts only
  static constexpr const char* kNames[kObservationBlocks] = {
      "hand",  "unseen",      "played", "hand_sizes", "kitty", "last_move", "last_kind",  "last_by",
      "landlord", "to_move", "phase",  "bid",        "high_bidder", "out",   "robs",      "base",
      "bombs", "multiplier",  "history", "passes",   "leading", "seats_present", "wild",
      "partner"};
  ObservationLayout layout;
  layout.seats = seats;
  layout.decks = decks;
  for (int i = 0; i < kObservationBlocks; ++i) {
    layout.blocks[at(i)] = {kNames[i], layout.size, sizes[i]};
    layout.size += sizes[i];
  }
  return layout;
}

ObservationLayout observation_layout_for(const GameView& v) {
  return observation_layout(std::max<int>(v.state.seats, 3), v.rules.decks);
}

std::string observation_error(const GameView& v, int seat, const ObservationLayout& layout) {
  const State& s = v.state;
  if (seat < 0 || seat >= s.seats) return "seat must be a seat in 0.." + std::to_string(s.seats - 1);
  if (s.seats > layout.seats) return "the layout has fewer seats than the game";
  if (v.rules.decks != layout.decks) return "the layout is for another number of decks";
  return {};
}

void encode_observation(const GameView& v, int seat, const ObservationLayout& layout, float* out) {
  const std::string why = observation_error(v, seat, layout);
  require(why.empty(), why);
  const State& s = v.state;
  const int n = s.seats, d = layout.decks, c = card_plane_size(d), seats = layout.seats;
  const auto rel = [&](int abs) { return (abs - seat + n) % n; };
  const auto block = [&](BlockId id) { return out + layout[id].offset; };
  std::fill(out, out + layout.size, 0.0f);

  write_card_plane(s.hands[at(seat)], d, block(kHand));
  const SeatView view = seat_view(s, seat);
  write_card_plane(view.others, d, block(kUnseen));
  for (int i = 0; i < n; ++i) {
    const int k = rel(i);
    write_card_plane(s.played[at(i)], d, block(kPlayed) + k * c);
    thermometer(block(kHandSizes) + k * max_hand(d), total(s.hands[at(i)]), max_hand(d));
    block(kSeatsPresent)[k] = 1.0f;
  }
  if (view.kitty_shown) write_card_plane(s.kitty, d, block(kKitty));
  if (s.landlord >= 0) {
    one_hot(block(kLandlord), rel(s.landlord), seats);
  }
  if (s.last.cards && s.last_by >= 0) {
    write_card_plane(s.last.cards, d, block(kLastMove));
    one_hot(block(kLastKind), static_cast<int>(s.last.kind), kNumMoveKinds);
    one_hot(block(kLastBy), rel(s.last_by), seats);
  }
  if (s.phase != Phase::Over) one_hot(block(kToMove), rel(s.to_move), seats);
  one_hot(block(kPhase), static_cast<int>(s.phase), kPhases);

  one_hot(block(kBid), bid_slot(s, v.rules), kClassicBids);
  if (s.high_bidder >= 0) one_hot(block(kHighBidder), rel(s.high_bidder), seats);
  for (int i = 0; i < n; ++i) {
    if ((s.out_of_auction >> i) & 1) block(kOut)[rel(i)] = 1.0f;
  }
  thermometer(block(kRobs), s.robs, seats);
  const Stake stake = stake_so_far(s, v.rules);
  block(kBase)[0] = stake.base > 0 ? static_cast<float>(std::log2(stake.base)) : 0.0f;
  thermometer(block(kBombs), s.bombs + s.rockets, layout[kBombs].size);
  block(kMultiplier)[0] = static_cast<float>(std::log2(stake.multiplier));

  float* history = block(kHistory);
  for (int j = 0; j < std::min(v.recent_count, kHistoryLength); ++j) {
    const SeatAction& sa = v.recent[at(v.recent_count - 1 - j)];
    float* entry = history + j * (c + seats + 1);
    if (sa.action.type == ActionType::Play) write_card_plane(sa.action.move.cards, d, entry);
    one_hot(entry + c, rel(sa.seat), seats);
    entry[c + seats] = sa.action.type == ActionType::Pass ? 1.0f : 0.0f;
  }
  if (s.phase == Phase::Playing) {
    block(kPasses)[0] = static_cast<float>(s.passes);
    block(kLeading)[0] = s.to_move == seat && !s.last.cards ? 1.0f : 0.0f;
  }
  if (v.rules.wild) {
    one_hot(block(kWild), s.wild.low, kNumRanks - 2);  // two-hot with two wild ranks
    one_hot(block(kWild), s.wild.high, kNumRanks - 2);
  }
  // The landlord's partner, or the last slot while the landlord chooses (the phase block,
  // of the three older phases, is zero then).
  if (layout[kPartner].size > 0) {
    if (s.partner >= 0) one_hot(block(kPartner), rel(s.partner), seats);
    if (s.phase == Phase::Partner) block(kPartner)[seats] = 1.0f;
  }
}

// ---------------------------------------------------------------------------------------
// DouZero's encoding.

namespace {

constexpr int kDouZeroWildRanks = kNumRanks - 2;  // 3..2

// DouZero's last_move_dict: the seat's latest play-phase action (a pass is no cards).
Mask last_action_cards(const GameView& v, int seat) {
  for (int j = v.recent_count - 1; j >= 0; --j) {
    const SeatAction& sa = v.recent[at(j)];
    if (sa.seat == seat) return sa.action.type == ActionType::Play ? sa.action.move.cards : 0;
  }
  return 0;
}

std::string douzero_too_many_cards(const DouZeroLayout& l) {
  return "DouZero's encoding holds at most " + std::to_string(l.landlord_cards) + " cards for the landlord and " +
         std::to_string(l.peasant_cards) + " for a peasant";
}

const char* douzero_seats_word(int seats) { return seats == 3 ? "three" : seats == 4 ? "four" : "these"; }

void douzero_one_hot(std::int8_t* out, int index, int size) {  // DouZero's `one_hot[index] = 1`, index within range
  std::fill(out, out + size, std::int8_t{0});
  out[std::clamp(index, 0, size - 1)] = 1;
}

// The seats other than position p, as DouZero orders them in its own layout (the
// landlord: landlord_up, landlord_down; a peasant: the landlord, the teammate) or, in
// the generalized one, by position.
struct DouZeroOthers {
  std::array<int, kMaxSeats> positions{};
  int count = 0;
  const int* begin() const { return positions.data(); }
  const int* end() const { return positions.data() + count; }
};

DouZeroOthers douzero_others(const DouZeroLayout& l, int p) {
  DouZeroOthers out;
  if (l.exact) {
    out.positions = p == 0 ? std::array<int, kMaxSeats>{2, 1} : std::array<int, kMaxSeats>{0, 3 - p};
    out.count = 2;
    return out;
  }
  for (int q = 0; q < l.seats; ++q) {
    if (q != p) out.positions[at(out.count++)] = q;
  }
  return out;
}

}  // namespace

void DouZeroBlocks::add(DouZeroBlockKind kind, int size, int position) {
  blocks[at(count++)] = {kind, position, width, size};
  width += size;
}

DouZeroLayout douzero_layout(const Rules& rules) {
  using K = DouZeroBlockKind;
  DouZeroLayout l;
  l.seats = rules.players;
  l.decks = rules.decks;
  l.wild = rules.wild != 0;
  l.exact = rules.players == 3 && rules.decks == 1 && !rules.wild && rules.max_hand() == 20 && rules.hand_size() == 17;
  l.cards = card_plane_size(rules.decks);
  l.landlord_cards = rules.max_hand();
  l.peasant_cards = rules.hand_size();
  // Every bomb holds 4 cards of 3..2 or more, and the rocket the jokers: 13 per deck, and 1.
  l.bomb_slots = (kNumRanks - 2) * rules.decks + 2;
  l.z_rows = kDouZeroZRows;
  l.z_cols = l.seats * l.cards;
  const int c = l.cards;
  for (int p = 0; p < l.seats; ++p) {
    DouZeroBlocks& x = l.x[at(p)];
    const DouZeroOthers others = douzero_others(l, p);
    const auto left = [&](int q) { return q == 0 ? l.landlord_cards : l.peasant_cards; };
    x.add(K::Hand, c);
    x.add(K::Others, c);
    if (l.exact && p == 0) {
      x.add(K::LastMove, c);
      for (int q : others) x.add(K::Played, c, q);
    } else if (l.exact) {
      for (int q : others) x.add(K::Played, c, q);
      x.add(K::LastMove, c);
      for (int q : others) x.add(K::LastAction, c, q);
    } else {
      x.add(K::LastMove, c);
      for (int q : others) x.add(K::Played, c, q);
      for (int q : others) x.add(K::LastAction, c, q);
    }
    for (int q : others) x.add(K::CardsLeft, left(q), q);
    x.add(K::Bombs, l.bomb_slots);
    if (l.wild) x.add(K::Wild, kDouZeroWildRanks);
    l.batch_width = std::max(l.batch_width, x.width);
  }
  l.action.add(K::Action, c);
  if (l.wild) l.action.add(K::ActionSpent, c);
  return l;
}

std::string douzero_block_name(const DouZeroBlock& b, int seats) {
  const std::string seat = b.position >= 0 ? douzero_position_name(b.position, seats) : "";
  switch (b.kind) {
    case DouZeroBlockKind::Hand: return "hand";
    case DouZeroBlockKind::Others: return "others";
    case DouZeroBlockKind::LastMove: return "last_move";
    case DouZeroBlockKind::Played: return "played_" + seat;
    case DouZeroBlockKind::LastAction: return "last_action_" + seat;
    case DouZeroBlockKind::CardsLeft: return "cards_left_" + seat;
    case DouZeroBlockKind::Bombs: return "bombs";
    case DouZeroBlockKind::Wild: return "wild";
    case DouZeroBlockKind::Action: return "action";
    case DouZeroBlockKind::ActionSpent: return "action_spent";
  }
  return "";
}

std::string douzero_error(const GameView& v) { return douzero_error(v, douzero_layout(v.rules)); }

std::string douzero_rules_error(const Rules& rules) {
  if (rules.each_for_self) return "DouZero's encoding needs a landlord: these rules have none (each_for_self)";
  return {};
}

std::string douzero_error(const GameView& v, const DouZeroLayout& l) {
  if (std::string why = douzero_rules_error(v.rules); !why.empty()) return why;
  const State& s = v.state;
  const int n = v.rules.players;
  if (s.seats != n) return std::string("DouZero's encoding is for ") + douzero_seats_word(n) + " seats";
  if (s.phase != Phase::Playing) return "DouZero's encoding is for the player to move in play";
  for (int i = 0; i < n; ++i) {
    const int limit = i == s.landlord ? l.landlord_cards : l.peasant_cards;
    if (total(s.hands[at(i)]) > limit) return douzero_too_many_cards(l);
  }
  if (s.bombs + s.rockets >= l.bomb_slots) {
    return "DouZero's encoding counts at most " + std::to_string(l.bomb_slots - 1) + " bombs";
  }
  return {};
}

int douzero_position_of(const State& s) { return (s.to_move - s.landlord + s.seats) % s.seats; }

const char* douzero_position_name(int position, int seats) {
  constexpr const char* kThree[] = {"landlord", "landlord_down", "landlord_up"};
  constexpr const char* kFour[] = {"landlord", "landlord_down", "landlord_across", "landlord_up"};
  return seats == 4 ? kFour[position] : kThree[position];
}

int douzero_x_width(DouZeroPosition p) {
  static const DouZeroLayout kDouZero = douzero_layout(*preset("douzero"));
  return kDouZero.x[static_cast<std::size_t>(p)].width;
}

void douzero_x_no_action(const GameView& v, const DouZeroLayout& layout, std::int8_t* out) {
  const std::string why = douzero_error(v, layout);
  require(why.empty(), why);
  const State& s = v.state;
  const int me = s.to_move, n = layout.seats, d = layout.decks;
  const auto seat = [&](int position) { return (s.landlord + position) % n; };
  const auto cards = [&](std::int8_t* at_block, Mask m, int size) {
    std::fill(at_block, at_block + size, std::int8_t{0});
    write_card_plane(m, d, at_block);
  };
  for (const DouZeroBlock& b : layout.x[at(douzero_position_of(s))]) {
    std::int8_t* o = out + b.offset;
    switch (b.kind) {
      case DouZeroBlockKind::Hand: cards(o, s.hands[at(me)], b.size); break;
      case DouZeroBlockKind::Others: {
        Mask others = 0;
        for (int i = 0; i < n; ++i) {
          if (i != me) others += s.hands[at(i)];
        }
        cards(o, others, b.size);
        break;
      }
      case DouZeroBlockKind::LastMove: cards(o, s.last.cards, b.size); break;
      case DouZeroBlockKind::Played: cards(o, s.played[at(seat(b.position))], b.size); break;
      case DouZeroBlockKind::LastAction: cards(o, last_action_cards(v, seat(b.position)), b.size); break;
      case DouZeroBlockKind::CardsLeft: douzero_one_hot(o, total(s.hands[at(seat(b.position))]) - 1, b.size); break;
      case DouZeroBlockKind::Bombs: douzero_one_hot(o, s.bombs + s.rockets, b.size); break;
      case DouZeroBlockKind::Wild:  // two-hot with two wild ranks
        douzero_one_hot(o, s.wild.low, b.size);
        if (s.wild.high != kNoWild) o[s.wild.high] = 1;
        break;
      case DouZeroBlockKind::Action:
      case DouZeroBlockKind::ActionSpent: break;  // not in x_no_action
    }
  }
}

void douzero_z(const GameView& v, const DouZeroLayout& layout, std::int8_t* out) {
  const std::string why = douzero_error(v, layout);
  require(why.empty(), why);
  // The last z_moves actions, oldest first, padded with passes in front: a card plane each.
  std::fill(out, out + layout.z_size(), std::int8_t{0});
  for (int k = 0, j = v.recent_count - layout.z_moves(); k < layout.z_moves(); ++k, ++j) {
    if (j >= 0 && v.recent[at(j)].action.type == ActionType::Play) {
      write_card_plane(v.recent[at(j)].action.move.cards, layout.decks, out + k * layout.cards);
    }
  }
}

void douzero_x_no_action(const GameView& v, std::int8_t* out) { douzero_x_no_action(v, douzero_layout(v.rules), out); }
void douzero_z(const GameView& v, std::int8_t* out) { douzero_z(v, douzero_layout(v.rules), out); }

void douzero_batches(const DouZeroLayout& layout, const std::int8_t* x_no_action, int width, const std::int8_t* z,
                     const std::vector<Action>& legal, float* x_batch, float* z_batch) {
  const int row = width + layout.action.width, z_size = layout.z_size();
  for (std::size_t i = 0; i < legal.size(); ++i) {
    float* x = x_batch + i * static_cast<std::size_t>(row);
    std::copy(x_no_action, x_no_action + width, x);
    douzero_action(layout, legal[i], x + width);
    std::copy(z, z + z_size, z_batch + i * static_cast<std::size_t>(z_size));
  }
}

void douzero_batches(const std::int8_t* x_no_action, int width, const std::int8_t* z,
                     const std::vector<Action>& legal, float* x_batch, float* z_batch) {
  static const DouZeroLayout kDouZero = douzero_layout(*preset("douzero"));
  douzero_batches(kDouZero, x_no_action, width, z, legal, x_batch, z_batch);
}

}  // namespace ddz
