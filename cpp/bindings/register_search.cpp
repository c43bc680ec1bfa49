// Search support for Python: determinized worlds, the exact endgame solver, playouts and
// batch rollouts.
// Each call checks its arguments, then runs in C++ with the GIL released.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <limits>
#include <new>

#include "bindings/convert.hpp"
#include "bindings/gil_released.hpp"
#include "bindings/signals.hpp"
#include "play/ismcts.hpp"
#include "play/playout.hpp"
#include "play/rollouts.hpp"
#include "search/solver.hpp"
#include "search/worlds.hpp"

namespace ddz::py_bind {

namespace {

constexpr long long kMaxNodes = 0x7FFF'FFFF'FFFF'FFFF;
constexpr long long kMaxWorlds = 100'000;  // a world holds its history: about 10 KB without redeals
constexpr long long kMaxTableMegabytes = 1 << 16;
constexpr long long kMaxRollouts = 100'000'000;  // rows of one batch: 3.2 GB of payouts at most

// The games of a batch: one Game, or a sequence of them (a list from sample_worlds),
// copied, so that another thread may step them while the batch plays. `copies` is checked
// against the batch's size before anything is copied.
std::vector<Game> rollout_games(py::handle games, long long copies) {
  if (is_exactly<Game>(games) || py::isinstance<Game>(games)) return {value_of<Game>(games)};
  if (!holds_items(games)) {
    throw py::type_error("games must be a Game or a sequence of Games, not " + type_name(games));
  }
  const auto items = py::list(py::reinterpret_borrow<py::object>(games));  // a copy: reading it runs no user code
  if (!items.empty() && static_cast<long long>(items.size()) > kMaxRollouts / copies) {
    throw py::value_error("len(games) x copies: at most " + std::to_string(kMaxRollouts) + " rollouts a call");
  }
  return within_memory("games", static_cast<long long>(items.size()), "games", [&] {
    std::vector<Game> out;
    out.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!is_exactly<Game>(items[i]) && !py::isinstance<Game>(items[i])) {
        throw py::type_error("games[" + std::to_string(i) + "] must be a Game, not " + type_name(items[i]));
      }
      out.push_back(value_of<Game>(items[i]));
    }
    return out;
  });
}

// The payouts as a NumPy array of rows x seats.
py::array_t<std::int64_t> payouts_array(const RolloutPayouts& r) {
  const auto seats = static_cast<py::ssize_t>(r.seats);
  const py::ssize_t rows = seats ? static_cast<py::ssize_t>(r.payouts.size()) / seats : 0;
  py::array_t<std::int64_t> out({rows, seats});
  std::copy(r.payouts.begin(), r.payouts.end(), out.mutable_data());
  return out;
}

py::object outcome_obj(Outcome o) {
  if (o == Outcome::Unknown) return py::none();
  return py::bool_(o == Outcome::Win);
}

py::object winning_move(const SolveResult& r) {
  return r.outcome == Outcome::Win ? interned(r.move) : py::object(py::none());
}

// A SolveResult from its pickled fields (win, move, nodes, seconds), each checked: a won
// result holds its winning Action, no other one holds a move.
SolveResult pickled_solve_result(py::handle state) {
  const py::tuple t = pickled_fields(state, "SolveResult", 4, ErrorKind::Record);
  SolveResult r;
  if (!t[0].is_none()) r.outcome = bool_arg(t[0], "a pickled SolveResult's win") ? Outcome::Win : Outcome::Loss;
  if ((r.outcome == Outcome::Win) != py::isinstance<Action>(t[1]) || (r.outcome != Outcome::Win && !t[1].is_none())) {
    raise(ErrorKind::Record, "a pickled SolveResult holds a winning Action when its win is True, and None otherwise");
  }
  if (r.outcome == Outcome::Win) r.move = value_of<Action>(t[1]);
  r.nodes = int_arg(t[2], "a pickled SolveResult's nodes", 0, std::numeric_limits<std::int64_t>::max());
  r.seconds = real_arg(t[3], "a pickled SolveResult's seconds", 0.0, kMaxSeconds);
  return r;
}

// The search limits, table size and threads, checked.
SolveOptions options_arg(py::handle time_limit, py::handle node_limit, py::handle tt_megabytes, py::handle threads) {
  SolveOptions o;
  if (!time_limit.is_none()) {
    o.time_limit = real_arg(time_limit, "time_limit", 0.0, kMaxSeconds, "of seconds ", true);  // 0 would mean none
  }
  if (!node_limit.is_none()) o.node_limit = int_arg(node_limit, "node_limit", 1, kMaxNodes);
  o.tt_bytes = static_cast<std::size_t>(int_arg(tt_megabytes, "tt_megabytes", 1, kMaxTableMegabytes)) << 20;
  // Reserved up front and filled by a long search (two threads fill it whole).
  check_fits_memory("tt_megabytes", o.tt_bytes, std::to_string(o.tt_bytes >> 20) + " MB");
  o.threads = static_cast<int>(int_arg(threads, "threads", 1, kMaxSearchThreads));
  return o;
}

// Runs `body` without the GIL (interruptible); memory running out (the tables' most of
// it, and what else the search holds is bounded by them) is a ValueError.
template <class F>
auto without_gil(F&& body, std::size_t tt_bytes) {
  try {
    return interruptible(body);
  } catch (const std::bad_alloc&) {
    throw py::value_error("tt_megabytes: out of memory for the search with tables of " + std::to_string(tt_bytes >> 20) + " MB");
  }
}

const char* const kSolveDoc = R"doc(Solves a position in play with every hand known: does the side to move win?

The side to move is the landlord, or the peasants together (either peasant going out
wins for both); two-hand positions (Game.from_position with two hands) are the landlord
against one opponent. Exact: first a search for short wins of either side (alpha-beta
on win/loss), then proof-number search (df-pn), over transposition tables of
`tt_megabytes` (1..65,536, and at most the machine's memory). `time_limit` (seconds) and `node_limit` (positions) stop the
search with ``win=None``; Ctrl-C stops it with KeyboardInterrupt. With `threads` above 1, a search that one thread has not settled in
32,768 nodes goes on with that many threads over one table, one from the root, the others
sharing out the root's moves
(the same answer; the nodes and the winning move found may differ from run to run). Raises
ValueError for a game still in bidding or over.)doc";

}  // namespace

void register_search(py::module_& m) {
  public_class<SolveResult>(m, "SolveResult", R"doc(What solve() found (immutable).

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
          })
      // A value: equal field for field, copied and pickled whole (a process pool's solves
      // come back to their caller pickled).
      .def("__eq__", [](const SolveResult& a, py::handle b) -> py::object {
            if (!py::isinstance<SolveResult>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            const SolveResult& o = value_of<SolveResult>(b);
            return py::bool_(a.outcome == o.outcome && (a.outcome != Outcome::Win || a.move == o.move) && a.nodes == o.nodes &&
                             a.seconds == o.seconds);
          })
      .def("__copy__", [](const SolveResult& r) { return r; })
      .def("__deepcopy__", [](const SolveResult& r, py::handle) { return r; }, py::arg("memo"))
      .def(py::pickle([](const SolveResult& r) { return py::make_tuple(outcome_obj(r.outcome), winning_move(r), r.nodes, r.seconds); },
                      [](py::handle state) { return pickled_solve_result(state); }));

  m.def("solve", [](GameArg game_obj, OptionalFloatArg time_limit, OptionalIntArg node_limit, IntArg tt_megabytes,
                    IntArg threads) {
          const Game& game = game_arg(game_obj);
          const SolveOptions o = options_arg(time_limit, node_limit, tt_megabytes, threads);
          const State state = game.state();  // copies: another thread may step the game meanwhile
          const Rules rules = game.rules();
          return without_gil([&] { return solve(state, rules, o); }, o.tt_bytes);
        }, py::arg("game"), py::arg("time_limit") = py::none(), py::arg("node_limit") = py::none(),
        py::arg("tt_megabytes") = 64, py::arg("threads") = 1, kSolveDoc);

  m.def("solve_moves", [](GameArg game_obj, OptionalFloatArg time_limit, OptionalIntArg node_limit, IntArg tt_megabytes,
                          IntArg threads) {
          const Game& game = game_arg(game_obj);
          const SolveOptions o = options_arg(time_limit, node_limit, tt_megabytes, threads);
          const State state = game.state();
          const Rules rules = game.rules();
          const MovesResult r = without_gil([&] { return solve_moves(state, rules, o); }, o.tt_bytes);
          py::list out;
          for (const MoveOutcome& mo : r.moves) out.append(py::make_tuple(interned(mo.action), outcome_obj(mo.outcome)));
          return out;
        }, py::arg("game"), py::arg("time_limit") = py::none(), py::arg("node_limit") = py::none(),
        py::arg("tt_megabytes") = 64, py::arg("threads") = 1,
        "Every legal action of a solvable position (as solve) with whether the side taking it then wins, in the order "
        "of game.legal_actions(); None for those a limit left unsolved. One table serves all of them, and `threads` "
        "threads share out the actions.");

  m.attr("MAX_WORLDS") = kMaxWorlds;  // sample_worlds' n, and the worlds of a bot's decision
  m.def("sample_worlds", [](GameArg game_obj, IntArg seat, IntArg n, OptionalIntArg seed) {
          const Game& game = game_arg(game_obj);
          const int s = seat_from(seat, game.state().seats, "seat");
          const auto count = static_cast<int>(int_arg(n, "n", 0, kMaxWorlds));
          const std::uint64_t sd = seed_arg(seed);
          const Game source = game;
          std::vector<Game> worlds = within_memory("n", count, "worlds of this game", [&] {
            return interruptible([&] { return sample_worlds(source, s, count, sd); });
          });
          py::list out;
          for (Game& w : worlds) out.append(py::cast(std::move(w)));
          return out;
        }, py::arg("game"), py::arg("seat"), py::arg("n"), py::arg("seed") = 0,
        R"doc(`n` complete games that `seat` cannot tell from `game`.

Each keeps `seat`'s hand, every card played and by whom, the hand sizes, the shown kitty
(its cards the landlord has not played stay with the landlord), the rules and every
action of the current deal; the other cards are dealt afresh among the other hands (and
the face-down cards: the hidden kitty while bidding, Run Fast's cards set aside), every
arrangement equally likely as far as what the seat saw allows: under Run Fast worlds are
weighed by who led first, and a world that 256 draws miss under must-beat or the
single-card warning is mended by moving cards, not weighed exactly (docs/rules.md). In a
game from a position the cards outside every hand were out of play before it, so a
two-hand position has only itself as a world. Same seed, same worlds.)doc");

  public_class<IsmctsResult>(m, "IsmctsResult", R"doc(What ismcts() found (immutable).

actions: the legal actions, in the order of game.legal_actions(); visits: the simulations
of each; value: each one's mean result for the seat to move (+1 its side won, -1 it lost,
0 a void hand; 0.0 for an action never simulated); best: the action simulated most.)doc")
      .def_property_readonly("actions", [](const IsmctsResult& r) {
        py::list out;
        for (const Action& a : r.actions) out.append(interned(a));
        return out;
      })
      .def_property_readonly("visits", [](const IsmctsResult& r) { return py::array_t<std::int64_t>(static_cast<py::ssize_t>(r.visits.size()), r.visits.data()); })
      .def_property_readonly("value", [](const IsmctsResult& r) { return py::array_t<double>(static_cast<py::ssize_t>(r.value.size()), r.value.data()); })
      .def_property_readonly("best", [](const IsmctsResult& r) { return interned(r.actions[r.best]); })
      .def("__repr__", [](const IsmctsResult& r) {
            std::int64_t simulations = 0;
            for (const std::int64_t v : r.visits) simulations += v;
            return "IsmctsResult(best=" + std::string(py::repr(interned(r.actions[r.best]))) + ", actions=" +
                   std::to_string(r.actions.size()) + ", simulations=" + std::to_string(simulations) + ")";
          });

  m.def("ismcts", [](GameArg game_obj, OptionalIntArg simulations, PolicyArg rollout, FloatArg exploration, OptionalIntArg seed,
                     IntArg threads, OptionalFloatArg seconds, LeafArg leaf) {
          const Game& game = game_arg(game_obj);
          Policy policy{PolicyKind::Ismcts};
          policy.search = search_params_arg(simulations, seconds, rollout, exploration, threads, leaf, policy.network);
          check_policy(policy, game.rules());  // a network that cannot play these rules: NetworkError
          const IsmctsOptions o = ismcts_options(policy, seed_arg(seed));
          if (std::string why = ismcts_error(game, o); !why.empty()) throw py::value_error(why);
          const Game copy = game;  // another thread may step the game meanwhile
          return interruptible([&] { return ismcts(copy, o); });
        }, py::arg("game"), py::arg("simulations") = 1000, py::arg("rollout") = "fast_heuristic", py::arg("exploration") = 0.7,
        py::arg("seed") = 0, py::arg("threads") = 1, py::arg("seconds") = py::none(), py::arg("leaf") = "rollout",
        R"doc(Information-set Monte-Carlo tree search from the seat to move (single-observer ISMCTS,
Cowling, Powley and Whitehouse 2012): each simulation deals the cards that seat cannot see
afresh (as sample_worlds), walks one tree of that seat's information set, and plays on by
the built-in `rollout` policy. Root-parallel on `threads`; the same seed, simulations and
threads give the same result. With `seconds` the search also ends once that much wall time
has passed (after one simulation at least, the first thread's), and is no longer
repeatable; `simulations=None` with `seconds`: a budget of time alone. leaf="values": a new
node in play is valued by the learned policy's networks (the rollout's if it is "neural" or
a Neural bot, else the shipped ones: the best of the values of the legal actions there, for
the side to move) instead of played out; NetworkError where they cannot play the rules.
Raises ValueError for a hand that is over.)doc");

  m.def("rollouts", [](Hinted<"Game | Sequence[Game]"> games_obj, PoliciesArg policy, OptionalIntArg seed, IntArg threads, IntArg copies,
                       OptionalIntArg seat) {
          RolloutOptions o;
          o.copies = int_arg(copies, "copies", 1, kMaxRollouts);
          std::vector<Game> games = rollout_games(games_obj, o.copies);
          const int seats = games.empty() ? 3 : games.front().state().seats;
          o.policies = named_errors("policy", [&] { return policies_arg(policy, seats); });  // not the seed's: a bot's
          o.seed = seed_arg(seed);
          o.threads = static_cast<int>(int_arg(threads, "threads", 1, 256));
          o.seat = seat.is_none() ? -1 : seat_from(seat, seats, "seat");
          for (std::size_t g = 0; g < games.size(); ++g) {
            if (g == 0 || !(games[g].rules() == games[g - 1].rules())) check_policies(o.policies, games[g].rules());  // NetworkError
          }
          if (auto why = rollouts_error(games, o); !why.empty()) throw py::value_error(why);
          return payouts_array(interruptible([&] { return rollouts(std::move(games), o); }));
        }, py::arg("games"), py::arg("policy") = "random", py::kw_only(), py::arg("seed") = 0, py::arg("threads") = 1,
        py::arg("copies") = 1, py::arg("seat") = py::none(),
        R"doc(Plays games to the end by a built-in policy and returns their payouts: an int64 array
of len(games) x copies rows (one Game counts as a list of one), one column per seat.

Row r plays copy r % copies of games[r // copies]. With `seat`, each row first deals the
cards that seat cannot see afresh (a world, as sample_worlds draws), so
rollouts(game, copies=n, seat=s) values the position for seat s over n worlds; without,
each row plays the game as it is. `policy` is one built-in policy name or one per seat.
The games are copied, not changed, and play on `threads` threads without the GIL; row r
draws only from its own stream of `seed`, so the same seed gives the same array whatever
the threads. A void hand pays zero; a hand already over pays its result. The games
must have the same number of seats; an empty batch gives shape (0, 0).)doc");

  m.def("playout", [](GameArg game_obj, PoliciesArg policy, OptionalIntArg seed) {
          const Game& game = game_arg(game_obj);
          const auto policies = named_errors("policy", [&] { return policies_arg(policy, game.state().seats); });
          check_policies(policies, game.rules());
          const std::uint64_t stream = seed_arg(seed);
          Game copy = game;
          return interruptible([&] { return playout(std::move(copy), policies, stream); });  // a searching bot: long
        }, py::arg("game"), py::arg("policy") = "heuristic", py::arg("seed") = 0,
        "A copy of `game` played to the end by a built-in policy (one name, or one per seat); for rollouts.");
}

}  // namespace ddz::py_bind
