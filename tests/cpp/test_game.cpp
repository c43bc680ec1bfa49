// The game: bidding paths, play, scoring, undo, with outcomes worked out by hand.
#include <algorithm>
#include <stdexcept>

#include "check.hpp"
#include "game/game.hpp"
#include "helpers.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

Rules with_bidding(Bidding b) {
  Rules r;
  r.bidding = b;
  return r;
}

bool apply_all(Game& g, std::initializer_list<Action> actions) {
  for (const Action& a : actions) {
    if (!g.apply(a)) return false;
  }
  return true;
}

}  // namespace

TEST(classic_bid_of_three_ends_at_once) {
  Game g(fixed_deal(), Rules{}, 1, -1, 7);
  CHECK(apply_all(g, {Action::bid(3)}));
  CHECK(g.state().phase == Phase::Playing);
  CHECK_EQ(int{g.state().landlord}, 1);
  CHECK_EQ(int{g.state().base}, 3);
  CHECK_EQ(total(g.state().hands[1]), 20);  // took the kitty
  CHECK_EQ(int{g.state().to_move}, 1);      // and leads
}

TEST(classic_passed_player_never_bids_again) {
  Game g(fixed_deal(), Rules{}, 0, -1, 7);
  // 0 bids 1, 1 passes, 2 bids 2, 0 raises to... 0 may still bid; 1 is skipped.
  CHECK(apply_all(g, {Action::bid(1), Action::bid(0), Action::bid(2)}));
  CHECK_EQ(int{g.state().to_move}, 0);
  CHECK(!g.check(Action::bid(2)).empty());  // must exceed 2
  CHECK(g.check(Action::bid(2)).find("exceed 2") != std::string::npos);
  CHECK(apply_all(g, {Action::bid(0)}));    // 0 passes: only 2 remains
  CHECK(g.state().phase == Phase::Playing);
  CHECK_EQ(int{g.state().landlord}, 2);
  CHECK_EQ(int{g.state().base}, 2);
}

TEST(classic_auction_ends_when_others_passed_after_the_high_bid) {
  Game g(fixed_deal(), Rules{}, 2, -1, 7);
  CHECK(apply_all(g, {Action::bid(0), Action::bid(1), Action::bid(0)}));  // 2 pass, 0 bids 1, 1 pass
  CHECK(g.state().phase == Phase::Playing);
  CHECK_EQ(int{g.state().landlord}, 0);
  CHECK_EQ(int{g.state().base}, 1);
}

TEST(classic_three_passes_redeal) {
  Game g(fixed_deal(), Rules{}, 0, -1, 7);
  CHECK(apply_all(g, {Action::bid(0), Action::bid(0), Action::bid(0)}));
  CHECK(g.state().phase == Phase::Bidding);
  CHECK_EQ(static_cast<int>(g.state().redeals), 1);
  CHECK_EQ(g.deals().size(), 2u);
  CHECK(g.deals()[1] != g.deals()[0]);
  CHECK_EQ(int{g.state().to_move}, 0);  // the same first bidder
  CHECK(g.undo());
  CHECK_EQ(g.deals().size(), 1u);
  CHECK_EQ(static_cast<int>(g.state().redeals), 0);
}

namespace {

bool refuses_redeal(Game& g, const Deal& deal) {
  try {
    g.give_next_redeal(deal);
  } catch (const std::invalid_argument&) {
    return true;
  }
  return false;
}

}  // namespace

TEST(a_given_redeal_is_dealt_and_the_streams_own_goes_on_as_drawn) {
  const auto nobody = {Action::bid(0), Action::bid(0), Action::bid(0)};  // a redeal
  Game drawn(fixed_deal(), Rules{}, 0, -1, 7);
  CHECK(apply_all(drawn, nobody));
  CHECK(apply_all(drawn, nobody));  // two redeals, as the stream draws them
  // The stream's own redeal given: the same game, the next redeal drawn as before.
  Game own(fixed_deal(), Rules{}, 0, -1, 7);
  own.give_next_redeal(drawn.deals()[1]);
  CHECK(apply_all(own, nobody));
  CHECK(apply_all(own, nobody));
  CHECK(own.deals() == drawn.deals());
  // Another deal given: dealt, and the stream left as it was (the next redeal is the
  // stream's first).
  Game other(fixed_deal(), Rules{}, 0, -1, 7);
  other.give_next_redeal(fixed_deal());
  CHECK(apply_all(other, nobody));
  CHECK(other.deals()[1] == fixed_deal());
  CHECK(apply_all(other, nobody));
  CHECK(other.deals()[2] == drawn.deals()[1]);
  // Undone and taken again: the given deal again.
  for (int i = 0; i < 4; ++i) CHECK(other.undo());
  CHECK(apply_all(other, nobody));
  CHECK(other.deals()[1] == fixed_deal());
  // No deal of the rules, or no auction: refused.
  Deal short_kitty = fixed_deal();
  short_kitty.kitty = 0;
  CHECK(refuses_redeal(other, short_kitty));
  CHECK(apply_all(other, {Action::bid(3)}));
  CHECK(refuses_redeal(other, fixed_deal()));
  // A seeded hand takes its stream's own redeal only.
  Game seeded(7, Rules{}, 0);
  CHECK(refuses_redeal(seeded, fixed_deal()));
  Game drawing(7, Rules{}, 0);
  CHECK(apply_all(drawing, nobody));
  seeded.give_next_redeal(drawing.deals()[1]);
  CHECK(apply_all(seeded, nobody));
  CHECK(seeded.deals() == drawing.deals());
  // Under wild cards a redeal names its wild ranks.
  Rules laizi;
  laizi.wild = 1;
  Game wild(fixed_deal(), laizi, 0, -1, 7);
  CHECK(refuses_redeal(wild, fixed_deal()));
}

TEST(call_and_rob) {
  const Rules r = with_bidding(Bidding::CallRob);
  {
    // 0 declines, 1 calls, 2 robs, 1 robs back: landlord 1, two robs, base 4.
    Game g(fixed_deal(), r, 0, -1, 7);
    CHECK(apply_all(g, {Action::call(false), Action::call(true), Action::rob(true)}));
    CHECK_EQ(int{g.state().to_move}, 1);  // the caller's last chance
    CHECK(apply_all(g, {Action::rob(true)}));
    CHECK_EQ(int{g.state().landlord}, 1);
    CHECK_EQ(int{g.state().base}, 4);
  }
  {
    // 0 calls, 1 robs, 2 does not, 0 lets it go: landlord 1, base 2.
    Game g(fixed_deal(), r, 0, -1, 7);
    CHECK(apply_all(g, {Action::call(true), Action::rob(true), Action::rob(false), Action::rob(false)}));
    CHECK_EQ(int{g.state().landlord}, 1);
    CHECK_EQ(int{g.state().base}, 2);
  }
  {
    // 0 calls, nobody robs: no rob-back, landlord 0, base 1.
    Game g(fixed_deal(), r, 0, -1, 7);
    CHECK(apply_all(g, {Action::call(true), Action::rob(false), Action::rob(false)}));
    CHECK_EQ(int{g.state().landlord}, 0);
    CHECK_EQ(int{g.state().base}, 1);
  }
  {
    // 0 and 1 decline, 2 calls: nobody left to rob.
    Game g(fixed_deal(), r, 0, -1, 7);
    CHECK(apply_all(g, {Action::call(false), Action::call(false), Action::call(true)}));
    CHECK_EQ(int{g.state().landlord}, 2);
  }
  {
    Game g(fixed_deal(), r, 0, -1, 7);
    CHECK(apply_all(g, {Action::call(false), Action::call(false), Action::call(false)}));
    CHECK_EQ(static_cast<int>(g.state().redeals), 1);
    CHECK(!g.apply(Action::bid(1)));  // not a classic auction
  }
}

TEST(bidding_none_gives_the_landlord) {
  Game g(fixed_deal(), with_bidding(Bidding::None), 2, -1, 7);
  CHECK(g.state().phase == Phase::Playing);
  CHECK_EQ(int{g.state().landlord}, 2);
  CHECK_EQ(int{g.state().base}, 1);
}

TEST(play_rules) {
  Game g(fixed_deal(), Rules{}, 0, 0, 7);  // landlord 0 leads with 20 cards
  CHECK(g.check(Action::pass()) == "the leader may not pass");
  CHECK(g.check(Action::play(move("77", MoveKind::Pair))).ends_with(" missing from 77"));  // the 7s the hand lacks
  CHECK(g.apply(Action::play(move("33", MoveKind::Pair))));
  CHECK(g.check(Action::play(move("77", MoveKind::Pair))).empty());
  CHECK(g.check(Action::play(move("7", MoveKind::Solo))).find("does not beat 33") != std::string::npos);
  CHECK(apply_all(g, {Action::pass(), Action::pass()}));
  CHECK_EQ(int{g.state().to_move}, 0);  // two passes: the last player leads anything
  CHECK_EQ(g.state().last.cards, Mask{0});
  CHECK(g.apply(Action::play(move("4444", MoveKind::Bomb))));
  CHECK_EQ(int{g.state().bombs}, 1);
  const auto legal = g.legal_actions();
  CHECK(legal.front() == Action::pass());
  CHECK(std::all_of(legal.begin() + 1, legal.end(), [&](const Action& a) { return beats(a.move, move("4444", MoveKind::Bomb)); }));
}

TEST(undo_restores_everything) {
  Game g(12345, Rules{}, 0);
  const State start = g.state();
  const std::uint64_t h = hash(start);
  Rng rng(3);
  int steps = 0;
  while (g.state().phase != Phase::Over) {
    const auto legal = g.legal_actions();
    CHECK(g.apply(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]));
    ++steps;
  }
  while (g.undo()) --steps;
  CHECK_EQ(steps, 0);
  CHECK(g.state() == start);
  CHECK_EQ(hash(g.state()), h);
}

TEST(settlement_arithmetic) {
  // The seed example: bid 3, two bombs, landlord wins, no spring: +24 / -12 / -12.
  Settlement s = settle(3, 2, 0, false, false, true, 0, 3, 0);
  CHECK_EQ(s.multiplier, 4);
  CHECK_EQ(s.payouts[0], 24LL);
  CHECK_EQ(s.payouts[1], -12LL);
  CHECK_EQ(s.payouts[2], -12LL);
  // Peasants win with a rocket and an anti-spring: 1 x 2 x 2, each peasant +4.
  s = settle(1, 0, 1, false, true, false, 2, 3, 0);
  CHECK_EQ(s.payouts[2], -8LL);
  CHECK_EQ(s.payouts[0], 4LL);
  // The cap: 2^5 capped at 8.
  CHECK_EQ(settle(2, 4, 1, false, false, true, 1, 3, 8).multiplier, 8);
  // Two seats (a puzzle): the landlord against one opponent.
  s = settle(1, 0, 0, true, false, true, 0, 2, 0);
  CHECK_EQ(s.payouts[0], 2LL);
  CHECK_EQ(s.payouts[1], -2LL);
}

TEST(spring_and_anti_spring_in_play) {
  // Landlord 0 holds everything it needs: plays 3-card hands out while peasants pass.
  {
    Game g = Game::from_position({cards("33344"), cards("5"), cards("6")}, 0, 0, Move{}, -1, Rules{});
    CHECK(g.apply(Action::play(move("33344", MoveKind::TrioPair))));
    const Settlement s = g.result();
    CHECK(s.landlord_won && s.spring && !s.anti_spring);
    CHECK_EQ(s.multiplier, 2);
  }
  {
    // A spring needs both peasants silent: peasant 2 only passes, but peasant 1 plays
    // once, so no spring.
    Game g = Game::from_position({cards("3K"), cards("48"), cards("56")}, 0, 0, Move{}, -1, Rules{});
    CHECK(apply_all(g, {Action::play(move("3", MoveKind::Solo)), Action::play(move("4", MoveKind::Solo)), Action::pass(),
                        Action::play(move("K", MoveKind::Solo))}));
    const Settlement s = g.result();
    CHECK(s.landlord_won && !s.spring);
  }
  {
    // The landlord's opening lead was its only play: anti-spring.
    Game g = Game::from_position({cards("3K"), cards("A"), cards("5")}, 0, 0, Move{}, -1, Rules{});
    CHECK(apply_all(g, {Action::play(move("3", MoveKind::Solo)), Action::play(move("A", MoveKind::Solo))}));
    const Settlement s = g.result();
    CHECK(!s.landlord_won && s.anti_spring && !s.spring);
    CHECK_EQ(s.payouts[0], -4LL);
  }
}

TEST(two_seat_puzzles_alternate) {
  Game g = Game::from_position({cards("345"), cards("6")}, 0, 1, move("4", MoveKind::Solo), 0, Rules{});
  CHECK_EQ(int{g.state().passes}, 0);
  CHECK(g.apply(Action::pass()));  // one pass: the other player leads
  CHECK_EQ(int{g.state().to_move}, 0);
  CHECK_EQ(g.state().last.cards, Mask{0});
}

TEST(openspiel_style_auction) {
  const Rules r = *preset("openspiel");
  {
    // 0 bids 1, 1 passes, 2 bids 2, 0 passes: 1 may bid again (3 or pass).
    Game g(fixed_deal(), r, 0, -1, 7);
    CHECK(apply_all(g, {Action::bid(1), Action::bid(0), Action::bid(2), Action::bid(0)}));
    CHECK_EQ(int{g.state().to_move}, 1);
    CHECK(g.check(Action::bid(3)).empty());
    CHECK(apply_all(g, {Action::bid(0)}));  // two passes after the bid of 2
    CHECK_EQ(int{g.state().landlord}, 2);
  }
  {
    // Nobody bids: the hand ends void, without a redeal.
    Game g(fixed_deal(), r, 0, -1, 7);
    CHECK(apply_all(g, {Action::bid(0), Action::bid(0), Action::bid(0)}));
    CHECK(g.state().phase == Phase::Over);
    CHECK_EQ(static_cast<int>(g.state().redeals), 0);
    CHECK_EQ(g.result().payouts[0] + g.result().payouts[1] + g.result().payouts[2], 0LL);
    CHECK_EQ(g.result().base, 0);
  }
}
