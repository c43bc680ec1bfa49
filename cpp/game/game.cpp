#include "game/game.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "base/require.hpp"
#include "game/shuffled_cards.hpp"
#include "rules/move_checks.hpp"
#include "rules/notation.hpp"

namespace ddz {

namespace {

constexpr int kMaxDeckSize = 108;  // two decks
constexpr int kHighestBid = 3;
constexpr Mask kStraight3ToA = run_of(0, kAce + 1, 1);  // the happy bonus's 12-straight

void require_rules(const Rules& rules) {
  const std::string why = validate(rules);
  require(why.empty(), "rules: " + why);
}

void require_seat(int seat, int seats, const char* what) {
  require(seat >= 0 && seat < seats, std::string(what) + " must be a seat in 0.." + std::to_string(seats - 1));
}

// The first bidder: a seat, or with each_for_self also kThreeOfSpades.
void require_first_bidder(int first_bidder, const Rules& rules) {
  if (rules.each_for_self && first_bidder == kThreeOfSpades) return;
  require_seat(first_bidder, rules.players, "first_bidder");
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  // splitmix64's finalizer over the running value: order-sensitive and well spread.
  return splitmix_finalize(h ^ (v + 0x9E37'79B9'7F4A'7C15 + (h << 6) + (h >> 2)));
}

void require_wild(WildRanks wild, const Rules& rules) {
  const std::string why = wild_ranks_error(wild, rules);
  require(why.empty(), why);
}

// "the 5s", or "the 5s and 9s".
std::string wild_ranks_text(WildRanks wild) {
  std::string out = std::string("the ") + rank_char(wild.low) + "s";
  if (wild.high != kNoWild) out += std::string(" and ") + rank_char(wild.high) + "s";
  return out;
}

bool contains_seat(std::uint8_t set, int seat) { return (set >> seat) & 1; }

constexpr int kBombsPerDeck = 13;  // a bomb of each rank 3..2

int capped(int multiplier, int max_multiplier) { return max_multiplier > 0 ? std::min(multiplier, max_multiplier) : multiplier; }

// Call and rob: the call's stake doubled by each rob (at most 1000 x 2^4 with four seats).
int call_rob_base(const Rules& rules, int robs) { return rules.call_base << robs; }

}  // namespace

StartBonus start_bonus_of(const std::array<Mask, kMaxSeats>& dealt, const Rules& rules) {
  StartBonus b;
  if (!rules.start_bonus) return b;
  for (int seat = 0; seat < rules.players; ++seat) {
    const Mask hand = dealt[static_cast<std::size_t>(seat)];
    if (contains(hand, rules.rocket())) b.jokers |= static_cast<std::uint8_t>(1u << seat);
    if (contains(hand, kStraight3ToA)) b.straight |= static_cast<std::uint8_t>(1u << seat);
  }
  return b;
}

std::string score_error(int base, int bombs, int rockets, bool spring, bool anti_spring, bool landlord_won, int landlord,
                        int seats, int max_multiplier, int partner) {
  if (seats < 2 || seats > kMaxSeats) return "seats must be 2, 3 or 4";
  if (landlord < 0 || landlord >= seats) return "landlord must be a seat in 0.." + std::to_string(seats - 1);
  if (base < 0) return "base cannot be negative";
  const int decks = seats == kMaxSeats ? 2 : 1;
  if (bombs < 0 || bombs > kBombsPerDeck * decks) {
    return "bombs must be in 0.." + std::to_string(kBombsPerDeck * decks) + ", the most " + std::to_string(decks) +
           " deck(s) hold";
  }
  if (rockets < 0 || rockets > 1) return "rockets must be 0 or 1: the decks hold one rocket";
  if (spring && (anti_spring || !landlord_won)) return "a spring needs the landlord to win";
  if (anti_spring && landlord_won) return "an anti-spring needs the peasants to win";
  if (std::string why = max_multiplier_error(max_multiplier); !why.empty()) return why;
  if (partner != -1 && (seats != kMaxSeats || partner < 0 || partner >= seats || partner == landlord)) {
    return "partner must be none, or with 4 seats a seat in 0..3 other than the landlord";
  }
  return {};
}

Settlement settle(int base, int bombs, int rockets, bool spring, bool anti_spring, bool landlord_won, int landlord,
                  int seats, int max_multiplier, StartBonus bonus, int partner) {
  const std::string why =
      score_error(base, bombs, rockets, spring, anti_spring, landlord_won, landlord, seats, max_multiplier, partner);
  require(why.empty(), why);
  Settlement s;
  s.landlord_won = landlord_won;
  s.base = base;
  s.bombs = bombs;
  s.rockets = rockets;
  s.spring = spring;
  s.anti_spring = anti_spring;
  s.start_bonus = bonus;
  s.seats = seats;
  s.landlord = landlord;
  s.partner = partner;
  // At most 26 bombs, a rocket, a spring and two bonuses: 2^30 is exact in an int.
  const int doublings = bombs + rockets + (spring ? 1 : 0) + (anti_spring ? 1 : 0) + bonus.doublings();
  assert(doublings <= 30);
  s.multiplier = capped(1 << doublings, max_multiplier);
  const long long stake = static_cast<long long>(base) * s.multiplier;
  // Each other seat wins or pays one stake by its side; the landlord balances them.
  for (int seat = 0; seat < seats; ++seat) {
    if (seat == landlord) continue;
    const long long own = (seat == partner) == landlord_won ? stake : -stake;
    s.payouts[static_cast<std::size_t>(seat)] = own;
    s.payouts[static_cast<std::size_t>(landlord)] -= own;
  }
  return s;
}

Stake stake_so_far(const State& s, const Rules& rules) {
  Stake stake;
  if (s.phase != Phase::Bidding) {
    stake.base = s.base;
  } else if (rules.bidding == Bidding::Classic) {
    stake.base = s.high_bid;
  } else {
    stake.base = s.caller >= 0 ? call_rob_base(rules, s.robs) : 0;
  }
  // Each seat for itself scores by cards: a bomb pays its own (bomb_pay), it doubles nothing.
  if (!rules.each_for_self) stake.multiplier = capped(1 << (s.bombs + s.rockets), rules.max_multiplier);
  return stake;
}

std::uint64_t hash(const State& s) {
  std::uint64_t h = 0x6A09'E667'F3BC'C908;
  for (int seat = 0; seat < kMaxSeats; ++seat) {
    h = mix(h, s.hands[static_cast<std::size_t>(seat)]);
    h = mix(h, s.played[static_cast<std::size_t>(seat)]);
    h = mix(h, s.plays[static_cast<std::size_t>(seat)]);
    h = mix(h, s.seat_bombs[static_cast<std::size_t>(seat)]);
  }
  h = mix(h, s.kitty);
  h = mix(h, move_hash(s.last));
  const std::uint64_t small[] = {
      static_cast<std::uint64_t>(s.last_by + 1), static_cast<std::uint64_t>(s.to_move),
      static_cast<std::uint64_t>(s.landlord + 1), static_cast<std::uint64_t>(s.seats),
      static_cast<std::uint64_t>(s.partner + 1),  static_cast<std::uint64_t>(s.lead_rank + 1),
      static_cast<std::uint64_t>(s.phase),        s.passes,
      s.bombs,                                    s.rockets,
      static_cast<std::uint64_t>(s.first_bidder), s.base,
      s.high_bid,                                 static_cast<std::uint64_t>(s.high_bidder + 1),
      s.out_of_auction,                                      static_cast<std::uint64_t>(s.stage),
      static_cast<std::uint64_t>(s.caller + 1),   s.robs,
      s.to_ask,                                   s.redeals,
      s.start_bonus.jokers,                       s.start_bonus.straight,
      s.wild.code()};
  for (std::uint64_t v : small) h = mix(h, v);
  return h;
}

Deal deal_cards(Rng& rng, const Rules& rules) {
  std::array<int, kMaxDeckSize> deck;  // the first n are filled and used
  const Mask cards = rules.deck();
  int n = 0;
  for (int r = 0; r < kNumRanks; ++r) {
    for (int c = count(cards, r); c > 0; --c) deck[static_cast<std::size_t>(n++)] = r;
  }
  for (int i = n - 1; i > 0; --i) {
    std::swap(deck[static_cast<std::size_t>(i)], deck[rng.below(static_cast<std::uint32_t>(i + 1))]);
  }
  Deal d;
  const int hand = rules.hand_size();
  int i = 0;
  for (int seat = 0; seat < rules.players; ++seat) {
    for (const int end = i + hand; i < end; ++i) d.hands[static_cast<std::size_t>(seat)] += cards_of(deck[static_cast<std::size_t>(i)], 1);
  }
  for (; i < n; ++i) d.kitty += cards_of(deck[static_cast<std::size_t>(i)], 1);
  return d;
}

Game::Game(std::uint64_t seed, const Rules& rules, int first_bidder) : Game(rules, seed) {
  require_rules(rules);
  require_first_bidder(first_bidder, rules);
  start(next_deal(), first_bidder, rules.bidding == Bidding::None ? first_bidder : -1);
  initial_ = state_;
}

namespace {

// Throws std::invalid_argument unless `deal` splits the deck of `rules` into its hands and kitty.
void require_deal(const Deal& deal, const Rules& rules) {
  const std::string hand = std::to_string(rules.hand_size());
  const std::string whole = "hands, kitty: the hands and the kitty must hold the " + std::to_string(rules.deck_size()) +
                            " cards of the deck exactly once";
  Mask left = rules.deck();  // what the hands so far leave of it (subtracting only what it holds)
  for (int seat = 0; seat < kMaxSeats; ++seat) {
    const Mask h = deal.hands[static_cast<std::size_t>(seat)];
    if (seat >= rules.players) {
      require(h == 0, "hands: a deal has a hand for each of the " + std::to_string(rules.players) + " players only");
      continue;
    }
    require(validate_cards(h, rules).empty() && total(h) == rules.hand_size(), "hands: each hand of a deal holds " + hand + " cards");
    require(contains(left, h), whole);
    left -= h;
  }
  require(validate_cards(deal.kitty, rules).empty() && total(deal.kitty) == rules.kitty_size,
          "kitty: the kitty holds " + std::to_string(rules.kitty_size) + " cards");
  require(left == deal.kitty, whole);
}

}  // namespace

Game::Game(const Deal& deal, const Rules& rules, int first_bidder, int landlord, std::uint64_t seed)
    : Game(rules, seed) {
  // The given deal stands in for the seed's first deal; redeals continue the seed's
  // stream, so a seeded game and its replay from the recorded deal redeal alike.
  require_rules(rules);
  require_first_bidder(first_bidder, rules);
  require(landlord == -1 || !rules.each_for_self, "landlord must be None: each seat plays for itself");
  if (landlord != -1) require_seat(landlord, rules.players, "landlord");
  require_deal(deal, rules);
  Deal given = deal;
  const Deal seeds_own = next_deal();  // redeals continue after it
  if (given.wild.none()) given.wild = seeds_own.wild;
  require_wild(given.wild, rules);
  start(given, first_bidder, landlord >= 0 ? landlord : (rules.bidding == Bidding::None ? first_bidder : -1));
  initial_ = state_;
  deal_given_ = true;
}

std::string position_cards_error(const std::vector<Mask>& hands, const Move& last, const Rules& rules,
                                 const std::string& holders) {
  for (int r = 0; r < kNumRanks; ++r) {
    int held = count(spent(last), r);  // counted in ints: four hands of a rank may pass a nibble's 15
    for (const Mask h : hands) held += count(h, r);
    if (held > count(rules.deck(), r)) {
      return holders + (last.cards ? " and last hold " : " hold ") + std::to_string(held) +
             " cards of rank " + rank_char(r) + ", the deck " + std::to_string(count(rules.deck(), r));
    }
  }
  return {};
}

Game Game::from_position(const std::vector<Mask>& hands, int landlord, int to_move, const Move& last, int last_by,
                         const Rules& rules, WildRanks wild, int partner) {
  require_rules(rules);
  require_wild(wild, rules);
  const int seats = static_cast<int>(hands.size());
  require(seats == 2 || seats == rules.players, "hands: a position has 2 or " + std::to_string(rules.players) + " hands");
  if (partner != -1) {
    require(rules.partner && seats == kMaxSeats, "partner needs rules with partner and four hands");
    require_seat(partner, seats, "partner");
    require(partner != landlord, "partner must differ from the landlord");
  }
  if (rules.each_for_self) {
    require(landlord == -1, "landlord must be None: each seat plays for itself");
  } else {
    require_seat(landlord, seats, "landlord");
  }
  for (int i = 0; i < seats; ++i) {
    const Mask h = hands[static_cast<std::size_t>(i)];
    require(holds_hand(h, rules), "hands: " + hand_error(h, rules));
    require(h != 0, "hands: seat " + std::to_string(i) + " holds no cards: every hand holds some (a seat with none has won)");
    // Only the landlord's hand grows past a dealt share, by the kitty.
    require(i == landlord || total(h) <= rules.hand_size(), "hands: seat " + std::to_string(i) + ", not the landlord, holds " +
                                                               std::to_string(total(h)) + " cards, more than the " +
                                                               std::to_string(rules.hand_size()) + " dealt to it");
  }
  require_seat(to_move, seats, "to_move");
  require(last.cards || last_by < 0, "last_by is given without last");
  if (last.cards) {
    const std::string why = last_move_error(last, rules, wild);
    require(why.empty(), "last: " + why);
    require_seat(last_by, seats, "last_by");
    require(last_by != to_move, "last_by must differ from to_move");
    // The cards of `last` came out of last_by's hand, so both fit in what it was dealt.
    const int share = last_by == landlord ? rules.max_hand() : rules.hand_size();
    const int held = total(hands[static_cast<std::size_t>(last_by)]) + total(spent(last));
    require(held <= share, "last: seat " + std::to_string(last_by) + "'s hand (" +
                               std::to_string(total(hands[static_cast<std::size_t>(last_by)])) + " cards) and its last play (" +
                               std::to_string(total(spent(last))) + ") come to " + std::to_string(held) + ", more than the " +
                               std::to_string(share) + " dealt to it");
  }
  const std::string excess = position_cards_error(hands, last, rules);
  require(excess.empty(), excess);
  Game g(rules, 0);
  State& s = g.state_;
  s.seats = static_cast<std::int8_t>(hands.size());
  Deal d;
  for (std::size_t i = 0; i < hands.size(); ++i) d.hands[i] = hands[i];
  g.deals_.push_back(d);
  s.hands = d.hands;
  s.wild = wild;
  s.landlord = static_cast<std::int8_t>(landlord);
  s.partner = static_cast<std::int8_t>(partner);
  s.first_bidder = static_cast<std::int8_t>(landlord);
  s.phase = Phase::Playing;
  s.base = 1;
  s.to_move = static_cast<std::int8_t>(to_move);
  s.last = last.cards ? last : Move{};
  s.last_by = static_cast<std::int8_t>(last.cards ? last_by : -1);
  // The players between the last player and the one to move have passed.
  s.passes = last.cards ? static_cast<std::uint8_t>((to_move - last_by + s.seats) % s.seats - 1) : 0;
  g.initial_ = s;
  g.from_position_ = true;
  return g;
}

void Game::start(const Deal& deal, int first_bidder, int landlord) {
  if (rules_.each_for_self) return start_each_for_self(deal, first_bidder);
  deals_.push_back(deal);
  const std::uint32_t redeals = state_.redeals;
  state_ = State{};
  state_.seats = static_cast<std::int8_t>(rules_.players);
  state_.redeals = redeals;
  state_.start_bonus = start_bonus_of(deal.hands, rules_);
  state_.hands = deal.hands;
  state_.kitty = deal.kitty;
  state_.wild = deal.wild;
  state_.first_bidder = static_cast<std::int8_t>(first_bidder);
  state_.to_move = static_cast<std::int8_t>(first_bidder);
  if (landlord >= 0) start_play(landlord, 1);
}

void Game::start_each_for_self(const Deal& deal, int first_bidder) {
  deals_.push_back(deal);
  state_ = State{};
  State& s = state_;
  s.seats = static_cast<std::int8_t>(rules_.players);
  s.hands = deal.hands;
  s.kitty = deal.kitty;  // set aside unseen
  s.first_bidder = static_cast<std::int8_t>(first_bidder);
  const FirstLead lead = first_bidder == kThreeOfSpades ? first_lead(deal, rules_, rng_) : FirstLead{first_bidder, -1};
  s.to_move = static_cast<std::int8_t>(lead.seat);
  s.lead_rank = static_cast<std::int8_t>(lead.rank);
  s.base = 1;
  s.phase = Phase::Playing;
}

void Game::start_play(int landlord, int base) {
  State& s = state_;
  s.landlord = static_cast<std::int8_t>(landlord);
  s.base = static_cast<std::uint16_t>(base);  // at most 1000 x 2^4
  s.hands[static_cast<std::size_t>(landlord)] += s.kitty;
  // With a partner to choose the landlord decides before its first lead.
  s.phase = rules_.partner ? Phase::Partner : Phase::Playing;
  s.to_move = static_cast<std::int8_t>(landlord);
  s.passes = 0;
}

Deal seeded_deal(Rng& rng, const Rules& rules) {
  Deal d = deal_cards(rng, rules);
  d.wild = draw_wilds(rng, rules.wild);
  return d;
}

Deal Game::next_deal() { return seeded_deal(rng_, rules_); }

void Game::redeal() {
  ++state_.redeals;
  while (!undone_deals_.empty() && undone_deals_.back().index > deals_.size()) undone_deals_.pop_back();  // past this one
  if (!undone_deals_.empty() && undone_deals_.back().index == deals_.size()) {  // this redeal, taken again
    const UndoneDeal again = undone_deals_.back();
    undone_deals_.pop_back();
    start(again.deal, state_.first_bidder, -1);
    rng_ = again.rng_after;
    return;
  }
  start(stream_redeal(), state_.first_bidder, -1);
}

Deal Game::stream_redeal() {
  // A world's stream starts fresh (hide_from): its given first deal stands in for the
  // seed's first, which is drawn and set aside here rather than in every world made.
  if (rng_ == Rng(seed_)) next_deal();
  return next_deal();
}

std::size_t Game::deal_start() const {
  std::size_t start = 0;
  for (std::size_t i = 0; i < taken_.size(); ++i) {
    if (taken_[i].redealt) start = i + 1;
  }
  return start;
}

std::vector<SeatAction> Game::history(bool current_deal_only) const {
  const auto first = taken_.begin() + static_cast<std::ptrdiff_t>(current_deal_only ? deal_start() : 0);
  std::vector<SeatAction> out;
  out.reserve(static_cast<std::size_t>(taken_.end() - first));
  for (auto it = first; it != taken_.end(); ++it) out.push_back({it->seat, it->action});
  return out;
}

std::string Game::check(const Action& a) const {
  const State& s = state_;
  if (s.phase == Phase::Over) return "the hand is over";
  if (s.phase == Phase::Bidding) {
    if (rules_.bidding == Bidding::Classic) {
      if (a.type != ActionType::Bid) return "the auction is on: bid 1-3, or bid 0 to pass";
      if (a.value > kHighestBid) return "bids are 1, 2 or 3 (0 passes)";
      if (a.value != 0 && a.value <= s.high_bid) return "bid must exceed " + std::to_string(s.high_bid);
      return {};
    }
    const ActionType wanted = s.stage == CallRobStage::Calling ? ActionType::Call : ActionType::Rob;
    if (a.type != wanted) return wanted == ActionType::Call ? "it is time to call or decline" : "it is time to rob or not";
    if (a.value > 1) return "call and rob take yes or no";
    return {};
  }
  if (s.phase == Phase::Partner) {
    if (a.type != ActionType::Partner) return "the landlord chooses: play alone or name a partner";
    if (a.value > s.seats) return "the partner must be a seat in 0.." + std::to_string(s.seats - 1);
    if (a.value == s.landlord + 1) return "the landlord cannot be its own partner";
    return {};
  }
  if (std::string why = combination_error(a); !why.empty()) return why;
  if (!has_table_rules(rules_)) return {};
  thread_local std::vector<Move> moves;  // must-beat reads the plays left to the player
  moves.clear();
  if (a.type == ActionType::Pass && rules_.must_beat) {
    append_legal_moves(s.hands[static_cast<std::size_t>(s.to_move)], &s.last, rules_, s.wild, moves);
    keep_run_fast_moves(s, rules_, moves);
  }
  return run_fast_error(s, rules_, a.type == ActionType::Play ? &a.move : nullptr, moves);
}

std::string Game::combination_error(const Action& a) const {
  const State& s = state_;
  if (a.type == ActionType::Pass) return s.last.cards ? std::string() : "the leader may not pass";
  if (a.type != ActionType::Play) return "the hand is in play: play a move or pass";
  return play_error(s.hands[static_cast<std::size_t>(s.to_move)], a.move, s.last.cards ? &s.last : nullptr, rules_, s.wild);
}

std::string wild_ranks_error(WildRanks wild, const Rules& rules) {
  if (wild.none()) return wild.high == kNoWild ? std::string() : "the wild ranks must be ranks 3..2 (0..12)";
  if (!rules.wild) return "a wild rank needs rules with wild cards (the laizi and laizi2 presets)";
  const auto in_range = [](int r) { return r >= 0 && r <= kTwo; };
  if (!in_range(wild.low) || (wild.high != kNoWild && !in_range(wild.high))) return "the wild ranks must be ranks 3..2 (0..12)";
  if (wild.high != kNoWild && wild.high == wild.low) return "the two wild ranks must differ";
  if (wild.size() != rules.wild) {
    return rules.wild == 1 ? "these rules have one wild rank" : "these rules have two wild ranks";
  }
  return {};
}

std::string play_error(Mask hand, const Move& m, const Move* last, const Rules& rules, WildRanks wild) {
  if (m.stand_ins) {
    if (!uses_only(m, wild)) {
      return wild.none() ? "no rank is wild in this hand" : "the wild cards are " + wild_ranks_text(wild);
    }
    if (std::string why = wilds_error(m, rules); !why.empty()) return why;
  }
  if (!contains(hand, spent(m))) {
    const Mask missing = spent(m) - per_rank_min(spent(m), hand);
    return "cards not in hand: " + to_text(missing) + " missing from " + to_text(spent(m));
  }
  std::string why;
  if (!is_valid_move(m, rules)) {
    why = " is not that combination under these rules";
  } else if (is_short(m) && spent(m) != hand) {
    why = " is a trio with fewer than two kickers: only as the last cards";
  } else if (last && !beats(m, *last)) {
    why = " does not beat " + to_text(last->cards);
  }
  return why.empty() ? why : to_text(m.cards).append(why);
}

bool Game::apply(const Action& a) {
  if (!check(a).empty()) return false;
  apply_legal(a);
  return true;
}

void Game::apply_legal(const Action& a) {
  assert(check(a).empty());  // callers pass one of legal_actions()
  apply_unchecked(a);
}

void Game::apply_unchecked(const Action& a) {
  taken_.push_back({a, state_.to_move, false});
  saved_.push_back({state_, rng_});
  const auto deals_before = deals_.size();
  if (state_.phase == Phase::Bidding) {
    if (rules_.bidding == Bidding::Classic) {
      apply_bid(a);
    } else {
      apply_call_rob(a);
    }
  } else if (state_.phase == Phase::Partner) {
    apply_partner(a);
  } else {
    apply_play(a);
  }
  taken_.back().redealt = deals_.size() != deals_before;
}

void Game::apply_bid(const Action& a) {
  State& s = state_;
  const int seat = s.to_move;
  if (a.value == 0) {
    ++s.passes;
    if (!rules_.passed_may_bid_again) s.out_of_auction |= static_cast<std::uint8_t>(1u << seat);
  } else {
    s.passes = 0;
    s.high_bid = a.value;
    s.high_bidder = static_cast<std::int8_t>(seat);
    if (a.value == kHighestBid) return start_play(seat, a.value);
  }
  if (rules_.passed_may_bid_again) {
    // Turns go round every seat; a bid followed by a pass from each other seat wins.
    if (s.high_bidder < 0 && s.passes == s.seats) return nobody_bid();
    if (s.high_bidder >= 0 && s.passes == s.seats - 1) return start_play(s.high_bidder, s.high_bid);
    s.to_move = static_cast<std::int8_t>(next_seat(seat));
    return;
  }
  // The next seat still in the auction; the auction ends when only the high bidder is.
  int next = next_seat(seat);
  while (contains_seat(s.out_of_auction, next) && next != seat) next = next_seat(next);
  if (contains_seat(s.out_of_auction, next)) return nobody_bid();
  if (next == s.high_bidder) return start_play(next, s.high_bid);
  s.to_move = static_cast<std::int8_t>(next);
}

void Game::nobody_bid() {
  if (rules_.redeal_when_nobody_bids && state_.redeals < static_cast<std::uint32_t>(rules_.max_redeals)) return redeal();
  state_.phase = Phase::Over;  // a void hand: no landlord, no stakes
}

void Game::apply_call_rob(const Action& a) {
  State& s = state_;
  const int seat = s.to_move;
  const auto finish = [&] { start_play(s.high_bidder, call_rob_base(rules_, s.robs)); };
  // The next seat still to be asked to rob, or the caller's rob-back, or the end.
  const auto advance = [&] {
    if (s.to_ask) {
      int next = next_seat(seat);
      while (!contains_seat(s.to_ask, next)) next = next_seat(next);
      s.to_ask = static_cast<std::uint8_t>(s.to_ask & ~(1u << next));
      s.to_move = static_cast<std::int8_t>(next);
    } else if (s.stage == CallRobStage::Robbing && s.robs > 0) {
      s.stage = CallRobStage::RobBack;
      s.to_move = s.caller;
    } else {
      finish();
    }
  };
  switch (s.stage) {
    case CallRobStage::Calling:
      if (!a.value) {
        s.out_of_auction |= static_cast<std::uint8_t>(1u << seat);
        if (s.out_of_auction == (1u << s.seats) - 1) return nobody_bid();
        s.to_move = static_cast<std::int8_t>(next_seat(seat));
        return;
      }
      s.caller = s.high_bidder = static_cast<std::int8_t>(seat);
      s.stage = CallRobStage::Robbing;
      // Those after the caller who have not declined (the ones before it all declined).
      s.to_ask = static_cast<std::uint8_t>(((1u << s.seats) - 1) & ~s.out_of_auction & ~(1u << seat));
      return advance();
    case CallRobStage::Robbing:
      if (a.value) {
        ++s.robs;
        s.high_bidder = static_cast<std::int8_t>(seat);
      }
      return advance();
    case CallRobStage::RobBack:
      if (a.value) {
        ++s.robs;
        s.high_bidder = static_cast<std::int8_t>(seat);
      }
      return finish();
  }
}

void Game::apply_partner(const Action& a) {
  state_.partner = static_cast<std::int8_t>(a.value - 1);
  state_.phase = Phase::Playing;  // the landlord, still to move, leads
}

void Game::apply_play(const Action& a) {
  State& s = state_;
  const int seat = s.to_move;
  if (a.type == ActionType::Pass) {
    s.to_move = static_cast<std::int8_t>(next_seat(seat));
    if (++s.passes == s.seats - 1) {  // everyone else passed: the last player leads
      s.last = Move{};
      s.last_by = -1;
      s.passes = 0;
    }
    return;
  }
  const Move& m = a.move;
  const auto i = static_cast<std::size_t>(seat);
  const Mask cards = spent(m);
  assert(contains(s.hands[i], cards));
  s.hands[i] -= cards;
  s.played[i] += cards;
  s.plays[i] = static_cast<std::uint8_t>(std::min(s.plays[i] + 1, 255));
  if (m.kind == MoveKind::Bomb) ++s.bombs;
  if (m.kind == MoveKind::Rocket) ++s.rockets;
  if (m.kind == MoveKind::Bomb || m.kind == MoveKind::Rocket) ++s.seat_bombs[i];
  s.lead_rank = -1;
  s.last = m;
  s.last_by = static_cast<std::int8_t>(seat);
  s.passes = 0;
  if (s.hands[i] == 0) {
    s.phase = Phase::Over;
    s.winner = static_cast<std::int8_t>(seat);
    return;
  }
  s.to_move = static_cast<std::int8_t>(next_seat(seat));
}

bool Game::undo() {
  if (taken_.empty()) return false;
  state_ = saved_.back().before;
  if (taken_.back().redealt) {
    undone_deals_.push_back({deals_.size() - 1, deals_.back(), rng_});
    deals_.pop_back();
  }
  rng_ = saved_.back().rng_before;
  taken_.pop_back();
  saved_.pop_back();
  return true;
}

void Game::give_next_redeal(const Deal& deal) {
  require(state_.phase == Phase::Bidding, "a redeal is given only during the auction");
  require_deal(deal, rules_);
  require(rules_.wild == 0 || !deal.wild.none(), "a redeal under wild-card rules names its wild ranks");
  require_wild(deal.wild, rules_);
  const Rng before = rng_;
  const bool streams_own = stream_redeal() == deal;  // then the stream goes on past it, as a redeal's draw
  const Rng after = streams_own ? rng_ : before;
  rng_ = before;
  require(streams_own || deal_given_, "a hand dealt from its seed redeals from its seed");
  while (!undone_deals_.empty() && undone_deals_.back().index >= deals_.size()) undone_deals_.pop_back();
  undone_deals_.push_back({deals_.size(), deal, after});
}

Game Game::replayed_on(const Deal& deal) const {
  Game g = *this;
  require(g.replay(deal, *this, false).held, "replayed_on: the deal does not hold the cards played");
  return g;
}

void Game::replay_into(const Deal& deal, Game& out) const {
  out = *this;  // into out's storage: its vectors keep their capacity
  require(out.replay(deal, *this, false).held, "replayed_on: the deal does not hold the cards played");
}

std::optional<Refusal> Game::strict_refusal(const Deal& deal, Game& out) const {
  out = *this;
  return out.replay(deal, *this, true).first;
}

Refusals Game::refusals(const Deal& deal, Game& out) const {
  out = *this;
  return out.replay(deal, *this, false);
}

Refusals Game::replay(const Deal& deal, const Game& source, bool strict) {
  while (!taken_.empty() && !taken_.back().redealt) undo();  // back to the current deal's start
  const std::size_t first = taken_.size();
  State& s = state_;
  s.hands = deal.hands;
  s.kitty = deal.kitty;
  if (!from_position_) s.start_bonus = start_bonus_of(deal.hands, rules_);  // the new deal's, not the old one's
  if (s.landlord >= 0 && !from_position_) s.hands[static_cast<std::size_t>(s.landlord)] += deal.kitty;
  const WildRanks shown = deals_.back().wild;  // shown to all: every world keeps them, as its state does
  deals_.back() = deal;
  deals_.back().wild = shown;
  if (deals_.size() == 1 && !from_position_) deal_given_ = true;
  if (taken_.empty()) initial_ = s;
  Refusals refused;
  for (std::size_t i = first; i < source.taken_.size(); ++i) {
    const Action& a = source.taken_[i].action;
    if (apply(a)) continue;
    const bool first_refused = !refused.first;
    if (first_refused) refused.first = Refusal{i - first, source.taken_[i].seat};
    ++refused.count;
    // An action that only Run Fast's rules of play refuse (must-beat, the warning) stands
    // as recorded: those read cards the new deal moved.
    if (state_.phase != Phase::Playing || !combination_error(a).empty()) {
      refused.held = false;
      return refused;
    }
    if (strict) return refused;
    refused.distance += refusal_distance(a, first_refused ? &refused.cause : nullptr);
    apply_unchecked(a);
  }
  return refused;
}

std::size_t Game::refusal_distance(const Action& a, std::array<std::uint32_t, kNumRanks>* cause) const {
  const State& s = state_;
  // The cards of `cards` from rank `from` up: how many, each rank's added to the cause.
  const auto weigh = [cause](Mask cards, int from) {
    std::size_t n = 0;
    for (int r = from; r < kNumRanks; ++r) {
      n += static_cast<std::size_t>(count(cards, r));
      if (cause) (*cause)[static_cast<std::size_t>(r)] += static_cast<std::uint32_t>(count(cards, r));
    }
    return n;
  };
  if (a.type == ActionType::Pass) {
    if (!s.wild.none() && !cause) return 1;  // thousands of plays to list, for a later refusal
    const std::vector<Action> plays = legal_actions();
    if (cause) {
      for (const Action& play : plays) weigh(spent(play.move), 0);  // the cards taken, wild ones as themselves
    }
    return plays.size();
  }
  return weigh(s.hands[static_cast<std::size_t>(s.to_move)], a.move.key + 1);
}

namespace {

// `deal` with every card but `seat`'s dealt afresh from `rng` into the other hands and
// the kitty, each as large as before; the wild ranks kept (they are shown).
Deal redealt_around(const Deal& deal, int seat, int players, Rng& rng) {
  Mask hidden = deal.kitty;
  for (int i = 0; i < players; ++i) {
    if (i != seat) hidden += deal.hands[static_cast<std::size_t>(i)];
  }
  ShuffledCards cards(hidden, rng);
  Deal out = deal;
  for (int i = 0; i < players; ++i) {
    if (i != seat) out.hands[static_cast<std::size_t>(i)] = cards.deal(total(deal.hands[static_cast<std::size_t>(i)]));
  }
  out.kitty = cards.deal(total(deal.kitty));
  return out;
}

}  // namespace

void Game::hide_from(int seat, Rng& rng) {
  if (from_position_) return;
  for (std::size_t k = 0; k + 1 < deals_.size(); ++k) deals_[k] = redealt_around(deals_[k], seat, rules_.players, rng);
  // The states before the earlier deals' actions (all bids: hands as dealt).
  std::size_t deal = 0;
  for (std::size_t i = 0; i < taken_.size() && deal + 1 < deals_.size(); ++i) {
    saved_[i].before.hands = deals_[deal].hands;
    saved_[i].before.kitty = deals_[deal].kitty;
    saved_[i].before.start_bonus = start_bonus_of(deals_[deal].hands, rules_);
    if (taken_[i].redealt) ++deal;
  }
  if (deals_.size() > 1) {
    initial_.hands = deals_[0].hands;
    initial_.kitty = deals_[0].kitty;
    initial_.start_bonus = start_bonus_of(deals_[0].hands, rules_);
  }
  deal_given_ = true;  // the first deal is not the new seed's
  undone_deals_.clear();  // the real deals an undo took back
  restart_stream(rng.next());
}

std::optional<FirstLead> Game::drawn_first_lead() const {
  if (from_position_ || !rules_.each_for_self || initial_.first_bidder != kThreeOfSpades) return std::nullopt;
  return FirstLead{initial_.to_move, initial_.lead_rank};
}

void Game::seed_for_record(Rng& rng) {
  if (const std::optional<FirstLead> lead = drawn_first_lead()) restart_stream(seed_drawing_lead(deals_[0], rules_, *lead, rng));
}

void Game::restart_stream(std::uint64_t seed) {
  seed_ = seed;
  rng_ = Rng(seed_);  // redeal() skips the seed's first deal, as Game(deal, ...) does
  for (Saved& saved : saved_) saved.rng_before = rng_;
}

std::vector<Action> Game::legal_actions() const {
  std::vector<Action> out;
  legal_actions(out);
  return out;
}

void Game::legal_actions(std::vector<Action>& out) const {
  const State& s = state_;
  out.clear();
  if (s.phase == Phase::Over) return;
  if (s.phase == Phase::Bidding) {
    if (rules_.bidding == Bidding::Classic) {
      out.push_back(Action::bid(0));
      for (int b = s.high_bid + 1; b <= kHighestBid; ++b) out.push_back(Action::bid(b));
    } else {
      const bool calling = s.stage == CallRobStage::Calling;
      out.push_back(calling ? Action::call(false) : Action::rob(false));
      out.push_back(calling ? Action::call(true) : Action::rob(true));
    }
    return;
  }
  if (s.phase == Phase::Partner) {
    out.push_back(Action::partner(-1));
    for (int seat = 0; seat < s.seats; ++seat) {
      if (seat != s.landlord) out.push_back(Action::partner(seat));
    }
    return;
  }
  thread_local std::vector<Move> moves;
  moves.clear();
  const Mask hand = s.hands[static_cast<std::size_t>(s.to_move)];
  const Move* last = s.last.cards ? &s.last : nullptr;
  append_legal_moves(hand, last, rules_, s.wild, moves);
  if (has_table_rules(rules_)) keep_run_fast_moves(s, rules_, moves);
  if (may_pass(s, rules_, moves)) out.push_back(Action::pass());
  for (const Move& m : moves) out.push_back(Action::play(m));
}

Settlement void_settlement(int seats) {
  Settlement none;
  none.base = 0;
  none.seats = seats;
  return none;
}

int Game::first_player() const {
  for (std::size_t i = deal_start(); i < taken_.size(); ++i) {
    if (taken_[i].action.type == ActionType::Play) return taken_[i].seat;
  }
  return -1;
}

Settlement Game::result() const {
  const State& s = state_;
  if (s.phase == Phase::Over && rules_.each_for_self) return settle_each_for_self(s, rules_);
  if (s.phase != Phase::Over || s.landlord < 0) return void_settlement(s.seats);
  // Spring: no seat of the other side played; anti-spring: the landlord's side played
  // only the hand's first play, the landlord's (from a position, where another seat may
  // play first, one follow of the landlord's is no opening play).
  const bool landlord_won = on_landlord_side(s, s.winner);
  const auto plays = [&s](int seat) { return seat < 0 ? 0 : s.plays[static_cast<std::size_t>(seat)]; };
  bool spring = landlord_won;
  for (int seat = 0; seat < s.seats; ++seat) {
    if (!on_landlord_side(s, seat) && plays(seat) > 0) spring = false;
  }
  const bool anti_spring = !landlord_won && plays(s.landlord) == 1 && plays(s.partner) == 0 && first_player() == s.landlord;
  return settle(s.base, s.bombs, s.rockets, spring, anti_spring, landlord_won, s.landlord, s.seats,
                rules_.max_multiplier, s.start_bonus, s.partner);
}

}  // namespace ddz
