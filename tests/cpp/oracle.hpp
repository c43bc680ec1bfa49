// Move generation by definition, for the brute-force checks of the C++ tests and the fuzz
// targets: every sub-multiset of a hand classified one by one, and with wild cards every
// choice of what the wild cards spent stand for.
#pragma once

#include <string>
#include <vector>

#include "notation.hpp"
#include "move.hpp"
#include "wild.hpp"

namespace ddz::oracle {

// Calls f(sub) for every sub-multiset of `hand`, the empty one included.
template <class F>
void for_each_submask(Mask hand, F&& f, int rank = 0, Mask acc = 0) {
  if (rank == kNumRanks) return f(acc);
  for (int c = 0; c <= count(hand, rank); ++c) for_each_submask(hand, f, rank + 1, acc + cards_of(rank, c));
}

// Calls f(T) for every multiset T of `n` ranks among 3..2 other than `wild`, from `low` up.
template <class F>
void for_each_stand_in(int n, int wild, F&& f, int low = 0, Mask acc = 0) {
  if (n == 0) return f(acc);
  for (int r = low; r <= kTwo; ++r) {
    if (r != wild) for_each_stand_in(n - 1, wild, f, r, acc + cards_of(r, 1));
  }
}

// Every reading of every sub-multiset of `hand`: the leads.
inline std::vector<Move> natural_leads(Mask hand, const Rules& r) {
  std::vector<Move> out;
  for_each_submask(hand, [&](Mask sub) {
    for (const Move& m : classify(sub, r)) out.push_back(m);
  });
  return out;
}

// The leads with `wild` the wild rank: every sub-multiset spent, every choice of which of
// its wild cards stand in for which ranks, every natural reading of what that forms; four
// wild cards are never a soft bomb.
inline std::vector<Move> wild_leads(Mask hand, int wild, const Rules& r) {
  std::vector<Move> out;
  for_each_submask(hand, [&](Mask spent_cards) {
    for (int j = 0; j <= count(spent_cards, wild); ++j) {
      for_each_stand_in(j, wild, [&](Mask stand_ins) {
        for (Move m : classify(spent_cards - cards_of(wild, j) + stand_ins, r)) {
          if (m.kind == MoveKind::Bomb && count(stand_ins, m.key) == 4) continue;
          if (j) {
            m.stand_ins = encode_stand_ins(stand_ins);
            m.wild_rank = static_cast<std::uint8_t>(wild);
          }
          out.push_back(m);
        }
      });
    }
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
