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

TEST(table_grown_to_its_bound_at_once_keeps_a_buckets_entries_in_order) {
  // The jump to the bound sends the entries of one bucket to as many as four buckets far
  // apart; where several land in one, they close up at its front in their order, so that
  // a second update finds each where it is (keys alike in their low 40 bits share a
  // bucket at every size, and those that differ at bit 18 part at the bound).
  TranspositionTable<Count> table(std::size_t{64} << 20);  // 16,384 buckets at first, 2**20 at the bound
  std::uint64_t keys[4 * 64];
  for (std::uint64_t b = 0; b < 64; ++b) {
    for (std::uint64_t j = 0; j < 4; ++j) {
      keys[4 * b + j] = (b * 97) | ((j & 1) << 18) | (j << 40);  // the groups 97 buckets apart at first
    }
  }
  for (const std::uint64_t key : keys) add_one(table, key);
  table.fix(true);
  for (const std::uint64_t key : keys) add_one(table, key);
  int wrong = 0;
  for (const std::uint64_t key : keys) {
    const auto c = table.find(key);
    wrong += !c || c->updates != 2 || c->tag != static_cast<std::uint32_t>(key >> 32);
  }
  CHECK_EQ(wrong, 0);
}

TEST(table_growth_to_its_bound_asks_whether_to_stop) {
  // The growth for the threads clears pages all over the bound (a second a gigabyte): a
  // time limit or Ctrl-C is asked every 64 entries moved, and a yes leaves it half grown.
  constexpr std::uint64_t n = 50'000;
  int asked = 0;
  TranspositionTable<Count> stopped(std::size_t{64} << 20);
  for (std::uint64_t i = 0; i < n; ++i) add_one(stopped, key_of(i));
  CHECK(!stopped.fix(true, [&] { return ++asked == 3; }));
  CHECK_EQ(asked, 3);
  asked = 0;
  TranspositionTable<Count> grown(std::size_t{64} << 20);
  for (std::uint64_t i = 0; i < n; ++i) add_one(grown, key_of(i));
  CHECK(grown.fix(true, [&] { return ++asked < 0; }));
  CHECK(asked >= static_cast<int>(n / 64) - 4);  // the entries that moved (almost all of them), in 64s
  check_all(grown, n, 1);
}
