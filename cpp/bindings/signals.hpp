// Ctrl-C during a long call that runs without the GIL (a run of games, a solve, rollouts,
// the training samplers): what base/stop_request.hpp asks, in Python's terms.
#pragma once

#include <pybind11/pybind11.h>

#include <functional>
#include <type_traits>

#include "base/stop_request.hpp"
#include "bindings/gil_released.hpp"

namespace ddz::py_bind {

namespace py = pybind11;

// Whether a signal handler raised (Ctrl-C's KeyboardInterrupt), left set for the caller to
// raise once it holds the GIL again; asked from the GIL-free work at most every 50 ms.
// Python runs handlers on its main thread alone, so elsewhere nothing is asked (an empty
// function): taking the GIL there, a daemon thread would be ended by an exiting
// interpreter in the middle of the work (pthread_exit, whose unwinding cannot pass the
// GIL's release on the way out: an abort). Called with the GIL held; the function it
// returns, from the calling thread alone.
std::function<bool()> signal_check();

// Runs `body` without the GIL, Ctrl-C asking it to stop (the signal check installed for
// this thread: StopCheck), and raises the KeyboardInterrupt once the GIL is back, whether
// the work stopped by throwing StopRequested (parallel loops) or returned what it had
// settled (the solver, a run of games). Called with the GIL held.
template <class F>
auto interruptible(F&& body) {
  const StopCheck check(signal_check());
  try {
    if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
      {
        GilReleased release;
        body();
      }
      if (PyErr_Occurred()) throw py::error_already_set();
    } else {
      auto result = [&] {
        GilReleased release;
        return body();
      }();
      if (PyErr_Occurred()) throw py::error_already_set();
      return result;
    }
  } catch (const StopRequested&) {
    throw py::error_already_set();
  }
}

}  // namespace ddz::py_bind
