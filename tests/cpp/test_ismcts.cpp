// Information-set MCTS: the root's statistics add up, a seed and a budget fix the search,
// the search finds the won line of the solver's puzzles, and it reads only what the
// searching seat knows (two games that differ in the hidden hands alone search alike). The
// built-in policy "ismcts" plays whole games through self-play and evaluation, the same
// games for the same seed, and refuses to roll out by ISMCTS.
#include <numeric>
#include <stdexcept>

#include "check.hpp"
#include "helpers.hpp"
#include "play/evaluate.hpp"
#include "play/ismcts.hpp"
#include "play/selfplay.hpp"
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

namespace {

// The ISMCTS policy with a small budget (its rollout: the fast heuristic).
Policy small_ismcts(std::int64_t simulations = 24) {
  Policy p{PolicyKind::Ismcts};
  p.search.simulations = simulations;
  return p;
}

// Whether `f` throws std::invalid_argument.
template <class F>
bool refuses(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument&) {
    return true;
  }
  return false;
}

}  // namespace

TEST(ismcts_policy_is_named_with_its_documented_defaults) {
  const auto p = policy_named("ismcts");
  CHECK(p.has_value() && p->kind == PolicyKind::Ismcts && p->endgame == Endgame::Search);
  CHECK_EQ(p->search.simulations, SearchParams{}.simulations);
  CHECK(p->search.rollout == PolicyKind::FastHeuristic && p->search.threads == 1);
  CHECK(search_params_error(*p).empty() && policy_error(*p, Rules{}).empty());
}

TEST(ismcts_policy_plays_the_same_legal_games_for_a_seed) {
  // Two runs of one seed record the same games.
  SelfPlayOptions o;
  o.games = 3;
  o.seed = 5;
  o.policies = {small_ismcts(), Policy{PolicyKind::FastHeuristic}, small_ismcts(), std::nullopt};
  const SelfPlayResult a = self_play(o), b = self_play(o);
  CHECK_EQ(a.games.size(), std::size_t{3});
  for (std::size_t i = 0; i < a.games.size(); ++i) {
    CHECK(a.games[i].moves > 0);
    CHECK(a.games[i].moves == b.games[i].moves && a.games[i].payouts == b.games[i].payouts);
  }
}

TEST(ismcts_policy_plays_through_evaluation_with_its_own_rollouts_inside) {
  // Each decision plays rollouts of its own while the evaluation's loop waits on it: the
  // games end, every one settled, and repeat for the seed.
  const auto one = evaluate(small_ismcts(), Policy{PolicyKind::Random}, Rules{}, 2, 3, 2);
  const auto two = evaluate(small_ismcts(), Policy{PolicyKind::Random}, Rules{}, 2, 3, 1);
  CHECK_EQ(one.size(), two.size());
  for (std::size_t i = 0; i < one.size(); ++i) CHECK(one[i].a_score == two[i].a_score && one[i].landlord == two[i].landlord);
}

TEST(ismcts_policy_refuses_an_ismcts_rollout_and_bad_parameters) {
  Policy recursive = small_ismcts();
  recursive.search.rollout = PolicyKind::Ismcts;
  CHECK(search_params_error(recursive).find("rollout") != std::string::npos);
  CHECK(refuses([&] { check_policy(recursive, Rules{}); }));
  IsmctsOptions o = budget(10);
  o.rollout = small_ismcts();
  CHECK(refuses([&] { ismcts(after_auction(1), o); }));
  Policy none = small_ismcts(0);
  CHECK(refuses([&] { check_policy(none, Rules{}); }));
  Policy threads = small_ismcts();
  threads.search.threads = 0;
  CHECK(!search_params_error(threads).empty());
  CHECK(search_params_error(Policy{PolicyKind::Heuristic}).empty());
}

TEST(ismcts_policy_leaves_the_plan_only_for_a_clearly_better_action) {
  // The peasant to move wins only by leading its king (solve_moves says so); the heuristic's
  // plan leads the tens, which the search values far lower: the search overrules the plan.
  const Game lead_king = Game::from_position({cards("7AA"), cards("TTK2"), cards("6J")}, 0, 1, Move{}, -1, Rules{});
  const std::vector<Action> legal = lead_king.legal_actions();
  const MovesResult solved = solve_moves(lead_king.state(), Rules{}, SolveOptions{});
  Policy p = small_ismcts(500);
  p.endgame = Endgame::Plan;  // the search's choice alone, not the endgame solver's
  Rng rng(1);
  const std::size_t plan = choose_heuristic(lead_king, legal, Endgame::Plan), chosen = choose(p, lead_king, legal, rng);
  CHECK(solved.moves[plan].outcome == Outcome::Loss && solved.moves[chosen].outcome == Outcome::Win);
  // One simulation is no evidence against the plan: it stands.
  const Game g = after_auction(4);
  const std::vector<Action> opening = g.legal_actions();
  Policy one = small_ismcts(1);
  one.endgame = Endgame::Plan;
  CHECK_EQ(choose(one, g, opening, rng), choose_heuristic(g, opening, Endgame::Plan));
}
