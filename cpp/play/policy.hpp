// Built-in players: given a game and its legal actions, pick one.
//
// `Random` is uniform over the distinct legal actions. `Heuristic` plans its hand into
// combinations and plays them weakest first, keeps bombs for when they win, lets its
// partner's plays stand, takes control when an opponent is about to go out, searches the
// endgame exactly on a few worlds dealt from its seat's view once 18 cards or fewer
// remain, and bids on jokers, 2s and bombs (heuristic.cpp). `FastHeuristic` is the same
// plan without the endgame search: weaker, and tens of times cheaper on average
// (the search is the heuristic's whole tail), for data generation and learners'
// opponents. `Neural` plays a learned network (network.hpp): the legal action of highest
// value, and its bid network's best bid (the heuristic's bid where the file has none).
// `Ismcts` searches each play by information-set Monte-Carlo tree search (ismcts.hpp),
// keeping the heuristic's plan unless the search clearly finds better, and bids as the
// heuristic does.
// Policies are functions of (game, legal actions, rng) with no state of their own but
// the neural policy's read-only weights, so one may serve many threads.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/rng.hpp"
#include "game/game.hpp"
#include "learn/network.hpp"

namespace ddz {

enum class PolicyKind : std::uint8_t { Random, Heuristic, FastHeuristic, Neural, Ismcts };

// Every built-in policy by the name it is given wherever a policy is taken ("neural":
// the network shipped with the package).
inline constexpr std::array<std::pair<std::string_view, PolicyKind>, 5> kPolicyNames{{
    {"random", PolicyKind::Random},
    {"heuristic", PolicyKind::Heuristic},
    {"fast_heuristic", PolicyKind::FastHeuristic},
    {"neural", PolicyKind::Neural},
    {"ismcts", PolicyKind::Ismcts},
}};

// The ISMCTS policy's search (ismcts.hpp): simulations a decision, UCB's constant, the kind
// of its rollout policy (a neural one plays the policy's `network`, without the endgame
// search), threads; a budget of seconds, if any; whether the network's values judge a new
// node instead of a rollout (the policy's `network` then). The defaults are the built-in
// "ismcts": about 30 ms of CPU a decision on average on one core (bench/RESULTS.md, "ISMCTS").
struct SearchParams {
  std::int64_t simulations = 1000;
  double seconds = 0;  // a budget of time as well (0: none); the search ends at the first spent
  double exploration = 0.7;
  PolicyKind rollout = PolicyKind::FastHeuristic;
  int threads = 1;
  bool leaf_values = false;
};

// A built-in policy: its kind, and the networks a neural policy plays (shared, read-only).
// Whether a policy ends hands with the heuristic's endgame search.
enum class Endgame : bool { Plan, Search };

// A neural or ISMCTS policy may end hands with the heuristic's endgame search (`endgame`,
// the default); an ISMCTS policy searches with `search`.
struct Policy {
  Policy(PolicyKind kind = PolicyKind::Random, std::shared_ptr<const Network> network = {},  // NOLINT: a kind is a policy
         Endgame endgame = Endgame::Search, SearchParams search = {})
      : kind(kind), network(std::move(network)), endgame(endgame), search(search) {}
  PolicyKind kind;
  std::shared_ptr<const Network> network;
  Endgame endgame;
  SearchParams search;
};

// The policy an ISMCTS policy rolls out with.
inline Policy rollout_of(const Policy& ismcts) { return Policy{ismcts.search.rollout, ismcts.network, Endgame::Plan}; }

// The policy of a name (the neural one plays the shipped network: throws NetworkError
// when it cannot be read), or none for an unknown name.
std::optional<Policy> policy_named(std::string_view name);

// Where the shipped network lies (the package sets it at import); read at the first use.
void set_shipped_network_path(std::string path);
std::shared_ptr<const Network> shipped_network();

// Why `policy` cannot play a game under `rules` (a network that does not fit, its own, its
// rollout's or the one valuing its search's leaves), or empty.
std::string policy_error(const Policy& policy, const Rules& rules);
// Why `network` cannot value the leaves of a search under `rules` (none, or networks that
// do not fit), or empty.
std::string leaf_values_error(const Network* network, const Rules& rules);
// Why the networks cannot read the positions of a search from `game` in play (DouZero's
// encoding: as many hands as the rules' players, none above its sizes; a two-hand puzzle
// has two), or empty: checked at the root, where the search's first leaf would fail.
std::string network_position_error(const Game& game);
// Why an ISMCTS policy's search cannot run (ismcts.cpp: a budget below 1, a rollout that
// is itself ISMCTS, ...), or empty; empty for the other kinds.
std::string search_params_error(const Policy& policy);
// Throws search_params_error as std::invalid_argument, then policy_error as a NetworkError.
void check_policy(const Policy& policy, const Rules& rules);

std::size_t choose_heuristic(const Game& game, const std::vector<Action>& legal, Endgame endgame = Endgame::Search);
// The heuristic's endgame search (heuristic.cpp): once the hands hold 18 cards or fewer in
// all, the action that wins the most of 8 worlds dealt from the seat's view by the exact
// solver, `planned` among equals; `planned` otherwise. `seconds` > 0 also bounds its wall
// time (the worlds searched by then count; an ISMCTS bot's budget of time).
std::size_t search_endgame(const Game& game, const std::vector<Action>& legal, std::size_t planned, double seconds = 0);

// The ISMCTS policy's choice (ismcts.cpp): the heuristic's planned action unless the action
// its search simulates most has a clearly higher mean result (ismcts.cpp, beats_plan), the
// search seeded from `rng`; then the endgame search with `endgame`; the heuristic's bid
// while bidding.
std::size_t choose_ismcts(const Policy& policy, const Game& game, const std::vector<Action>& legal, Rng& rng);

// The index in `legal` (non-empty) of the action the policy plays.
std::size_t choose(const Policy& policy, const Game& game, const std::vector<Action>& legal, Rng& rng);

// The value `net` gives each play of `legal` (in play; the heuristic's plan in its plan
// column when the network reads one), into `values`: what the neural policy maximises.
void neural_play_values(const Network& net, const Game& game, const std::vector<Action>& legal, std::vector<float>& values);

// The neural policy's choice with the networks `net` (whose play_error is empty for the game's rules).
std::size_t choose_neural(const Network& net, const Game& game, const std::vector<Action>& legal, Endgame endgame);

}  // namespace ddz
