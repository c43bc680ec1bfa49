// Cards dealt at random: the cards of a mask in an order drawn uniformly (Fisher-Yates),
// handed out in turn. Worlds deal a seat's unknown cards with it (search/worlds.cpp), and
// the deals thrown in before the current one (Game::hide_from).
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "base/rng.hpp"
#include "rules/cards.hpp"

namespace ddz {

class ShuffledCards {
 public:
  ShuffledCards(Mask cards, Rng& rng) {
    for (int r = 0; r < kNumRanks; ++r) {
      for (int c = 0; c < count(cards, r); ++c) ranks_[static_cast<std::size_t>(size_++)] = static_cast<std::uint8_t>(r);
    }
    for (int i = size_ - 1; i > 0; --i) std::swap(ranks_[static_cast<std::size_t>(i)], ranks_[rng.below(static_cast<std::uint32_t>(i + 1))]);
  }

  // The next `n` cards (no more than are left).
  Mask deal(int n) {
    Mask m = 0;
    for (int c = 0; c < n; ++c) m += cards_of(ranks_[static_cast<std::size_t>(next_++)], 1);
    return m;
  }

 private:
  std::array<std::uint8_t, 256> ranks_{};  // 15 ranks of at most 15 cards
  int size_ = 0;
  int next_ = 0;
};

}  // namespace ddz
