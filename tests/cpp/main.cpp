#include <cstring>

#include "check.hpp"

// `ddz_tests [part]`: every test, or those whose name contains `part`.
int main(int argc, char** argv) {
  const char* part = argc > 1 ? argv[1] : "";
  int failed_tests = 0, ran = 0;
  for (const auto& test : check::registry()) {
    if (!std::strstr(test.name, part)) continue;
    ++ran;
    const int before = check::failures();
    test.body();
    if (check::failures() != before) {
      ++failed_tests;
      std::fprintf(stderr, "  in %s\n", test.name);
    }
  }
  std::printf("%d passed, %d failed\n", ran - failed_tests, failed_tests);
  return failed_tests == 0 ? 0 : 1;
}
