#include "encode.hpp"

#include "require.hpp"
#include "seat_view.hpp"

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
  // The last kHistoryLength play-phase actions, gathered newest first, then reversed.
  std::array<SeatAction, kHistoryLength> newest{};
  int n = 0;
  g.visit_recent([&](int seat, const Action& a) {
    if (is_play_phase_action(a)) newest[at(n++)] = {seat, a};
    return n < kHistoryLength;
  });
  const State& first = g.initial();
  if (g.started_from_position() && first.last.cards && first.last_by >= 0) {
    for (int k = first.passes; k >= 1 && n < kHistoryLength; --k) {
      newest[at(n++)] = {(first.last_by + k) % first.seats, Action::pass()};
    }
    if (n < kHistoryLength) newest[at(n++)] = {first.last_by, Action::play(first.last)};
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
      (kNumRanks - 2) * decks + 1, 1, kHistoryLength * (c + s + 1), 1, 1, s, kNumRanks - 2};
  static constexpr const char* kNames[kObservationBlocks] = {
      "hand",  "unseen",      "played", "hand_sizes", "kitty", "last_move", "last_kind",  "last_by",
      "landlord", "to_move", "phase",  "bid",        "high_bidder", "out",   "robs",      "base",
      "bombs", "multiplier",  "history", "passes",   "leading", "seats_present", "wild"};
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
  for (int j = 0; j < v.recent_count; ++j) {
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
  if (v.rules.wild) one_hot(block(kWild), s.wild, kNumRanks - 2);
}

// ---------------------------------------------------------------------------------------
// DouZero's encoding.

namespace {

constexpr int kDouZeroBombSlots = 15;
constexpr int kDouZeroLandlordCards = 20;
constexpr int kDouZeroPeasantCards = 17;

int seat_at(const State& s, DouZeroPosition p) { return (s.landlord + static_cast<int>(p)) % 3; }

// DouZero's last_move_dict: the seat's latest play-phase action (a pass is no cards).
Mask last_action_cards(const GameView& v, int seat) {
  for (int j = v.recent_count - 1; j >= 0; --j) {
    const SeatAction& sa = v.recent[at(j)];
    if (sa.seat == seat) return sa.action.type == ActionType::Play ? sa.action.move.cards : 0;
  }
  return 0;
}

std::string too_many_cards() {
  return "DouZero's encoding holds at most " + std::to_string(kDouZeroLandlordCards) + " cards for the landlord and " +
         std::to_string(kDouZeroPeasantCards) + " for a peasant";
}

// Writes DouZero's blocks in order, advancing through the output.
struct Writer {
  std::int8_t* out;
  void cards(Mask m) {
    std::fill(out, out + kDouZeroCards, std::int8_t{0});
    write_card_plane(m, 1, out);
    out += kDouZeroCards;
  }
  void one_hot(int index, int size) {  // DouZero's `one_hot[index] = 1`, index within range
    std::fill(out, out + size, std::int8_t{0});
    out[std::clamp(index, 0, size - 1)] = 1;
    out += size;
  }
};

}  // namespace

std::string douzero_error(const GameView& v) {
  const State& s = v.state;
  if (s.seats != 3) return "DouZero's encoding is for three seats";
  if (v.rules.decks != 1) return "DouZero's encoding is for one deck";
  if (v.rules.wild) return "DouZero's encoding has no wild cards";
  if (s.phase != Phase::Playing) return "DouZero's encoding is for the player to move in play";
  for (int i = 0; i < 3; ++i) {
    const int limit = i == s.landlord ? kDouZeroLandlordCards : kDouZeroPeasantCards;
    if (total(s.hands[at(i)]) > limit) {
      return too_many_cards();
    }
  }
  if (s.bombs + s.rockets >= kDouZeroBombSlots) return "DouZero's encoding counts at most 14 bombs";
  return {};
}

std::string douzero_rules_error(const Rules& rules) {
  if (rules.players != 3) return "DouZero's encoding is for three seats";
  if (rules.decks != 1) return "DouZero's encoding is for one deck";
  if (rules.wild) return "DouZero's encoding has no wild cards";
  if (rules.max_hand() > kDouZeroLandlordCards || rules.hand_size() > kDouZeroPeasantCards) {
    return too_many_cards();
  }
  return {};
}

DouZeroPosition douzero_position(const State& s) {
  return static_cast<DouZeroPosition>((s.to_move - s.landlord + 3) % 3);
}

const char* douzero_position_name(DouZeroPosition p) {
  constexpr const char* kNames[] = {"landlord", "landlord_down", "landlord_up"};
  return kNames[static_cast<int>(p)];
}

int douzero_x_width(DouZeroPosition p) {
  if (p == DouZeroPosition::Landlord) return 5 * kDouZeroCards + 2 * kDouZeroPeasantCards + kDouZeroBombSlots;
  return 7 * kDouZeroCards + kDouZeroLandlordCards + kDouZeroPeasantCards + kDouZeroBombSlots;
}

void douzero_x_no_action(const GameView& v, std::int8_t* out) {
  const std::string why = douzero_error(v);
  require(why.empty(), why);
  const State& s = v.state;
  const int me = s.to_move;
  const int landlord = seat_at(s, DouZeroPosition::Landlord);
  const int down = seat_at(s, DouZeroPosition::LandlordDown);
  const int up = seat_at(s, DouZeroPosition::LandlordUp);
  const auto left = [&](int seat) { return total(s.hands[at(seat)]) - 1; };
  Mask others = 0;
  for (int i = 0; i < 3; ++i) {
    if (i != me) others += s.hands[at(i)];
  }
  Writer w{out};
  w.cards(s.hands[at(me)]);
  w.cards(others);
  if (me == landlord) {
    w.cards(s.last.cards);
    w.cards(s.played[at(up)]);
    w.cards(s.played[at(down)]);
    w.one_hot(left(up), kDouZeroPeasantCards);
    w.one_hot(left(down), kDouZeroPeasantCards);
  } else {
    const int mate = me == down ? up : down;
    w.cards(s.played[at(landlord)]);
    w.cards(s.played[at(mate)]);
    w.cards(s.last.cards);
    w.cards(last_action_cards(v, landlord));
    w.cards(last_action_cards(v, mate));
    w.one_hot(left(landlord), kDouZeroLandlordCards);
    w.one_hot(left(mate), kDouZeroPeasantCards);
  }
  w.one_hot(s.bombs + s.rockets, kDouZeroBombSlots);
}

void douzero_z(const GameView& v, std::int8_t* out) {
  const std::string why = douzero_error(v);
  require(why.empty(), why);
  // The last 15 actions, oldest first, padded with passes in front: 15 planes of 54.
  Writer w{out};
  for (int j = v.recent_count - kHistoryLength; j < v.recent_count; ++j) {
    const bool play = j >= 0 && v.recent[at(j)].action.type == ActionType::Play;
    w.cards(play ? v.recent[at(j)].action.move.cards : 0);
  }
}

void douzero_batches(const std::int8_t* x_no_action, int width, const std::int8_t* z,
                     const std::vector<Action>& legal, float* x_batch, float* z_batch) {
  const int row = width + kDouZeroCards, z_size = kDouZeroZRows * kDouZeroZCols;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    float* x = x_batch + i * static_cast<std::size_t>(row);
    std::copy(x_no_action, x_no_action + width, x);
    std::fill(x + width, x + row, 0.0f);
    if (legal[i].type == ActionType::Play) write_card_plane(legal[i].move.cards, 1, x + width);
    std::copy(z, z + z_size, z_batch + i * static_cast<std::size_t>(z_size));
  }
}

}  // namespace ddz
