// Wild cards (laizi): move counts worked out by hand, soft-bomb comparison, the game, and
// generation against a brute-force substitution enumerator.
#include <algorithm>
#include <set>
#include <tuple>

#include "notation.hpp"
#include "check.hpp"
#include "game.hpp"
#include "helpers.hpp"
#include "oracle.hpp"
#include "wild.hpp"

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

using Key = std::tuple<Mask, Mask, int, int, int>;  // spent, combination, kind, key, length
Key key_of(const Move& m) { return {spent(m), m.cards, static_cast<int>(m.kind), m.key, m.length}; }

std::string describe(const Key& k) {
  return to_text(std::get<0>(k)) + "=" + to_text(std::get<1>(k)) + "/kind" + std::to_string(std::get<2>(k)) + "/key" +
         std::to_string(std::get<3>(k));
}

// The definition, by brute force (oracle.hpp).
std::set<Key> brute_force(Mask hand, int wild, const Rules& r) {
  std::set<Key> out;
  for (const Move& m : oracle::wild_leads(hand, wild, r)) out.insert(key_of(m));
  return out;
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

void check_against_brute_force(Mask hand, int wild, const Rules& r, Rng& rng) {
  const std::vector<Move> lead = legal_moves(hand, nullptr, r, wild);
  std::set<Key> generated;
  for (const Move& m : lead) {
    generated.insert(key_of(m));
    if (!is_valid_move(m, r) || (m.stand_ins != 0 && m.wild_rank != wild)) {
      check::fail(__FILE__, __LINE__, "invalid generated move " + to_text(m.cards) + " from " + to_text(hand));
    }
    Move rebuilt;
    for (const Move& reading : classify(m.cards, r)) {
      if (reading.kind == m.kind && reading.key == m.key && played_with(reading, spent(m), wild, rebuilt) && rebuilt == m) {
        generated.insert(key_of(rebuilt));  // already there: played_with finds the same move
      }
    }
  }
  CHECK_EQ(generated.size(), lead.size());  // each (spent, combination) once
  const std::set<Key> expected = brute_force(hand, wild, r);
  if (generated != expected) {
    check::fail(__FILE__, __LINE__,
                "lead set differs for hand " + to_text(hand) + " wild " + rank_char(wild) + ":" + oracle::difference(generated, expected, describe));
    return;
  }
  // Follow moves of another hand with wild cards (soft bombs among them): exactly the
  // leads that beat each.
  const std::vector<Move> theirs = legal_moves(small_hand(rng, wild, 1 + static_cast<int>(rng.below(3)), 5), nullptr, r, wild);
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

TEST(wild_generation_equals_brute_force) {
  Rng rng(606);
  for (const auto& base : {"laizi", "douzero", "rlcard", "openspiel"}) {
    Rules r = rules(base);
    r.wild = true;
    for (int i = 0; i < 250; ++i) {
      const int wild = static_cast<int>(rng.below(13));
      const int wilds = 1 + static_cast<int>(rng.below(i % 20 == 0 ? 4 : 2));
      check_against_brute_force(small_hand(rng, wild, wilds, static_cast<int>(rng.below(8))), wild, r, rng);
    }
  }
}

TEST(laizi_game_draws_a_wild_rank_and_plays_soft_bombs) {
  const Rules r = laizi();
  Game a(7, r, 0), b(7, r, 0);
  CHECK(a.state().wild >= 0 && a.state().wild <= kTwo);
  CHECK_EQ(int{a.state().wild}, int{b.state().wild});
  CHECK_EQ(int{a.deals().front().wild}, int{a.state().wild});
  // The standard rules draw nothing: the same seed deals the same cards either way.
  Game standard(7, Rules{}, 0);
  CHECK_EQ(int{standard.state().wild}, kNoWild);
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
