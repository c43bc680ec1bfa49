#include "base/rng.hpp"
#include "check.hpp"
#include "rules/cards.hpp"
#include "rules/notation.hpp"

using namespace ddz;

TEST(text_round_trip_is_canonical) {
  CHECK_EQ(to_text(parse_cards("65443433").cards), std::string("33344456"));
  CHECK_EQ(to_text(parse_cards("rb").cards), std::string("BR"));
  CHECK_EQ(to_text(parse_cards("t10xX").cards), std::string("TTTT"));
  CHECK_EQ(to_text(parse_cards("BJ RJ").cards), std::string("BR"));
  CHECK_EQ(to_text(parse_cards("3s 3h,3D 3c").cards), std::string("3333"));
  CHECK_EQ(to_text(parse_cards("3\u2660 3\u2665 10\u2666 a\u2663").cards), std::string("33TA"));
  CHECK_EQ(to_text(parse_cards("").cards), std::string(""));
}

TEST(parse_errors_name_the_token) {
  const ParseResult p = parse_cards("3451");
  CHECK(!p.ok());
  CHECK(p.error.find("'1'") != std::string::npos);
  CHECK(p.error.find("position 3") != std::string::npos);
  CHECK(!parse_cards("33333", 4, 1).ok());
  CHECK(!parse_cards("BB", 4, 1).ok());
  CHECK(parse_cards("BB", 8, 2).ok());
  CHECK(!parse_cards("3?").ok());
  CHECK(!parse_cards("Bs").ok());  // jokers take no suit
}

TEST(counting_helpers) {
  const Mask m = parse_cards("33344456BR").cards;
  CHECK_EQ(total(m), 10);
  CHECK_EQ(count(m, 0), 3);
  CHECK_EQ(ranks_with_at_least(m, 1), RankSet{0b110'0000'0000'1111});
  CHECK_EQ(ranks_with_at_least(m, 3), RankSet{0b11});
  CHECK_EQ(ranks_with_at_least(m, 4), RankSet{0});
  CHECK(contains(m, parse_cards("3345B").cards));
  CHECK(!contains(m, parse_cards("3333").cards));
  CHECK_EQ(one_of_each(0b101), parse_cards("35").cards);
  CHECK_EQ(run_of(2, 3, 2), parse_cards("556677").cards);
  CHECK_EQ(per_rank_min(parse_cards("3334").cards, parse_cards("3344").cards), parse_cards("334").cards);
  CHECK_EQ(pairs_in(parse_cards("33334445").cards), parse_cards("334").cards);
  CHECK_EQ(rank_count(0x7FFF), 15);
}

TEST(helpers_agree_with_per_rank_loops_on_any_mask) {
  Rng rng(7);
  for (int i = 0; i < 20000; ++i) {
    const Mask a = rng.next(), b = rng.next() & kRankBits;
    int sum = 0;
    bool sub = true;
    for (int r = 0; r < 16; ++r) {
      const int x = static_cast<int>((a >> (4 * r)) & 0xF), y = static_cast<int>((b >> (4 * r)) & 0xF);
      sum += x;
      sub = sub && y <= x;
      if (r < kNumRanks) {
        for (int k = 1; k <= 15; ++k) CHECK_EQ(((ranks_with_at_least(a, k) >> r) & 1) != 0, x >= k);
        for (int k = 1; k <= 4; ++k) CHECK_EQ(((rank_counts(a).at_least[static_cast<std::size_t>(k - 1)] >> r) & 1) != 0, x >= k);
        CHECK_EQ(count(per_rank_min(a, b), r), std::min(x, y));
      }
    }
    CHECK_EQ(total(a), sum);
    CHECK_EQ(contains(a, b), sub);
  }
}

TEST(rng_is_fixed_by_its_seed) {
  // Golden values: the same on every platform and compiler.
  Rng a(42), b(42);
  for (int i = 0; i < 100; ++i) CHECK_EQ(a.next(), b.next());
  Rng c(0);
  CHECK_EQ(c.next(), 0x99EC5F36CB75F2B4ull);
  Rng d(1);
  int histogram[3] = {};
  for (int i = 0; i < 30000; ++i) ++histogram[d.below(3)];
  for (int h : histogram) CHECK(h > 9500 && h < 10500);
}
