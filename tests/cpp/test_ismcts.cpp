// Information-set MCTS: the root's statistics add up, a seed and a budget fix the search,
// the search finds the won line of the solver's puzzles, and it reads only what the
// searching seat knows (two games that differ in the hidden hands alone search alike).
#include <numeric>
#include <stdexcept>

#include "check.hpp"
#include "helpers.hpp"
#include "play/ismcts.hpp"
#include "search/solver.hpp"
#include "search/worlds.hpp"

using namespace ddz;
using testing::cards;

namespace {

IsmctsOptions budget(std::int64_t simulations, std::uint64_t seed = 1, int threads = 1) {
  IsmctsOptions o;
  o.simulations = simulations;
  o.seed = seed;
  o.threads = threads;
  return o;
}

// A game of seed `seed` after its auction (the landlord's first play to choose).
Game after_auction(std::uint64_t seed) {
  Game g(seed, Rules{}, 0);
  while (g.state().phase == Phase::Bidding) g.apply_legal(g.legal_actions().back());  // the highest bid
  return g;
}

}  // namespace

TEST(ismcts_statistics_cover_the_budget_in_legal_order) {
  const Game g = after_auction(3);
  for (const int threads : {1, 2, 3}) {
    const IsmctsResult r = ismcts(g, budget(300, 1, threads));
    CHECK(r.actions == g.legal_actions());
    CHECK_EQ(std::accumulate(r.visits.begin(), r.visits.end(), std::int64_t{0}), std::int64_t{300});
    for (std::size_t i = 0; i < r.actions.size(); ++i) {
      CHECK(r.value[i] >= -1 && r.value[i] <= 1);
      CHECK(r.visits[r.best] >= r.visits[i]);
    }
  }
}

TEST(ismcts_is_fixed_by_its_seed_budget_and_threads) {
  const Game g = after_auction(5);
  const IsmctsResult a = ismcts(g, budget(400, 7, 2)), b = ismcts(g, budget(400, 7, 2));
  CHECK(a.visits == b.visits && a.value == b.value && a.best == b.best);
}

TEST(ismcts_finds_the_solvers_won_lines) {
  // Leading the 2 wins (the ace cannot beat it); leading the 3 loses to the ace.
  const Game lead_two = Game::from_position({cards("32"), cards("A")}, 0, 0, Move{}, -1, Rules{});
  CHECK(ismcts(lead_two, budget(200)).actions[ismcts(lead_two, budget(200)).best] == solve(lead_two.state(), Rules{}, SolveOptions{}).move);
  // The peasant leads its 3 so that its partner's 5 goes out.
  const Game cooperate = Game::from_position({cards("QA"), cards("3K"), cards("5")}, 0, 1, Move{}, -1, Rules{});
  const IsmctsResult r = ismcts(cooperate, budget(500));
  CHECK(r.actions[r.best] == solve(cooperate.state(), Rules{}, SolveOptions{}).move);
  CHECK(r.value[r.best] > 0.9);
}

TEST(ismcts_reads_only_what_the_seat_knows) {
  // Another deal of the hidden cards that the seat to move cannot tell from the real one.
  for (const std::uint64_t seed : {11u, 12u, 13u}) {
    const Game real = after_auction(seed);
    Rng rng(seed);
    const Game other = sample_world(real, real.state().to_move, rng);
    CHECK(other.state().hands != real.state().hands);
    const IsmctsResult a = ismcts(real, budget(200, seed)), b = ismcts(other, budget(200, seed));
    CHECK(a.visits == b.visits && a.value == b.value);
  }
}

TEST(ismcts_refuses_what_it_cannot_search) {
  Game over(1, Rules{}, 0);
  while (over.state().phase != Phase::Over) over.apply_legal(over.legal_actions().front());
  CHECK(!ismcts_error(over, budget(10)).empty());
  const Game g = after_auction(2);
  CHECK(!ismcts_error(g, budget(0)).empty());
  IsmctsOptions nan = budget(10);
  nan.exploration = std::numeric_limits<double>::quiet_NaN();
  CHECK(!ismcts_error(g, nan).empty());
  bool threw = false;
  try {
    ismcts(g, budget(0));
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
}
