#include "learn/move_table.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "base/rng.hpp"

namespace ddz {

MoveTable::MoveTable(std::vector<Move> moves) : moves_(std::move(moves)) {
  const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(2 * moves_.size(), 16));
  slots_.assign(capacity, 0);
  slot_mask_ = capacity - 1;
  for (std::size_t i = 0; i < moves_.size(); ++i) {
    std::size_t slot = slot_of(moves_[i]);
    while (slots_[slot] != 0) {
      if (moves_[static_cast<std::size_t>(slots_[slot] - 1)] == moves_[i]) {
        throw std::invalid_argument("MoveTable: a move is listed twice");
      }
      slot = (slot + 1) & slot_mask_;
    }
    slots_[slot] = static_cast<std::int32_t>(i + 1);
  }
}

std::size_t MoveTable::slot_of(const Move& m) const {
  // The cards use the low 60 bits; the reading's kind, key and length fold in above.
  const std::uint64_t reading = (std::uint64_t{static_cast<std::uint8_t>(m.kind)} << 16) |
                                (std::uint64_t{m.key} << 8) | m.length;
  return static_cast<std::size_t>(splitmix_finalize(m.cards ^ splitmix_finalize(reading)) & slot_mask_);
}

int MoveTable::find(const Move& m) const {
  if (slots_.empty()) return -1;
  for (std::size_t slot = slot_of(m);; slot = (slot + 1) & slot_mask_) {
    const std::int32_t entry = slots_[slot];
    if (entry == 0) return -1;
    if (moves_[static_cast<std::size_t>(entry - 1)] == m) return entry - 1;
  }
}

}  // namespace ddz
