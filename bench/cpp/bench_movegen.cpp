// C++ move generation benchmark on mixed positions (seeded deals of 17 and 20 cards and
// endgame hands of 1..10; follows against a move led by another hand of the same deal),
// under the standard rules and under each variant with its own deal (sanren: 18 and 18;
// happy: as standard, whose move rules it shares; four_player: two decks, 25 and 33;
// laizi: as standard, with a wild rank drawn for each position; laizi2: with two;
// four_partner: as four_player, whose move rules it shares; run_fast: 48 cards, 15 and 15,
// nobody taking the cards set aside).
// Times are thread CPU time, best of 7 rounds. Prints ns and moves per position; `--json` prints {"lead_ns", "follow_ns", "lead_moves",
// "follow_moves" (standard), "variants": {name: {the same four}}} for bench/compare.py.
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <vector>

#include <string>

#include "base/rng.hpp"
#include "rules/movegen.hpp"
#include "rules/wild.hpp"

using namespace ddz;

namespace {

struct Position {
  Mask hand;
  Move last;  // cards == 0: lead
  WildRanks wild;  // laizi: the wild rank, laizi2 the two; none: the standard rules
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
  const int dealt = rules.hand_size(), landlord = rules.max_hand();
  std::vector<Position> out;
  while (static_cast<int>(out.size()) < n) {
    const int kind = static_cast<int>(out.size()) % 3;
    const int size = kind == 0 ? dealt : kind == 1 ? landlord : 1 + static_cast<int>(rng.below(10));
    const auto hands = deal(rng, rules, {size, dealt});
    Position p{hands[0], {}, draw_wilds(rng, rules.wild)};
    if (follow) {
      const auto leads = legal_moves(hands[1], nullptr, rules, p.wild);
      p.last = leads[rng.below(static_cast<std::uint32_t>(leads.size()))];
    }
    out.push_back(p);
  }
  return out;
}

struct Timing {
  double ns = 1e30;  // per position, best of the rounds
  double moves = 0;  // listed per position
};

// One set of positions under one preset, and its timing so far.
struct Set {
  const char* name;
  Rules rules;
  std::vector<Position> positions;
  Timing timing;
};

// CPU time of this thread: the time it ran, not the time other processes on a shared
// machine held the core (wall time under load inflates by the load factor).
double thread_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// One pass over the set, keeping the best time.
void time_once(Set& set, std::vector<Move>& buffer) {
  std::size_t moves = 0;
  const double start = thread_ns();
  for (const Position& p : set.positions) {
    buffer.clear();
    append_legal_moves(p.hand, p.last.cards ? &p.last : nullptr, set.rules, p.wild, buffer);
    moves += buffer.size();
  }
  const double ns = thread_ns() - start;
  const auto n = static_cast<double>(set.positions.size());
  set.timing = {std::min(set.timing.ns, ns / n), static_cast<double>(moves) / n};
}

std::string json_fields(const Timing& lead, const Timing& follow) {
  char text[160];
  std::snprintf(text, sizeof text, "\"lead_ns\": %.1f, \"follow_ns\": %.1f, \"lead_moves\": %.2f, \"follow_moves\": %.2f",
                lead.ns, follow.ns, lead.moves, follow.moves);
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  const bool json = argc > 1 && std::strcmp(argv[1], "--json") == 0;
  // Leads and follows of each preset, timed round-robin so that every set sees the same
  // machine load; the best of 7 rounds counts. Fewer laizi positions: a hand with wild
  // cards has about ten times the moves (with two wild ranks, about ten times again).
  std::vector<Set> sets;
  for (const char* name : {"standard", "sanren", "happy", "four_player", "laizi", "laizi2",
                           "four_partner", "run_fast"}) {
    const Rules rules = *preset(name);
    const int n = rules.wild == 2 ? 1000 : rules.wild ? 6000 : 30000;
    sets.push_back({name, rules, positions(n, false, rules), {}});
    sets.push_back({name, rules, positions(n, true, rules), {}});
  }
  std::vector<Move> buffer;
  for (int round = 0; round < 7; ++round) {
    for (Set& set : sets) time_once(set, buffer);
  }
  std::string variants;
  for (std::size_t i = 0; i < sets.size(); i += 2) {
    const Timing& l = sets[i].timing;
    const Timing& f = sets[i + 1].timing;
    if (l.moves == 0) std::fprintf(stderr, "no moves generated\n");
    if (!json) {
      std::printf("%-12s lead: %7.1f ns/position (%5.1f moves)  follow: %6.1f ns/position (%4.2f moves)\n", sets[i].name,
                  l.ns, l.moves, f.ns, f.moves);
    } else if (i > 0) {
      variants += std::string(variants.empty() ? "" : ", ") + "\"" + sets[i].name + "\": {" + json_fields(l, f) + "}";
    }
  }
  if (json) std::printf("{%s, \"variants\": {%s}}\n", json_fields(sets[0].timing, sets[1].timing).c_str(), variants.c_str());
  return 0;
}
