// The table runner for Python: advance (the GIL released), views, apply, result.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <functional>
#include <stdexcept>

#include "bindings/signals.hpp"
#include "bindings/table_run.hpp"

namespace ddz::py_bind {

namespace {

// `run`, refused while another thread advances it.
TableRun& idle(TableRun& run) {
  if (run.advancing) throw std::runtime_error("this TableRun is in use by another thread (in advance())");
  return run;
}

py::tuple advance(TableRun& run) {
  // Cleared on the way out with the GIL held again (the release below ends first).
  struct Advancing {
    bool& flag;
    explicit Advancing(bool& f) : flag(f) { flag = true; }
    ~Advancing() { flag = false; }
  } advancing(idle(run).advancing);
  const std::vector<Waiting> waiting = interruptible([&] { return run.runner->advance(); });  // Ctrl-C: KeyboardInterrupt
  py::array_t<std::int64_t> tables(static_cast<py::ssize_t>(waiting.size()));
  py::array_t<std::int8_t> players(static_cast<py::ssize_t>(waiting.size()));
  for (std::size_t i = 0; i < waiting.size(); ++i) {
    tables.mutable_at(static_cast<py::ssize_t>(i)) = waiting[i].table;
    players.mutable_at(static_cast<py::ssize_t>(i)) = static_cast<std::int8_t>(waiting[i].player);
  }
  return py::make_tuple(tables, players);
}

std::vector<std::int64_t> tables_arg(py::handle obj) {
  std::vector<std::int64_t> tables;
  for (const py::handle t : py::iter(obj)) tables.push_back(int_arg(t, "tables", 0, TableRunner::kTables * 1024));
  return tables;
}

py::list views(TableRun& run, Hinted<"Iterable[int]"> tables_obj) {
  const std::vector<std::int64_t> tables = tables_arg(tables_obj);  // first: reading it may run Python
  const TableRunner& runner = *idle(run).runner;
  py::list out;
  for (const std::int64_t t : tables) out.append(runner.view(t));
  return out;
}

void apply(TableRun& run, Hinted<"Iterable[int]"> tables_obj, Hinted<"Iterable[Action]"> actions_obj) {
  const std::vector<std::int64_t> tables = tables_arg(tables_obj);
  std::vector<Action> actions;
  for (const py::handle a : py::iter(actions_obj)) {
    if (!py::isinstance<Action>(a)) throw py::type_error("actions must hold Action values, not " + type_name(a));
    actions.push_back(a.cast<Action>());
  }
  idle(run).runner->apply(tables, actions);
}

}  // namespace

void register_table_run(py::module_& m) {
  bound_class<TableRun>(m, "TableRun", "A run of the table runner with Python players (evaluate, selfplay).")
      .def("advance", &advance,
           "Plays the built-in seats until every table in play waits on a Python player: (tables, players), empty when the run is over.")
      .def("views", &views, py::arg("tables"), "What the seat to move may know at each table, as a game (the hidden cards re-dealt).")
      .def("apply", &apply, py::arg("tables"), py::arg("actions"), "Applies each table's action; all are checked first.")
      .def_property_readonly("games", [](TableRun& run) { return idle(run).runner->games(); }, "The run's games.")
      .def_property_readonly("finished", [](TableRun& run) { return idle(run).runner->finished(); }, "Games ended so far.")
      .def("result", [](TableRun& run) { return idle(run).result(); }, "The run's arrays (once advance() returns no table).");
}

}  // namespace ddz::py_bind
