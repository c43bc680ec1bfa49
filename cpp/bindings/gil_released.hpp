// The GIL released around work that needs no Python, for a thread that Python may be
// ending meanwhile. py::gil_scoped_release takes the GIL back in a destructor that cannot
// throw; on a thread Python ends at its exit (a daemon thread still in the work when the
// interpreter finalizes), taking the GIL back ends the thread with pthread_exit, whose
// unwinding cannot leave such a destructor: std::terminate, an abort at exit
// (pytorch/pytorch#38228, pybind/pybind11#2215). Here a thread that finds Python
// finalizing waits for the process to end instead, as Python 3.14 makes such threads
// wait; one that starts to take the GIL just before may still be ended, and the
// destructor lets that unwinding through. The thread that finalizes Python (a __del__ run
// at exit calling in) holds the GIL as it starts, and takes it back at once: waiting for
// its own finalizing to end would hang the process.
#pragma once

#include <pybind11/pybind11.h>

#include <chrono>
#include <thread>

namespace ddz::py_bind {

inline bool python_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing() != 0;
#else
  return _Py_IsFinalizing() != 0;
#endif
}

class GilReleased {
 public:
  // Holding the GIL while Python finalizes: this is the finalizing thread.
  GilReleased() : finalizing_thread_(python_finalizing()), state_(PyEval_SaveThread()) {}
  GilReleased(const GilReleased&) = delete;
  GilReleased& operator=(const GilReleased&) = delete;

  ~GilReleased() noexcept(false) {
    while (!finalizing_thread_ && python_finalizing()) std::this_thread::sleep_for(std::chrono::seconds(1));
    PyEval_RestoreThread(state_);
  }

 private:
  bool finalizing_thread_;
  PyThreadState* state_;
};

}  // namespace ddz::py_bind
