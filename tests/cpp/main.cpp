#include "check.hpp"

int main() {
  int failed_tests = 0;
  for (const auto& test : check::registry()) {
    const int before = check::failures();
    test.body();
    if (check::failures() != before) {
      ++failed_tests;
      std::fprintf(stderr, "  in %s\n", test.name);
    }
  }
  const auto total = static_cast<int>(check::registry().size());
  std::printf("%d passed, %d failed\n", total - failed_tests, failed_tests);
  return failed_tests == 0 ? 0 : 1;
}
