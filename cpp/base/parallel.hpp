// Work split over threads: indices claimed in chunks from a shared counter, so results
// land by index and never depend on the thread count.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace ddz {

// Calls body(i) for every i in [0, n) on `threads` threads (the caller's among them), no
// more threads than there are chunks: a small batch starts no thread that finds no work.
template <class Body>
void parallel_for(std::int64_t n, int threads, Body&& body) {
  constexpr std::int64_t kChunk = 64;  // indices a thread claims at a time
  std::atomic<std::int64_t> next{0};
  const auto worker = [&] {
    for (std::int64_t start; (start = next.fetch_add(kChunk)) < n;) {
      for (std::int64_t i = start, end = std::min(start + kChunk, n); i < end; ++i) body(i);
    }
  };
  std::vector<std::thread> pool;
  const std::int64_t chunks = (std::max<std::int64_t>(n, 0) + kChunk - 1) / kChunk;
  for (std::int64_t t = 1; t < std::min<std::int64_t>(std::clamp(threads, 1, 256), chunks); ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
}

// Calls body(i) for every i in [0, n), each on a thread of its own (the caller's runs the
// first): a few long tasks, such as the trees of a root-parallel search.
template <class Body>
void parallel_each(int n, Body&& body) {
  std::vector<std::thread> pool;
  for (int i = 1; i < n; ++i) pool.emplace_back([&body, i] { body(i); });
  if (n > 0) body(0);
  for (auto& t : pool) t.join();
}

}  // namespace ddz
