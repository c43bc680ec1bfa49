// Move counts worked out by hand, for every kind and every rules field.
#include <algorithm>

#include "check.hpp"
#include "helpers.hpp"

using namespace ddz;
using namespace ddz::testing;

TEST(leads_of_small_hands) {
  CHECK_EQ(leads("3"), 1u);
  CHECK_EQ(leads("33"), 2u);     // 3, 33
  CHECK_EQ(leads("333"), 3u);    // 3, 33, 333
  CHECK_EQ(leads("3333"), 4u);   // 3, 33, 333, 3333 (never 333+3)
  CHECK_EQ(leads("BR"), 3u);     // B, R, rocket (jokers never pair)
  CHECK_EQ(leads("34567"), 6u);  // five solos, 34567
  CHECK_EQ(leads("345678"), 9u); // six solos; 34567, 45678; 345678
  CHECK_EQ(leads("334455"), 7u); // three solos, three pairs, 334455
  CHECK_EQ(leads("JQKA2"), 5u);  // no straight through 2
}

TEST(leads_with_kickers) {
  // 333444: 2 solos, 2 pairs, 2 trios, 333+4 and 444+3, 333+44 and 444+33, 333444.
  CHECK_EQ(leads("333444"), 11u);
  // 3334445: 3 solos, 2 pairs, 2 trios, trio+solo 333+{4,5} 444+{3,5}, trio+pair 2,
  // airplane 1 (an airplane with solos needs 8 cards).
  CHECK_EQ(leads("3334445"), 14u);
  // 333345: 3 solos, 33, 333, 3333, 333+4, 333+5, 3333+45.
  CHECK_EQ(leads("333345"), 9u);
  CHECK_EQ(leads("333345", rules("openspiel")), 8u);  // no four-with-two
}

TEST(kicker_copies_field) {
  // 333344: 3, 4, 33, 44, 333, 3333, 333+4, 333+44; 3333+44 only when solo kickers may
  // repeat a rank.
  CHECK_EQ(leads("333344"), 8u);
  CHECK_EQ(leads("333344", rules("douzero")), 9u);
  CHECK_EQ(leads("333344", rules("rlcard")), 9u);
  CHECK_EQ(leads("333344", rules("openspiel")), 8u);
}

TEST(joker_kicker_fields) {
  // 3333BR: 3, B, R, 33, 333, 3333, 333+B, 333+R, BR; 3333+BR needs both jokers as kickers
  // of four-with-two.
  CHECK_EQ(leads("3333BR"), 9u);
  CHECK_EQ(leads("3333BR", rules("rlcard")), 9u);
  CHECK_EQ(leads("3333BR", rules("douzero")), 10u);
  // 33334B: 3, 4, B, 33, 333, 3333, 333+4, 333+B; 3333+4B needs a joker kicking four.
  CHECK_EQ(leads("33334B"), 8u);
  CHECK_EQ(leads("33334B", rules("rlcard")), 9u);
  CHECK_EQ(leads("33334B", rules("douzero")), 9u);
}

TEST(airplane_kicker_fields) {
  // 333444555666, standard: 4 solos, 4 pairs, 4 trios, 12 trio+solo, 12 trio+pair,
  // airplanes 3 + 2 + 1, airplane+solos 3 (each 2-body takes the two other ranks),
  // airplane+pairs 3, pair straights 2 + 1.
  CHECK_EQ(leads("333444555666"), 51u);
  // Repeating kickers give each 2-body {5,5} {6,6} besides {5,6} (+6), and the
  // 3-bodies 345+666 and 456+333 (+2) when a kicker trio may extend the chain.
  CHECK_EQ(leads("333444555666", rules("douzero")), 59u);
  CHECK_EQ(leads("333444555666", rules("openspiel")), 59u);
  CHECK_EQ(leads("333444555666", rules("rlcard")), 57u);
}

TEST(pair_kicker_field) {
  // 33334444 has 3, 4, 33, 44, 333, 444, 3333, 4444, 333+4, 444+3, 333+44, 444+33,
  // 333444, 3333+44 and 4444+33 need repeated solo kickers: 13 in standard.
  Rules share;
  share.pair_kickers_share_rank = true;
  CHECK_EQ(leads("33334444"), 13u);
  // Sharing adds 3333+44+44 and 4444+33+33.
  CHECK_EQ(leads("33334444", share), 15u);
}

TEST(follow_counts) {
  CHECK_EQ(follows("3456BR", move("3", MoveKind::Solo)), 6u);  // 4 5 6 B R, rocket
  CHECK_EQ(follows("3456BR", move("BR", MoveKind::Rocket)), 0u);
  // Over 5555: 6666 (3333 and 4444 are lower), the rocket.
  CHECK_EQ(follows("33334444666677BR", move("5555", MoveKind::Bomb)), 2u);
  // Over 34567: 45678 56789 6789T 789TJ.
  CHECK_EQ(follows("456789TJ", move("34567", MoveKind::Straight)), 4u);
  CHECK_EQ(follows("456789TJ", move("345678", MoveKind::Straight)), 3u);
  // Over 333+4: 444+5, 444+6, 555+4, 555+6.
  CHECK_EQ(follows("4445556", move("3334", MoveKind::TrioSolo)), 4u);
  // Over 333444+56: 444555 with two of 6 7 8.
  CHECK_EQ(follows("4445556678", move("33344456", MoveKind::AirplaneSolos)), 3u);
  // Over a pair: pairs above and every bomb.
  CHECK_EQ(follows("44KKKK", move("QQ", MoveKind::Pair)), 2u);  // KK, and the bomb KKKK
}

TEST(chain_lengths_stop_at_their_caps) {
  // 21 cards of seven trios: airplanes of 2..6 trios only (6 + 5 + 4 + 3 + 2 = 20).
  std::size_t airplanes = 0, longest = 0;
  for (const Move& m : legal_moves(cards("333444555666777888999"), nullptr, Rules{})) {
    if (m.kind == MoveKind::Airplane) {
      ++airplanes;
      longest = std::max<std::size_t>(longest, m.length);
    }
  }
  CHECK_EQ(airplanes, 20u);
  CHECK_EQ(longest, 6u);
  // Eleven pairs 3..K: pair straights of 3..10 pairs, never 11.
  const auto pairs = legal_moves(cards("33445566778899TTJJQQKK"), nullptr, Rules{});
  CHECK(std::none_of(pairs.begin(), pairs.end(), [](const Move& m) { return m.kind == MoveKind::PairStraight && m.length > 10; }));
  CHECK(classify(cards("33445566778899TTJJQQKK"), Rules{}).empty());
  CHECK(classify(cards("333444555666777888999"), Rules{}).empty());
}

TEST(can_beat_agrees_with_the_moves_listed) {
  // Whether a hand can beat a move, against whether the generator lists a follow: random
  // deals under every preset (two decks, wild cards), the move to beat any lead of another
  // hand, and the hand cut to a few cards half the time (where no higher card is common).
  Rng rng(404);
  std::vector<Move> scratch;
  int beaten = 0, checked = 0;
  for (const std::string& name : preset_names()) {
    const Rules r = rules(name.c_str());
    for (int i = 0; i < 300; ++i) {
      const Deal d = deal_cards(rng, r);
      const auto leads = legal_moves(d.hands[1], nullptr, r, d.wild);
      const Move& last = leads[rng.below(static_cast<std::uint32_t>(leads.size()))];
      Mask hand = d.hands[0];
      if (rng.below(2)) hand = take_lowest(hand, 1 + static_cast<int>(rng.below(4)));
      const bool listed = !legal_moves(hand, &last, r, d.wild).empty();
      CHECK_EQ(can_beat(hand, last, r, d.wild, scratch), listed);
      beaten += listed;
      ++checked;
    }
  }
  CHECK(beaten > checked / 4);
  CHECK(beaten < checked - checked / 10);
}
