// Ctrl-C during a long call that runs without the GIL (a run of games, a solve).
#pragma once

#include <functional>

namespace ddz::py_bind {

// Whether a signal handler raised (Ctrl-C's KeyboardInterrupt), left set for the caller to
// raise once it holds the GIL again (throw error_already_set when PyErr_Occurred); asked
// from the GIL-free work at most every 50 ms. Python runs handlers on its main thread
// alone, so elsewhere nothing is asked (an empty function): taking the GIL there, a
// daemon thread would be ended by an exiting interpreter in the middle of the work
// (pthread_exit, whose unwinding cannot pass the GIL's release on the way out: an abort).
// Called with the GIL held; the function it returns, from the calling thread alone.
std::function<bool()> signal_check();

}  // namespace ddz::py_bind
