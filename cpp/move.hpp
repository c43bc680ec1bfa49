// Moves: a set of cards read as one combination.
//
// Combinations (docs/rules.md): solo, pair, trio, trio+solo, trio+pair, straight (>= 5
// singles), pair straight (>= 3 pairs), airplane (>= 2 trios), airplane+solos,
// airplane+pairs, four+two solos, four+two pairs, bomb, rocket. Chains lie within 3..A.
// The same cards may read as several combinations (`333444555666` is a 4-airplane and,
// where kickers may repeat, a 3-airplane with solos keyed 3 or 4); a Move is one reading.
//
// Comparison: the same kind and length with a strictly higher key; a bomb beats any
// non-bomb and a bomb with more cards or, as many, a higher rank; the rocket beats all.
// With wild cards a soft bomb (one with wild cards standing in) beats any non-bomb and
// a lower soft bomb, and loses to every natural bomb.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cards.hpp"
#include "rng.hpp"
#include "rules.hpp"

namespace ddz {

enum class MoveKind : std::uint8_t {
  Solo,
  Pair,
  Trio,
  TrioSolo,
  TrioPair,
  Straight,
  PairStraight,
  Airplane,
  AirplaneSolos,
  AirplanePairs,
  FourTwoSolos,
  FourTwoPairs,
  Bomb,
  Rocket,
};
inline constexpr int kNumMoveKinds = 14;

// A value of 16 bytes. `key` is the lowest rank of the body (the trio of a trio+solo, the
// first rank of a chain, the quad of four+two); kickers never count. `length` is the
// number of chain units (singles, pairs or trios) of a chain, the number of cards of a
// bomb or rocket, and 1 otherwise.
//
// With wild cards (laizi, wild.hpp) `cards` is the combination as it stands, and the
// padding after `length` says which of its cards are wild cards standing in for another
// rank: `wild_rank` is the rank of the wild cards, and `stand_ins` lists the ranks they stand
// for, one per nibble from the low end, each as rank + 1, ascending (0 ends the list; one
// deck holds at most 4 wild cards). A natural move has stand_ins == 0 and wild_rank == 0,
// so it reads as before. The last two bytes are always zero, so that equal moves are equal
// byte for byte (NumPy rows, hashes, files).
struct Move {
  Mask cards = 0;
  MoveKind kind = MoveKind::Solo;
  std::uint8_t key = 0;
  std::uint8_t length = 0;
  std::uint8_t wild_rank = 0;
  std::uint16_t stand_ins = 0;
  std::uint16_t zero = 0;

  friend bool operator==(const Move&, const Move&) = default;
};
static_assert(sizeof(Move) == 16);

inline constexpr int kNoWild = -1;   // a wild rank argument: no rank is wild
inline constexpr int kMaxWilds = 4;  // cards of one rank in one deck

// Every field but the cards, packed into one word (kind, key, length, wild rank and
// stand-ins): with `cards`, the whole value of a move.
constexpr std::uint64_t fields_word(const Move& m) {
  return std::uint64_t{static_cast<std::uint8_t>(m.kind)} | std::uint64_t{m.key} << 8 | std::uint64_t{m.length} << 16 |
         std::uint64_t{m.wild_rank} << 24 | std::uint64_t{m.stand_ins} << 32;
}

// The one hash of a value given as its cards and the word of its other fields.
constexpr std::uint64_t hash_of(Mask cards, std::uint64_t fields) { return splitmix_finalize(cards ^ splitmix_finalize(fields + 1)); }

// The hash of a move, for hash tables, the game's hash and Python's __hash__.
constexpr std::uint64_t move_hash(const Move& m) { return hash_of(m.cards, fields_word(m)); }

// The stood-in ranks as a mask (a count per rank).
constexpr Mask stand_in_cards(const Move& m) {
  Mask out = 0;
  for (unsigned s = m.stand_ins; s & 0xF; s >>= 4) out += cards_of(static_cast<int>(s & 0xF) - 1, 1);
  return out;
}

// Number of wild cards standing in for other ranks.
constexpr int stand_in_count(const Move& m) { return total(stand_in_cards(m)); }

// The cards a move takes from the hand. Only for moves that passed `wilds_error` (or came
// from the generator): the subtraction assumes the stand-ins lie within `cards`.
constexpr Mask spent(const Move& m) {
  return m.stand_ins ? m.cards - stand_in_cards(m) + cards_of(m.wild_rank, stand_in_count(m)) : m.cards;
}

constexpr bool is_soft_bomb(const Move& m) { return m.kind == MoveKind::Bomb && m.stand_ins != 0; }

// How a kind is built: `unit` cards of each body rank (a chain of them when `chain`),
// and `kickers_per_unit` kickers of `kicker_size` cards (0: none, 1: solos, 2: pairs) for
// each body rank. Bombs and the rocket have their own rules (see reads_as).
struct KindShape {
  int unit;
  int kicker_size;
  int kickers_per_unit;
  bool chain;
};
constexpr KindShape kind_shape(MoveKind kind) {
  switch (kind) {
    case MoveKind::Solo: return {1, 0, 0, false};
    case MoveKind::Pair: return {2, 0, 0, false};
    case MoveKind::Trio: return {3, 0, 0, false};
    case MoveKind::TrioSolo: return {3, 1, 1, false};
    case MoveKind::TrioPair: return {3, 2, 1, false};
    case MoveKind::Straight: return {1, 0, 0, true};
    case MoveKind::PairStraight: return {2, 0, 0, true};
    case MoveKind::Airplane: return {3, 0, 0, true};
    case MoveKind::AirplaneSolos: return {3, 1, 1, true};
    case MoveKind::AirplanePairs: return {3, 2, 1, true};
    case MoveKind::FourTwoSolos: return {4, 1, 2, false};
    case MoveKind::FourTwoPairs: return {4, 2, 2, false};
    case MoveKind::Bomb: return {4, 0, 0, false};
    case MoveKind::Rocket: break;
  }
  return {0, 0, 0, false};
}

// Calls f.template operator()<K>() with K == kind, a compile-time constant there, so that
// code written once per kind compiles to a branch of its own; nothing for a kind past
// Rocket. (A switch: a fold over the kinds compiles to a chain of compares, slower.)
template <class F>
void visit_kind(MoveKind kind, F&& f) {
  using enum MoveKind;
  switch (kind) {
    case Solo: return f.template operator()<Solo>();
    case Pair: return f.template operator()<Pair>();
    case Trio: return f.template operator()<Trio>();
    case TrioSolo: return f.template operator()<TrioSolo>();
    case TrioPair: return f.template operator()<TrioPair>();
    case Straight: return f.template operator()<Straight>();
    case PairStraight: return f.template operator()<PairStraight>();
    case Airplane: return f.template operator()<Airplane>();
    case AirplaneSolos: return f.template operator()<AirplaneSolos>();
    case AirplanePairs: return f.template operator()<AirplanePairs>();
    case FourTwoSolos: return f.template operator()<FourTwoSolos>();
    case FourTwoPairs: return f.template operator()<FourTwoPairs>();
    case Bomb: return f.template operator()<Bomb>();
    case Rocket: return f.template operator()<Rocket>();
  }
}

// Chain lengths by unit size (1 singles, 2 pairs, 3 trios), docs/rules.md: straights 5-12,
// pair straights 3-10, airplanes (with or without kickers) 2-6 trios.
struct ChainLimits {
  int shortest;
  int longest;
};
constexpr ChainLimits chain_limits(int unit) {
  constexpr ChainLimits kLimits[] = {{5, 12}, {3, 10}, {2, 6}};
  return kLimits[unit - 1];
}

bool beats(const Move& a, const Move& b);

// Kicker rules (docs/rules.md rules 1-4), stated once for classification and generation:
// the most cards of each rank that the solo kickers of a `kind` move with body ranks
// `body` may hold, and the most pair kickers of each rank. Both jokers among the
// kickers is checked apart (`jokers_allowed`), as it couples two ranks.
Mask solo_kicker_caps(RankSet body, MoveKind kind, const Rules& rules);
Mask pair_kicker_caps(RankSet body, const Rules& rules);
bool jokers_allowed(Mask kickers, const Rules& rules);

// Whether `cards` read as `kind` with body key `key` and `length` is a combination under
// `rules`: the one definition of every combination, which classify and the move checks use.
bool reads_as(Mask cards, MoveKind kind, int key, int length, const Rules& rules);

// Every reading of `cards` under `rules`, in kind order, appended to `out` (none when
// the cards form no combination).
void classify(Mask cards, const Rules& rules, std::vector<Move>& out);
inline std::vector<Move> classify(Mask cards, const Rules& rules) {
  std::vector<Move> out;
  classify(cards, rules, out);
  return out;
}

// Whether `m` is a reading of its cards, with wild cards that fit it (wild.hpp) (checks
// moves handed in from outside).
bool is_valid_move(const Move& m, const Rules& rules);

// Why the wild-card fields of `m` do not fit its cards under `rules`, or empty when they
// do (always for a natural move). Checks the encoding (ascending ranks 3..2 below 4
// entries, none of the wild rank), that the stand-ins lie within the combination, that a
// deck holds the cards spent, and that four wild cards are no soft bomb.
std::string wilds_error(const Move& m, const Rules& rules);

}  // namespace ddz
