// Closing the gaps between ranks: one position for every position that plays alike.
//
// Ranks count in comparisons and, through chains, in which cards lie next to which in
// one hand. A rank 3..A that no hand holds any more compares no card with another, and
// when no hand holds cards on both sides of it, taking it out (the ranks above it moving
// down, 2 and the jokers staying where they are) puts no two cards of one hand next to
// each other that were not: every hand makes the same chains, and every play of the
// position is the same play of the closed one, beating the same plays, for the rest of
// the hand (hands only lose cards). The move to beat moves down with them: a rank in a
// run of gaps goes to the run's one place (its kept gap, or just below the held rank
// above it), which keeps which cards beat it.
//
// A search can key its table by the closed position, so that lines which spent
// different cards but left the same fight meet.
#pragma once

#include <array>

#include "game/game.hpp"

namespace ddz {

// The hands and the move to beat with every gap closed that can be (no wild cards).
struct ClosedRanks {
  std::array<Mask, kMaxSeats> hands{};
  int last_key = 0;  // twice the closed rank; odd: just below a held rank (-1: below all); 0 when leading
};
ClosedRanks close_rank_gaps(const std::array<Mask, kMaxSeats>& hands, int seats, const Move& last);

}  // namespace ddz
