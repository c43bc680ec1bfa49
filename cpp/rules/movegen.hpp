// Legal move generation.
//
// Leading lists every (cards, combination) a hand holds, each exactly once; following
// lists only the moves of the led kind and length with a higher key, then the bombs
// that beat it, then the rocket. Pass is not a move: the caller adds it when following.
//
// The generator appends into a caller-owned vector (reused between calls, so the hot
// path does not allocate once it has grown) and never fails: for a hand or a `last`
// outside the rules it returns fewer moves but stays within bounds. Validate external
// input first with `validate_cards` and `is_valid_move` (the Python boundary does).
#pragma once

#include <vector>

#include "rules/move.hpp"
#include "rules/rules.hpp"

namespace ddz {

// The one entry: the moves of `hand` that may be played when `last` is the move to beat
// (nullptr: leading), with `wild` the wild ranks (none: no rank is wild). With wild
// cards (wild.hpp) they are every distinct (cards spent, combination) the hand holds; with
// no wild card in the hand, the natural moves, except that every natural bomb also beats
// a soft `last`. It dispatches once, inline, to the natural generator (movegen.cpp) or the
// wild-card one (wild.cpp), so that the hot path pays no call more.
void append_natural_moves(Mask hand, const Move* last, const Rules& rules, std::vector<Move>& out);
void append_wild_moves(Mask hand, const Move* last, const Rules& rules, WildRanks wild, std::vector<Move>& out);
inline void append_legal_moves(Mask hand, const Move* last, const Rules& rules, WildRanks wild, std::vector<Move>& out) {
  if (wild.none()) return append_natural_moves(hand, last, rules, out);
  append_wild_moves(hand, last, rules, wild, out);
}

inline std::vector<Move> legal_moves(Mask hand, const Move* last, const Rules& rules, WildRanks wild = {}) {
  std::vector<Move> out;
  append_legal_moves(hand, last, rules, wild, out);
  return out;
}

// Whether `hand` can beat `last`: whether append_legal_moves would list a move, found
// without listing them where a higher solo, pair or trio of the hand settles it (most
// follows in a search); `scratch` holds the listing otherwise.
bool can_beat(Mask hand, const Move& last, const Rules& rules, WildRanks wild, std::vector<Move>& scratch);

// The leads of one kind only: the wild-card generator (wild.cpp) builds on them.
void append_kind_moves(Mask hand, MoveKind kind, const Rules& rules, std::vector<Move>& out);

}  // namespace ddz
