// Legal moves of many positions in one call, each position checked first: the batch
// entry for callers outside the engine (Python's legal_moves_batch), whose hands and
// moves to beat arrive unchecked.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "move.hpp"
#include "rules.hpp"

namespace ddz {

// Appends each position's legal moves to `out` (position i: hands[i] against lasts[i], a
// move with no cards leading; `wild` the wild ranks of all) and sets offsets[i + 1] to
// out.size() after it (offsets[0] = 0; hands.size() + 1 entries). Returns why the first
// invalid position is invalid ("hands[i]: ..." or "lasts[i]: ..."), or empty.
std::string append_batch_moves(std::span<const Mask> hands, std::span<const Move> lasts, const Rules& rules, WildRanks wild,
                               std::vector<Move>& out, std::int64_t* offsets);

}  // namespace ddz
