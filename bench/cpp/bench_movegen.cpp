// C++ move generation benchmark on mixed positions (seeded deals of 17 and 20 cards and
// endgame hands of 1..10; follows against a move led by another hand of the same deal),
// under the standard rules and under laizi (a wild rank drawn for each position).
// Prints ns per position; `--json` prints {"lead_ns": x, "follow_ns": y, "laizi_lead_ns": ...,
// "laizi_follow_ns": ...} for bench/compare.py.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "movegen.hpp"
#include "rng.hpp"
#include "wild.hpp"

using namespace ddz;

namespace {

struct Position {
  Mask hand;
  Move last;  // cards == 0: lead
  int wild;   // laizi: the wild rank; kNoWild: the standard rules
};

// A deck shuffled by Fisher-Yates, split into hands of the given sizes.
std::vector<Mask> deal(Rng& rng, std::initializer_list<int> sizes) {
  std::vector<int> deck;
  for (int r = 0; r < kNumRanks; ++r) deck.insert(deck.end(), r >= kBlackJoker ? 1 : 4, r);
  for (std::size_t i = deck.size() - 1; i > 0; --i) std::swap(deck[i], deck[rng.below(static_cast<std::uint32_t>(i + 1))]);
  std::vector<Mask> hands;
  std::size_t next = 0;
  for (int size : sizes) {
    Mask h = 0;
    for (int k = 0; k < size; ++k) h += cards_of(deck[next++], 1);
    hands.push_back(h);
  }
  return hands;
}

std::vector<Position> positions(int n, bool follow, const Rules& rules) {
  Rng rng(follow ? 2 : 1);
  std::vector<Position> out;
  while (static_cast<int>(out.size()) < n) {
    const int kind = static_cast<int>(out.size()) % 3;
    const int size = kind == 0 ? 17 : kind == 1 ? 20 : 1 + static_cast<int>(rng.below(10));
    const auto hands = deal(rng, {size, 17});
    Position p{hands[0], {}, rules.wild ? draw_wild(rng) : kNoWild};
    if (follow) {
      const auto leads = legal_moves(hands[1], nullptr, rules, p.wild);
      p.last = leads[rng.below(static_cast<std::uint32_t>(leads.size()))];
    }
    out.push_back(p);
  }
  return out;
}

double ns_per_position(const std::vector<Position>& ps, const Rules& rules) {
  std::vector<Move> buffer;
  std::size_t moves = 0;
  double best = 1e30;
  for (int round = 0; round < 7; ++round) {
    const auto start = std::chrono::steady_clock::now();
    for (const Position& p : ps) {
      buffer.clear();
      if (rules.wild) {
        append_legal_moves(p.hand, p.last.cards ? &p.last : nullptr, rules, p.wild, buffer);
      } else {
        append_legal_moves(p.hand, p.last.cards ? &p.last : nullptr, rules, buffer);
      }
      moves += buffer.size();
    }
    const auto ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, ns / static_cast<double>(ps.size()));
  }
  if (moves == 0) std::fprintf(stderr, "no moves generated\n");
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const bool json = argc > 1 && std::strcmp(argv[1], "--json") == 0;
  const Rules standard, laizi = *preset("laizi");
  const double lead = ns_per_position(positions(30000, false, standard), standard);
  const double follow = ns_per_position(positions(30000, true, standard), standard);
  // Fewer laizi positions: a hand with wild cards has about ten times the moves.
  const double wild_lead = ns_per_position(positions(6000, false, laizi), laizi);
  const double wild_follow = ns_per_position(positions(6000, true, laizi), laizi);
  if (json) {
    std::printf("{\"lead_ns\": %.1f, \"follow_ns\": %.1f, \"laizi_lead_ns\": %.1f, \"laizi_follow_ns\": %.1f}\n", lead,
                follow, wild_lead, wild_follow);
  } else {
    std::printf("lead: %.1f ns/position\nfollow: %.1f ns/position\n", lead, follow);
    std::printf("laizi lead: %.1f ns/position\nlaizi follow: %.1f ns/position\n", wild_lead, wild_follow);
  }
  return 0;
}
