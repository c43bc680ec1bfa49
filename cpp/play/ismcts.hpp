// Information-set Monte-Carlo tree search: the search of a seat that cannot see the other
// hands.
//
// Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
// Search", IEEE Transactions on Computational Intelligence and AI in Games 4(2), 2012):
// one tree for the searching seat's information set. Each simulation deals a world
// afresh from what the seat knows (worlds.hpp: never the real hidden hands), then walks the
// tree on that world: at a node, the children whose actions are legal in this world are
// the available ones; an untried legal action is expanded first, else the available child
// of highest UCB score is taken, its exploration term counted over the simulations in which
// it was available (not over the parent's visits). Two changes, measured (bench/RESULTS.md,
// "ISMCTS"): a node below the root with available children takes a new one only while it
// has fewer than 1 + sqrt(visits) (progressive widening), and the untried action expanded
// is the rollout policy's own choice when it is untried. From the new node the world is played
// out by a built-in rollout policy, and the result (+1 its side won, -1 lost, 0 a void hand) is
// backed up from the side of the seat that took each action; or, with leaf_values, the new
// node is valued by the learned policy's networks in place of the rollout, as AlphaZero
// values its leaves.
//
// Single- rather than multiple-observer: the opponents' choices in the tree are made on the
// world's hands (the "strategy fusion" of determinization reaches the opponents' nodes);
// the paper measures SO-ISMCTS close to MO-ISMCTS in its trick-taking and shedding games
// at a fraction of the cost, and the rollouts carry most of the strength here.
//
// Root-parallel on threads: each thread grows its own tree on its share of the budget, from
// its own seed; the root actions' visits and results are summed. The same seed, budget and
// thread count give the same choice on any machine; a budget of seconds, which ends the
// search wherever the clock finds it, gives that up.
//
// The built-in policy "ismcts" (policy.hpp, PolicyKind::Ismcts) plays the action this search
// simulates most, with its SearchParams; its rollouts may be any built-in policy but ISMCTS
// itself. The policy's choice is declared in policy.hpp and defined here, so that the
// policies' dispatch (policy.cpp) and this search, whose rollouts call the dispatch, do not
// include each other.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "game/game.hpp"
#include "play/policy.hpp"

namespace ddz {

// The most simulations of one search: each adds a node to the tree (128 bytes, and 4 bytes
// for each legal action of a node the search walks through again), so this many take 1.3 GB
// and more and, with random rollouts from a deal, about 3 minutes.
inline constexpr std::int64_t kMostSimulations = 10'000'000;

struct IsmctsOptions {
  std::int64_t simulations = 1000;  // in all, shared among the threads: 1..kMostSimulations
  double seconds = 0;               // of wall time, if > 0: the search ends at the first budget spent
  double exploration = 0.7;         // UCB's constant, for results in [-1, 1]
  Policy rollout = Policy{PolicyKind::FastHeuristic};
  std::uint64_t seed = 0;
  int threads = 1;
  // A new node in play valued by rollout.network (the learned policy's networks) instead of
  // played out: the best of the network's values of the legal actions of the seat to move
  // there, for its side (clamped to [-1, 1]; the other side's the opposite). Where the hand
  // is over, or in the auction, the result or a rollout as without it.
  bool leaf_values = false;
};

// The root's actions (Game::legal_actions' order) with their simulations and mean results
// for the seat to move; `best` indexes the action simulated most (the first among equals).
struct IsmctsResult {
  std::vector<Action> actions;
  std::vector<std::int64_t> visits;
  std::vector<double> value;
  std::size_t best = 0;
};

// The options of an ISMCTS policy's search (its SearchParams, its rollout_of) from `seed`.
IsmctsOptions ismcts_options(const Policy& policy, std::uint64_t seed);

// Why `options` cannot search `game` (a finished hand, a budget below 1, a constant that is
// not a finite number >= 0, threads below 1, an ISMCTS rollout, a rollout policy that
// cannot play the rules, leaf values without networks that play them), or empty.
std::string ismcts_error(const Game& game, const IsmctsOptions& options);

// The search from the seat to move; throws std::invalid_argument where ismcts_error says.
IsmctsResult ismcts(const Game& game, const IsmctsOptions& options);

}  // namespace ddz
