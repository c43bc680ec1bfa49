// Self-play for Python: whole games in C++ on a thread pool, the GIL released, results
// as NumPy arrays (one row per game; with record, every action as ACTION_DTYPE rows).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <new>
#include <stdexcept>

#include "../selfplay.hpp"
#include "convert.hpp"

namespace ddz::py_bind {

namespace {

py::dtype action_dtype() {
  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<py::dtype> storage;
  return storage
      .call_once_and_store_result([] {
        py::dict spec;
        spec["names"] = py::make_tuple("cards", "kind", "key", "length", "type", "value", "seat", "subs");
        spec["formats"] = py::make_tuple("<u8", "u1", "u1", "u1", "u1", "u1", "u1", "<u2");
        spec["offsets"] = py::make_tuple(offsetof(ActionRow, cards), offsetof(ActionRow, kind), offsetof(ActionRow, key),
                                         offsetof(ActionRow, length), offsetof(ActionRow, type),
                                         offsetof(ActionRow, value), offsetof(ActionRow, seat), offsetof(ActionRow, subs));
        spec["itemsize"] = sizeof(ActionRow);
        return py::dtype::from_args(spec);
      })
      .get_stored();
}

template <class T, class F>
py::array_t<T> column(const std::vector<GameSummary>& games, F field) {
  py::array_t<T> out(static_cast<py::ssize_t>(games.size()));
  T* data = out.mutable_data();
  for (std::size_t i = 0; i < games.size(); ++i) data[i] = static_cast<T>(field(games[i]));
  return out;
}

template <class T, class F>
py::array_t<T> columns(const std::vector<GameSummary>& games, int width, F field) {
  py::array_t<T> out({static_cast<py::ssize_t>(games.size()), static_cast<py::ssize_t>(width)});
  T* data = out.mutable_data();
  for (std::size_t i = 0; i < games.size(); ++i) {
    for (int j = 0; j < width; ++j) data[i * static_cast<std::size_t>(width) + static_cast<std::size_t>(j)] = static_cast<T>(field(games[i], j));
  }
  return out;
}

PolicyKind policy_arg(const std::string& name) {
  const auto kind = policy_named(name);
  if (!kind) throw py::value_error("unknown policy '" + name + "'; built-in policies: random, heuristic");
  return *kind;
}

}  // namespace

std::array<PolicyKind, kMaxSeats> policies_arg(py::handle policy, int players) {
  std::array<PolicyKind, kMaxSeats> kinds{};
  if (py::isinstance<py::str>(policy)) {
    kinds.fill(policy_arg(policy.cast<std::string>()));
    return kinds;
  }
  const auto names = policy.cast<std::vector<std::string>>();
  if (names.size() != static_cast<std::size_t>(players)) {
    throw py::value_error("give one policy, or one per seat (" + std::to_string(players) + ")");
  }
  for (std::size_t i = 0; i < names.size(); ++i) kinds[i] = policy_arg(names[i]);
  return kinds;
}

namespace {

py::dict run(std::int64_t games, py::handle policy, std::uint64_t seed, int threads, py::handle rules, bool record,
             std::uint64_t first) {
  if (games < 0) throw py::value_error("games cannot be negative");
  if (threads < 1) throw py::value_error("threads must be at least 1");
  const Rules& r = to_rules(rules);
  SelfPlayOptions options{games, seed, first, threads, policies_arg(policy, r.players), r, record};
  const int players = r.players;
  SelfPlayResult result;
  try {
    py::gil_scoped_release release;
    result = self_play(options);
  } catch (const std::length_error&) {
    throw py::value_error("games: " + std::to_string(games) + " games are more than memory can hold");
  } catch (const std::bad_alloc&) {
    throw py::value_error("games: " + std::to_string(games) + " games are more than memory can hold");
  }
  const auto& g = result.games;
  py::dict out;
  out["hands"] = columns<std::uint64_t>(g, players, [](const GameSummary& s, int j) { return s.deal.hands[static_cast<std::size_t>(j)]; });
  out["kitty"] = column<std::uint64_t>(g, [](const GameSummary& s) { return s.deal.kitty; });
  out["landlord"] = column<std::int8_t>(g, [](const GameSummary& s) { return s.landlord; });
  out["landlord_won"] = column<bool>(g, [](const GameSummary& s) { return s.landlord_won; });
  out["base"] = column<std::int32_t>(g, [](const GameSummary& s) { return s.base; });
  out["multiplier"] = column<std::int32_t>(g, [](const GameSummary& s) { return s.multiplier; });
  out["moves"] = column<std::int32_t>(g, [](const GameSummary& s) { return s.moves; });
  out["redeals"] = column<std::int32_t>(g, [](const GameSummary& s) { return s.redeals; });
  out["wild"] = column<std::int8_t>(g, [](const GameSummary& s) { return s.deal.wild; });
  out["payouts"] = columns<std::int64_t>(g, players, [](const GameSummary& s, int j) { return s.payouts[static_cast<std::size_t>(j)]; });
  if (record) {
    out["actions"] = structured_rows(action_dtype(), result.actions.data(), result.actions.size(), sizeof(ActionRow));
    out["offsets"] = py::array_t<std::int64_t>(static_cast<py::ssize_t>(result.offsets.size()), result.offsets.data());
  }
  return out;
}

}  // namespace

void register_selfplay(py::module_& m) {
  m.attr("ACTION_DTYPE") = action_dtype();
  m.def("selfplay", &run, py::arg("games"), py::arg("policy") = "random", py::arg("seed") = 0, py::arg("threads") = 1,
        py::arg("rules") = py::none(), py::arg("record") = false, py::arg("first") = 0,
        "Whole games in C++ on `threads` threads without the GIL; a dict of NumPy arrays.");
  m.def("choose_action", [](const Game& game, const std::string& policy, std::uint64_t seed) {
          const PolicyKind kind = policy_arg(policy);
          const auto legal = game.legal_actions();
          if (legal.empty()) throw py::value_error("the hand is over");
          Rng rng(seed);
          return legal[choose(kind, game, legal, rng)];
        }, py::arg("game"), py::arg("policy"), py::arg("seed"), "The action a built-in policy plays in `game`.");
  m.def("game_seed", &game_seed, py::arg("seed"), py::arg("index"), "The deal seed of self-play game `index`.");
  m.def("actions_to_rows", [](py::handle pairs) {
          std::vector<ActionRow> rows;
          for (py::handle pair : py::iter(pairs)) {
            const auto t = pair.cast<py::tuple>();
            if (t.size() != 2 || !py::isinstance<Action>(t[1])) throw py::type_error("expected (seat, Action) pairs");
            rows.push_back(to_row(seat_from(t[0], kMaxSeats, "seat"), t[1].cast<const Action&>()));
          }
          return structured_rows(action_dtype(), rows.data(), rows.size(), sizeof(ActionRow));
        }, py::arg("pairs"), "ACTION_DTYPE rows for (seat, Action) pairs.");
  m.def("actions_from_rows", [](py::handle rows) {
          Rules wild_rules = widest_rules();  // rows of any game, wild cards included
          wild_rules.wild = true;
          const std::vector<ActionRow> data = rows_from<ActionRow>(rows, action_dtype(), "ACTION_DTYPE", "rows");
          py::list out;
          for (const ActionRow& row : data) {
            if (row.type > static_cast<int>(ActionType::Rob) || row.kind >= kNumMoveKinds || row.seat >= kMaxSeats ||
                !validate_cards(row.cards, widest_rules()).empty()) {
              throw py::value_error("rows: not an action");
            }
            const Action a = from_row(row);
            if (a.type == ActionType::Play && !wilds_error(a.move, wild_rules).empty()) throw py::value_error("rows: not an action");
            out.append(py::make_tuple(int{row.seat}, a));
          }
          return out;
        }, py::arg("rows"), "(seat, Action) pairs for ACTION_DTYPE rows.");
}

}  // namespace ddz::py_bind
