// Self-play for Python: whole games in C++ on a thread pool, the GIL released, results
// as NumPy arrays (one row per game; with record, every action as ACTION_DTYPE rows).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>

#include "bindings/convert.hpp"
#include "bindings/signals.hpp"
#include "bindings/table_run.hpp"
#include "game/record.hpp"
#include "play/selfplay.hpp"

namespace ddz::py_bind {

py::dtype action_dtype() {
  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<py::dtype> storage;
  return storage
      .call_once_and_store_result([] {
        return structured_dtype({"cards", "kind", "key", "length", "type", "value", "seat", "stand_ins", "stand_ins_high"},
                                {"<u8", "u1", "u1", "u1", "u1", "u1", "u1", "<u2", "<u2"},
                                {offsetof(ActionRow, cards), offsetof(ActionRow, kind), offsetof(ActionRow, key),
                                 offsetof(ActionRow, length), offsetof(ActionRow, type), offsetof(ActionRow, value),
                                 offsetof(ActionRow, seat), offsetof(ActionRow, stand_ins), offsetof(ActionRow, stand_ins_high)},
                                sizeof(ActionRow));
      })
      .get_stored();
}

namespace {

template <class T, class F>
py::array_t<T> columns(const std::vector<GameSummary>& games, int width, F field) {
  py::array_t<T> out({static_cast<py::ssize_t>(games.size()), static_cast<py::ssize_t>(width)});
  T* data = out.mutable_data();
  for (std::size_t i = 0; i < games.size(); ++i) {
    for (int j = 0; j < width; ++j) data[i * static_cast<std::size_t>(width) + static_cast<std::size_t>(j)] = static_cast<T>(field(games[i], j));
  }
  return out;
}

}  // namespace

SeatPolicies policies_arg(py::handle policy, int players, bool empty_seats) {
  if (plays_in_core(policy)) return every_seat(policy_arg(policy));
  if (!holds_items(policy)) {
    throw py::type_error("policy must be a built-in policy name or built-in bot, or one per seat, not " + type_name(policy));
  }
  const auto names = py::list(py::reinterpret_borrow<py::object>(policy));  // a copy: reading it runs no user code
  if (names.size() != static_cast<std::size_t>(players)) {
    throw py::value_error("policy: give one policy, or one per seat (" + std::to_string(players) + ")");
  }
  SeatPolicies kinds{};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!(empty_seats && names[i].is_none())) kinds[i] = policy_arg(names[i]);
  }
  return kinds;
}

namespace {

constexpr long long kMaxGames = 1'000'000'000'000;

// The actions built-in policy `policy` chooses among in `game`: refuses a policy the rules
// cannot play and a hand that is over.
std::vector<Action> choices_of(const Game& game, const Policy& policy) {
  check_policy(policy, game.rules());
  auto legal = game.legal_actions();
  if (legal.empty()) raise(ErrorKind::IllegalAction, "the hand is over: no action to choose");
  return legal;
}

// The action `policy` plays among `legal`, the choices of `game`, on the stream `stream`.
Action action_of(const Game& game, const Policy& policy, const std::vector<Action>& legal, std::uint64_t stream) {
  // The microsecond policies hold the GIL: releasing it (and asking for Ctrl-C) would
  // double their time. The others may search for long, on a copy (another thread may step
  // the game meanwhile) without the GIL, and stop at Ctrl-C.
  if (policy.kind == PolicyKind::Random || policy.kind == PolicyKind::FastHeuristic) return legal[choose_on(policy, game, legal, stream)];
  const Game copy = game;
  return interruptible([&] { return legal[choose_on(policy, copy, legal, stream)]; });
}

// ACTION_DTYPE rows, each an action of some game; MoveError naming the first that is not.
std::vector<ActionRow> checked_rows(py::handle rows) {
  std::vector<ActionRow> data = rows_from<ActionRow>(rows, action_dtype(), "ACTION_DTYPE", "rows");
  for (std::size_t i = 0; i < data.size(); ++i) {
    if (auto why = action_row_error(data[i]); !why.empty()) raise(ErrorKind::Move, "rows[" + std::to_string(i) + "]: " + why);
  }
  return data;
}

// A self-play run's arrays: one row a game; with record, every action as ACTION_DTYPE rows.
py::dict selfplay_arrays(const SelfPlayResult& result, int players, bool record) {
  const auto& g = result.games;
  py::dict out;
  out["hands"] = columns<std::uint64_t>(g, players, [](const GameSummary& s, int j) { return s.deal.hands[static_cast<std::size_t>(j)]; });
  out["kitty"] = column<std::uint64_t>(g, [](const GameSummary& s) { return s.deal.kitty; });
  out["landlord"] = column<std::int8_t>(g, [](const GameSummary& s) { return s.landlord; });
  out["partner"] = column<std::int8_t>(g, [](const GameSummary& s) { return s.partner; });
  out["landlord_won"] = column<bool>(g, [](const GameSummary& s) { return s.landlord_won; });
  out["winner"] = column<std::int8_t>(g, [](const GameSummary& s) { return s.winner; });
  out["base"] = column<std::int32_t>(g, [](const GameSummary& s) { return s.base; });
  out["multiplier"] = column<std::int32_t>(g, [](const GameSummary& s) { return s.multiplier; });
  out["moves"] = column<std::int32_t>(g, [](const GameSummary& s) { return s.moves; });
  out["redeals"] = column<std::int32_t>(g, [](const GameSummary& s) { return s.redeals; });
  out["wild"] = column<std::int8_t>(g, [](const GameSummary& s) { return s.deal.wild.low; });
  out["wild_high"] = column<std::int8_t>(g, [](const GameSummary& s) { return s.deal.wild.high; });
  out["payouts"] = columns<std::int64_t>(g, players, [](const GameSummary& s, int j) { return s.payouts[static_cast<std::size_t>(j)]; });
  if (record) {
    out["actions"] = structured_rows(action_dtype(), result.actions.data(), result.actions.size(), sizeof(ActionRow));
    out["offsets"] = py::array_t<std::int64_t>(static_cast<py::ssize_t>(result.offsets.size()), result.offsets.data());
  }
  return out;
}

TableRun selfplay_run(IntArg games_obj, Hinted<"str | object | Sequence[str | object | None]"> policy, OptionalIntArg seed, IntArg threads, RulesArg rules,
                      BoolArg record_obj, IntArg first) {
  const long long games = int_arg(games_obj, "games", 0, kMaxGames);
  const bool record = bool_arg(record_obj, "record");
  const Rules& r = to_rules(rules);
  const SelfPlayOptions options{games, seed_arg(seed), static_cast<std::uint64_t>(int_arg(first, "first", 0, kMaxGames)),
                                static_cast<int>(int_arg(threads, "threads", 1, 256)), policies_arg(policy, r.players, true), r,
                                record};
  auto schedule = within_memory("games", games, "games", [&] { return std::make_unique<SelfPlaySchedule>(options); });
  SelfPlaySchedule* summaries = schedule.get();
  TableRun run{std::make_unique<TableRunner>(std::move(schedule), options.threads), {}};
  const TableRunner* runner = run.runner.get();
  const int players = r.players;
  run.result = [summaries, runner, players, record, games, taken = false]() mutable {
    if (taken) throw py::value_error("the run's games were taken by an earlier result()");  // moved out, not copied
    if (!runner->over()) throw py::value_error("the run is not over: advance() until no table waits");
    taken = true;
    return arrays_within_memory("games", games, "games' results",
                         [&] { return selfplay_arrays(summaries->take_result(), players, record); });
  };
  return run;
}

}  // namespace

void register_selfplay(py::module_& m) {
  m.attr("ACTION_DTYPE") = action_dtype();
  py::list policies;
  for (const auto& named : kPolicyNames) policies.append(std::string(named.first));
  m.attr("POLICIES") = py::tuple(policies);
  m.def("selfplay_run", &selfplay_run, py::arg("games"), py::arg("policy") = "random", py::arg("seed") = 0,
        py::arg("threads") = 1, py::arg("rules") = py::none(), py::arg("record") = false, py::arg("first") = 0,
        "A self-play run as a TableRun: a built-in policy per seat, or None for a Python player's seat.");
  m.def("plays_in_core", [](py::handle policy) { return plays_in_core(policy); }, py::arg("policy"),
        "Whether the engine plays `policy` in C++: a policy name, or a built-in bot (its class names its C++ "
        "policy) that keeps its class's act and act_many.");
  m.def("check_policy", [](PolicyArg policy, RulesArg rules) { check_policy(policy_arg(policy), to_rules(rules)); },
        py::arg("policy"), py::arg("rules"),
        "Refuses a built-in policy (a name, or a built-in bot with its parameters) that cannot play under `rules`, as "
        "a run would at its first decision: TypeError or ValueError naming the parameter, NetworkError for networks "
        "of another setting.");
  m.def("check_bot_parameters", [](py::handle bot) {
          if (std::string why = search_params_error(bot_policy_arg(bot)); !why.empty()) throw py::value_error(why);
        }, py::arg("bot"),
        "Refuses a built-in bot's parameters (a subclass's too) as its act would: TypeError or ValueError naming the "
        "parameter, whatever the rules (what its networks can play is check_policy's).");
  m.def("choose_action", [](GameArg game_obj, PolicyArg policy, IntArg seed) {
          const Game& game = game_arg(game_obj);
          const Policy p = named_errors("policy", [&] { return policy_arg(policy); });  // a bot's seed is not `seed`
          const auto legal = choices_of(game, p);
          return action_of(game, p, legal, given_seed_arg(seed));
        }, py::arg("game"), py::arg("policy"), py::arg("seed"),
        "The action a built-in policy plays in `game` on the stream `seed`: what selfplay's games play there.");
  m.def("_builtin_bot_action", [](GameArg game_obj, py::handle bot, Hinted<"int | Callable[[], int]"> seed) {
          const Game& game = game_arg(game_obj);
          const Policy p = bot_policy_arg(bot);
          const auto legal = choices_of(game, p);
          // A callable seed is drawn only now, so that a refused call leaves a bot's stream where it was.
          const py::object drawn = PyCallable_Check(seed.ptr()) ? seed() : py::reinterpret_borrow<py::object>(seed);
          return action_of(game, p, legal, given_seed_arg(drawn));
        }, py::arg("game"), py::arg("bot"), py::arg("seed"),
        "choose_action for the built-in bots' own act: the policy their class names, whatever act the bot has "
        "(a subclass's act may call the built-in's); `seed` may be a callable, called once the call is checked.");
  m.def("heuristic_plan", [](GameArg game_obj) {
          const Game& game = game_arg(game_obj);
          const auto legal = game.legal_actions();
          if (legal.empty()) raise(ErrorKind::IllegalAction, "the hand is over: no action to choose");
          return legal[choose_heuristic(game, legal, Endgame::Plan)];
        }, py::arg("game"),
        "The action the fast heuristic's plan plays in `game`, before the rule every built-in policy but random "
        "follows of going out when it can: the plan column the networks read (teacher samples' `planned`).");
  m.def("game_seed", [](IntArg seed, IntArg index) { return game_seed(given_seed_arg(seed), given_seed_arg(index, "index")); },
        py::arg("seed"), py::arg("index"), "The deal seed of self-play game `index`.");
  m.def("selfplay_deal", [](RulesArg rules, IntArg seed, IntArg index) {
          const SelfPlayDeal d = selfplay_deal(to_rules(rules), given_seed_arg(seed), given_seed_arg(index, "index"));
          return py::make_tuple(d.deal_seed, d.first_bidder, d.policy_stream);
        }, py::arg("rules"), py::arg("seed"), py::arg("index"),
        "(deal seed, first bidder, built-in policies' stream) of self-play game `index`.");
  m.def("checked_seed", [](OptionalIntArg seed, bool none_draws) { return none_draws ? seed_arg(seed) : given_seed_arg(seed); },
        py::arg("seed"), py::kw_only(), py::arg("none_draws") = true,
        "The seed argument as every call reads it: an int in 0..2**64-1 (None: a random one, or a TypeError where "
        "`none_draws` is False, for a seed that names what it derives).");
  m.def("is_real", [](py::handle value) { return is_real_like(value); }, py::arg("value"),
        "Whether `value` is a real number as every call reads them: a float, an int or a NumPy integer or floating "
        "scalar; never a bool, an enum member, a timedelta64, a Fraction or a Decimal.");
  m.def("checked_rules", [](RulesArg rules) { return to_rules(rules); }, py::arg("rules"),
        "The rules argument as every call reads it: a Rules (None: the standard rules); TypeError otherwise.");
  m.def("checked_int", [](IntArg value, Hinted<"str"> what, IntArg lo, IntArg hi) {
          constexpr long long kWidest = std::numeric_limits<long long>::max();
          return int_arg(value, text_arg(what, "what").c_str(), int_arg(lo, "lo", -kWidest, kWidest), int_arg(hi, "hi", -kWidest, kWidest));
        }, py::arg("value"), py::arg("what"), py::arg("lo"), py::arg("hi"),
        "An int argument as every call reads it (an int or a NumPy integer, never a bool or an enum) in lo..hi.");
  m.def("actions_to_rows", [](Hinted<"Sequence[tuple[int, Action]]"> pairs) {
          std::vector<ActionRow> rows;
          for (py::handle pair : py::iter(pairs)) {
            if (!py::isinstance<py::tuple>(pair)) throw py::type_error("expected (seat, Action) pairs, not " + type_name(pair));
            const auto t = py::reinterpret_borrow<py::tuple>(pair);
            if (t.size() != 2 || !py::isinstance<Action>(t[1])) throw py::type_error("expected (seat, Action) pairs");
            rows.push_back(to_row(seat_from(t[0], kMaxSeats, "seat"), t[1].cast<const Action&>()));
          }
          return structured_rows(action_dtype(), rows.data(), rows.size(), sizeof(ActionRow));
        }, py::arg("pairs"), "ACTION_DTYPE rows for (seat, Action) pairs.");
  m.def("actions_from_rows", [](RowsArg rows) {
          py::list out;
          for (const ActionRow& row : checked_rows(rows)) out.append(py::make_tuple(int{row.seat}, from_row(row)));
          return out;
        }, py::arg("rows"), "(seat, Action) pairs for ACTION_DTYPE rows.");
  m.def("check_action_rows", [](RowsArg rows) { checked_rows(rows); }, py::arg("rows"),
        "Refuses ACTION_DTYPE rows as actions_from_rows does (MoveError naming the first that is no action), without\n"
        "making the actions: for files of many.");
}

}  // namespace ddz::py_bind
