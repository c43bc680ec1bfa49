// Cards as rank-count masks.
//
// A multiset of cards is a `Mask`: 15 counts packed 4 bits per rank, rank r at bits
// 4r..4r+3, ranks ordered low to high `3 4 5 6 7 8 9 T J Q K A 2 B R` (index 0..14;
// B = black joker, R = red joker). Suits never matter, so they are not stored. A nibble
// holds up to 15, enough for two decks (8 of a rank) and any arbitrary input the
// functions below are asked about: every helper here is defined for all 64-bit values.
// Their text is notation.hpp's.
//
// A `RankSet` is a 15-bit set of ranks (bit r = rank r); most move generation is bit
// logic on the sets "ranks holding at least k cards" derived once from a mask.
#pragma once

#include <array>
#include <bit>
#include <initializer_list>
#include <cstdint>

namespace ddz {

using Mask = std::uint64_t;
using RankSet = std::uint32_t;

inline constexpr int kNumRanks = 15;
inline constexpr int kBlackJoker = 13;
inline constexpr int kRedJoker = 14;
inline constexpr int kTwo = 12;
inline constexpr int kAce = 11;
inline constexpr RankSet kAllRanks = 0x7FFF;
inline constexpr RankSet kChainRanks = 0x0FFF;  // 3..A: chains never hold 2 or jokers
inline constexpr RankSet kJokers = (1u << kBlackJoker) | (1u << kRedJoker);
inline constexpr Mask kRankBits = 0x0FFF'FFFF'FFFF'FFFF;  // the 15 nibbles in use
inline constexpr Mask kOnePerRank = 0x0111'1111'1111'1111;

constexpr Mask nibble(int rank) { return Mask{0xF} << (4 * rank); }
inline constexpr Mask kJokerNibbles = nibble(kBlackJoker) | nibble(kRedJoker);
constexpr int count(Mask m, int rank) { return static_cast<int>((m >> (4 * rank)) & 0xF); }
constexpr Mask cards_of(int rank, int n) { return Mask(n) << (4 * rank); }

// Total number of cards (sum of the 16 nibbles).
constexpr int total(Mask m) {
  const Mask bytes = (m & 0x0F0F'0F0F'0F0F'0F0F) + ((m >> 4) & 0x0F0F'0F0F'0F0F'0F0F);
  return static_cast<int>((bytes * 0x0101'0101'0101'0101) >> 56);
}

// Per-rank a <= b (a is a sub-multiset of b), for any nibble values.
constexpr bool contains(Mask b, Mask a) {
  constexpr Mask lanes = 0x0F0F'0F0F'0F0F'0F0F, guard = 0x1010'1010'1010'1010;
  const Mask even = ((b & lanes) | guard) - (a & lanes);
  const Mask odd = (((b >> 4) & lanes) | guard) - ((a >> 4) & lanes);
  return ((even & odd & guard) == guard);
}

// Gathers bit 0 of byte lanes and bit 1 of byte lanes (two ranks per byte) into a RankSet.
constexpr RankSet gather_pairs(Mask x) {
  x = (x | (x >> 6)) & 0x000F'000F'000F'000F;
  x = (x | (x >> 12)) & 0x0000'00FF'0000'00FF;
  x = (x | (x >> 24)) & 0xFFFF;
  return static_cast<RankSet>(x) & kAllRanks;
}

// The ranks holding at least k cards (1 <= k <= 15).
constexpr RankSet ranks_with_at_least(Mask m, int k) {
  constexpr Mask lanes = 0x0F0F'0F0F'0F0F'0F0F, ones = 0x0101'0101'0101'0101;
  const Mask add = ones * static_cast<Mask>(16 - k);  // lane value v >= k sets bit 4
  const Mask even = (((m & lanes) + add) >> 4) & ones;
  const Mask odd = ((((m >> 4) & lanes) + add) >> 4) & ones;
  return gather_pairs(even | (odd << 1));
}

// The ranks holding at least 1, 2, 3 and 4 cards (at_least[k - 1]), for any nibble
// values: one pass over the count bits where ranks_with_at_least would take four.
struct RankCounts {
  std::array<RankSet, 4> at_least{};
};
constexpr RankCounts rank_counts(Mask m) {
  constexpr Mask lows = 0x1111'1111'1111'1111;
  const Mask b0 = m & lows, b1 = (m >> 1) & lows, b2 = (m >> 2) & lows, b3 = (m >> 3) & lows;
  // A nibble's low bit per rank, as gather_pairs reads them (two ranks a byte).
  const auto gather = [](Mask x) { return gather_pairs((x | (x >> 3)) & 0x0303'0303'0303'0303); };
  return {{gather(b0 | b1 | b2 | b3), gather(b1 | b2 | b3), gather(b2 | b3 | (b1 & b0)), gather(b2 | b3)}};
}

// Per-rank minimum of two masks, for any nibble values.
constexpr Mask per_rank_min(Mask a, Mask b) {
  constexpr Mask lanes = 0x0F0F'0F0F'0F0F'0F0F, guard = 0x1010'1010'1010'1010;
  Mask out = 0;
  for (int shift : {0, 4}) {
    const Mask x = (a >> shift) & lanes, y = (b >> shift) & lanes;
    const Mask x_ge_y = ((((x | guard) - y) & guard) >> 4) * 0xF;
    out |= ((y & x_ge_y) | (x & ~x_ge_y)) << shift;
  }
  return out;
}

// Each count halved, rounded down: how many pairs each rank can give.
constexpr Mask pairs_in(Mask m) { return (m >> 1) & 0x7777'7777'7777'7777; }

// One card of each rank in the set.
constexpr Mask one_of_each(RankSet s) {
  Mask x = s & kAllRanks;
  x = (x | (x << 24)) & 0x0000'00FF'0000'00FF;
  x = (x | (x << 12)) & 0x000F'000F'000F'000F;
  x = (x | (x << 6)) & 0x0303'0303'0303'0303;
  x = (x | (x << 3)) & 0x1111'1111'1111'1111;
  return x;
}

// n cards of each rank in the consecutive run [low, low + length), within the 15 ranks.
constexpr Mask run_of(int low, int length, int n) {
  return ((kOnePerRank & ((Mask{1} << (4 * length)) - 1)) << (4 * low)) * static_cast<Mask>(n);
}

// Number of ranks in a set. (std::popcount without -mpopcnt is a library call.)
constexpr int rank_count(RankSet s) {
  s = s - ((s >> 1) & 0x5555);
  s = (s & 0x3333) + ((s >> 2) & 0x3333);
  s = (s + (s >> 4)) & 0x0F0F;
  return static_cast<int>((s + (s >> 8)) & 0x1F);
}

constexpr int lowest_rank(RankSet s) { return std::countr_zero(s); }
constexpr int highest_rank(RankSet s) { return 31 - std::countl_zero(s); }

}  // namespace ddz
