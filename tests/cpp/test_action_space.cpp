// Action ids and the peers' action encodings, with counts worked out by hand.
#include <algorithm>
#include <array>
#include <stdexcept>
#include <tuple>

#include "check.hpp"
#include "helpers.hpp"
#include "learn/action_space.hpp"
#include "learn/peer_actions.hpp"
#include "rules/wild.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

std::array<int, kNumMoveKinds> kind_counts(const ActionSpace& space) {
  std::array<int, kNumMoveKinds> counts{};
  for (int id = 1; id <= space.num_moves(); ++id) ++counts[static_cast<std::size_t>(space.move(id).kind)];
  return counts;
}

int count_of(const std::array<int, kNumMoveKinds>& counts, MoveKind kind) { return counts[static_cast<std::size_t>(kind)]; }

}  // namespace

TEST(standard_space_counts) {
  const ActionSpace space(Rules{});
  const auto n = kind_counts(space);
  CHECK_EQ(count_of(n, MoveKind::Solo), 15);
  CHECK_EQ(count_of(n, MoveKind::Pair), 13);   // jokers never pair
  CHECK_EQ(count_of(n, MoveKind::Trio), 13);
  CHECK_EQ(count_of(n, MoveKind::TrioSolo), 13 * 14);
  CHECK_EQ(count_of(n, MoveKind::TrioPair), 13 * 12);
  CHECK_EQ(count_of(n, MoveKind::Straight), 8 + 7 + 6 + 5 + 4 + 3 + 2 + 1);  // lengths 5..12 within 3..A
  CHECK_EQ(count_of(n, MoveKind::PairStraight), 10 + 9 + 8 + 7 + 6 + 5 + 4 + 3);  // lengths 3..10
  CHECK_EQ(count_of(n, MoveKind::Airplane), 11 + 10 + 9 + 8 + 7);  // lengths 2..6
  // L trios + L solo kickers of distinct ranks among the 15 - L others, not both jokers:
  // (C(15-L, L) - C(13-L, L-2)) x (13 - L) bodies, for L = 2..5 (20 cards at most):
  // 77 x 11 + 210 x 10 + 294 x 9 + 196 x 8.
  CHECK_EQ(count_of(n, MoveKind::AirplaneSolos), 847 + 2100 + 2646 + 1568);
  // L trios + L pairs of distinct ranks among the 13 - L others 3..2, L = 2..4:
  // C(11,2) x 11 + C(10,3) x 10 + C(9,4) x 9.
  CHECK_EQ(count_of(n, MoveKind::AirplanePairs), 605 + 1200 + 1134);
  CHECK_EQ(count_of(n, MoveKind::FourTwoSolos), 13 * 66);  // C(12,2) kicker ranks, no joker
  CHECK_EQ(count_of(n, MoveKind::FourTwoPairs), 13 * 66);
  CHECK_EQ(count_of(n, MoveKind::Bomb), 13);
  CHECK_EQ(count_of(n, MoveKind::Rocket), 1);
  CHECK_EQ(space.num_moves(), 12342);      // the sum of the above
  CHECK_EQ(space.size(), 1 + 12342 + 4);   // pass, the moves, bid 0..3
}

TEST(variant_spaces) {
  // No kitty: a hand holds 18 cards, so the standard moves of 20 cards go: the 5-trio
  // airplanes with solos (1568), the 4-trio airplanes with pairs (1134) and the 10-pair
  // straights (3). None has 19 cards.
  CHECK_EQ(ActionSpace(rules("sanren")).num_moves(), 12342 - 1568 - 1134 - 3);
  // Wild cards: the ids of the combinations are the natural rules' ones.
  const ActionSpace wild(rules("laizi")), natural(Rules{});
  CHECK_EQ(wild.size(), natural.size());
  Move soft = move("6666", MoveKind::Bomb);  // a 6 and three wild 5s as four 6s
  soft.stand_ins = encode_stand_ins(cards_of(3, 3));
  soft.wild_rank = 2;
  CHECK_EQ(wild.id(soft), natural.id(move("6666", MoveKind::Bomb)));
  CHECK(natural.id(soft) < 0);  // no move of the natural rules has stand-ins
  const int three_6s = ActionSpace::stand_in_id(soft);
  CHECK(three_6s > 0 && three_6s < ActionSpace::kStandInIds);
  CHECK(wild.with_stand_ins(wild.id(soft), three_6s, 2) == soft);
}

TEST(two_wild_stand_in_ids_are_low_plus_high) {
  // With fives and nines wild (laizi2): the ids of what each rank's cards stand for, low +
  // 2380 x high, relative to the hand's wild ranks.
  const ActionSpace space(rules("laizi2"));
  const WildRanks five_nine{2, 6};
  const Move c = move("7777", MoveKind::Bomb);
  const Move both = with_stand_in_groups(c, 2, cards_of(4, 2), 6, cards_of(4, 1));  // 5579=7777
  const Move nines = with_stand_in_groups(c, 2, 0, 6, cards_of(4, 1));
  const Move fives = with_stand_in_groups(c, 2, cards_of(4, 1), 6, 0);
  const int one_7 = ActionSpace::stand_in_id(fives);
  CHECK(one_7 > 0 && one_7 < ActionSpace::kStandInIds);
  CHECK_EQ(ActionSpace::stand_in_id(fives, five_nine), one_7);
  CHECK_EQ(ActionSpace::stand_in_id(nines, five_nine), ActionSpace::kStandInIds * one_7);
  const int two_7 = ActionSpace::stand_in_id(with_stand_in_groups(c, 2, cards_of(4, 2), 6, 0));
  CHECK_EQ(ActionSpace::stand_in_id(both, five_nine), two_7 + ActionSpace::kStandInIds * one_7);
  CHECK_EQ(ActionSpace::stand_in_id(nines, WildRanks{2, 3}), -1);  // nines are not wild there
  for (const Move& m : {both, nines, fives}) {
    CHECK(space.with_stand_ins(space.id(m), ActionSpace::stand_in_id(m, five_nine), five_nine) == m);
  }
}

TEST(stand_in_ids_name_each_pair_of_ranks_once) {
  // Every pair of ranks (with repetition) has an id of its own.
  std::vector<int> seen(ActionSpace::kStandInIds, 0);
  Move base = move("3", MoveKind::Solo);
  int ids = 0;
  for (int r1 = 0; r1 <= kTwo; ++r1) {
    for (int r2 = r1; r2 <= kTwo; ++r2) {
      base.stand_ins = encode_stand_ins(cards_of(r1, 1) + cards_of(r2, 1));
      const int id = ActionSpace::stand_in_id(base);
      CHECK(id > 0);
      ++seen[static_cast<std::size_t>(id)];
      ++ids;
    }
  }
  CHECK_EQ(ids, 91);  // pairs of ranks with repetition
  for (const int n : seen) CHECK(n <= 1);
}

TEST(space_layout_and_order) {
  const ActionSpace space(Rules{});
  CHECK(space.action(ActionSpace::kPassId) == Action::pass());
  CHECK(space.action(1) == Action::play(move("3", MoveKind::Solo)));  // the first solo
  CHECK(space.action(space.first_bid_id()) == Action::bid(0));
  CHECK(space.action(space.size() - 1) == Action::bid(3));
  for (int id = 2; id <= space.num_moves(); ++id) {
    const Move& a = space.move(id - 1);
    const Move& b = space.move(id);
    CHECK(std::tuple(a.kind, a.length, a.key, a.cards) < std::tuple(b.kind, b.length, b.key, b.cards));
  }
  Rules call_rob;
  call_rob.bidding = Bidding::CallRob;
  const ActionSpace cr(call_rob);
  CHECK(cr.action(cr.first_bid_id() + 1) == Action::call(true));
  CHECK(cr.action(cr.size() - 1) == Action::rob(true));
  CHECK_EQ(ActionSpace(rules("rlcard")).size(), ActionSpace(rules("rlcard")).first_bid_id());  // no bidding
}

TEST(space_round_trips_every_id) {
  for (const char* name : {"standard", "douzero", "rlcard", "openspiel"}) {
    const ActionSpace space(rules(name));
    for (int id = 0; id < space.size(); ++id) CHECK_EQ(space.id(space.action(id)), id);
  }
}

TEST(space_rejects_what_it_lacks) {
  const ActionSpace space(Rules{});
  for (int bad : {-1, space.size(), 1 << 30}) {
    bool threw = false;
    try {
      (void)space.action(bad);
    } catch (const std::out_of_range&) {
      threw = true;
    }
    CHECK(threw);
  }
  bool threw = false;
  try {
    (void)space.move(ActionSpace::kPassId);
  } catch (const std::out_of_range&) {
    threw = true;
  }
  CHECK(threw);
  CHECK_EQ(space.id(Action::call(true)), -1);  // classic bidding has no call
  // 3333+44 reads as four-with-two-solos only where solo kickers may repeat a rank.
  CHECK_EQ(space.id(Move{cards("333344"), MoveKind::FourTwoSolos, 0, 1}), -1);
  // 6 trios + 6 solos: 24 cards, more than a hand holds.
  CHECK_EQ(space.id(Move{cards("333444555666777888 9TJQKA"), MoveKind::AirplaneSolos, 0, 6}), -1);
}

TEST(space_ids_of_legal_actions) {
  Game game(7, Rules{}, 0);
  const ActionSpace space(Rules{});
  std::vector<int> ids;
  while (game.state().phase != Phase::Over) {
    const auto legal = game.legal_actions();
    CHECK_EQ(space.ids(legal, ids), -1);
    CHECK_EQ(ids.size(), legal.size());
    game.apply(legal.back());
  }
}

TEST(openspiel_ids_by_hand) {
  auto os = [](const char* text, MoveKind kind, int key, int length) {
    return to_openspiel(Action::play(Move{cards(text), kind, static_cast<std::uint8_t>(key), static_cast<std::uint8_t>(length)}));
  };
  CHECK_EQ(to_openspiel(Action::pass()), 0);
  CHECK_EQ(to_openspiel(Action::bid(0)), 0);
  CHECK_EQ(to_openspiel(Action::bid(2)), 2);
  CHECK_EQ(os("3", MoveKind::Solo, 0, 1), 4);
  CHECK_EQ(os("R", MoveKind::Solo, 14, 1), 18);
  CHECK_EQ(os("34567", MoveKind::Straight, 0, 5), 19);
  CHECK_EQ(os("3456789TJQKA", MoveKind::Straight, 0, 12), 54);  // 19 + 36 - 1
  CHECK_EQ(os("3334", MoveKind::TrioSolo, 0, 1), 133);
  CHECK_EQ(os("444R", MoveKind::TrioSolo, 1, 1), 133 + 14 + 13);  // R is the 14th of the others
  CHECK_EQ(os("333444", MoveKind::Airplane, 0, 2), 471);
  CHECK_EQ(os("33344455", MoveKind::AirplaneSolos, 0, 2), 516);   // kickers (5,5) come first
  CHECK_EQ(os("33344456", MoveKind::AirplaneSolos, 0, 2), 517);   // then (6,5)
  CHECK_EQ(os("3334445566", MoveKind::AirplanePairs, 0, 2), 23104);
  CHECK_EQ(os("3333", MoveKind::Bomb, 0, 4), 26043);
  CHECK_EQ(os("BR", MoveKind::Rocket, 13, 2), 26056);
  CHECK_EQ(os("333344", MoveKind::FourTwoSolos, 0, 1), -1);  // OpenSpiel has no four-with-two
  CHECK_EQ(to_openspiel(Action::call(true)), -1);
  CHECK(!from_openspiel(kOpenSpielNumActions, false));
  CHECK(!from_openspiel(-1, false));
  CHECK(*from_openspiel(0, true) == Action::bid(0));
  CHECK(*from_openspiel(0, false) == Action::pass());
}

TEST(openspiel_ids_cover_the_openspiel_space) {
  const ActionSpace space(rules("openspiel"));
  CHECK_EQ(kOpenSpielNumActions - kOpenSpielFirstPlay, space.num_moves());
  std::vector<bool> seen(static_cast<std::size_t>(space.size()), false);
  for (int id = kOpenSpielFirstPlay; id < kOpenSpielNumActions; ++id) {
    const auto a = from_openspiel(id, false);
    CHECK(a && is_valid_move(a->move, rules("openspiel")));
    CHECK_EQ(to_openspiel(*a), id);
    const int ours = space.id(*a);
    CHECK(ours > 0 && !seen[static_cast<std::size_t>(ours)]);
    if (ours > 0) seen[static_cast<std::size_t>(ours)] = true;
  }
}

TEST(rlcard_text) {
  CHECK(*to_rlcard(Action::pass()) == "pass");
  CHECK(*to_rlcard(Action::play(move("33344456", MoveKind::AirplaneSolos, rules("rlcard")))) == "33344456");
  CHECK(!to_rlcard(Action::bid(1)));
  CHECK(!from_rlcard("3444B"));  // five cards that form no combination
  // 4444 with the solos 3 and B: RLCard lets a joker kick four-with-two.
  CHECK(from_rlcard("34444B")->move.kind == MoveKind::FourTwoSolos);
  CHECK(!from_rlcard("43"));          // not sorted: RLCard never writes it
  CHECK(!from_rlcard("BB"));          // one black joker
  CHECK(!from_rlcard("Pass"));
  CHECK(*from_rlcard("pass") == Action::pass());
}
