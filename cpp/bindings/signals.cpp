#include "bindings/signals.hpp"

#include <pybind11/pybind11.h>

#include <pthread.h>

#include <chrono>
#include <optional>

namespace ddz::py_bind {

namespace {

// Whether this thread is Python's main one, asked once a thread: asking Python each call
// cost a batch of moves a microsecond, as much as the moves of a small hand. A thread
// becomes the main one only in the child of a fork it made, the child's only thread,
// whose answer the fork forgets.
thread_local std::optional<bool> main_thread;
[[maybe_unused]] const int forgotten_in_children = pthread_atfork(nullptr, nullptr, [] { main_thread.reset(); });

bool is_main_thread() {
  if (!main_thread) {
    const py::module_ threading = py::module_::import("threading");
    main_thread = threading.attr("current_thread")().is(threading.attr("main_thread")());
  }
  return *main_thread;
}

}  // namespace

std::function<bool()> signal_check() {
  // At exit (a __del__ calling in) no handler runs any more, and `threading` is gone.
  if (python_finalizing() || !is_main_thread()) return {};
  return [last = std::chrono::steady_clock::now()]() mutable {
    const auto now = std::chrono::steady_clock::now();
    if (now - last < std::chrono::milliseconds(50)) return false;
    last = now;
    py::gil_scoped_acquire gil;
    return PyErr_CheckSignals() != 0;
  };
}

}  // namespace ddz::py_bind
