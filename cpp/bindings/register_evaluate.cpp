// Evaluation for Python: DouZero's protocol on the table runner (built-in seats in C++ with
// the GIL released, Python players' decisions handed out in batches), and can_play. The
// statistics are Python's (evaluation.py).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/convert.hpp"
#include "bindings/table_run.hpp"
#include "play/evaluate.hpp"

namespace ddz::py_bind {

namespace {

constexpr long long kMaxDeals = 100'000'000;

// The columns of an evaluation's games.
py::dict evaluation_columns(const std::vector<EvaluationGame>& games) {
  py::dict out;
  out["deal"] = column<std::int64_t>(games, [](const EvaluationGame& g) { return g.deal; });
  out["seat"] = column<std::int8_t>(games, [](const EvaluationGame& g) { return g.seat; });
  out["swapped"] = column<bool>(games, [](const EvaluationGame& g) { return g.swapped; });
  out["landlord"] = column<std::int8_t>(games, [](const EvaluationGame& g) { return g.landlord; });
  out["partner"] = column<std::int8_t>(games, [](const EvaluationGame& g) { return g.partner; });
  out["a_won"] = column<std::int8_t>(games, [](const EvaluationGame& g) { return g.a_won; });
  out["a_score"] = column<std::int64_t>(games, [](const EvaluationGame& g) { return g.a_score; });
  out["multiplier"] = column<std::int32_t>(games, [](const EvaluationGame& g) { return g.multiplier; });
  out["bombs"] = column<std::int32_t>(games, [](const EvaluationGame& g) { return g.bombs; });
  return out;
}

// A built-in policy, or none (None) for a Python player.
std::optional<Policy> player_arg(py::handle obj) {
  if (obj.is_none()) return std::nullopt;
  return policy_arg(obj);
}

TableRun evaluation_run(Hinted<"str | object | None"> a, Hinted<"str | object | None"> b, IntArg deals_obj, RulesArg rules, OptionalIntArg seed, IntArg threads) {
  const std::optional<Policy> pa = player_arg(a), pb = player_arg(b);
  const Rules& r = to_rules(rules);
  const auto deals = int_arg(deals_obj, "deals", 1, kMaxDeals);  // no deal, no result
  const std::uint64_t s = seed_arg(seed);
  const auto t = static_cast<int>(int_arg(threads, "threads", 1, 256));
  auto schedule = within_memory("deals", deals, "deals", [&] { return std::make_unique<EvaluationSchedule>(pa, pb, r, deals, s); });
  const EvaluationSchedule* games = schedule.get();
  TableRun run{std::make_unique<TableRunner>(std::move(schedule), t), {}};
  const TableRunner* runner = run.runner.get();
  run.result = [games, runner, deals] {
    if (!runner->over()) throw py::value_error("the run is not over: advance() until no table waits");
    return arrays_within_memory("deals", deals, "deals' results", [&] { return evaluation_columns(games->results()); });
  };
  return run;
}

}  // namespace

void register_evaluate(py::module_& m) {
  m.def("evaluation_run", &evaluation_run, py::arg("a"), py::arg("b"), py::arg("deals"), py::arg("rules") = py::none(),
        py::arg("seed") = 0, py::arg("threads") = 1,
        "The games of an evaluation (evaluate.hpp) as a TableRun: a and b built-in policies, or None for a Python player.");
  m.def("evaluation_deal", [](RulesArg rules, IntArg seed, IntArg deal) {
          const EvaluationDeal d = evaluation_deal(to_rules(rules), given_seed_arg(seed), int_arg(deal, "deal", 0, kMaxDeals));
          return py::make_tuple(d.deal_seed, d.policy_seed, d.first_bidder, py::tuple(py::cast(d.seats)));
        }, py::arg("rules"), py::arg("seed"), py::arg("deal"),
        "(deal seed, policy stream, first bidder, seats played alone) of an evaluation's deal.");
  m.def("play_error", [](CardsArg hand, PlayArg play, LastArg last, RulesArg rules, WildArg wild) {
          const Rules& r = to_rules(rules);
          const WildRanks w = wild_arg(wild, r);
          const Mask h = hand_arg(hand, "hand", r);
          const std::optional<Move> l = to_last(last, r, w);
          const Move* beat = l ? &*l : nullptr;
          if (is_exactly<Move>(play) || py::isinstance<Move>(play)) return play_error(h, value_of<Move>(play), beat, r, w);
          if (!py::isinstance<py::str>(play) && !py::isinstance<Cards>(play)) {
            throw py::type_error("play must be a Move, card text or Cards, not " + type_name(play));
          }
          const std::string text = py::isinstance<Cards>(play) ? to_text(value_of<Cards>(play).mask) : text_arg(play, "play", ErrorKind::Cards);
          const Reading reading = read_playable(text, h, beat, r, w);
          if (reading.fault == ReadingFault::Text) raise(ErrorKind::Cards, "play: " + reading.error);
          return reading.error;
        }, py::arg("hand"), py::arg("play"), py::arg("last") = py::none(), py::arg("rules") = py::none(),
        py::arg("wild") = py::none(), "Why `hand` may not play `play` over `last`, or '' when it may.");
}

}  // namespace ddz::py_bind
