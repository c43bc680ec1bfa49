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
  for (int s = 0; s < seats; ++s) {
    const Mask hand = hands[static_cast<std::size_t>(s)];
    if (makes_a_chain(hand, rules)) return out;  // closing only makes runs longer
    all += hand;
  }
  const RankSet held = ranks_with_at_least(all, 1) & kChainRanks;
  out.hands = hands;
  // Each gap from the highest down: the chain ranks above it move one lower.
  for (RankSet gaps = ~held & kChainRanks; gaps; gaps &= ~(RankSet{1} << highest_rank(gaps))) {
    const int gap = highest_rank(gaps);
    const Mask below = (Mask{1} << (4 * gap)) - 1, above = (Mask{1} << (4 * (kAce + 1))) - 1 - below - nibble(gap);
    for (int s = 0; s < seats; ++s) {
      Mask& hand = out.hands[static_cast<std::size_t>(s)];
      hand = (hand & ~above) | ((hand & above) >> 4);
    }
  }
  for (int s = 0; s < seats; ++s) {
    if (makes_a_chain(out.hands[static_cast<std::size_t>(s)], rules)) return ClosedRanks{};
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
