// Work split over threads (base/parallel.hpp): an exception thrown on any thread reaches
// the caller, after every thread has joined (escaping a std::thread it ended the process).
#include <pthread.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

#include "base/parallel.hpp"
#include "base/stop_request.hpp"
#include "check.hpp"

using namespace ddz;

namespace {

// What `run` throws as a std::runtime_error, or "" when it returns.
template <class Run>
std::string thrown(Run run) {
  try {
    run();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(parallel_for_rethrows_a_threads_exception_to_the_caller) {
  for (const int threads : {1, 2, 4}) {
    std::atomic<std::int64_t> done{0};
    const std::string why = thrown([&] {
      parallel_for(10'000, threads, [&](std::int64_t i) {
        if (i == 5'000) throw std::runtime_error("index 5000");
        ++done;
      });
    });
    CHECK_EQ(why, std::string("index 5000"));
    CHECK(done < 10'000);  // no thread claims more once one has thrown
  }
  std::atomic<std::int64_t> sum{0};
  parallel_for(1'000, 4, [&](std::int64_t i) { sum += i; });
  CHECK_EQ(sum.load(), std::int64_t{499'500});
}

TEST(parallel_each_rethrows_any_tasks_exception_once_all_have_run) {
  for (const int failing : {0, 2}) {
    std::atomic<int> finished{0};
    const std::string why = thrown([&] {
      parallel_each(4, [&](int i) {
        if (i == failing) throw std::runtime_error("task " + std::to_string(i));
        ++finished;
      });
    });
    CHECK_EQ(why, "task " + std::to_string(failing));
    CHECK_EQ(finished.load(), 3);
  }
}

namespace {

struct EndedRun {
  std::atomic<std::int64_t> calls{0};
  bool unwound = false;  // the ended thread's own frames were cleaned up
};

// A thread that runs parallel_for and is ended (pthread_exit) in the middle of its own
// share, as Python ends a daemon thread that takes the GIL while the interpreter exits.
void* end_in_a_run(void* arg) {
  auto& run = *static_cast<EndedRun*>(arg);
  struct Mark {
    bool& unwound;
    ~Mark() { unwound = true; }
  } mark{run.unwound};
  const pthread_t self = pthread_self();
  parallel_for(100'000, 2, [&](std::int64_t) {
    if (++run.calls == 1'000 && pthread_equal(pthread_self(), self)) pthread_exit(nullptr);
  });
  return nullptr;
}

}  // namespace

TEST(a_thread_ended_in_a_parallel_for_unwinds_through_it) {
  // pthread_exit unwinds with abi::__forced_unwind: the pool kept it as an error and the
  // process aborted ("FATAL: exception not rethrown"). Now it goes on, the pool's threads
  // joined and told to claim no more.
  for (int attempt = 0; attempt < 20; ++attempt) {
    EndedRun run;
    pthread_t thread;
    CHECK_EQ(pthread_create(&thread, nullptr, end_in_a_run, &run), 0);
    CHECK_EQ(pthread_join(thread, nullptr), 0);
    if (run.calls == 100'000) continue;  // the 1,000th call fell to the pool's thread: no ending
    CHECK(run.unwound);
    CHECK(run.calls < 100'000);
    return;
  }
  CHECK(false);  // twenty runs without the caller's thread taking the 1,000th call
}

TEST(parallel_for_stops_when_its_callers_thread_is_asked_to) {
  // Ctrl-C in a long call (base/stop_request.hpp): asked on the caller's thread between
  // chunks, the loop ends by StopRequested once every thread has joined; the other
  // threads never ask the caller's check, and a masked check (an empty one) stops nothing.
  std::atomic<std::int64_t> done{0};
  std::atomic<int> asked{0};
  bool stopped = false;
  {
    const StopCheck ctrl_c([&] { return ++asked == 3; });
    const auto caller = std::this_thread::get_id();
    try {
      parallel_for(1'000'000, 4, [&](std::int64_t) {
        // The other threads wait for the caller's third question: on a loaded machine they
        // could end the loop before the caller's thread had asked at all.
        while (std::this_thread::get_id() != caller && asked < 3) std::this_thread::yield();
        ++done;
      });
    } catch (const StopRequested&) {
      stopped = true;
    }
    CHECK(stopped);
    CHECK(done < 1'000'000);
    const StopCheck whole({});
    parallel_for(1'000, 4, [&](std::int64_t) { ++done; });  // masked: runs to its end
  }
  CHECK_EQ(asked.load(), 3);
  parallel_for(1'000, 2, [&](std::int64_t) {});  // none installed once the checks are gone
}


TEST(parallel_for_stops_the_work_inside_its_other_threads_indices) {
  // A bot searching inside an index on another thread asks stop_requested() (ISMCTS, the
  // solver): once the loop has stopped, it says yes there, and the search ends at once
  // rather than after its game (selfplay on two threads took 40 s to hear Ctrl-C).
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> searching{false};
  std::atomic<int> searches_ended{0};
  const std::string error = thrown([&] {
    parallel_for(128, 2, [&](std::int64_t) {
      if (std::this_thread::get_id() == caller) {
        while (!searching) std::this_thread::yield();
        throw std::runtime_error("stopped");
      }
      searching = true;
      while (!stop_requested()) std::this_thread::yield();  // ends only when asked to
      ++searches_ended;
    });
  });
  CHECK_EQ(error, std::string("stopped"));
  CHECK_EQ(searches_ended.load(), 1);  // and no index started after it
  CHECK(!stop_requested());            // nothing installed on the caller's thread
}
