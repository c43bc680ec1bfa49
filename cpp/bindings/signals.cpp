#include "bindings/signals.hpp"

#include <pybind11/pybind11.h>

#include <chrono>

namespace ddz::py_bind {


std::function<bool()> signal_check() {
  const py::module_ threading = py::module_::import("threading");
  if (!threading.attr("current_thread")().is(threading.attr("main_thread")())) return {};
  return [last = std::chrono::steady_clock::now()]() mutable {
    const auto now = std::chrono::steady_clock::now();
    if (now - last < std::chrono::milliseconds(50)) return false;
    last = now;
    py::gil_scoped_acquire gil;
    return PyErr_CheckSignals() != 0;
  };
}

}  // namespace ddz::py_bind
