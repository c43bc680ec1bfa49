// Wild cards (laizi and laizi2; docs/rules.md, "Variants").
//
// After the deal one rank 3..2 is drawn as wild (`draw_wild`), or two (`draw_wilds`). Their cards may stand for any
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
//
// Two wild ranks: a wild card of either may stand for any rank 3..2, the other wild rank's
// included. The same pair (cards spent, combination) can often be made by several
// assignments of wild cards to stand-ins (with 5s and 9s wild, 35579=34567: the second
// five for the 4 and the nine for the 6, or the reverse); the move is the pair, so one assignment is
// the canonical one (`pay_with_wilds`). Four wild cards of one rank are never a soft bomb;
// four of both ranks together are a soft bomb of any rank (5599=TTTT, 5599=5555).
#pragma once

#include <string>
#include <vector>

#include "base/rng.hpp"
#include "rules/move.hpp"
#include "rules/rules.hpp"

namespace ddz {

// The wild rank drawn after a deal: uniform over 3..2 (one draw of `rng.below(13)`).
inline int draw_wild(Rng& rng) { return static_cast<int>(rng.below(kTwo + 1)); }

// The `count` (0..2) wild ranks drawn after a deal: the first as `draw_wild` (so one rank
// is drawn exactly as laizi draws it), the second uniform over the 12 others.
WildRanks draw_wilds(Rng& rng, int count);

// Combination `c` (a natural reading of its cards) with `by_low` and `by_high` ranks
// stood in for by the cards of wild ranks `low` < `high`: the move's wild fields set in
// canonical form (move.hpp), either group possibly empty. Inline: the generator's hot path
// with one wild rank's cards (by_high 0) folds to a few stores.
inline Move with_stand_in_groups(const Move& c, int low, Mask by_low, int high, Mask by_high) {
  Move m = c;
  m.stand_ins = 0;
  m.wild_rank = 0;
  if (!by_low) {  // one group, of the higher rank
    by_low = by_high;
    low = high;
    by_high = 0;
  }
  if (!by_low) return m;
  m.stand_ins = encode_stand_ins(by_low, by_high);
  m.wild_rank = static_cast<std::uint8_t>(low | (by_high ? (high + 1) << 4 : 0));
  return m;
}

// The canonical move of combination `c` whose cards `filled` (a multiset within its ranks
// 3..2, the wild ranks' own cards among them) are made of wild cards: `by_low` of the lower
// wild rank of `wild` and the rest of the higher. Each wild card plays as its own rank
// where the combination has a place for it, a wild rank's cards then fill what is left of
// the other's places, and of the rest the lower wild rank stands in for the lowest ranks.
// False when those cards cannot pay for `filled`.
bool pay_with_wilds(const Move& c, Mask filled, WildRanks wild, int by_low, Move& out);

// The move of `combination` (a natural reading of its cards) played with the cards
// `spent_cards` when `wild` are the wild ranks; false when those cards cannot form it.
bool played_with(const Move& combination, Mask spent_cards, WildRanks wild, Move& out);

}  // namespace ddz
