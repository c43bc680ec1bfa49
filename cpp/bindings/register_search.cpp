// Search support for Python: determinized worlds, the exact endgame solver and playouts.
// Each call checks its arguments, then runs in C++ with the GIL released.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <new>

#include "bindings/convert.hpp"
#include "play/ismcts.hpp"
#include "play/playout.hpp"
#include "search/solver.hpp"
#include "search/worlds.hpp"

namespace ddz::py_bind {

namespace {

constexpr long long kMaxNodes = 0x7FFF'FFFF'FFFF'FFFF;
constexpr long long kMaxWorlds = 100'000;  // a world holds its history: about 10 KB
constexpr long long kMaxTableMegabytes = 1 << 16;
constexpr double kMaxSeconds = 1e9;  // about 31 years: beyond any search, inside any clock

py::object outcome_obj(Outcome o) {
  if (o == Outcome::Unknown) return py::none();
  return py::bool_(o == Outcome::Win);
}

py::object winning_move(const SolveResult& r) {
  return r.outcome == Outcome::Win ? interned(r.move) : py::object(py::none());
}

// The search limits and table size, checked.
SolveOptions options_arg(py::handle time_limit, py::handle node_limit, py::handle tt_megabytes) {
  SolveOptions o;
  if (!time_limit.is_none()) {
    o.time_limit = real_arg(time_limit, "time_limit", 0.0, kMaxSeconds, "of seconds ");
    if (o.time_limit == 0) throw py::value_error("time_limit must be a positive number of seconds");
  }
  if (!node_limit.is_none()) o.node_limit = int_arg(node_limit, "node_limit", 1, kMaxNodes);
  o.tt_bytes = static_cast<std::size_t>(int_arg(tt_megabytes, "tt_megabytes", 1, kMaxTableMegabytes)) << 20;
  return o;
}

// Runs `body` without the GIL; a table that cannot be allocated is a ValueError.
template <class F>
auto without_gil(F&& body, std::size_t tt_bytes) {
  try {
    py::gil_scoped_release release;
    return body();
  } catch (const std::bad_alloc&) {
    throw py::value_error("tt_megabytes: cannot allocate " + std::to_string(tt_bytes >> 20) + " MB for the table");
  }
}

const char* const kSolveDoc = R"doc(Solves a position in play with every hand known: does the side to move win?

The side to move is the landlord, or the peasants together (either peasant going out
wins for both); two-hand positions (Game.from_position with two hands) are the landlord
against one opponent. Exact: alpha-beta on win/loss with a transposition table of
`tt_megabytes` and move ordering. `time_limit` (seconds) and `node_limit` stop the
search with ``win=None``. Raises ValueError for a game still in bidding or over.)doc";

}  // namespace

void register_search(py::module_& m) {
  bound_class<SolveResult>(m, "SolveResult", R"doc(What solve() found (immutable).

win: True or False for the side to move, None when a limit stopped the search.
move: a winning Action when win is True, else None.
nodes: positions searched; seconds: wall time of the search.)doc")
      .def_property_readonly("win", [](const SolveResult& r) { return outcome_obj(r.outcome); })
      .def_property_readonly("move", &winning_move)
      .def_readonly("nodes", &SolveResult::nodes)
      .def_readonly("seconds", &SolveResult::seconds)
      .def("__repr__", [](const SolveResult& r) {
            return "SolveResult(win=" + std::string(py::repr(outcome_obj(r.outcome))) + ", move=" +
                   std::string(py::repr(winning_move(r))) + ", nodes=" + std::to_string(r.nodes) +
                   ", seconds=" + std::to_string(r.seconds) + ")";
          });

  m.def("solve", [](py::handle game_obj, py::handle time_limit, py::handle node_limit, py::handle tt_megabytes) {
          const Game& game = game_arg(game_obj);
          const SolveOptions o = options_arg(time_limit, node_limit, tt_megabytes);
          const State state = game.state();  // copies: another thread may step the game meanwhile
          const Rules rules = game.rules();
          return without_gil([&] { return solve(state, rules, o); }, o.tt_bytes);
        }, py::arg("game"), py::arg("time_limit") = py::none(), py::arg("node_limit") = py::none(),
        py::arg("tt_megabytes") = 64, kSolveDoc);

  m.def("solve_moves", [](py::handle game_obj, py::handle time_limit, py::handle node_limit, py::handle tt_megabytes) {
          const Game& game = game_arg(game_obj);
          const SolveOptions o = options_arg(time_limit, node_limit, tt_megabytes);
          const State state = game.state();
          const Rules rules = game.rules();
          const MovesResult r = without_gil([&] { return solve_moves(state, rules, o); }, o.tt_bytes);
          py::list out;
          for (const MoveOutcome& mo : r.moves) out.append(py::make_tuple(interned(mo.action), outcome_obj(mo.outcome)));
          return out;
        }, py::arg("game"), py::arg("time_limit") = py::none(), py::arg("node_limit") = py::none(),
        py::arg("tt_megabytes") = 64,
        "Every legal action of a solvable position (as solve) with whether the side taking it then wins, in the order "
        "of game.legal_actions(); None for those a limit left unsolved. One table serves all of them.");

  m.def("sample_worlds", [](py::handle game_obj, py::handle seat, py::handle n, py::handle seed) {
          const Game& game = game_arg(game_obj);
          const int s = seat_from(seat, game.state().seats, "seat");
          const auto count = static_cast<int>(int_arg(n, "n", 0, kMaxWorlds));
          const std::uint64_t sd = seed_arg(seed);
          const Game source = game;
          std::vector<Game> worlds;
          {
            py::gil_scoped_release release;
            worlds = sample_worlds(source, s, count, sd);
          }
          py::list out;
          for (Game& w : worlds) out.append(py::cast(std::move(w)));
          return out;
        }, py::arg("game"), py::arg("seat"), py::arg("n"), py::arg("seed") = 0,
        R"doc(`n` complete games that `seat` cannot tell from `game`, drawn uniformly.

Each keeps `seat`'s hand, every card played and by whom, the hand sizes, the shown kitty
(its cards the landlord has not played stay with the landlord), the rules and every
action of the current deal; the other cards are dealt afresh among the other hands (and
the hidden kitty while bidding), every arrangement equally likely. In a game from a
position the cards outside every hand were out of play before it, so a two-hand
position has only itself as a world. Same seed, same worlds.)doc");

  bound_class<IsmctsResult>(m, "IsmctsResult", R"doc(What ismcts() found (immutable).

actions: the legal actions, in the order of game.legal_actions(); visits: the simulations
of each; value: each one's mean result for the seat to move (+1 won, -1 lost); best: the
action simulated most.)doc")
      .def_property_readonly("actions", [](const IsmctsResult& r) {
        py::list out;
        for (const Action& a : r.actions) out.append(interned(a));
        return out;
      })
      .def_property_readonly("visits", [](const IsmctsResult& r) { return py::array_t<std::int64_t>(static_cast<py::ssize_t>(r.visits.size()), r.visits.data()); })
      .def_property_readonly("value", [](const IsmctsResult& r) { return py::array_t<double>(static_cast<py::ssize_t>(r.value.size()), r.value.data()); })
      .def_property_readonly("best", [](const IsmctsResult& r) { return interned(r.actions[r.best]); });

  m.def("ismcts", [](py::handle game_obj, py::handle simulations, py::handle rollout, py::handle exploration, py::handle seed,
                     py::handle threads) {
          const Game& game = game_arg(game_obj);
          Policy policy{PolicyKind::Ismcts};
          policy.search = search_params_arg(simulations, rollout, exploration, threads, policy.network);
          check_policy(policy, game.rules());  // a network that cannot play these rules: NetworkError
          const IsmctsOptions o = ismcts_options(policy, seed_arg(seed));
          if (std::string why = ismcts_error(game, o); !why.empty()) throw py::value_error(why);
          const Game copy = game;  // another thread may step the game meanwhile
          py::gil_scoped_release release;
          return ismcts(copy, o);
        }, py::arg("game"), py::arg("simulations") = 1000, py::arg("rollout") = "fast_heuristic", py::arg("exploration") = 0.7,
        py::arg("seed") = 0, py::arg("threads") = 1,
        R"doc(Information-set Monte-Carlo tree search from the seat to move (single-observer ISMCTS,
Cowling, Powley and Whitehouse 2012): each simulation deals the cards that seat cannot see
afresh (as sample_worlds), walks one tree of that seat's information set, and plays on by
the built-in `rollout` policy. Root-parallel on `threads`; the same seed, budget and
threads give the same result. Raises ValueError for a hand that is over.)doc");

  m.def("playout", [](py::handle game_obj, py::handle policy, py::handle seed) {
          const Game& game = game_arg(game_obj);
          const auto policies = policies_arg(policy, game.state().seats);
          check_policies(policies, game.rules());
          const std::uint64_t stream = seed_arg(seed);
          Game copy = game;
          py::gil_scoped_release release;
          return playout(std::move(copy), policies, stream);
        }, py::arg("game"), py::arg("policy") = "heuristic", py::arg("seed") = 0,
        "A copy of `game` played to the end by a built-in policy (one name, or one per seat); for rollouts.");
}

}  // namespace ddz::py_bind
