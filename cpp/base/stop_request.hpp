// Ctrl-C for long calls. The Python bindings install, for the thread that calls into the
// core, a check of whether its caller asked to stop (a signal handler raised); parallel_for
// installs on its other threads a check of whether the loop has stopped (so a bot's search
// on them ends too). The core's long loops ask it between pieces of work (stop_requested():
// false where none is installed). parallel_for's loops end by throwing StopRequested, which
// the bindings turn into the caller's KeyboardInterrupt; the solver, which keeps what it
// settled, stops as a limit stops it.
#pragma once

#include <functional>
#include <utility>

namespace ddz {

struct StopRequested {};

class StopCheck;

namespace detail {
inline thread_local StopCheck* stop_check = nullptr;
}  // namespace detail

// Installs `check` for the calling thread while it lives (an empty one: none, the
// caller's masked: work that must not stop half-way). Once it has said yes it says yes
// to every later question: the work asked first may be a search inside a bot, which
// stops as at a limit and lets the game go on, and the loop around must stop too.
class StopCheck {
 public:
  explicit StopCheck(std::function<bool()> check) : check_(std::move(check)), outer_(detail::stop_check) {
    detail::stop_check = check_ ? this : nullptr;
  }
  ~StopCheck() { detail::stop_check = outer_; }
  StopCheck(const StopCheck&) = delete;
  StopCheck& operator=(const StopCheck&) = delete;

  bool requested() { return stopped_ || (stopped_ = check_()); }

 private:
  std::function<bool()> check_;
  StopCheck* outer_;
  bool stopped_ = false;
};

// Whether the check installed for this thread asks to stop.
inline bool stop_requested() { return detail::stop_check && detail::stop_check->requested(); }

}  // namespace ddz
