// Move generation by definition, for the brute-force checks of the C++ tests and the fuzz
// targets: every sub-multiset of a hand classified one by one, and with wild cards (one
// rank or two) every choice of what the wild cards spent stand for.
#pragma once

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "rules/move.hpp"
#include "rules/notation.hpp"
#include "rules/wild.hpp"

namespace ddz::oracle {

// Calls f(sub) for every sub-multiset of `hand`, the empty one included.
template <class F>
void for_each_submask(Mask hand, F&& f, int rank = 0, Mask acc = 0) {
  if (rank == kNumRanks) return f(acc);
  for (int c = 0; c <= count(hand, rank); ++c) for_each_submask(hand, f, rank + 1, acc + cards_of(rank, c));
}

// Calls f(T) for every multiset T of `n` ranks among 3..2 (any of them: a wild card may
// stand for its own rank, which is playing as itself, or for the other wild rank), from
// `low` up.
template <class F>
void for_each_rank_multiset(int n, F&& f, int low = 0, Mask acc = 0) {
  if (n == 0) return f(acc);
  for (int r = low; r <= kTwo; ++r) for_each_rank_multiset(n - 1, f, r, acc + cards_of(r, 1));
}

// Every reading of every sub-multiset of `hand`: the leads. A short trio or airplane
// (Run Fast, is_short) is a lead only of the whole hand: its last cards.
inline std::vector<Move> natural_leads(Mask hand, const Rules& r) {
  std::vector<Move> out;
  for_each_submask(hand, [&](Mask sub) {
    for (const Move& m : classify(sub, r)) {
      if (!is_short(m) || sub == hand) out.push_back(m);
    }
  });
  return out;
}

// What a move is by the rule book: (cards spent, combination, kind, key, length), the
// encoding of its wild cards aside.
using WildKey = std::tuple<Mask, Mask, int, int, int>;
inline WildKey wild_key(Mask spent_cards, const Move& combination) {
  return {spent_cards, combination.cards, static_cast<int>(combination.kind), combination.key, combination.length};
}
inline WildKey wild_key(const Move& m) { return wild_key(spent(m), m); }

// The leads by definition with `wild` the wild ranks (one or two): every sub-multiset
// spent, every choice of the rank each of its wild cards stands for (any rank 3..2), every
// natural reading of what that forms; four wild cards of one rank are never a soft bomb of
// another (docs/rules.md).
inline std::set<WildKey> wild_lead_keys(Mask hand, WildRanks wild, const Rules& r) {
  std::set<WildKey> out;
  const int a = wild.low, b = wild.high;
  for_each_submask(hand, [&](Mask spent_cards) {
    const int by_a = count(spent_cards, a), by_b = b == kNoWild ? 0 : count(spent_cards, b);
    const Mask natural = spent_cards & ~wild.nibbles();
    for_each_rank_multiset(by_a, [&](Mask as_a) {
      for_each_rank_multiset(by_b, [&](Mask as_b) {
        for (const Move& m : classify(natural + as_a + as_b, r)) {
          const bool four_as_other = m.kind == MoveKind::Bomb &&
                                     ((count(as_a, m.key) == 4 && m.key != a) || (count(as_b, m.key) == 4 && m.key != b));
          if (!four_as_other) out.insert(wild_key(spent_cards, m));
        }
      });
    });
  });
  return out;
}

// What `generated` has that `expected` lacks and the reverse, briefly, for a failure message.
template <class Set, class Describe>
std::string difference(const Set& generated, const Set& expected, Describe describe) {
  std::string out;
  for (const auto& k : generated) {
    if (!expected.count(k)) out += " extra " + describe(k);
  }
  for (const auto& k : expected) {
    if (!generated.count(k)) out += " missing " + describe(k);
  }
  return out.substr(0, 400);
}

}  // namespace ddz::oracle
