// Classification and comparison, with expectations worked out by hand.
#include "check.hpp"
#include "helpers.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

std::size_t readings(const char* text, const Rules& r = Rules{}) { return classify(cards(text), r).size(); }

bool is(const char* text, MoveKind kind, int key, int length, const Rules& r = Rules{}) {
  for (const Move& m : classify(cards(text), r)) {
    if (m.kind == kind && m.key == key && m.length == length) return true;
  }
  return false;
}

}  // namespace

TEST(every_kind_is_recognised) {
  CHECK(is("7", MoveKind::Solo, 4, 1));
  CHECK(is("R", MoveKind::Solo, 14, 1));
  CHECK(is("22", MoveKind::Pair, 12, 1));
  CHECK(is("JJJ", MoveKind::Trio, 8, 1));
  CHECK(is("JJJ3", MoveKind::TrioSolo, 8, 1));
  CHECK(is("JJJB", MoveKind::TrioSolo, 8, 1));  // a single joker may kick a trio
  CHECK(is("JJJ33", MoveKind::TrioPair, 8, 1));
  CHECK(is("34567", MoveKind::Straight, 0, 5));
  CHECK(is("3456789TJQKA", MoveKind::Straight, 0, 12));
  CHECK(is("334455", MoveKind::PairStraight, 0, 3));
  CHECK(is("333444", MoveKind::Airplane, 0, 2));
  CHECK(is("33344456", MoveKind::AirplaneSolos, 0, 2));
  CHECK(is("3334445566", MoveKind::AirplanePairs, 0, 2));
  CHECK(is("333345", MoveKind::FourTwoSolos, 0, 1));
  CHECK(is("33334455", MoveKind::FourTwoPairs, 0, 1));
  CHECK(is("2222", MoveKind::Bomb, 12, 4));
  CHECK(is("BR", MoveKind::Rocket, 13, 2));
}

TEST(non_combinations_have_no_reading) {
  CHECK_EQ(readings("34"), 0u);
  CHECK_EQ(readings("3456"), 0u);          // straights need five
  CHECK_EQ(readings("JQKA2"), 0u);         // 2 never chains
  CHECK_EQ(readings("KA2BR"), 0u);
  CHECK_EQ(readings("3344"), 0u);          // pair straights need three
  CHECK_EQ(readings("333444555777"), 0u);  // gap in the airplane, kicker 777 not a solo set
  CHECK_EQ(readings("3333"), 1u);          // a bomb only: never trio + its own rank
  CHECK_EQ(readings("33334444"), 0u);      // pair kickers of one rank are a bomb
  CHECK_EQ(readings("3334445"), 0u);       // 7 cards
  CHECK_EQ(readings("33344455"), 0u);      // standard: solo kickers of one rank
  CHECK_EQ(readings("3333BR"), 0u);        // standard: no joker kicks four-with-two
  CHECK_EQ(readings("333BR"), 0u);
  CHECK_EQ(readings(""), 0u);
}

TEST(several_readings_of_the_same_cards) {
  // 333444555666: the 4-airplane; with repeating kickers also 333444555+666 (key 3) and
  // 444555666+333 (key 4), where the kicker trio extends the chain.
  CHECK_EQ(readings("333444555666"), 1u);
  CHECK_EQ(readings("333444555666", rules("douzero")), 3u);
  CHECK_EQ(readings("333444555666", rules("openspiel")), 3u);
  CHECK_EQ(readings("333444555666", rules("rlcard")), 1u);
  // 333444555999 under rlcard: 999 is not adjacent to 345, so it may kick.
  CHECK(is("333444555999", MoveKind::AirplaneSolos, 0, 3, rules("rlcard")));
  // 33334444: two four+two-pairs readings when pair kickers may share a rank.
  Rules share;
  share.pair_kickers_share_rank = true;
  CHECK_EQ(readings("33334444", share), 2u);
}

TEST(kicker_fields_change_readings) {
  CHECK_EQ(readings("333344"), 0u);
  CHECK(is("333344", MoveKind::FourTwoSolos, 0, 1, rules("douzero")));
  CHECK(is("333344", MoveKind::FourTwoSolos, 0, 1, rules("rlcard")));
  CHECK_EQ(readings("333344", rules("openspiel")), 0u);  // no four-with-two at all
  CHECK_EQ(readings("33334B"), 0u);
  CHECK(is("33334B", MoveKind::FourTwoSolos, 0, 1, rules("rlcard")));
  CHECK(is("3333BR", MoveKind::FourTwoSolos, 0, 1, rules("douzero")));
  CHECK_EQ(readings("3333BR", rules("rlcard")), 0u);
  CHECK(is("333444BR", MoveKind::AirplaneSolos, 0, 2, rules("douzero")));
  CHECK_EQ(readings("333444BR", rules("rlcard")), 0u);
  CHECK(is("33344455", MoveKind::AirplaneSolos, 0, 2, rules("rlcard")));
  // 444555 + 33 + 33 would need two pair kickers of one rank.
  CHECK_EQ(readings("3333444555", rules("rlcard")), 0u);
}

TEST(beats_follows_the_rules) {
  const Move solo3 = move("3", MoveKind::Solo), solo4 = move("4", MoveKind::Solo);
  const Move bomb3 = move("3333", MoveKind::Bomb), bomb2 = move("2222", MoveKind::Bomb);
  const Move rocket = move("BR", MoveKind::Rocket);
  const Move straight5 = move("34567", MoveKind::Straight), straight6 = move("456789", MoveKind::Straight);
  CHECK(beats(solo4, solo3));
  CHECK(!beats(solo3, solo4));
  CHECK(!beats(solo3, solo3));
  CHECK(beats(bomb3, solo4));
  CHECK(beats(bomb3, straight6));
  CHECK(beats(bomb2, bomb3));
  CHECK(!beats(bomb3, bomb2));
  CHECK(beats(rocket, bomb2));
  CHECK(!beats(bomb2, rocket));
  CHECK(!beats(rocket, rocket));
  CHECK(!beats(straight6, straight5));  // lengths differ
  CHECK(beats(move("45678", MoveKind::Straight), straight5));
  // Kickers never count: 444+3 beats 333+K.
  CHECK(beats(move("3444", MoveKind::TrioSolo), move("333K", MoveKind::TrioSolo)));
  CHECK(!beats(move("444K", MoveKind::TrioSolo), move("33344", MoveKind::TrioPair)));
}

TEST(is_valid_move_shortcut_agrees_with_reads_as) {
  // is_valid_move answers natural solos, pairs and trios without reads_as; on every key,
  // length and one- or two-rank card set it must answer as the definition does, with one
  // deck (no joker pair) and two (joker pairs, no joker trio).
  for (const Rules& r : {Rules{}, rules("four_player")}) {
    for (MoveKind kind : {MoveKind::Solo, MoveKind::Pair, MoveKind::Trio}) {
      for (int key = 0; key <= 17; ++key) {
        for (int length = 0; length <= 2; ++length) {
          for (int a = 0; a < 16; ++a) {
            for (int n = 0; n <= 9; ++n) {
              for (Mask extra : {Mask{0}, cards_of((a + 1) % 16, 1)}) {
                const Move m{cards_of(a, n) + extra, kind, static_cast<std::uint8_t>(key), static_cast<std::uint8_t>(length)};
                const bool defined = deck_holds(m.cards, r) && reads_as(m.cards, kind, key, length, r);
                CHECK_EQ(is_valid_move(m, r), defined);
              }
            }
          }
        }
      }
    }
  }
  CHECK(is_valid_move(move("BB", MoveKind::Pair, rules("four_player")), rules("four_player")));
}
