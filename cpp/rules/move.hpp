// Moves: a set of cards read as one combination.
//
// Combinations (docs/rules.md): solo, pair, trio, trio+solo, trio+pair, straight (>= 5
// singles), pair straight (>= 3 pairs), airplane (>= 2 trios), airplane+solos,
// airplane+pairs, four+two solos, four+two pairs, bomb, rocket; under Run Fast's rules
// (rules.hpp) trio+two, airplane+twos and four+three, whose kickers are cards of any ranks,
// and the bomb of three aces. Chains lie within 3..A.
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

#include "base/rng.hpp"
#include "rules/cards.hpp"
#include "rules/rules.hpp"

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
  // Run Fast (rules.trio_takes_two, rules.four_with_three): after Rocket, so that the
  // older kinds keep their numbers in records and action ids.
  TrioTwo,       // a trio with two cards of any ranks
  AirplaneTwos,  // a chain of trios, each with two cards of any ranks
  FourThree,     // four of a rank with three cards of any ranks
};
inline constexpr int kNumMoveKinds = 17;

// A value of 16 bytes. `key` is the lowest rank of the body (the trio of a trio+solo, the
// first rank of a chain, the quad of four+two); kickers never count. `length` is the
// number of chain units (singles, pairs or trios) of a chain, the number of cards of a
// bomb or rocket, and 1 otherwise.
//
// With wild cards (laizi, wild.hpp) `cards` is the combination as it stands, and the last
// five bytes say which of its cards are wild cards standing in for another rank, in up to
// two groups, one for each wild rank whose cards stand in (read them only through the
// helpers below):
//   stand_ins  8 nibbles from the low end, each a stood-in rank + 1: the first group,
//              ascending, ended by a 0 nibble unless it has four entries; then the second
//              group, ascending; every nibble after it 0.
//   wild_rank  low nibble: the rank whose cards stand in for the first group; high nibble:
//              the rank of the second group + 1, or 0 when there is none.
// Canonical form (wild.hpp, `pay_with_wilds`), so that equal moves are equal byte for byte
// (NumPy rows, hashes, files): a natural move has stand_ins == 0 and wild_rank == 0, so it
// reads as under the standard rules; the first group is never empty in a move with
// stand-ins; with two groups the first is of the lower wild rank. A move of one wild rank's
// cards is the same value whichever other rank is wild, and byte for byte the move of the
// one-rank layout (a u16 of stand-ins and two zero bytes).
struct Move {
  Mask cards = 0;
  MoveKind kind = MoveKind::Solo;
  std::uint8_t key = 0;
  std::uint8_t length = 0;
  std::uint8_t wild_rank = 0;
  std::uint32_t stand_ins = 0;

  friend bool operator==(const Move&, const Move&) = default;
};
static_assert(sizeof(Move) == 16);

inline constexpr int kNoWild = -1;   // a wild rank argument: no rank is wild
inline constexpr int kMaxWilds = 4;  // cards of one rank in one deck
inline constexpr int kMaxWildRanks = 2;

// The wild ranks of a hand: none, one (laizi) or two distinct ranks 3..2 (laizi2), lowest
// first, kNoWild where there is none. An int converts to one rank (kNoWild: none), so that
// the callers of the one-rank rules read as before; whether the ranks fit the rules is
// `wild_ranks_error`'s to say (game.hpp).
struct WildRanks {
  std::int8_t low = kNoWild;
  std::int8_t high = kNoWild;

  constexpr WildRanks() = default;
  constexpr WildRanks(int one) : low(static_cast<std::int8_t>(one)) {}  // NOLINT(google-explicit-constructor)
  // Two ranks in either order, either of them possibly kNoWild.
  constexpr WildRanks(int a, int b)
      : low(static_cast<std::int8_t>(b == kNoWild || (a != kNoWild && a < b) ? a : b)),
        high(static_cast<std::int8_t>(a == kNoWild || b == kNoWild ? kNoWild : (a < b ? b : a))) {}

  constexpr bool none() const { return low == kNoWild; }
  constexpr int size() const { return (low != kNoWild) + (high != kNoWild); }
  constexpr bool has(int rank) const { return rank != kNoWild && (rank == low || rank == high); }
  // Both ranks' nibbles: what of a hand is wild.
  constexpr Mask nibbles() const { return (low >= 0 ? nibble(low) : 0) | (high >= 0 ? nibble(high) : 0); }
  // One number for hashes: (low + 1) | (high + 1) << 4, so one rank hashes as before.
  constexpr std::uint64_t code() const { return static_cast<std::uint64_t>((low + 1) | (high + 1) << 4); }

  friend bool operator==(const WildRanks&, const WildRanks&) = default;
};

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

// One group of stand-ins: the wild rank whose cards stand in (kNoWild: an empty group) and
// the ranks they stand for (a count per rank).
struct StandInGroup {
  int wild = kNoWild;
  Mask ranks = 0;
};
struct StandInGroups {
  StandInGroup first, second;
};

// The groups of a move's stand-ins, read from the layout above. Nibbles past the second
// group's end are not read (wilds_error refuses a move that has any).
constexpr StandInGroups stand_in_groups(const Move& m) {
  StandInGroups g;
  if (m.stand_ins == 0) return g;
  unsigned s = m.stand_ins;
  int n = 0;
  for (; n < kMaxWilds && (s & 0xF); ++n, s >>= 4) g.first.ranks += cards_of(static_cast<int>(s & 0xF) - 1, 1);
  if (n < kMaxWilds) s >>= 4;  // the terminator
  for (; s & 0xF; s >>= 4) g.second.ranks += cards_of(static_cast<int>(s & 0xF) - 1, 1);
  g.first.wild = m.wild_rank & 0xF;
  if (m.wild_rank >> 4) g.second.wild = (m.wild_rank >> 4) - 1;
  return g;
}

// The stood-in ranks as a mask (a count per rank), both groups together.
constexpr Mask stand_in_cards(const Move& m) {
  const StandInGroups g = stand_in_groups(m);
  return g.first.ranks + g.second.ranks;
}

// Number of wild cards standing in for other ranks.
constexpr int stand_in_count(const Move& m) { return total(stand_in_cards(m)); }

// The cards a move takes from the hand. Only for moves that passed `wilds_error` (or came
// from the generator): the subtraction assumes the stand-ins lie within `cards`.
constexpr Mask spent(const Move& m) {
  if (!m.stand_ins) return m.cards;
  const StandInGroups g = stand_in_groups(m);
  Mask out = m.cards - g.first.ranks - g.second.ranks + cards_of(g.first.wild, total(g.first.ranks));
  if (g.second.wild != kNoWild) out += cards_of(g.second.wild, total(g.second.ranks));
  return out;
}

constexpr bool is_soft_bomb(const Move& m) { return m.kind == MoveKind::Bomb && m.stand_ins != 0; }

// The bomb of three aces (rules.ace_trio_bomb): the only bomb of three cards, the highest.
constexpr bool is_ace_trio_bomb(const Move& m) { return m.kind == MoveKind::Bomb && m.length == 3; }

// Whether a kind's kickers are cards of any ranks (Run Fast's kinds).
constexpr bool has_free_kickers(MoveKind kind) { return kind >= MoveKind::TrioTwo; }

// Whether `cards` alone are a bomb under `rules`: four or more cards of one rank 3..2, or
// the three aces (ace_trio_bomb). Such cards read only as the bomb, never as a trio whose
// kickers are of its own rank (Run Fast's kinds): the bomb beats whatever that trio
// would, and pays as a bomb, so the second reading would only list one play twice.
constexpr bool is_bomb_cards(Mask cards, const Rules& rules) {
  const RankSet ranks = ranks_with_at_least(cards, 1);
  if (ranks == 0 || (ranks & (ranks - 1)) != 0 || (ranks & kJokers) != 0) return false;
  const int n = total(cards);
  return n >= 4 || (rules.ace_trio_bomb && ranks == (RankSet{1} << kAce) && n == 3);
}

// A trio or airplane of trio_takes_two with fewer kickers than two a trio: legal only as
// the player's last cards (the generator lists it only when it empties the hand).
constexpr bool is_short(const Move& m) {
  return (m.kind == MoveKind::TrioTwo || m.kind == MoveKind::AirplaneTwos) && total(m.cards) < 5 * m.length;
}

// Whether all four cards of bomb `m` are wild cards of one rank standing in for another:
// never a move (docs/rules.md: four cards of one wild rank are that rank's natural bomb).
constexpr bool is_four_wilds_as_other_bomb(const Move& m) {
  if (m.kind != MoveKind::Bomb || !m.stand_ins) return false;
  const StandInGroups g = stand_in_groups(m);
  return count(g.first.ranks, m.key) == kMaxWilds || count(g.second.ranks, m.key) == kMaxWilds;
}

// Whether every wild rank whose cards stand in for `m` is one of `wilds`.
constexpr bool uses_only(const Move& m, WildRanks wilds) {
  if (!m.stand_ins) return true;
  const StandInGroups g = stand_in_groups(m);
  return wilds.has(g.first.wild) && (g.second.wild == kNoWild || wilds.has(g.second.wild));
}

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
    case MoveKind::TrioTwo: return {3, 1, 2, false};
    case MoveKind::AirplaneTwos: return {3, 1, 2, true};
    case MoveKind::FourThree: return {4, 1, 3, false};
    case MoveKind::Rocket: break;
  }
  return {0, 0, 0, false};
}

// The kickers of `m`: its cards past the body of `unit` cards a rank from `key` (none for
// a kind without kickers, a bomb or the rocket).
constexpr Mask kickers_of(const Move& m) {
  const KindShape s = kind_shape(m.kind);
  return s.kicker_size == 0 ? 0 : m.cards - run_of(m.key, m.length, s.unit);
}

// Calls f.template operator()<K>() with K == kind, a compile-time constant there, so that
// code written once per kind compiles to a branch of its own; nothing for a kind past
// FourThree. (A switch: a fold over the kinds compiles to a chain of compares, slower.)
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
    case TrioTwo: return f.template operator()<TrioTwo>();
    case AirplaneTwos: return f.template operator()<AirplaneTwos>();
    case FourThree: return f.template operator()<FourThree>();
  }
}

// Chain lengths by unit size (1 singles, 2 pairs, 3 trios), docs/rules.md: straights 5-12,
// pair straights 3-10 (rules.shortest_pair_chain: from 2 under Run Fast), airplanes (with
// or without kickers) 2-6 trios.
struct ChainLimits {
  int shortest;
  int longest;
};
constexpr ChainLimits chain_limits(int unit) {
  constexpr ChainLimits kLimits[] = {{5, 12}, {3, 10}, {2, 6}};
  return kLimits[unit - 1];
}
inline ChainLimits chain_limits(int unit, const Rules& rules) {
  ChainLimits limits = chain_limits(unit);
  if (unit == 2) limits.shortest = rules.shortest_pair_chain;
  return limits;
}

// Whether `kind` is a combination under `rules` at all: the kicker rules' switches
// (four_with_two, trio_takes_two, four_with_three) turn whole kinds on or off.
constexpr bool kind_allowed(MoveKind kind, const Rules& rules) {
  using enum MoveKind;
  switch (kind) {
    case FourTwoSolos:
    case FourTwoPairs: return rules.four_with_two;
    case Trio:
    case TrioSolo:
    case TrioPair:
    case Airplane:
    case AirplaneSolos:
    case AirplanePairs: return !rules.trio_takes_two;
    case TrioTwo:
    case AirplaneTwos: return rules.trio_takes_two;
    case FourThree: return rules.four_with_three;
    default: return true;
  }
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

// `stand_ins` for a first group of stood-in ranks and a second (at most 4 cards each,
// ranks 3..2), in the layout of Move above.
std::uint32_t encode_stand_ins(Mask first, Mask second = 0);

// Whether `m` is a reading of its cards, with wild cards that fit it (wild.hpp) (checks
// moves handed in from outside).
bool is_valid_move(const Move& m, const Rules& rules);

// Why the wild-card fields of `m` do not fit its cards under `rules`, or empty when they
// do (always for a natural move). Checks the encoding (the layout above in canonical form:
// each group ascending ranks 3..2, none its own wild rank; no more groups than the rules'
// wild ranks), that the stand-ins lie within the combination, that a deck holds the cards
// spent, and that four wild cards of one rank are no soft bomb.
std::string wilds_error(const Move& m, const Rules& rules);

}  // namespace ddz
