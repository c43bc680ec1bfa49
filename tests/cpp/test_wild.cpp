// Wild cards (laizi): move counts worked out by hand, soft-bomb comparison, the game, and
// generation against a brute-force substitution enumerator.
#include <algorithm>
#include <set>
#include <tuple>
#include <utility>

#include "check.hpp"
#include "game/game.hpp"
#include "helpers.hpp"
#include "oracle.hpp"
#include "rules/notation.hpp"
#include "rules/wild.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

constexpr int kFive = 2;   // rank index of 5
constexpr int kSeven = 4;  // rank index of 7

Rules laizi() { return *preset("laizi"); }

std::size_t wild_leads(const char* hand, int wild) { return legal_moves(cards(hand), nullptr, laizi(), wild).size(); }

std::size_t wild_follows(const char* hand, const Move& last, int wild) {
  return legal_moves(cards(hand), &last, laizi(), wild).size();
}

// A soft bomb of `rank` with one wild card of `wild` standing in.
Move soft_bomb(int rank, int wild) {
  Move m{cards_of(rank, 4), MoveKind::Bomb, static_cast<std::uint8_t>(rank), 4};
  m.stand_ins = encode_stand_ins(cards_of(rank, 1));
  m.wild_rank = static_cast<std::uint8_t>(wild);
  return m;
}

using Key = oracle::WildKey;  // spent, combination, kind, key, length
Key key_of(const Move& m) { return oracle::wild_key(m); }

std::string describe(const Key& k) {
  return to_text(std::get<0>(k)) + "=" + to_text(std::get<1>(k)) + "/kind" + std::to_string(std::get<2>(k)) + "/key" +
         std::to_string(std::get<3>(k));
}

// A few random cards and `wilds` cards of the wild rank (at most 4 of any rank).
Mask small_hand(Rng& rng, int wild, int wilds, int others) {
  Mask h = cards_of(wild, wilds);
  for (int k = 0; k < others; ++k) {
    const int r = static_cast<int>(rng.below(kNumRanks));
    if (count(h, r) < (r >= kBlackJoker ? 1 : 4)) h += cards_of(r, 1);
  }
  return h;
}

std::string wild_text(WildRanks wild) {
  return std::string(1, rank_char(wild.low)) + (wild.high == kNoWild ? "" : std::string(1, rank_char(wild.high)));
}

// Whether `m` is the one move of its (spent, combination): valid, of the wild ranks, and
// what parsing its text back finds (played_with, the canonical form).
bool canonical(const Move& m, WildRanks wild, const Rules& r) {
  if (!is_valid_move(m, r) || !uses_only(m, wild)) return false;
  Move rebuilt;
  for (const Move& reading : classify(m.cards, r)) {
    if (reading.kind == m.kind && reading.key == m.key && played_with(reading, spent(m), wild, rebuilt)) return rebuilt == m;
  }
  return false;
}

// The leads of `hand` are exactly the brute-force enumerator's (oracle.hpp), each pair
// (spent, combination) once and in canonical form.
bool leads_match_brute_force(Mask hand, WildRanks wild, const Rules& r, std::vector<Move>& lead) {
  lead = legal_moves(hand, nullptr, r, wild);
  std::set<Key> generated;
  for (const Move& m : lead) {
    generated.insert(key_of(m));
    if (!canonical(m, wild, r)) {
      check::fail(__FILE__, __LINE__, "non-canonical generated move " + move_text(m) + " from " + to_text(hand) + " wild " + wild_text(wild));
    }
  }
  CHECK_EQ(generated.size(), lead.size());  // each (spent, combination) once
  const std::set<Key> expected = oracle::wild_lead_keys(hand, wild, r);
  if (generated != expected) {
    check::fail(__FILE__, __LINE__,
                "lead set differs for hand " + to_text(hand) + " wild " + wild_text(wild) + ":" + oracle::difference(generated, expected, describe));
    return false;
  }
  return true;
}

void check_against_brute_force(Mask hand, WildRanks wild, const Rules& r, Rng& rng) {
  std::vector<Move> lead;
  if (!leads_match_brute_force(hand, wild, r, lead)) return;
  // Follow moves of another hand with wild cards (soft bombs among them): exactly the
  // leads that beat each.
  Mask other = small_hand(rng, wild.low, 1 + static_cast<int>(rng.below(3)), 5);
  if (wild.high != kNoWild && count(other, wild.high) < 4) other += cards_of(wild.high, 1);
  const std::vector<Move> theirs = legal_moves(other, nullptr, r, wild);
  for (int t = 0; t < 6; ++t) {
    const Move& last = theirs[rng.below(static_cast<std::uint32_t>(theirs.size()))];
    std::set<Key> want, got;
    for (const Move& m : lead) {
      if (beats(m, last)) want.insert(key_of(m));
    }
    for (const Move& m : legal_moves(hand, &last, r, wild)) got.insert(key_of(m));
    if (want != got) {
      check::fail(__FILE__, __LINE__, "follow set differs for hand " + to_text(hand) + " over " + to_text(last.cards) + ":" +
                                          oracle::difference(got, want, describe));
    }
  }
}

}  // namespace

TEST(wild_leads_counted_by_hand) {
  // One wild 5: the natural solo 5, and a solo of each of the other 12 ranks 3..2.
  CHECK_EQ(wild_leads("5", kFive), 13u);
  // 35, 5 wild: solo 3; 13 solos from the 5; the pair 33 with the 5 as a 3.
  CHECK_EQ(wild_leads("35", kFive), 15u);
  // 7775, 5 wild:
  //   solos: 7; the 5 as itself; the 5 as each other rank (12, the 7 among them)  14
  //   pairs: 77, and 7 + the 5 as 7                                                  2
  //   trios: 777, and 77 + the 5 as 7                                                2
  //   soft bomb 7777 (777 + the 5 as 7)                                              1
  //   trio+solo: 777 + the 5 as itself, or as each rank but 7 and 5 (11)            12
  CHECK_EQ(wild_leads("7775", kFive), 31u);
  // Without wild cards in the hand, the natural moves.
  CHECK_EQ(wild_leads("7778", kFive), leads("7778"));
  // 5555 with the 5 wild: a solo of any of 13 ranks; a pair of any of 13; a trio of any of 13;
  // the natural bomb 5555, and no soft bomb from four wild cards; trio+solo: a trio
  // (13 ranks) with the fourth card as itself, or as any other rank but the trio's:
  // trio of 5s: kicker as any of 12 others; trio of x != 5: kicker 5 natural, or as any
  // rank but x and 5 (11): 12 each. 13 + 13 + 13 + 1 + 13 * 12 = 196.
  CHECK_EQ(wild_leads("5555", kFive), 196u);
}

TEST(wild_follows_counted_by_hand) {
  const int w = kFive;
  // Over 88: no pair above 8 (the 5 has no natural partner but 7), the soft bomb 7777.
  CHECK_EQ(wild_follows("7775", move("88", MoveKind::Pair), w), 1u);
  // Over 6: the 7; the 5 as each of 7 8 9 T J Q K A 2 (the 7 among them); the soft bomb.
  CHECK_EQ(wild_follows("7775", move("6", MoveKind::Solo), w), 11u);
  // A soft bomb loses to every natural bomb, however low.
  CHECK_EQ(wild_follows("7775", move("3333", MoveKind::Bomb), w), 0u);
  CHECK_EQ(wild_follows("3333", soft_bomb(kSeven + 1, w), w), 1u);
  // Soft over soft: only a higher rank.
  CHECK_EQ(wild_follows("7775", soft_bomb(kSeven - 1, w), w), 1u);
  CHECK_EQ(wild_follows("7775", soft_bomb(kSeven + 1, w), w), 0u);
  // Over a soft bomb, a hand without wild cards still has its natural bombs and rocket.
  CHECK_EQ(wild_follows("3333BR", soft_bomb(kSeven, w), w), 2u);
  CHECK_EQ(wild_follows("3333BR", move("BR", MoveKind::Rocket), w), 0u);
  // The natural bomb of four wild cards beats a soft bomb of any rank.
  CHECK_EQ(wild_follows("5555", soft_bomb(kTwo, w), w), 1u);
}

TEST(soft_bombs_compare) {
  const Move soft7 = soft_bomb(kSeven, kFive), soft8 = soft_bomb(kSeven + 1, kFive);
  const Move natural3 = move("3333", MoveKind::Bomb), rocket = move("BR", MoveKind::Rocket);
  CHECK(beats(soft7, move("22", MoveKind::Pair)));
  CHECK(beats(soft8, soft7));
  CHECK(!beats(soft7, soft8));
  CHECK(beats(natural3, soft8));
  CHECK(!beats(soft8, natural3));
  CHECK(beats(rocket, soft8));
  CHECK(!beats(soft8, rocket));
}

TEST(wild_moves_record_what_they_spend) {
  const Move m = soft_bomb(kSeven, kFive);
  CHECK_EQ(to_text(spent(m)), std::string("5777"));
  CHECK_EQ(stand_in_count(m), 1);
  CHECK(is_valid_move(m, laizi()));
  CHECK(!is_valid_move(m, Rules{}));  // no wild cards in the standard rules
  Move bad = m;
  bad.wild_rank = kSeven;  // a wild card cannot stand in for its own rank
  CHECK(!wilds_error(bad, laizi()).empty());
  Move four = m;
  four.stand_ins = encode_stand_ins(cards_of(kSeven, 4));  // four wild cards as a bomb of 7s
  CHECK(!wilds_error(four, laizi()).empty());
  Move outside = m;
  outside.stand_ins = encode_stand_ins(cards_of(kSeven + 1, 1));  // an 8 stood in, in a bomb of 7s
  CHECK(!wilds_error(outside, laizi()).empty());
  Move natural = move("7777", MoveKind::Bomb);
  natural.wild_rank = kFive;  // a wild rank with no stand-ins is not canonical
  CHECK(!wilds_error(natural, laizi()).empty());
  Move rebuilt;
  CHECK(played_with(move("7777", MoveKind::Bomb), cards("5777"), kFive, rebuilt) && rebuilt == m);
  CHECK(!played_with(move("7777", MoveKind::Bomb), cards("5577"), kSeven, rebuilt));
}

// Calls f(rules) for the wild-card preset with `wild` ranks and the peers' kicker rules
// with as many.
template <class F>
void under_wild_rules(int wild, F&& f) {
  for (const auto& base : {wild == 1 ? "laizi" : "laizi2", "douzero", "rlcard", "openspiel"}) {
    Rules r = rules(base);
    r.wild = wild;
    f(r);
  }
}

TEST(wild_generation_equals_brute_force) {
  Rng rng(606);
  under_wild_rules(1, [&](const Rules& r) {
    for (int i = 0; i < 250; ++i) {
      const int wild = static_cast<int>(rng.below(13));
      const int wilds = 1 + static_cast<int>(rng.below(i % 20 == 0 ? 4 : 2));
      check_against_brute_force(small_hand(rng, wild, wilds, static_cast<int>(rng.below(8))), wild, r, rng);
    }
  });
}

TEST(laizi_game_draws_a_wild_rank_and_plays_soft_bombs) {
  const Rules r = laizi();
  Game a(7, r, 0), b(7, r, 0);
  CHECK(a.state().wild.low >= 0 && a.state().wild.low <= kTwo && a.state().wild.high == kNoWild);
  CHECK(a.state().wild == b.state().wild);
  CHECK(a.deals().front().wild == a.state().wild);
  // The standard rules draw nothing: the same seed deals the same cards either way.
  Game standard(7, Rules{}, 0);
  CHECK(standard.state().wild.none());
  CHECK(standard.deals().front().hands == a.deals().front().hands);
  // The landlord plays a soft bomb 7777 (777 and a wild 5) and goes out: a spring, and the
  // bomb doubles: 1 x 2 x 2 = 4 from the one peasant.
  Game g = Game::from_position({cards("7775"), cards("3")}, 0, 0, Move{}, -1, r, kFive);
  const Move soft = soft_bomb(kSeven, kFive);
  CHECK(g.check(Action::play(soft)).empty());
  CHECK(g.apply(Action::play(soft)));
  CHECK(g.state().phase == Phase::Over);
  CHECK_EQ(g.state().played[0], cards("5777"));
  const Settlement s = g.result();
  CHECK_EQ(s.bombs, 1);
  CHECK_EQ(s.multiplier, 4);
  CHECK_EQ(s.payouts[0], 4LL);
  CHECK_EQ(s.payouts[1], -4LL);
  // A stand-in of the wrong wild rank, or in a game without wild cards, is refused.
  Move other = soft;
  other.wild_rank = kSeven + 1;
  Game h = Game::from_position({cards("7775"), cards("3")}, 0, 0, Move{}, -1, r, kFive);
  CHECK(!h.check(Action::play(other)).empty());
  Game plain = Game::from_position({cards("7775"), cards("3")}, 0, 0, Move{}, -1, Rules{});
  CHECK(!plain.check(Action::play(soft)).empty());
  bool threw = false;
  try {
    Game::from_position({cards("7775"), cards("3")}, 0, 0, Move{}, -1, Rules{}, kFive);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
}

// ---------------------------------------------------------------------------------------
// Two wild ranks (laizi2).

namespace {

constexpr int kNine = 6;  // rank index of 9
const WildRanks kFiveNine{kFive, kNine};

Rules laizi2() { return *preset("laizi2"); }

// The one move that move text names with fives and nines wild.
Move two_wild(const char* text) {
  std::string error;
  const std::vector<Move> all = readings_of(text, laizi2(), kFiveNine, error);
  CHECK(error.empty());
  CHECK_EQ(all.size(), 1u);
  return all.empty() ? Move{} : all.front();
}

bool leads_include(const char* hand, const Move& m) {
  const std::vector<Move> leads = legal_moves(cards(hand), nullptr, laizi2(), kFiveNine);
  return std::find(leads.begin(), leads.end(), m) != leads.end();
}

// Calls f(hand) for every hand of at most `n` cards (at most one of each joker).
template <class F>
void for_each_small_hand(int n, F&& f, int rank = 0, Mask acc = 0) {
  if (rank == kNumRanks) return f(acc);
  const int most = std::min(n, rank >= kBlackJoker ? 1 : 4);
  for (int c = 0; c <= most; ++c) for_each_small_hand(n - c, f, rank + 1, acc + cards_of(rank, c));
}

}  // namespace

TEST(two_wild_leads_counted_by_hand) {
  // 59: each card as any of 13 ranks (26 solos, the spent card differing), and the pair of
  // any rank (13).
  CHECK_EQ(legal_moves(cards("59"), nullptr, laizi2(), kFiveNine).size(), 39u);
  // Cards of one wild rank only read as under laizi.
  CHECK_EQ(legal_moves(cards("5555"), nullptr, laizi2(), kFiveNine).size(), 196u);
  CHECK_EQ(legal_moves(cards("7775"), nullptr, laizi2(), kFiveNine).size(), wild_leads("7775", kFive));
}

TEST(two_wild_bombs_soft_and_natural) {
  const Move tens = two_wild("5599=TTTT"), fives = two_wild("5599=5555"), nines = two_wild("5999=9999");
  CHECK(is_soft_bomb(tens) && is_soft_bomb(fives) && is_soft_bomb(nines));
  CHECK(leads_include("5599", tens) && leads_include("5599", fives) && leads_include("5999", nines));
  CHECK(leads_include("5559", two_wild("5559=9999")));
  // Four cards of one wild rank are their natural bomb, never a soft bomb of another.
  std::string error;
  CHECK(readings_of("5555=9999", laizi2(), kFiveNine, error).empty());
  CHECK(readings_of("9999=TTTT", laizi2(), kFiveNine, error).empty());
  for (const Move& m : legal_moves(cards("5555"), nullptr, laizi2(), kFiveNine)) CHECK(!is_soft_bomb(m));
  // Soft bombs compare by rank and lose to every natural bomb.
  CHECK(beats(tens, nines));
  CHECK(!beats(nines, tens));
  CHECK(beats(move("3333", MoveKind::Bomb), tens));
  CHECK(beats(move("9999", MoveKind::Bomb), tens));
  CHECK(!beats(tens, move("3333", MoveKind::Bomb)));
}

TEST(two_wild_moves_have_one_canonical_form) {
  // 35579=34567: a five and the nine stand for the 4 and the 6; the lower wild rank stands
  // for the lower rank.
  const Move m = two_wild("35579=34567");
  const StandInGroups g = stand_in_groups(m);
  CHECK_EQ(g.first.wild, kFive);
  CHECK_EQ(g.first.ranks, cards("4"));
  CHECK_EQ(g.second.wild, kNine);
  CHECK_EQ(g.second.ranks, cards("6"));
  CHECK_EQ(spent(m), cards("35579"));
  CHECK_EQ(move_text(m), std::string("35579=34567"));
  CHECK(wilds_error(m, laizi2()).empty());
  CHECK(!wilds_error(m, laizi()).empty());  // two wild ranks' cards under one
  // The same pair with the stand-ins swapped is not the move's form.
  const Move swapped = with_stand_in_groups(move("34567", MoveKind::Straight), kFive, cards("6"), kNine, cards("4"));
  CHECK_EQ(spent(swapped), spent(m));
  CHECK(!wilds_error(swapped, laizi2()).empty());
  // A five standing for a nine while a nine stands for a five is both played as themselves.
  const Move crossed = with_stand_in_groups(Move{cards("59"), MoveKind::Solo, kFive, 1}, kFive, cards("9"), kNine, cards("5"));
  CHECK(!wilds_error(crossed, laizi2()).empty());
  // One wild rank's stand-ins are the move of the one-rank layout, whichever rank is also wild.
  Move laizi_move;
  CHECK(played_with(move("7777", MoveKind::Bomb), cards("5777"), kFive, laizi_move));
  CHECK(two_wild("5777=7777") == laizi_move);
  CHECK(std::uint32_t{laizi_move.stand_ins} >> 16 == 0 && laizi_move.wild_rank == kFive);
  // Cards of the higher rank alone: the first group is the nines'.
  const Move by_nines = two_wild("9777=7777");
  CHECK_EQ(stand_in_groups(by_nines).first.wild, kNine);
  CHECK_EQ(int{by_nines.wild_rank}, kNine);
}

TEST(two_wild_encoding_holds_eight_stand_ins) {
  // With threes and fours wild, all eight standing in for a pair straight 66..TT (4
  // nibbles, no terminator, then 4), read back, parsed and generated.
  const WildRanks three_four{0, 1};
  const Move straight = move("66778899TT", MoveKind::PairStraight);
  const Move full = with_stand_in_groups(straight, 0, cards("7788"), 1, cards("99TT"));
  const StandInGroups g = stand_in_groups(full);
  CHECK_EQ(g.first.ranks, cards("7788"));
  CHECK_EQ(g.second.ranks, cards("99TT"));
  CHECK_EQ(spent(full), cards("3333444466"));
  CHECK(wilds_error(full, laizi2()).empty());
  Move m;
  CHECK(played_with(straight, cards("3333444466"), three_four, m) && m == full);
  const std::vector<Move> leads = legal_moves(cards("3333444466"), nullptr, laizi2(), three_four);
  CHECK(std::find(leads.begin(), leads.end(), full) != leads.end());
}

TEST(two_wild_generation_equals_brute_force_on_every_small_hand) {
  Rng rng(1806);
  const Rules r = laizi2();
  for_each_small_hand(4, [&](Mask hand) { check_against_brute_force(hand, kFiveNine, r, rng); });
  for (const WildRanks wild : {WildRanks{0, 1}, WildRanks{0, kTwo}, WildRanks{kAce, kTwo}, WildRanks{3, 11}}) {
    for_each_small_hand(3, [&](Mask hand) {
      std::vector<Move> lead;
      leads_match_brute_force(hand, wild, r, lead);
    });
  }
}

TEST(two_wild_generation_equals_brute_force) {
  Rng rng(1807);
  under_wild_rules(2, [&](const Rules& r) {
    for (int i = 0; i < 60; ++i) {  // the oracle is slow: the fuzz target draws more
      const int low = static_cast<int>(rng.below(13));
      const int high = (low + 1 + static_cast<int>(rng.below(12))) % 13;
      Mask hand = small_hand(rng, low, 1 + static_cast<int>(rng.below(i % 25 == 0 ? 4 : 2)), static_cast<int>(rng.below(7)));
      // At most 5 wild cards in all: the enumerator tries 13 readings a wild card, and
      // the exhaustive test above covers every smaller hand.
      const int most = std::min(4 - count(hand, high), std::max(1, 5 - count(hand, low)));
      hand += cards_of(high, std::min(most, 1 + static_cast<int>(rng.below(i % 30 == 0 ? 3 : 2))));
      check_against_brute_force(hand, WildRanks{low, high}, r, rng);
    }
  });
}

TEST(laizi2_game_draws_two_wild_ranks) {
  const Rules r = laizi2();
  std::set<std::pair<int, int>> pairs;
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    const Game g(seed, r, 0), one(seed, laizi(), 0);
    const WildRanks w = g.state().wild;
    CHECK(w.low >= 0 && w.low < w.high && w.high <= kTwo);
    CHECK(w.has(one.state().wild.low));  // the first draw is laizi's
    CHECK(g.deals().front().hands == one.deals().front().hands);
    pairs.insert({w.low, w.high});
  }
  CHECK_EQ(pairs.size(), 78u);  // every pair of 13 ranks is drawn
  // A position plays a soft bomb of tens made of two fives and two nines: a spring, doubled by the bomb.
  Game g = Game::from_position({cards("5599"), cards("3")}, 0, 0, Move{}, -1, r, kFiveNine);
  const Move tens = two_wild("5599=TTTT");
  CHECK(g.check(Action::play(tens)).empty());
  CHECK(g.apply(Action::play(tens)));
  CHECK_EQ(g.state().played[0], cards("5599"));
  CHECK_EQ(g.result().multiplier, 4);
  // The wild ranks count in the state's hash, and must fit the rules.
  const Game other = Game::from_position({cards("5599"), cards("3")}, 0, 0, Move{}, -1, r, WildRanks{kFive, kSeven});
  const Game same = Game::from_position({cards("5599"), cards("3")}, 0, 0, Move{}, -1, r, kFiveNine);
  CHECK(hash(other.state()) != hash(same.state()));
  CHECK(!Game::from_position({cards("5599"), cards("3")}, 0, 0, Move{}, -1, r, WildRanks{kSeven, kSeven - 1}).check(Action::play(tens)).empty());
  for (const WildRanks bad : {WildRanks{kFive}, WildRanks{kFive, kFive}, WildRanks{kFive, 13}}) {
    bool threw = false;
    try {
      Game::from_position({cards("5599"), cards("3")}, 0, 0, Move{}, -1, r, bad);
    } catch (const std::invalid_argument&) {
      threw = true;
    }
    CHECK(threw);
  }
}
