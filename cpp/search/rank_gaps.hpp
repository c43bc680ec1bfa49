// Closing the gaps between ranks: one position for every position that plays alike.
//
// Once no hand can make a chain (a straight, a pair straight, an airplane), ranks count
// only in comparisons, and a rank that no hand holds any more compares no card with
// another. Two such positions whose hands become the same when the ranks 3..A nobody
// holds are taken out (the ranks above them moving down, 2 and the jokers staying where
// they are) are the same game: every play of one is the same play of the other, beating
// the same plays, for the rest of the hand (hands only lose cards, so no chain comes
// back). The move to beat moves down with them: its rank goes to just below the lowest
// held rank above it, which keeps which cards beat it.
//
// A search can key its table by the closed position, so that lines which spent
// different cards but left the same fight meet.
#pragma once

#include <array>

#include "game/game.hpp"

namespace ddz {

// The hands and the move to beat with the gaps closed, when no hand can make a chain
// once they are (and no wild card plays); `closed` says whether it applied.
struct ClosedRanks {
  std::array<Mask, kMaxSeats> hands{};
  int last_key = 0;  // twice the closed rank; odd: between two held ranks
  bool closed = false;
};
ClosedRanks close_rank_gaps(const std::array<Mask, kMaxSeats>& hands, int seats, const Move& last, const Rules& rules);

}  // namespace ddz
