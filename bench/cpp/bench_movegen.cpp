// C++ move generation benchmark on mixed positions (seeded deals of 17 and 20 cards and
// endgame hands of 1..10; follows against a move led by another hand of the same deal),
// under the standard rules and under each variant with its own deal (sanren: 18 and 18;
// happy: as standard, whose move rules it shares; four_player: two decks, 25 and 33;
// laizi: as standard, with a wild rank drawn for each position).
// Prints ns and moves per position; `--json` prints {"lead_ns", "follow_ns", "lead_moves",
// "follow_moves" (standard), "variants": {name: {the same four}}} for bench/compare.py.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include <string>

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

// The rules' deck shuffled by Fisher-Yates, split into hands of the given sizes.
std::vector<Mask> deal(Rng& rng, const Rules& rules, std::initializer_list<int> sizes) {
  std::vector<int> deck;
  for (int r = 0; r < kNumRanks; ++r) deck.insert(deck.end(), static_cast<std::size_t>(count(rules.deck(), r)), r);
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

// A third each: a dealt hand, the landlord's after the kitty, an endgame hand of 1..10.
std::vector<Position> positions(int n, bool follow, const Rules& rules) {
  Rng rng(follow ? 2 : 1);
  const int dealt = rules.hand_size(), landlord = dealt + rules.kitty_size;
  std::vector<Position> out;
  while (static_cast<int>(out.size()) < n) {
    const int kind = static_cast<int>(out.size()) % 3;
    const int size = kind == 0 ? dealt : kind == 1 ? landlord : 1 + static_cast<int>(rng.below(10));
    const auto hands = deal(rng, rules, {size, dealt});
    Position p{hands[0], {}, rules.wild ? draw_wild(rng) : kNoWild};
    if (follow) {
      const auto leads = legal_moves(hands[1], nullptr, rules, p.wild);
      p.last = leads[rng.below(static_cast<std::uint32_t>(leads.size()))];
    }
    out.push_back(p);
  }
  return out;
}

struct Timing {
  double ns;     // per position, best of the rounds
  double moves;  // listed per position
};

Timing time_positions(const std::vector<Position>& ps, const Rules& rules) {
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
  return {best, static_cast<double>(moves) / 7.0 / static_cast<double>(ps.size())};
}

}  // namespace

int main(int argc, char** argv) {
  const bool json = argc > 1 && std::strcmp(argv[1], "--json") == 0;
  std::string variants;
  Timing lead{}, follow{};
  for (const char* name : {"standard", "sanren", "happy", "four_player", "laizi"}) {
    const Rules rules = *preset(name);
    const Timing l = time_positions(positions(30000, false, rules), rules);
    const Timing f = time_positions(positions(30000, true, rules), rules);
    if (std::strcmp(name, "standard") == 0) {
      lead = l;
      follow = f;
    } else {
      variants += std::string(variants.empty() ? "" : ", ") + "\"" + name + "\": {\"lead_ns\": " + std::to_string(l.ns) +
                  ", \"follow_ns\": " + std::to_string(f.ns) + ", \"lead_moves\": " + std::to_string(l.moves) +
                  ", \"follow_moves\": " + std::to_string(f.moves) + "}";
    }
    if (!json) {
      std::printf("%-12s lead: %7.1f ns/position (%5.1f moves)  follow: %6.1f ns/position (%4.2f moves)\n", name, l.ns,
                  l.moves, f.ns, f.moves);
    }
  }
  if (json) {
    std::printf("{\"lead_ns\": %.1f, \"follow_ns\": %.1f, \"lead_moves\": %.2f, \"follow_moves\": %.2f, \"variants\": {%s}}\n",
                lead.ns, follow.ns, lead.moves, follow.moves, variants.c_str());
  }
  return 0;
}
