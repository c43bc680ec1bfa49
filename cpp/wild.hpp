// Wild cards (laizi; RULES.md, "Variants").
//
// After the deal one rank 3..2 is drawn as wild (`draw_wild`). Its cards may stand for any
// rank 3..2, never a joker, in any combination; a wild card may also stand for itself, and
// is then simply a natural card of the wild rank. A move is the pair (cards spent,
// combination): the Move holds the combination as it stands (`cards`, kind, key, length)
// and the ranks its wild cards stand in for (`subs`, `wild_rank`; move.hpp), so
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

inline constexpr int kNoWild = -1;
inline constexpr int kMaxWilds = 4;  // cards of one rank in one deck

// The wild rank drawn after a deal: uniform over 3..2 (one draw of `rng.below(13)`).
inline int draw_wild(Rng& rng) { return static_cast<int>(rng.below(kTwo + 1)); }

// Number of wild cards standing in for other ranks.
constexpr int stand_in_count(const Move& m) {
  int n = 0;
  for (unsigned s = m.subs; s & 0xF; s >>= 4) ++n;
  return n;
}

// The stood-in ranks as a mask (a count per rank).
constexpr Mask stood_in(const Move& m) {
  Mask out = 0;
  for (unsigned s = m.subs; s & 0xF; s >>= 4) out += cards_of(static_cast<int>(s & 0xF) - 1, 1);
  return out;
}

// The cards a move takes from the hand. Only for moves that passed `wilds_error` (or came
// from the generator): the subtraction assumes the stand-ins lie within `cards`.
constexpr Mask spent(const Move& m) {
  return m.subs ? m.cards - stood_in(m) + cards_of(m.wild_rank, stand_in_count(m)) : m.cards;
}

constexpr bool is_soft_bomb(const Move& m) { return m.kind == MoveKind::Bomb && m.subs != 0; }

// `subs` for a mask of stood-in ranks (at most 4 cards, ranks 3..2).
std::uint16_t encode_subs(Mask stand_ins);

// Why the wild-card fields of `m` do not fit its cards under `rules`, or empty when they
// do (always for a natural move). Checks the encoding (ascending ranks 3..2 below 4
// entries, none of the wild rank), that the stand-ins lie within the combination, that a
// deck holds the cards spent, and that four wild cards are no soft bomb.
std::string wilds_error(const Move& m, const Rules& rules);

// The move of `combination` (a natural reading of its cards) played with the cards
// `spent_cards` when `wild` is the wild rank; false when those cards cannot form it.
bool with_spent(const Move& combination, Mask spent_cards, int wild, Move& out);

// Legal moves with `wild` the wild rank (kNoWild: none): every distinct (cards spent,
// combination) the hand holds, each once, that may be played over `last` (nullptr:
// leading). With no wild card in the hand these are the natural moves, except that every
// natural bomb also beats a soft `last`. Like the natural generator it never fails: a
// hand or a `last` outside the rules gives fewer moves.
void append_legal_moves(Mask hand, const Move* last, const Rules& rules, int wild, std::vector<Move>& out);

inline std::vector<Move> legal_moves(Mask hand, const Move* last, const Rules& rules, int wild) {
  std::vector<Move> out;
  append_legal_moves(hand, last, rules, wild, out);
  return out;
}

}  // namespace ddz
