// Wild cards (laizi; docs/rules.md, "Variants").
//
// After the deal one rank 3..2 is drawn as wild (`draw_wild`). Its cards may stand for any
// rank 3..2, never a joker, in any combination; a wild card may also stand for itself, and
// is then simply a natural card of the wild rank. A move is the pair (cards spent,
// combination): the Move holds the combination as it stands (`cards`, kind, key, length)
// and the ranks its wild cards stand in for (`stand_ins`, `wild_rank`; move.hpp), so
//     spent = cards - (one card of each stood-in rank) + (as many cards of the wild rank).
// A natural move has no stand-ins and is byte for byte the move of the standard rules.
//
// Bombs: four cards of a rank with 1..3 wild cards standing in make a soft bomb. A soft
// bomb beats every non-bomb and a soft bomb of a lower rank, and loses to every natural
// bomb and the rocket. Four wild cards together are the natural bomb of the wild rank,
// never a soft bomb of another rank (which would only be weaker). Every bomb, soft or
// natural, doubles the stake, as any bomb does.
#pragma once

#include <string>
#include <vector>

#include "move.hpp"
#include "rng.hpp"
#include "rules.hpp"

namespace ddz {

// The wild rank drawn after a deal: uniform over 3..2 (one draw of `rng.below(13)`).
inline int draw_wild(Rng& rng) { return static_cast<int>(rng.below(kTwo + 1)); }

// `stand_ins` for a mask of stood-in ranks (at most 4 cards, ranks 3..2).
std::uint16_t encode_stand_ins(Mask stand_ins);

// The move of `combination` (a natural reading of its cards) played with the cards
// `spent_cards` when `wild` is the wild rank; false when those cards cannot form it.
bool played_with(const Move& combination, Mask spent_cards, int wild, Move& out);

}  // namespace ddz
