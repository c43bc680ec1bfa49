// Determinization: every world agrees with what the seat knows, and keeps the game's
// public record; the unknown cards move.
#include "check.hpp"
#include "game/game.hpp"
#include "helpers.hpp"
#include "play/policy.hpp"
#include "search/worlds.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

// A seeded game advanced `steps` actions by the heuristic policy.
Game advanced(std::uint64_t seed, int steps) {
  Game g(seed, Rules{}, 0);
  std::vector<Action> legal;
  Rng rng(seed);
  for (int i = 0; i < steps && g.state().phase != Phase::Over; ++i) {
    g.legal_actions(legal);
    g.apply_legal(legal[choose(PolicyKind::Heuristic, g, legal, rng)]);
  }
  return g;
}

void check_consistent(const Game& g, const Game& w, int seat) {
  const State& s = g.state();
  const State& t = w.state();
  CHECK(t.hands[static_cast<std::size_t>(seat)] == s.hands[static_cast<std::size_t>(seat)]);
  CHECK(t.played == s.played);
  CHECK(t.last == s.last && t.last_by == s.last_by && t.to_move == s.to_move && t.landlord == s.landlord);
  CHECK(t.phase == s.phase && t.base == s.base && t.bombs == s.bombs && t.plays == s.plays && t.redeals == s.redeals);
  for (int i = 0; i < s.seats; ++i) CHECK_EQ(total(t.hands[static_cast<std::size_t>(i)]), total(s.hands[static_cast<std::size_t>(i)]));
  const auto hw = w.history(), hg = g.history();
  CHECK_EQ(hw.size(), hg.size());
  for (std::size_t i = 0; i < hw.size() && i < hg.size(); ++i) CHECK(hw[i].seat == hg[i].seat && hw[i].action == hg[i].action);
  const SeatView a = seat_view(s, seat), b = seat_view(t, seat);
  CHECK(a.unknown == b.unknown);  // the same unknown cards, wherever they are now
  if (s.landlord >= 0) {
    CHECK(t.kitty == s.kitty);
    CHECK(contains(t.hands[static_cast<std::size_t>(s.landlord)], a.known[static_cast<std::size_t>(s.landlord)]));
  }
}

}  // namespace

TEST(worlds_agree_with_the_seat_view) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Game g = advanced(seed, static_cast<int>(seed % 37));
    for (int seat = 0; seat < 3; ++seat) {
      bool moved = false;
      for (const Game& w : sample_worlds(g, seat, 5, seed * 3 + static_cast<std::uint64_t>(seat))) {
        check_consistent(g, w, seat);
        moved = moved || w.state().hands != g.state().hands || w.state().kitty != g.state().kitty;
      }
      if (g.state().phase != Phase::Over) CHECK(moved);
    }
  }
}

TEST(worlds_of_a_two_hand_position_are_the_position) {
  // With two hands and the rest of the deck out of play, the opponent's hand is known.
  const Game g = Game::from_position({cards("3344"), cards("56")}, 0, 0, Move{}, -1, Rules{});
  for (const Game& w : sample_worlds(g, 0, 3, 9)) CHECK(w.state() == g.state());
}

TEST(worlds_reject_a_seat_outside_the_game) {
  const Game g = Game::from_position({cards("3344"), cards("56")}, 0, 0, Move{}, -1, Rules{});
  bool threw = false;
  try {
    sample_worlds(g, 2, 1, 0);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
}

TEST(worlds_hold_no_real_hands_of_earlier_deals_nor_the_seed) {
  int redealt = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    Game g(seed, Rules{}, 0);
    while (g.state().redeals < 2) g.apply_legal(Action::bid(0));  // every seat passes: thrown in twice
    for (int seat = 0; seat < 3; ++seat) {
      Game w = sample_worlds(g, seat, 1, seed)[0];
      CHECK(w.seed() != g.seed());
      CHECK_EQ(w.deals().size(), g.deals().size());
      for (std::size_t k = 0; k + 1 < g.deals().size(); ++k, ++redealt) {
        for (int i = 0; i < 3; ++i) {
          const bool own = i == seat;
          CHECK(own == (w.deals()[k].hands[static_cast<std::size_t>(i)] == g.deals()[k].hands[static_cast<std::size_t>(i)]));
        }
      }
      while (w.undo()) CHECK(w.state().hands[static_cast<std::size_t>((seat + 1) % 3)] != g.deals()[0].hands[static_cast<std::size_t>((seat + 1) % 3)]);
      CHECK(w.state().hands[static_cast<std::size_t>(seat)] == g.deals()[0].hands[static_cast<std::size_t>(seat)]);
      // Thrown in once more, a world deals from its own stream, not the real game's.
      Game world = sample_worlds(g, seat, 1, seed)[0], real = g;
      for (int pass = 0; pass < 3; ++pass) {
        world.apply_legal(Action::bid(0));
        real.apply_legal(Action::bid(0));
      }
      CHECK(world.deals().back().hands != real.deals().back().hands);
    }
  }
  CHECK(redealt > 0);
}

TEST(a_worlds_start_bonuses_are_its_own_deals) {
  // Start bonuses (happy) are shown only at the settlement: a world pays its own deal's.
  Rules rules;
  rules.start_bonus = true;
  int differ = 0;
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const Game g(seed, rules, 0);
    for (const Game& w : sample_worlds(g, 0, 2, seed)) {
      CHECK(w.state().start_bonus == start_bonus_of(w.deals().back().hands, rules));
      differ += !(w.state().start_bonus == g.state().start_bonus);
    }
  }
  CHECK(differ > 0);
}
