// A run of the table runner held for Python (evaluate and selfplay with Python players):
// Python asks for the tables waiting on its players, decides them, applies the actions,
// and reads the run's result once it is over.
#pragma once

#include <functional>
#include <memory>

#include "bindings/convert.hpp"
#include "play/table_runner.hpp"

namespace ddz::py_bind {

struct TableRun {
  std::unique_ptr<TableRunner> runner;
  std::function<py::dict()> result;  // the run's arrays, read from its schedule
  // advance() runs without the GIL: while it does, every other call (from another Python
  // thread) is refused. Read and written with the GIL held.
  bool advancing = false;
};

}  // namespace ddz::py_bind

DDZ_CONSTRUCTED_CASTER(ddz::py_bind::TableRun);

namespace ddz::py_bind {

void register_table_run(py::module_& m);

}  // namespace ddz::py_bind
