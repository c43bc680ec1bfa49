// The solver's transposition table: an entry survives the table's doublings (in place)
// and its growth to the bound, found with what was stored, and updated where it is.
#include <cstdint>

#include "check.hpp"
#include "search/transposition_table.hpp"

using namespace ddz;

namespace {

// What the test stores: how many updates a key has had, and a tag that names the key.
struct Count {
  std::uint32_t updates = 0;
  std::uint32_t tag = 0;
  static constexpr bool kKeepsLatest = false;
};

// Keys whose low bits run through every bucket evenly at every size (an odd multiplier is
// a bijection modulo any power of two), so no bucket overflows and nothing is given up.
std::uint64_t key_of(std::uint64_t i) { return (i + 1) * 0x9E37'79B9'7F4A'7C15ull; }

void add_one(TranspositionTable<Count>& table, std::uint64_t key) {
  table.update(key, 1, [&](Count& c) {
    ++c.updates;
    c.tag = static_cast<std::uint32_t>(key >> 32);
  });
}

// Every key of 0..n has been updated `times` times and keeps its tag.
void check_all(const TranspositionTable<Count>& table, std::uint64_t n, std::uint32_t times) {
  int wrong = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t key = key_of(i);
    const auto c = table.find(key);
    wrong += !c || c->updates != times || c->tag != static_cast<std::uint32_t>(key >> 32);
  }
  CHECK_EQ(wrong, 0);
}

}  // namespace

TEST(table_keeps_entries_through_doublings) {
  // 1 MB at first (16,384 buckets of four 16-byte entries); 300,000 keys double it four times.
  TranspositionTable<Count> table(std::size_t{64} << 20);
  constexpr std::uint64_t n = 300'000;
  for (std::uint64_t i = 0; i < n; ++i) add_one(table, key_of(i));
  check_all(table, n, 1);
  // A second update finds the entry where it is: an entry left behind a hole in its
  // bucket by a doubling would be stored again, from nothing.
  for (std::uint64_t i = 0; i < n; ++i) add_one(table, key_of(i));
  check_all(table, n, 2);
}

TEST(table_keeps_entries_when_fixed_at_its_bound) {
  TranspositionTable<Count> table(std::size_t{64} << 20);
  constexpr std::uint64_t n = 50'000;
  for (std::uint64_t i = 0; i < n; ++i) add_one(table, key_of(i));
  table.fix(true);
  check_all(table, n, 1);
  for (std::uint64_t i = 0; i < n; ++i) add_one(table, key_of(i));
  check_all(table, n, 2);
}
