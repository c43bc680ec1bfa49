// Dominance among moves: which moves an exact search may leave untried, because another
// legal move is at least as good for the side that makes it.
//
// Call a rank of a hand free when the hand holds one or two cards of it and nothing
// else could use them: no joker (the rocket), and no chain the hand could still make
// through that rank. A free rank's cards serve only as solos, a pair, or kickers.
//
// Take two free ranks x < y with as many cards each, and two hands that are the same
// but for holding y's cards or x's. The y-hand is never worse for its side: relabel x
// as y in any line of play of the x-hand and it stays legal, the opponents can beat
// its plays no more often (a higher solo or pair), and the partners exactly as often
// as long as they hold no card ranked above x up to y. By induction over the rest of
// the hand, with best play, the y-hand wins whenever the x-hand does, and within as
// many plays.
//
// So of two moves that differ only in spending y's cards or x's, the one that spends x
// (and keeps y) is at least as good when the play itself is no easier for the others
// to answer:
//   - as kickers, always (a kicker does not count in comparisons): the kickers
//     multiply the moves of a trio, an airplane or a four-with-two;
//   - as a solo or a pair, when no other hand holds a card ranked above x up to y, so
//     that both are beaten by the same plays (and x still beats the move to beat): in
//     the solo fights of the end of a hand, cards with no other player's card between
//     them are one card to the search.
// When what is left holds no three of a rank (so it takes no kickers), x's cards can
// only ever be played as themselves, and the y-hand may hold more of y than the move
// spends: a solo split from a pair is skipped for a lower free solo as well.
#pragma once

#include <optional>

#include "rules/move.hpp"
#include "rules/rules.hpp"

namespace ddz {

// The other hands, as dominated() reads them.
struct OtherHands {
  Mask partners = 0;  // the cards of the mover's partners
  Mask all = 0;       // the cards of every other seat, partners included
};

// When `m`, played from `hand` (no wild cards) over `last` (nullptr: leading), spends
// one or two cards of a rank that a lower free rank of the hand could replace as
// above: the move that spends the lower rank instead, which is at least as good.
std::optional<Move> better_twin(const Move& m, Mask hand, const Move* last, const OtherHands& others, const Rules& rules);

}  // namespace ddz
