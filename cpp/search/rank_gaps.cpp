#include "search/rank_gaps.hpp"

namespace ddz {

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
  // From the highest gap down, so that the ranks below a gap keep their places.
  for (RankSet gaps = ~held & kChainRanks; gaps; gaps &= ~(RankSet{1} << highest_rank(gaps))) {
    const int gap = highest_rank(gaps);
    const RankSet neighbours = (gap > 0 ? RankSet{1} << (gap - 1) : 0) | (RankSet{1} << (gap + 1));
    bool closes = true;  // the lowest rank has one neighbour: closing it joins nothing
    for (int s = 0; s < seats && closes && gap > 0; ++s) closes = (held_by[static_cast<std::size_t>(s)] & neighbours) != neighbours;
    if (!closes) continue;
    const RankSet below = (RankSet{1} << gap) - 1;
    const Mask below_cards = (Mask{1} << (4 * gap)) - 1;
    const Mask above_cards = (Mask{1} << (4 * (kAce + 1))) - 1 - below_cards - nibble(gap);
    for (int s = 0; s < seats; ++s) {
      Mask& hand = out.hands[static_cast<std::size_t>(s)];
      hand = (hand & ~above_cards) | ((hand & above_cards) >> 4);
      RankSet& ranks = held_by[static_cast<std::size_t>(s)];
      ranks = (ranks & below) | ((ranks >> 1) & ~below & kChainRanks);
    }
    if (last.cards && key >= 2 * gap && key < 2 * kTwo) key -= key == 2 * gap ? 1 : 2;
  }
  out.last_key = key;
  return out;
}

}  // namespace ddz
