#include "search/rank_gaps.hpp"

namespace ddz {

namespace {

// The cards of ranks `low`..A.
constexpr Mask chain_cards_from(int low) { return ((Mask{1} << (4 * (kAce + 1))) - 1) & ~((Mask{1} << (4 * low)) - 1); }

}  // namespace

// A run of gaps between held ranks a and b closes whole when no hand holds both a and
// b; else all but its lowest gap close (closing the others joins nothing: each has a
// gap below it). Runs are closed from the highest down, so the ranks below a run keep
// their places.
ClosedRanks close_rank_gaps(const std::array<Mask, kMaxSeats>& hands, int seats, const Move& last) {
  ClosedRanks out;
  out.hands = hands;
  std::array<RankSet, kMaxSeats> held_by{};
  RankSet held = 0;
  for (int s = 0; s < seats; ++s) {
    held_by[static_cast<std::size_t>(s)] = ranks_with_at_least(hands[static_cast<std::size_t>(s)], 1) & kChainRanks;
    held |= held_by[static_cast<std::size_t>(s)];
  }
  int key = last.cards ? 2 * last.key : 0;
  for (RankSet gaps = ~held & kChainRanks; gaps;) {
    const int top = highest_rank(gaps);
    int low = top;
    while (low > 0 && (gaps >> (low - 1) & 1u)) --low;
    gaps &= (RankSet{1} << low) - 1;
    const RankSet sides = low > 0 && top < kAce ? (RankSet{1} << (low - 1)) | (RankSet{1} << (top + 1)) : 0;
    bool keeps_one = false;
    for (int s = 0; s < seats && sides && !keeps_one; ++s) keeps_one = (held_by[static_cast<std::size_t>(s)] & sides) == sides;
    const int from = low + (keeps_one ? 1 : 0), closed = top + 1 - from;
    if (closed > 0) {
      const Mask above = chain_cards_from(top + 1);
      for (int s = 0; s < seats; ++s) {
        Mask& hand = out.hands[static_cast<std::size_t>(s)];
        hand = (hand & ~above) | ((hand & above) >> (4 * closed));
      }
    }
    // The move to beat: above the run it moves down; within it, to the run's one place.
    if (last.cards && key < 2 * kTwo) {
      if (key > 2 * top) {
        key -= 2 * closed;
      } else if (key >= 2 * low) {
        key = keeps_one ? 2 * low : 2 * low - 1;
      }
    }
  }
  out.last_key = key;
  return out;
}

}  // namespace ddz
