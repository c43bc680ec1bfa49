// A minimal test harness: TEST(name) registers a function; CHECK/CHECK_EQ record
// failures with their line; main() runs every test and exits non-zero on any failure.
#pragma once

#include <cstdio>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace check {

struct Test {
  const char* name;
  std::function<void()> body;
};

inline std::vector<Test>& registry() {
  static std::vector<Test> tests;
  return tests;
}

inline int& failures() {
  static int n = 0;
  return n;
}

struct Register {
  Register(const char* name, std::function<void()> body) { registry().push_back({name, std::move(body)}); }
};

inline void fail(const char* file, int line, const std::string& what) {
  ++failures();
  std::fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what.c_str());
}

template <class A, class B>
void check_eq(const A& a, const B& b, const char* expr_a, const char* expr_b, const char* file, int line) {
  if (a == b) return;
  std::ostringstream os;
  os << expr_a << " == " << expr_b << " (" << a << " vs " << b << ")";
  fail(file, line, os.str());
}

}  // namespace check

#define CHECK_CONCAT2(a, b) a##b
#define CHECK_CONCAT(a, b) CHECK_CONCAT2(a, b)
#define TEST(name)                                                              \
  static void name();                                                           \
  static const check::Register CHECK_CONCAT(register_, name)(#name, &name);    \
  static void name()
#define CHECK(cond) \
  do {              \
    if (!(cond)) check::fail(__FILE__, __LINE__, #cond); \
  } while (0)
#define CHECK_EQ(a, b) check::check_eq((a), (b), #a, #b, __FILE__, __LINE__)
