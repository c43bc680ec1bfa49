// Teacher data (teacher.hpp) for the trainer's warm start: C++ games, rollouts and
// features without the GIL, returned as NumPy columns.
#include <pybind11/numpy.h>

#include "bindings/convert.hpp"
#include "bindings/signals.hpp"
#include "play/teacher.hpp"

namespace ddz::py_bind {

namespace {

double share_arg(py::handle obj, const char* what) { return real_arg(obj, what, 0.0, 1.0); }

template <class T>
py::array_t<T> array_of(std::vector<T>&& values, std::int64_t rows, int columns) {
  std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(rows)};
  if (columns > 0) shape.push_back(columns);
  py::array_t<T> out(shape);
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

// The arguments both kinds of data take.
void read_run(SampleRun& o, py::handle games, py::handle rules, py::handle seed, py::handle first, py::handle threads,
              py::handle explore) {
  o.rules = to_rules(rules);
  o.games = int_arg(games, "games", 0, 100'000'000);
  o.seed = seed_arg(seed);
  o.first = seed_arg(first, "first");
  o.threads = static_cast<int>(int_arg(threads, "threads", 1, 256));
  o.explore = share_arg(explore, "explore");
}

py::dict teacher_run(IntArg games, RulesArg rules, OptionalIntArg seed, IntArg first, IntArg threads, PolicyArg teacher,
             PolicyArg rollout, FloatArg explore, FloatArg keep, IntArg max_actions) {
  TeacherOptions o;
  read_run(o, games, rules, seed, first, threads, explore);
  o.teacher = policy_arg(teacher);
  o.rollout = policy_arg(rollout);
  o.keep = share_arg(keep, "keep");
  o.max_actions = static_cast<int>(int_arg(max_actions, "max_actions", 1, 1'000'000));
  if (std::string why = teacher_error(o); !why.empty()) throw py::value_error(why);
  TeacherSamples s = interruptible([&] { return teacher_samples(o); });
  const auto positions = static_cast<std::int64_t>(s.positions()), actions = static_cast<std::int64_t>(s.actions());
  py::dict out;
  out["x"] = array_of(std::move(s.x), positions, s.x_width);
  out["z"] = array_of(std::move(s.z), positions, s.z_size);
  out["position"] = array_of(std::move(s.position), positions, 0);
  out["game"] = array_of(std::move(s.game), positions, 0);
  out["action"] = array_of(std::move(s.action), actions, s.action_width);
  out["owner"] = array_of(std::move(s.owner), actions, 0);
  out["chosen"] = array_of(std::move(s.chosen), actions, 0);
  out["planned"] = array_of(std::move(s.planned), actions, 0);
  out["win"] = array_of(std::move(s.win), actions, 0);
  out["score"] = array_of(std::move(s.score), actions, 0);
  return out;
}

py::dict bid_run(IntArg games, RulesArg rules, OptionalIntArg seed, IntArg first, IntArg threads, PolicyArg bidder,
                 PolicyArg player, FloatArg explore) {
  BidSampleOptions o;
  read_run(o, games, rules, seed, first, threads, explore);
  o.bidder = policy_arg(bidder);
  o.player = policy_arg(player);
  if (std::string why = bid_sample_error(o); !why.empty()) throw py::value_error(why);
  BidSamples s = interruptible([&] { return bid_samples(o); });
  const auto n = static_cast<std::int64_t>(s.size());
  py::dict out;
  out["features"] = array_of(std::move(s.features), n, s.width);
  out["output"] = array_of(std::move(s.output), n, 0);
  out["legal"] = array_of(std::move(s.legal), n, bid_outputs(o.rules));
  out["payout"] = array_of(std::move(s.payout), n, 0);
  out["game"] = array_of(std::move(s.game), n, 0);
  return out;
}

}  // namespace

void register_teacher(py::module_& m) {
  m.def("teacher_samples", &teacher_run, py::arg("games"), py::arg("rules") = py::none(), py::arg("seed") = 0,
        py::arg("first") = 0, py::arg("threads") = 1, py::arg("teacher") = "fast_heuristic",
        py::arg("rollout") = "fast_heuristic", py::arg("explore") = 0.0, py::arg("keep") = 0.25,
        py::arg("max_actions") = 16,
        "Teacher data (teacher.hpp): positions of games played by `teacher`, several actions of each valued by a\n"
        "`rollout` playout; a dict of NumPy columns.");
  m.def("bid_samples", &bid_run, py::arg("games"), py::arg("rules") = py::none(), py::arg("seed") = 0, py::arg("first") = 0,
        py::arg("threads") = 1, py::arg("bidder") = "heuristic", py::arg("player") = "fast_heuristic",
        py::arg("explore") = 0.0,
        "Auction data (teacher.hpp): every bid of games bid by `bidder` and played by `player`, with the payout\n"
        "its seat ended with; a dict of NumPy columns.");
}

}  // namespace ddz::py_bind
