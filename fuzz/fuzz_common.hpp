// Shared pieces of the fuzz targets: reading the fuzzer's bytes, rules from bytes, an
// independent shape oracle for moves (docs/rules.md's table restated), and failure reports.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "rules/move.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/rules.hpp"
#include "rules/wild.hpp"

namespace ddz::fuzz {

// Aborts (a crash for libFuzzer, which saves the input) with a message.
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "\nFUZZ INVARIANT VIOLATED: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

#define FUZZ_CHECK(cond, what)                                                      \
  do {                                                                              \
    if (!(cond)) ::ddz::fuzz::fail(std::string(#cond) + " -- " + std::string(what)); \
  } while (0)

// The fuzzer's bytes, consumed front to back; past the end every read is zero.
class Input {
 public:
  Input(const std::uint8_t* data, std::size_t size) : p_(data), n_(size) {}
  bool empty() const { return i_ >= n_; }
  std::size_t left() const { return empty() ? 0 : n_ - i_; }
  std::uint8_t byte() { return i_ < n_ ? p_[i_++] : 0; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(byte() | (byte() << 8)); }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int k = 0; k < 8; ++k) v |= static_cast<std::uint64_t>(byte()) << (8 * k);
    return v;
  }
  int below(int bound) { return bound <= 1 ? 0 : byte() % bound; }
  bool flag() { return byte() & 1; }
  // A raw Move: any cards, any kind/key/length byte (kinds past Rocket included).
  Move raw_move() {
    Move m;
    m.cards = u64();
    m.kind = static_cast<MoveKind>(byte());
    m.key = byte();
    m.length = byte();
    return m;
  }

 private:
  const std::uint8_t* p_;
  std::size_t n_;
  std::size_t i_ = 0;
};

// Every raw field of a move, valid or not (notation.hpp's describe() is for valid moves).
inline std::string dump(const Move& m) {
  return "'" + to_text(m.cards) + "' (mask 0x" + [&] {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(m.cards));
    return std::string(buf);
  }() + ") " + kind_name(m.kind) + " key " + std::to_string(m.key) + " length " + std::to_string(m.length) +
         (m.stand_ins || m.wild_rank ? " stand_ins " + std::to_string(m.stand_ins) + " wild " + std::to_string(m.wild_rank) : std::string());
}

inline std::string describe(const Rules& r) {
  return "rules{four_with_two=" + std::to_string(r.four_with_two) + " copies=" + std::to_string(r.max_solo_kicker_copies) +
         " extends=" + std::to_string(r.kicker_trio_extends_airplane) + " joker_4w2=" + std::to_string(r.joker_kicks_four_with_two) +
         " both_jokers=" + std::to_string(r.both_jokers_as_kickers) + " share=" + std::to_string(r.pair_kickers_share_rank) +
         " decks=" + std::to_string(r.decks) + " bidding=" + std::to_string(int(r.bidding)) +
         " again=" + std::to_string(r.passed_may_bid_again) + " redeal=" + std::to_string(r.redeal_when_nobody_bids) +
         " call_base=" + std::to_string(r.call_base) + " cap=" + std::to_string(r.max_multiplier) +
         " players=" + std::to_string(r.players) + " kitty=" + std::to_string(r.kitty_size) +
         " start_bonus=" + std::to_string(r.start_bonus) + " wild=" + std::to_string(r.wild) +
         " partner=" + std::to_string(r.partner) + " deck_48=" + std::to_string(r.deck_48) +
         " each_for_self=" + std::to_string(r.each_for_self) + " must_beat=" + std::to_string(r.must_beat) +
         " warning=" + std::to_string(r.single_card_warning) + " trio_two=" + std::to_string(r.trio_takes_two) +
         " four_three=" + std::to_string(r.four_with_three) + " pair_chain=" + std::to_string(r.shortest_pair_chain) +
         " ace_bomb=" + std::to_string(r.ace_trio_bomb) + " bomb_pay=" + std::to_string(r.bomb_pay) + "}";
}

// Rules from the input: one of the presets, or every field drawn. Always valid
// (validate() is empty): the targets check behaviour under the rules the API accepts.
inline Rules rules_from(Input& in) {
  const std::uint8_t pick = in.byte();
  if (pick < 128) return *preset(preset_names()[pick % preset_names().size()]);
  Rules r;
  const std::uint8_t a = in.byte(), b = in.byte();
  r.four_with_two = a & 1;
  r.max_solo_kicker_copies = 1 + ((a >> 1) & 3);
  r.kicker_trio_extends_airplane = a & 8;
  r.joker_kicks_four_with_two = a & 16;
  r.both_jokers_as_kickers = a & 32;
  r.pair_kickers_share_rank = a & 64;
  r.bidding = static_cast<Bidding>(b % 3);
  r.passed_may_bid_again = b & 4;
  r.redeal_when_nobody_bids = b & 8;
  r.call_base = 1 + in.u16() % 1000;
  r.max_multiplier = in.byte() % 70;
  // The deal: 3 players with a kitty of 0, 3, 6 or 9, or 4 players with two decks and 0,
  // 4, 8 or 12; start bonuses or not; wild cards of one or two ranks (below) or not;
  // with four players, the landlord's choice of a partner or not.
  const std::uint8_t c = in.byte();
  r.players = c & 1 ? 4 : 3;
  r.decks = r.players - 2;
  r.kitty_size = ((c >> 1) & 3) * (r.players == 4 ? 4 : 3);
  r.start_bonus = c & 8;
  // One wild rank or two, with one deck and hands of at most 20 cards (a kitty of 0 or 3).
  r.wild = (b & 16) && r.decks == 1 && r.kitty_size <= 3 ? 1 + ((b >> 5) & 1) : 0;
  r.partner = r.players == 4 && (c & 16);
  // Run Fast's fields, each on its own where the rules allow it (rules.cpp, run_fast_error).
  const std::uint8_t e = in.byte();
  r.must_beat = e & 1;
  r.single_card_warning = e & 2;
  r.trio_takes_two = (e & 4) && !r.wild && r.decks == 1;
  r.four_with_three = (e & 8) && !r.wild && r.decks == 1;
  r.shortest_pair_chain = e & 16 ? 2 : 3;
  r.deck_48 = (e & 32) && r.players == 3 && !r.wild;
  r.ace_trio_bomb = r.deck_48 && (e & 64);
  r.each_for_self = (e & 128) && r.bidding == Bidding::None && !r.partner && !r.wild && !r.start_bonus;
  if (r.each_for_self) r.max_multiplier = 0;  // cards pay without a multiplier
  r.bomb_pay = r.each_for_self && (c & 32);
  if (!validate(r).empty()) fail("rules_from made invalid rules: " + validate(r) + " " + describe(r));
  return r;
}

// Moves compare by every field: with wild cards, the same combination from other cards
// spent is another move.
inline bool same_move(const Move& a, const Move& b) {
  return a.cards == b.cards && a.kind == b.kind && a.key == b.key && a.length == b.length && a.stand_ins == b.stand_ins &&
         a.wild_rank == b.wild_rank;
}
inline bool move_less(const Move& a, const Move& b) {
  return std::tie(a.cards, a.kind, a.key, a.length, a.stand_ins, a.wild_rank) <
         std::tie(b.cards, b.kind, b.key, b.length, b.stand_ins, b.wild_rank);
}

// --- The shape oracle --------------------------------------------------------------
// Whether `m` is a (cards, combination) pair under `rules`, from docs/rules.md's tables,
// written independently of move.cpp (no shared helpers beyond counting). Empty: yes.

inline int cnt(Mask m, int r) { return r >= 0 && r < 16 ? count(m, r) : 0; }

inline std::string solo_kickers_error(Mask k, int body_lo, int body_len, MoveKind kind, const Rules& r) {
  for (int rank = 0; rank < kNumRanks; ++rank) {
    const int c = cnt(k, rank);
    if (c == 0) continue;
    if (rank >= body_lo && rank < body_lo + body_len) return "a kicker has a body rank";
    if (c > r.max_solo_kicker_copies) return "too many solo kickers of one rank";
  }
  const bool b = cnt(k, kBlackJoker) > 0, rj = cnt(k, kRedJoker) > 0;
  if (b && rj && !r.both_jokers_as_kickers) return "both jokers as kickers";
  if (kind == MoveKind::FourTwoSolos && (b || rj) && !r.joker_kicks_four_with_two) return "a joker kicks four-with-two";
  if (kind == MoveKind::AirplaneSolos && !r.kicker_trio_extends_airplane) {
    const int below = body_lo - 1, above = body_lo + body_len;
    if (below >= 0 && cnt(k, below) >= 3) return "a kicker trio extends the airplane (below)";
    if (above <= kAce && cnt(k, above) >= 3) return "a kicker trio extends the airplane (above)";
  }
  return {};
}

inline std::string free_kickers_error(Mask k, const Rules& r) {
  const bool both = cnt(k, kBlackJoker) > 0 && cnt(k, kRedJoker) > 0;
  return both && !r.both_jokers_as_kickers ? "both jokers as kickers" : "";
}

inline std::string pair_kickers_error(Mask k, int body_lo, int body_len, const Rules& r) {
  for (int rank = 0; rank < kNumRanks; ++rank) {
    const int c = cnt(k, rank);
    if (c == 0) continue;
    if (c % 2) return "a pair kicker is odd";
    if (rank >= kBlackJoker) return "jokers as a pair kicker";
    if (rank >= body_lo && rank < body_lo + body_len) return "a kicker has a body rank";
    if (c > 2 && !r.pair_kickers_share_rank) return "two pair kickers of one rank";
  }
  return {};
}

inline std::string shape_error(const Move& m, const Rules& r) {
  const Mask c = m.cards;
  if (c == 0) return "no cards";
  if (!validate_cards(c, r).empty()) return "cards beyond the deck";
  if (static_cast<int>(m.kind) >= kNumMoveKinds) return "unknown kind";
  const int n = total(c), key = m.key, len = m.length;
  const auto body_only = [&](Mask body) { return c == body; };
  const auto chain = [&](int unit, int lo, int hi) -> std::string {
    if (len < lo || len > hi || key + len > kTwo) return "chain length or range";
    return body_only(run_of(key, len, unit)) ? std::string() : "not that chain";
  };
  // A body of `unit` cards at each of `len` consecutive ranks from key, and what is left.
  const auto kickers = [&](int unit, int blen, Mask& left) -> bool {
    if (key >= kBlackJoker || key + blen > (blen > 1 ? kTwo : kBlackJoker)) return false;
    const Mask body = run_of(key, blen, unit);
    if (!contains(c, body)) return false;
    left = c - body;
    return true;
  };
  Mask k = 0;
  const bool classic_trio = m.kind == MoveKind::Trio || m.kind == MoveKind::TrioSolo || m.kind == MoveKind::TrioPair ||
                            m.kind == MoveKind::Airplane || m.kind == MoveKind::AirplaneSolos || m.kind == MoveKind::AirplanePairs;
  if (classic_trio && r.trio_takes_two) return "the classic trio kinds are off (trio_takes_two)";
  switch (m.kind) {
    case MoveKind::Solo: return n == 1 && cnt(c, key) == 1 && len == 1 ? "" : "not a solo";
    case MoveKind::Pair: return n == 2 && key < kNumRanks && cnt(c, key) == 2 && len == 1 ? "" : "not a pair";
    case MoveKind::Trio: return n == 3 && key < kNumRanks && cnt(c, key) == 3 && len == 1 ? "" : "not a trio";
    case MoveKind::Bomb:
      if (r.ace_trio_bomb && n == 3 && key == kAce && cnt(c, key) == 3 && len == 3) return "";  // the three aces
      return n >= 4 && key < kBlackJoker && cnt(c, key) == n && len == n ? "" : "not a bomb";
    case MoveKind::Rocket: return c == r.rocket() && key == kBlackJoker && len == n ? "" : "not the rocket";
    case MoveKind::Straight: return chain(1, 5, 12);
    case MoveKind::PairStraight: return chain(2, r.shortest_pair_chain, 10);
    case MoveKind::Airplane: return chain(3, 2, 6);
    case MoveKind::TrioSolo:
      if (len != 1 || n != 4 || !kickers(3, 1, k)) return "not a trio with a solo";
      return solo_kickers_error(k, key, 1, m.kind, r);
    case MoveKind::TrioPair:
      if (len != 1 || n != 5 || !kickers(3, 1, k)) return "not a trio with a pair";
      return pair_kickers_error(k, key, 1, r);
    case MoveKind::AirplaneSolos:
      if (len < 2 || len > 6 || n != 4 * len || !kickers(3, len, k)) return "not an airplane with solos";
      return solo_kickers_error(k, key, len, m.kind, r);
    case MoveKind::AirplanePairs:
      if (len < 2 || len > 6 || n != 5 * len || !kickers(3, len, k)) return "not an airplane with pairs";
      return pair_kickers_error(k, key, len, r);
    case MoveKind::FourTwoSolos:
      if (!r.four_with_two || len != 1 || n != 6 || !kickers(4, 1, k)) return "not four with two solos";
      return solo_kickers_error(k, key, 1, m.kind, r);
    case MoveKind::FourTwoPairs:
      if (!r.four_with_two || len != 1 || n != 8 || !kickers(4, 1, k)) return "not four with two pairs";
      return pair_kickers_error(k, key, 1, r);
    // Run Fast: kickers of any ranks; a trio or airplane with fewer (a move of last cards).
    // Cards of one rank that are a bomb (four, or the three aces) are only the bomb.
    // Both jokers kick one move only where the rules say, as for every other kicker.
    case MoveKind::TrioTwo:
      if (key < kNumRanks && cnt(c, key) == n && (n >= 4 || (r.ace_trio_bomb && key == kAce && n == 3))) return "a bomb";
      if (!(r.trio_takes_two && len == 1 && n >= 3 && n <= 5 && kickers(3, 1, k))) return "not a trio with two";
      return free_kickers_error(k, r);
    case MoveKind::AirplaneTwos:
      if (!(r.trio_takes_two && len >= 2 && len <= 6 && n >= 3 * len && n <= 5 * len && kickers(3, len, k))) {
        return "not an airplane with twos";
      }
      return free_kickers_error(k, r);
    case MoveKind::FourThree:
      if (!(r.four_with_three && len == 1 && n == 7 && kickers(4, 1, k))) return "not four with three";
      return free_kickers_error(k, r);
  }
  return "unknown kind";
}

// Every reading of `cards` by the oracle alone: each (kind, key, length) whose shape fits.
inline std::vector<Move> oracle_readings(Mask cards, const Rules& r) {
  std::vector<Move> out;
  const int n = total(cards);
  if (cards == 0 || !validate_cards(cards, r).empty()) return out;
  for (int kind = 0; kind < kNumMoveKinds; ++kind) {
    for (int key = 0; key < kNumRanks; ++key) {
      if (cnt(cards, key) == 0) continue;  // every kind's key rank is in its body
      for (int len = 1; len <= std::max(12, n); ++len) {
        if (len > 12 && len != n) continue;
        const Move m{cards, static_cast<MoveKind>(kind), static_cast<std::uint8_t>(key), static_cast<std::uint8_t>(len)};
        if (shape_error(m, r).empty()) out.push_back(m);
      }
    }
  }
  return out;
}

inline void sort_moves(std::vector<Move>& v) { std::sort(v.begin(), v.end(), move_less); }

inline std::string list(const std::vector<Move>& v, std::size_t most = 12) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < most; ++i) s += "\n    " + describe(v[i]);
  if (v.size() > most) s += "\n    ... " + std::to_string(v.size() - most) + " more";
  return s;
}

// A hand the rules allow (at most 4 of a rank, one of each joker per deck) from any mask.
inline Mask legal_hand(Mask raw, const Rules& r) {
  Mask out = 0;
  for (int rank = 0; rank < kNumRanks; ++rank) {
    const int limit = rank >= kBlackJoker ? r.max_per_joker() : r.max_per_rank();
    out |= cards_of(rank, std::min(count(raw, rank), limit));
  }
  return out;
}

// Drops cards from the highest ranks down until at most `most` remain.
inline Mask trim(Mask hand, int most) {
  for (int rank = kNumRanks - 1; rank >= 0 && total(hand) > most; --rank) {
    const int excess = total(hand) - most;
    hand -= cards_of(rank, std::min(count(hand, rank), excess));
  }
  return hand;
}

}  // namespace ddz::fuzz
