#include "bindings/signals.hpp"

#include <pybind11/pybind11.h>

#include <chrono>

namespace ddz::py_bind {


std::function<bool()> signal_check() {
  // Asked once a thread (a thread never becomes the main one but by a fork from it, where
  // a child's forking thread, once not the main one, reads no Ctrl-C): asking Python each
  // call cost a batch of moves a microsecond, as much as the moves of a small hand.
  thread_local const bool main_thread = [] {
    const py::module_ threading = py::module_::import("threading");
    return threading.attr("current_thread")().is(threading.attr("main_thread")());
  }();
  if (!main_thread) return {};
  return [last = std::chrono::steady_clock::now()]() mutable {
    const auto now = std::chrono::steady_clock::now();
    if (now - last < std::chrono::milliseconds(50)) return false;
    last = now;
    py::gil_scoped_acquire gil;
    return PyErr_CheckSignals() != 0;
  };
}

}  // namespace ddz::py_bind
