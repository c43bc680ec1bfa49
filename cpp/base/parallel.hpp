// Work split over threads: indices claimed in chunks from a shared counter, so results
// land by index and never depend on the thread count.
//
// An exception thrown by the work on any thread reaches the caller (the first one thrown,
// once every thread has joined), as it would on one thread: escaping a std::thread it
// would end the process. A thread that cannot be started (std::system_error: the
// process's limit on threads or memory) is not an error: its share runs on the threads
// that did start, the caller's among them. A thread being ended (see `thrown_by`) unwinds
// through the call, its threads joined on the way. parallel_for stops, throwing
// StopRequested, when the caller's thread is asked to (base/stop_request.hpp) before an
// index of its own: the indices begun end theirs, or stop at their own checks.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "base/stop_request.hpp"

namespace ddz {

// Runs `work` and returns what it threw (nullptr: nothing), but for a thread being
// ended: glibc's pthread_exit unwinds the stack with an exception that is no C++ one (no
// exception_ptr holds it), which must go on (kept, it aborts the process). Python ends
// so a thread that takes the GIL while the interpreter exits.
template <class Work>
std::exception_ptr thrown_by(Work&& work) {
  try {
    work();
  } catch (...) {
    std::exception_ptr error = std::current_exception();
    if (!error) throw;  // not one to keep: it goes on unwinding
    return error;
  }
  return nullptr;
}

namespace detail {

// The first exception of the threads of one call, kept until they have all joined.
class FirstError {
 public:
  // Runs `work`, keeping what it throws.
  template <class Work>
  void run(Work&& work) {
    std::exception_ptr error;
    try {
      error = thrown_by(work);
    } catch (...) {  // a thread being ended: the others stop claiming work as it unwinds
      failed_.store(true, std::memory_order_relaxed);
      throw;
    }
    if (!error) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = error;
    failed_.store(true, std::memory_order_relaxed);
  }
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  void rethrow() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

// Starts `task` on a thread of its own in `pool`; false when the system cannot start one.
template <class Task>
bool start_thread(std::vector<std::jthread>& pool, Task&& task) {
  try {
    pool.emplace_back(std::forward<Task>(task));
    return true;
  } catch (const std::system_error&) {
    return false;
  }
}

}  // namespace detail

// Calls body(i) for every i in [0, n) on `threads` threads (the caller's among them), no
// more threads than there are chunks: a small batch starts no thread that finds no work.
// Once one index has thrown (Ctrl-C on the caller's thread: StopRequested), no thread
// starts another, and the other threads' own long work stops too: their stop check
// (stop_request.hpp) says yes, so a search inside an index (a bot's) ends at its next one.
template <class Body>
void parallel_for(std::int64_t n, int threads, Body&& body) {
  constexpr std::int64_t kChunk = 64;  // indices a thread claims at a time
  std::atomic<std::int64_t> next{0};
  detail::FirstError error;
  const auto worker = [&] {
    error.run([&] {
      for (std::int64_t start; (start = next.fetch_add(kChunk)) < n;) {
        for (std::int64_t i = start, end = std::min(start + kChunk, n); i < end; ++i) {
          if (error.failed()) return;
          if (stop_requested()) throw StopRequested{};
          body(i);
        }
      }
    });
  };
  const auto other = [&] {
    const StopCheck failed([&] { return error.failed(); });
    worker();
  };
  std::vector<std::jthread> pool;  // joined on the way out, an unwinding caller's too
  const std::int64_t chunks = (std::max<std::int64_t>(n, 0) + kChunk - 1) / kChunk;
  for (std::int64_t t = 1; t < std::min<std::int64_t>(std::clamp(threads, 1, 256), chunks); ++t) {
    if (!detail::start_thread(pool, other)) break;
  }
  worker();
  pool.clear();
  error.rethrow();
}

// Calls body(i) for every i in [0, n), each on a thread of its own (the caller's runs the
// first): a few long tasks, such as the trees of a root-parallel search. A task whose
// thread cannot be started runs on the caller's after the first, so the tasks must not
// wait for one another.
template <class Body>
void parallel_each(int n, Body&& body) {
  detail::FirstError error;
  std::vector<std::jthread> pool;  // joined on the way out, an unwinding caller's too
  std::vector<int> unstarted;
  for (int i = 1; i < n; ++i) {
    if (!detail::start_thread(pool, [&error, &body, i] { error.run([&] { body(i); }); })) unstarted.push_back(i);
  }
  if (n > 0) error.run([&] { body(0); });
  for (const int i : unstarted) error.run([&] { body(i); });
  pool.clear();
  error.rethrow();
}

}  // namespace ddz
