// A fixed list of distinct moves and the index of each: position -> Move by array
// access, Move -> position by an open-addressing hash table (linear probing, at most
// half full). Built once, then read-only, so threads may share it.
#pragma once

#include <cstdint>
#include <vector>

#include "rules/move.hpp"

namespace ddz {

class MoveTable {
 public:
  MoveTable() = default;
  // `moves` must be distinct (std::invalid_argument otherwise).
  explicit MoveTable(std::vector<Move> moves);

  int size() const { return static_cast<int>(moves_.size()); }
  const Move& operator[](int index) const { return moves_[static_cast<std::size_t>(index)]; }
  const std::vector<Move>& moves() const { return moves_; }
  // The position of `m`, or -1 when it is not in the table.
  int find(const Move& m) const;

 private:
  std::size_t slot_of(const Move& m) const;

  std::vector<Move> moves_;
  std::vector<std::int32_t> slots_;  // position + 1; 0 marks an empty slot
  std::uint64_t slot_mask_ = 0;
};

}  // namespace ddz
