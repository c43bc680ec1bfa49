#include "game/game.hpp"

#include <algorithm>

#include "rules/notation.hpp"

namespace ddz {

namespace {

constexpr int kBombPay = 10;  // what each other seat pays a bomb's owner (bomb_pay)
constexpr int kThree = 0;     // the rank of the 3s

// The seat holding the `pick`-th card (0-based) of `rank` among the hands, in seat order,
// or -1 when the hands hold fewer.
int holder(const Deal& deal, int seats, int rank, std::uint32_t pick) {
  for (int seat = 0; seat < seats; ++seat) {
    const auto held = static_cast<std::uint32_t>(count(deal.hands[static_cast<std::size_t>(seat)], rank));
    if (pick < held) return seat;
    pick -= held;
  }
  return -1;
}

// Whether the seat after the player to move holds exactly one card.
bool next_on_last_card(const State& s) {
  return total(s.hands[static_cast<std::size_t>((s.to_move + 1) % s.seats)]) == 1;
}

// Why the warning forbids `m`, a play of `hand`: a solo other than the highest card.
bool warned_off(const Move& m, Mask hand) {
  return m.kind == MoveKind::Solo && m.key != highest_rank(ranks_with_at_least(hand, 1));
}

bool misses_lead_rank(const State& s, const Move& m) { return s.lead_rank >= 0 && count(m.cards, s.lead_rank) == 0; }

}  // namespace

double first_lead_chance(const Deal& deal, const Rules& rules, const FirstLead& lead) {
  const int threes = count(rules.deck(), kThree);
  const auto held = [&](int rank) { return count(deal.hands[static_cast<std::size_t>(lead.seat)], rank); };
  Mask dealt = 0;
  for (int seat = 0; seat < rules.players; ++seat) dealt += deal.hands[static_cast<std::size_t>(seat)];
  // The spade dealt to the seat, or set aside and the seat's card drawn among the lowest dealt.
  double chance = lead.rank == kThree ? static_cast<double>(held(kThree)) / threes : 0.0;
  const int lowest = lowest_rank(ranks_with_at_least(dealt, 1));
  if (lead.rank == lowest) {
    const double aside = static_cast<double>(threes - count(dealt, kThree)) / threes;
    chance += aside * held(lowest) / count(dealt, lowest);
  }
  return chance;
}

FirstLead first_lead(const Deal& deal, const Rules& rules, Rng& rng) {
  const int seats = rules.players;
  const int spade = holder(deal, seats, kThree, rng.below(static_cast<std::uint32_t>(count(rules.deck(), kThree))));
  if (spade >= 0) return {spade, kThree};
  Mask dealt = 0;
  for (int seat = 0; seat < seats; ++seat) dealt += deal.hands[static_cast<std::size_t>(seat)];
  const int lowest = lowest_rank(ranks_with_at_least(dealt, 1));
  return {holder(deal, seats, lowest, rng.below(static_cast<std::uint32_t>(count(dealt, lowest)))), lowest};
}

std::uint64_t seed_drawing_lead(const Deal& deal, const Rules& rules, const FirstLead& lead, Rng& rng) {
  // A world's lead has a chance of at least 1/8 on its deal (its seat holds one of at most
  // eight cards of the rank), so 1,024 draws all miss with odds below 10^-59.
  constexpr int kLeadSeedDraws = 1024;
  std::uint64_t seed = 0;
  for (int i = 0; i < kLeadSeedDraws; ++i) {
    seed = rng.next();
    Rng own(seed);
    seeded_deal(own, rules);  // set aside, as Game(deal, ...) does
    const FirstLead drawn = first_lead(deal, rules, own);
    if (drawn.seat == lead.seat && drawn.rank == lead.rank) break;
  }
  return seed;
}

void keep_run_fast_moves(const State& s, const Rules& rules, std::vector<Move>& moves) {
  const Mask hand = s.hands[static_cast<std::size_t>(s.to_move)];
  const bool warning = rules.single_card_warning && next_on_last_card(s);
  if (!warning && s.lead_rank < 0) return;
  std::erase_if(moves, [&](const Move& m) { return misses_lead_rank(s, m) || (warning && warned_off(m, hand)); });
}

bool may_pass(const State& s, const Rules& rules, const std::vector<Move>& moves) {
  return s.last.cards != 0 && (!rules.must_beat || moves.empty());
}

std::string run_fast_error(const State& s, const Rules& rules, const Move* m, const std::vector<Move>& moves) {
  if (m == nullptr) {
    if (may_pass(s, rules, moves) || s.last.cards == 0) return {};
    return "must_beat: " + move_text(moves.front()) + " beats " + move_text(s.last) + ", so passing is not allowed";
  }
  if (misses_lead_rank(s, *m)) return std::string("the first lead must contain a ") + rank_char(s.lead_rank);
  if (rules.single_card_warning && next_on_last_card(s) && warned_off(*m, s.hands[static_cast<std::size_t>(s.to_move)])) {
    return "single_card_warning: the next seat holds one card, so a solo must be the highest card";
  }
  return {};
}

Settlement settle_each_for_self(const State& s, const Rules& rules) {
  Settlement out;
  out.seats = s.seats;
  out.winner = s.winner;
  out.bombs = s.bombs;
  out.rockets = s.rockets;
  const auto w = static_cast<std::size_t>(s.winner);
  for (int seat = 0; seat < s.seats; ++seat) {
    const auto i = static_cast<std::size_t>(seat);
    if (seat != s.winner) {
      const int left = total(s.hands[i]);
      const long long owed = (left == 1 ? 0 : left) * (s.plays[i] == 0 ? 2 : 1);  // closed: never played
      out.payouts[i] -= owed;
      out.payouts[w] += owed;
    }
    if (!rules.bomb_pay) continue;
    const long long collected = static_cast<long long>(kBombPay) * s.seat_bombs[i];
    for (int other = 0; other < s.seats; ++other) {
      if (other == seat) continue;
      out.payouts[static_cast<std::size_t>(other)] -= collected;
      out.payouts[i] += collected;
    }
  }
  return out;
}

std::string each_for_self_settlement_error(const Settlement& s) {
  if (s.winner < 0 || s.winner >= s.seats) return "winner must be a seat in 0.." + std::to_string(s.seats - 1);
  if (s.landlord != -1 || s.partner != -1) return "a hand without a landlord has neither landlord nor partner";
  long long sum = 0;
  for (int seat = 0; seat < kMaxSeats; ++seat) {
    const long long p = s.payouts[static_cast<std::size_t>(seat)];
    if (seat >= s.seats && p != 0) return "a payout for a seat past the hand's seats";
    sum += p;
  }
  if (sum != 0) return "the payouts must sum to zero";
  return {};
}

}  // namespace ddz
