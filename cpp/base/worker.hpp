// One background thread that runs jobs in the order they are given: what lets a caller
// compute (a network, in Python) while tables are stepped (VectorEnv's send / recv).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include "base/parallel.hpp"

namespace ddz {

class Worker {
 public:
  Worker() = default;
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  // Finishes the jobs given, then stops the thread.
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  // Queues `job`; returns its ticket, for `wait`. The thread starts with the first job.
  std::uint64_t submit(std::function<void()> job) {
    std::uint64_t ticket = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(std::move(job));
      ticket = ++submitted_;
    }
    if (!thread_.joinable()) thread_ = std::thread([this] { serve(); });
    changed_.notify_all();
    return ticket;
  }

  // Blocks until the job of `ticket` (and every job before it) has run, calling `poll`
  // (when given) every 50 ms meanwhile; rethrows the first exception a job threw since the
  // last wait that rethrew one.
  void wait(std::uint64_t ticket, const std::function<void()>& poll = {}) {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto done = [&] { return done_ >= ticket; };
    if (!poll) changed_.wait(lock, done);
    while (!changed_.wait_for(lock, std::chrono::milliseconds(50), done)) {
      lock.unlock();
      poll();
      lock.lock();
    }
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

  void wait_all() { wait(submitted()); }

  std::uint64_t submitted() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return submitted_;
  }

 private:
  void serve() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, nothing left
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      const std::exception_ptr error = thrown_by(job);
      lock.lock();
      if (error && !error_) error_ = error;
      ++done_;
      changed_.notify_all();
    }
  }

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> jobs_;
  std::uint64_t submitted_ = 0, done_ = 0;
  std::exception_ptr error_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace ddz
