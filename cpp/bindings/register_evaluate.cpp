// Evaluation and bots for Python: DouZero's protocol between built-in policies in C++
// (GIL released), the seats of a game played by built-in policies, and can_play. The
// statistics are Python's (evaluate.py).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/convert.hpp"
#include "play/evaluate.hpp"

namespace ddz::py_bind {

namespace {

constexpr long long kMaxDeals = 100'000'000;

py::dict evaluate_builtin(py::handle a, py::handle b, py::handle deals_obj, py::handle rules, py::handle seed, py::handle threads) {
  const Policy pa = policy_arg(a), pb = policy_arg(b);
  const Rules& r = to_rules(rules);
  const auto deals = int_arg(deals_obj, "deals", 1, kMaxDeals);  // no deal, no result
  const std::uint64_t s = seed_arg(seed);
  const auto t = static_cast<int>(int_arg(threads, "threads", 1, 256));
  std::vector<EvaluationGame> games;
  {
    py::gil_scoped_release release;
    games = evaluate(pa, pb, r, deals, s, t);
  }
  py::dict out;
  out["deal"] = column<std::int64_t>(games, [](const EvaluationGame& g) { return g.deal; });
  out["seat"] = column<std::int8_t>(games, [](const EvaluationGame& g) { return g.seat; });
  out["swapped"] = column<bool>(games, [](const EvaluationGame& g) { return g.swapped; });
  out["landlord"] = column<std::int8_t>(games, [](const EvaluationGame& g) { return g.landlord; });
  out["a_score"] = column<std::int64_t>(games, [](const EvaluationGame& g) { return g.a_score; });
  out["multiplier"] = column<std::int32_t>(games, [](const EvaluationGame& g) { return g.multiplier; });
  out["bombs"] = column<std::int32_t>(games, [](const EvaluationGame& g) { return g.bombs; });
  return out;
}

}  // namespace

void register_evaluate(py::module_& m) {
  m.def("evaluate_builtin", &evaluate_builtin, py::arg("a"), py::arg("b"), py::arg("deals"), py::arg("rules") = py::none(),
        py::arg("seed") = 0, py::arg("threads") = 1,
        "Every game of an evaluation between two built-in policies (evaluate.hpp), as NumPy columns.");
  m.def("evaluation_deal", [](py::handle rules, py::handle seed, py::handle deal) {
          const Rules& r = to_rules(rules);
          const EvaluationDeal d = evaluation_deal(r, seed_arg(seed), int_arg(deal, "deal", 0, kMaxDeals));
          return py::make_tuple(d.deal_seed, d.policy_seed, d.first_bidder, py::tuple(py::cast(d.seats)));
        }, py::arg("rules"), py::arg("seed"), py::arg("deal"),
        "(deal seed, policy stream, first bidder, seats played alone) of an evaluation's deal.");
  m.def("play_builtin_seats", [](py::handle game_obj, py::handle policies, py::handle stream) {
          Game& game = game_arg(game_obj);
          const SeatPolicies seats = policies_arg(policies, game.state().seats, true);
          check_policies(seats, game.rules());
          const std::uint64_t s = seed_arg(stream, "stream");
          py::gil_scoped_release release;
          play_seats(game, seats, s);
        }, py::arg("game"), py::arg("policies"), py::arg("stream"),
        "Plays the seats with a built-in policy until a seat with None is to move or the hand is over.");
  m.def("play_error", [](py::handle hand, py::handle play, py::handle last, py::handle rules, py::handle wild) {
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
