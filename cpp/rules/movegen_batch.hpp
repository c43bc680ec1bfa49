// Legal moves of many positions in one call, each position checked first: the batch
// entry for callers outside the engine (Python's legal_moves_batch), whose hands and
// moves to beat arrive unchecked.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rules/move.hpp"
#include "rules/rules.hpp"

namespace ddz {

// Why a batch is refused: the first invalid position's hand or move to beat, or nothing.
struct BatchError {
  enum class Part : std::uint8_t { None, Hand, Last };
  Part part = Part::None;
  std::string why;  // "hands[i]: ..." or "lasts[i]: ..."
  explicit operator bool() const { return part != Part::None; }
};

// Appends each position's legal moves to `out` (position i: hands[i] against lasts[i], a
// move with no cards leading; `wild` the wild ranks of all) and sets offsets[i + 1] to
// out.size() after it (offsets[0] = 0; hands.size() + 1 entries). Each hand must be one a
// seat can hold (holds_hand). Returns why the first invalid position is invalid, if one is.
// Throws std::bad_alloc once `out` holds more than `most_moves` before a position (a bound
// under the machine's memory: past it the kernel would end the process rather than
// refuse), and StopRequested when asked to stop (Ctrl-C), every kPositionsBetweenStops
// positions.
inline constexpr std::size_t kPositionsBetweenStops = 64;
BatchError append_batch_moves(std::span<const Mask> hands, std::span<const Move> lasts, const Rules& rules, WildRanks wild,
                              std::vector<Move>& out, std::int64_t* offsets, std::size_t most_moves);

}  // namespace ddz
