// The variants sanren (no kitty), happy (start bonuses) and four_player (two decks), with
// outcomes worked out by hand.
#include "check.hpp"
#include "game/game.hpp"
#include "helpers.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

bool apply_all(Game& g, std::initializer_list<Action> actions) {
  for (const Action& a : actions) {
    if (!g.apply(a)) return false;
  }
  return true;
}

// Three 17-card hands and a kitty: seat 0 holds 3..A, 222 and both jokers.
Deal happy_deal() {
  Deal d;
  d.hands[0] = cards("3456789TJQKA222BR");
  d.hands[1] = cards("33344455566677788");
  d.hands[2] = cards("8999TTTJJJQQQKKKA");
  d.kitty = cards("AA2");
  return d;
}

// The landlord (seat 0, 20 cards after the kitty) goes out in four plays nobody answers:
// the 12-straight, AA, the bomb 2222 and the rocket.
void play_out_happy_deal(Game& g) {
  CHECK(play_then_passes(g, "3456789TJQKA", MoveKind::Straight));
  CHECK(play_then_passes(g, "AA", MoveKind::Pair));
  CHECK(play_then_passes(g, "2222", MoveKind::Bomb));
  CHECK(play_then_passes(g, "BR", MoveKind::Rocket));
  CHECK(g.state().phase == Phase::Over);
}

}  // namespace

// ------------------------------------------------------------------------------ sanren
TEST(sanren_deals_18_each_and_no_kitty) {
  const Rules r = rules("sanren");
  CHECK_EQ(r.hand_size(), 18);  // 54 cards, no kitty, three players
  Rng a(11), b(11);
  const Deal sanren = deal_cards(a, r), standard = deal_cards(b, Rules{});
  for (int seat = 0; seat < 3; ++seat) CHECK_EQ(total(sanren.hands[static_cast<std::size_t>(seat)]), 18);
  CHECK_EQ(sanren.kitty, Mask{0});
  // One shuffle of the same deck: seat 0 gets cards 0-17, which hold the standard
  // deal's 0-16; seat 2 gets 36-53, which hold the standard kitty (51-53).
  CHECK(contains(sanren.hands[0], standard.hands[0]));
  CHECK(contains(sanren.hands[2], standard.kitty));
  CHECK_EQ(sanren.hands[0] + sanren.hands[1] + sanren.hands[2], Rules{}.deck());
}

TEST(sanren_game_bids_and_settles_without_a_kitty) {
  Deal d;
  d.hands[0] = cards("3456789TJQKA2222BR");
  d.hands[1] = cards("333444555666777888");
  d.hands[2] = cards("999TTTJJJQQQKKKAAA");
  Game g(d, rules("sanren"), 0, -1, 5);
  CHECK(apply_all(g, {Action::bid(3)}));  // a 3 ends the auction at once
  CHECK_EQ(int{g.state().landlord}, 0);
  CHECK_EQ(total(g.state().hands[0]), 18);  // the kitty was empty
  CHECK(play_then_passes(g, "3456789TJQKA", MoveKind::Straight));
  CHECK(play_then_passes(g, "2222", MoveKind::Bomb));
  CHECK(play_then_passes(g, "BR", MoveKind::Rocket));
  // Bid 3; bomb x2, rocket x2, spring x2: stake 24, from each of two peasants.
  const Settlement s = g.result();
  CHECK(s.landlord_won && s.spring);
  CHECK_EQ(s.multiplier, 8);
  CHECK_EQ(s.payouts[0], 48LL);
  CHECK_EQ(s.payouts[1], -24LL);
  CHECK_EQ(s.payouts[2], -24LL);
}

TEST(sanren_rejects_a_deal_with_a_kitty) {
  bool threw = false;
  try {
    Deal d;
    d.hands = {cards("33334444555566667"), cards("77788889999TTTTJJ"), cards("JJQQQQKKKKAAAA222")};
    d.kitty = cards("2BR");
    Game g(d, rules("sanren"), 0, -1, 1);
  } catch (const std::invalid_argument& e) {
    threw = std::string(e.what()).find("18 cards") != std::string::npos;
  }
  CHECK(threw);
}

// ------------------------------------------------------------------------------- happy
TEST(happy_bonuses_are_found_in_the_dealt_hands) {
  const Deal d = happy_deal();
  const StartBonus b = start_bonus_of(d.hands, rules("happy"));
  CHECK_EQ(int{b.jokers}, 1);    // seat 0
  CHECK_EQ(int{b.straight}, 1);  // seat 0: 3..A, one of each
  CHECK_EQ(b.doublings(), 2);
  CHECK(start_bonus_of(d.hands, Rules{}).doublings() == 0);  // not in the standard rules
  // The straight counts in the dealt 17 cards only: seat 2 lacks 3..7 and the kitty cannot
  // give them, seat 1 lacks 9..A.
  std::array<Mask, kMaxSeats> no_straight = d.hands;
  no_straight[0] -= cards("7");
  no_straight[1] += cards("7");
  CHECK_EQ(int{start_bonus_of(no_straight, rules("happy")).straight}, 0);
}

TEST(happy_doubles_once_per_bonus) {
  Game happy(happy_deal(), rules("happy"), 0, 0, 3);
  play_out_happy_deal(happy);
  // Base 1; bomb x2, rocket x2, spring x2, both jokers x2, the straight x2: 32.
  const Settlement s = happy.result();
  CHECK_EQ(s.multiplier, 32);
  CHECK_EQ(int{s.start_bonus.jokers}, 1);
  CHECK_EQ(int{s.start_bonus.straight}, 1);
  CHECK_EQ(s.payouts[0], 64LL);
  CHECK_EQ(s.payouts[1], -32LL);
  // The same hand without start bonuses: 8.
  Game standard(happy_deal(), Rules{}, 0, 0, 3);
  play_out_happy_deal(standard);
  CHECK_EQ(standard.result().multiplier, 8);
  CHECK_EQ(standard.result().start_bonus.doublings(), 0);
}

TEST(happy_bonus_of_a_peasant_doubles_too) {
  // Seat 1 is the landlord; the bonuses sit in seat 0's dealt hand (docs/rules.md, "Start bonuses": a dealt hand).
  Deal d = happy_deal();
  std::swap(d.hands[0], d.hands[1]);
  Game g(d, rules("happy"), 0, 1, 3);
  CHECK_EQ(int{g.state().start_bonus.jokers}, 2);  // bit 1: seat 1 holds them now
  std::swap(d.hands[0], d.hands[1]);
  Game h(d, rules("happy"), 0, 1, 3);
  CHECK_EQ(int{h.state().start_bonus.jokers}, 1);
  CHECK_EQ(int{h.state().start_bonus.straight}, 1);
}

TEST(settle_with_start_bonuses) {
  // Base 2, one bomb, both bonuses, cap 0: 2 x 2 x 4 = 16 a peasant.
  const Settlement s = settle(2, 1, 0, false, false, true, 2, 3, 0, StartBonus{1, 2});
  CHECK_EQ(s.multiplier, 8);
  CHECK_EQ(s.payouts[2], 32LL);
  CHECK_EQ(s.payouts[0], -16LL);
  CHECK_EQ(settle(2, 1, 0, false, false, true, 2, 3, 4, StartBonus{1, 2}).multiplier, 4);  // capped
}

// ------------------------------------------------------------------------- four_player
TEST(four_player_rules_and_deal) {
  const Rules r = rules("four_player");
  CHECK(validate(r).empty());
  CHECK_EQ(r.hand_size(), 25);  // (108 - 8) / 4
  CHECK_EQ(total(r.deck()), 108);
  CHECK_EQ(count(r.deck(), 0), 8);
  CHECK_EQ(count(r.deck(), kRedJoker), 2);
  Rules bad = r;
  bad.decks = 1;
  CHECK(!validate(bad).empty());
  bad = r;
  bad.kitty_size = 7;  // 101 cards do not split four ways
  CHECK(!validate(bad).empty());
  Rng rng(9);
  const Deal d = deal_cards(rng, r);
  Mask all = d.kitty;
  for (int seat = 0; seat < 4; ++seat) {
    CHECK_EQ(total(d.hands[static_cast<std::size_t>(seat)]), 25);
    all += d.hands[static_cast<std::size_t>(seat)];
  }
  CHECK_EQ(total(d.kitty), 8);
  CHECK_EQ(all, r.deck());
}

TEST(four_player_combinations) {
  const Rules r = rules("four_player");
  // Bombs of 4..8 cards carry their size in `length`.
  const auto eight = classify(cards("33333333"), r);
  CHECK_EQ(eight.size(), 1u);
  CHECK(eight[0].kind == MoveKind::Bomb && eight[0].length == 8);
  CHECK(classify(cards_of(0, 9), r).empty());  // nine is more than two decks hold
  // Joker pairs: BB and RR; B + R is nothing with two decks; all four jokers, the rocket.
  CHECK(move("BB", MoveKind::Pair, r).key == kBlackJoker);
  CHECK(move("RR", MoveKind::Pair, r).key == kRedJoker);
  CHECK(classify(cards("BR"), r).empty());
  CHECK(classify(cards("BBR"), r).empty());
  CHECK_EQ(int{move("BBRR", MoveKind::Rocket, r).length}, 4);
  CHECK(classify(cards("BBRR"), r).size() == 1u);  // not two pairs: no such kind
  // Jokers never in chains, never pair kickers.
  CHECK(classify(cards("QQKKAABB"), r).empty());
  CHECK(classify(cards("333BB"), r).empty());
  CHECK(!classify(cards("333B"), r).empty());  // a single joker kicks a trio
}

TEST(four_player_beating) {
  const Rules r = rules("four_player");
  const Move b4_two = move("2222", MoveKind::Bomb, r), b5_three = move("33333", MoveKind::Bomb, r),
             b5_four = move("44444", MoveKind::Bomb, r), b8_three = move("33333333", MoveKind::Bomb, r),
             rocket = move("BBRR", MoveKind::Rocket, r), bb = move("BB", MoveKind::Pair, r),
             rr = move("RR", MoveKind::Pair, r), twos = move("22", MoveKind::Pair, r);
  CHECK(beats(b5_three, b4_two));   // more cards beat fewer
  CHECK(!beats(b4_two, b5_three));
  CHECK(beats(b5_four, b5_three));  // as many: the higher rank
  CHECK(beats(b8_three, b5_four));
  CHECK(beats(rocket, b8_three));   // the rocket beats everything
  CHECK(!beats(b8_three, rocket));
  CHECK(beats(rr, bb));
  CHECK(beats(bb, twos));
  CHECK(!beats(bb, rr));
}

TEST(four_player_move_counts) {
  const Rules r = rules("four_player");
  // 33333BB: solos 3 B; pairs 33 BB; trio 333; 333+B; bombs 3333 33333 (333+BB: jokers
  // never pair kickers; 3333 + two solos: only B is left, and solo kickers differ in rank).
  CHECK_EQ(leads("33333BB", r), 8u);
  CHECK_EQ(follows("33333BB", move("44444", MoveKind::Bomb, r), r), 0u);  // 33333 is lower
  CHECK_EQ(follows("33333BB", move("4444", MoveKind::Bomb, r), r), 1u);   // 33333: more cards
  CHECK_EQ(follows("33333BB", move("22", MoveKind::Pair, r), r), 3u);     // BB, 3333, 33333
  CHECK_EQ(follows("BBRR", move("22222222", MoveKind::Bomb, r), r), 1u);  // the rocket
  CHECK_EQ(follows("22222222", move("BBRR", MoveKind::Rocket, r), r), 0u);
  // 33333333: solo, pair, trio, bombs of 4..8 (5), and no kickers of its own rank.
  CHECK_EQ(leads("33333333", r), 8u);
  // 3333333344: those 8, and solo 4, pair 44, 333+4, 333+44; not 3333+4+4 (two solo
  // kickers of one rank) nor four with two pairs (one pair rank only): 12.
  CHECK_EQ(leads("3333333344", r), 12u);
}

TEST(four_player_bidding) {
  const Rules r = rules("four_player");
  // Seat 0 bids 1; seats 1, 2, 3 pass: every other player passed after the high bid.
  Game g(1, r, 0);
  CHECK(apply_all(g, {Action::bid(1), Action::bid(0), Action::bid(0)}));
  CHECK(g.state().phase == Phase::Bidding);
  CHECK_EQ(int{g.state().to_move}, 3);
  CHECK(apply_all(g, {Action::bid(0)}));
  CHECK(g.state().phase == Phase::Playing);
  CHECK_EQ(int{g.state().landlord}, 0);
  CHECK_EQ(total(g.state().hands[0]), 33);  // 25 + the kitty of 8
  // Seat 3, the last to speak, wins the auction by bidding after three passes.
  Game h(1, r, 0);
  CHECK(apply_all(h, {Action::bid(0), Action::bid(0), Action::bid(0), Action::bid(2)}));
  CHECK_EQ(int{h.state().landlord}, 3);
  CHECK_EQ(int{h.state().base}, 2);
  // All four pass: redeal.
  Game v(1, r, 2);
  CHECK(apply_all(v, {Action::bid(0), Action::bid(0), Action::bid(0), Action::bid(0)}));
  CHECK(v.state().phase == Phase::Bidding);
  CHECK_EQ(static_cast<int>(v.state().redeals), 1);
}

TEST(four_player_hand_and_settlement) {
  Game g = strong_four_player_landlord(rules("four_player"));
  CHECK_EQ(total(g.state().hands[0]), 33);
  // Three peasants pass after each play, so each trick comes back to the landlord.
  CHECK(play_out_strong_landlord(g));
  // Three bombs, the rocket and a spring: 2^5 = 32 from each of the three peasants.
  const Settlement s = g.result();
  CHECK(s.landlord_won && s.spring);
  CHECK_EQ(s.multiplier, 32);
  CHECK_EQ(s.seats, 4);
  CHECK_EQ(s.payouts[0], 96LL);
  for (std::size_t seat = 1; seat < 4; ++seat) CHECK_EQ(s.payouts[seat], -32LL);
}

TEST(four_player_settle_when_peasants_win) {
  // Base 2, one bomb: stake 4; the landlord (seat 1) pays each of three peasants.
  const Settlement s = settle(2, 1, 0, false, false, false, 1, 4, 0);
  CHECK_EQ(s.payouts[1], -12LL);
  CHECK_EQ(s.payouts[0], 4LL);
  CHECK_EQ(s.payouts[2], 4LL);
  CHECK_EQ(s.payouts[3], 4LL);
}

TEST(four_player_hash_covers_the_fourth_seat) {
  Game g(4, rules("four_player"), 0);
  State s = g.state();
  const auto before = hash(s);
  std::swap(s.hands[2], s.hands[3]);
  CHECK(hash(s) != before);
}
