#include "search/dominance.hpp"

namespace ddz {

namespace {

// How `m` uses its cards that are not three or four of a rank.
enum class Use { Kickers, Body, None };

Use use_of(MoveKind kind) {
  using enum MoveKind;
  switch (kind) {
    case TrioSolo:
    case TrioPair:
    case AirplaneSolos:
    case AirplanePairs:
    case FourTwoSolos:
    case FourTwoPairs: return Use::Kickers;
    case Solo:
    case Pair: return Use::Body;
    default: return Use::None;  // chains; Run Fast's kickers of any rank
  }
}

// The length of the run of consecutive ranks of `ranks` through `rank` (0: not in it).
int run_through(RankSet ranks, int rank) {
  if (!(ranks >> rank & 1u)) return 0;
  int low = rank, high = rank;
  while (low > 0 && (ranks >> (low - 1) & 1u)) --low;
  while (ranks >> (high + 1) & 1u) ++high;
  return high - low + 1;
}

// What of a hand decides whether a rank is free in it: its chain ranks with one card or
// more, and with two or more.
struct ChainRanks {
  RankSet singles;
  RankSet pairs;
  explicit ChainRanks(Mask hand)
      : singles(ranks_with_at_least(hand, 1) & kChainRanks), pairs(ranks_with_at_least(hand, 2) & kChainRanks) {}
};

// Whether `rank` is free in `hand` (whose chain ranks are `ranks`), with `n` cards: see
// the header. No straight or pair straight runs through it.
bool free_rank(Mask hand, const ChainRanks& ranks, int rank, int n, const Rules& rules) {
  return rank < kBlackJoker && count(hand, rank) == n && run_through(ranks.singles, rank) < chain_limits(1, rules).shortest &&
         run_through(ranks.pairs, rank) < chain_limits(2, rules).shortest;
}

}  // namespace

std::optional<Move> better_twin(const Move& m, Mask hand, const Move* last, const OtherHands& others, const Rules& rules) {
  const Use use = use_of(m.kind);
  if (use == Use::None || m.stand_ins) return std::nullopt;
  // Kickers need the partners' cards clear of (x, y]; a solo or pair everyone's, and x
  // above the move to beat.
  const Mask watchers = use == Use::Kickers ? others.partners : others.all;
  const int lowest = use == Use::Body && last ? last->key + 1 : 0;
  const Mask rest = hand - m.cards;
  const ChainRanks rest_ranks(rest);
  // Without three of a rank the rest takes no kickers: its x cards serve only as
  // themselves, so y's cards need not be all the hand's (the y-hand then keeps some
  // y as well: a play of the x-hand that uses both, relabelled, would need more y's
  // together than one move may hold only as kickers).
  const bool no_kickers_left = ranks_with_at_least(rest, 3) == 0;
  for (int y = 0; y < kBlackJoker; ++y) {
    // One or two cards of a rank (a body rank of a kicker move has three or four).
    const int n = count(m.cards, y);
    if (n == 0 || n > 2 || (count(hand, y) != n && !no_kickers_left)) continue;
    for (int x = y - 1; x >= lowest && count(watchers, x + 1) == 0; --x) {
      if (count(m.cards, x) == 0 && free_rank(rest, rest_ranks, x, n, rules)) {
        Move twin = m;
        twin.cards = m.cards - cards_of(y, n) + cards_of(x, n);
        if (use == Use::Body) twin.key = static_cast<std::uint8_t>(x);
        return twin;
      }
    }
  }
  return std::nullopt;
}

}  // namespace ddz
