#include "search/rank_gaps.hpp"

namespace ddz {

namespace {

// Whether some run of `length` consecutive ranks of `ranks` exists.
bool has_run(RankSet ranks, int length) {
  RankSet run = ranks;
  for (int i = 1; i < length; ++i) run &= ranks >> i;
  return run != 0;
}

// Whether `hand` can make a chain of any unit: straights, pair straights, airplanes.
bool makes_a_chain(Mask hand, const Rules& rules) {
  for (int unit = 1; unit <= 3; ++unit) {
    if (has_run(ranks_with_at_least(hand, unit) & kChainRanks, chain_limits(unit, rules).shortest)) return true;
  }
  return false;
}

}  // namespace

ClosedRanks close_rank_gaps(const std::array<Mask, kMaxSeats>& hands, int seats, const Move& last, const Rules& rules) {
  ClosedRanks out;
  Mask all = 0;
  for (int s = 0; s < seats; ++s) all += hands[static_cast<std::size_t>(s)];
  const RankSet held = ranks_with_at_least(all, 1) & kChainRanks;
  constexpr Mask kFixed = nibble(kTwo) | kJokerNibbles;
  for (int s = 0; s < seats; ++s) {
    const Mask hand = hands[static_cast<std::size_t>(s)];
    Mask closed = hand & kFixed;
    int to = 0;
    for (RankSet left = held; left; left &= left - 1, ++to) closed |= cards_of(to, count(hand, lowest_rank(left)));
    if (makes_a_chain(closed, rules)) return out;
    out.hands[static_cast<std::size_t>(s)] = closed;
  }
  const int k = last.key;
  if (!last.cards) {
    out.last_key = 0;  // leading: nothing to beat
  } else {
    out.last_key = k >= kTwo ? 2 * k + 1 : 2 * rank_count(held & ((RankSet{1} << k) - 1)) + static_cast<int>(held >> k & 1u);
  }
  out.closed = true;
  return out;
}

}  // namespace ddz
