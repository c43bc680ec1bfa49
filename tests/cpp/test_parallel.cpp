// Work split over threads (base/parallel.hpp): an exception thrown on any thread reaches
// the caller, after every thread has joined (escaping a std::thread it ended the process).
#include <atomic>
#include <stdexcept>
#include <string>

#include "base/parallel.hpp"
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
