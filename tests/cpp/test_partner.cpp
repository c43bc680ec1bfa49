// The variant four_partner (docs/rules.md, "Four players with a partner"): the landlord's
// open choice of a partner after the kitty, the sides, and their settlement, with
// outcomes worked out by hand; then properties over random games of the preset.
#include "check.hpp"
#include "game/game.hpp"
#include "helpers.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

// Four one-rank hands as a position of four_partner: landlord 0, partner 2 (unless given).
Game position(std::vector<const char*> hands, int to_move, int partner = 2) {
  std::vector<Mask> masks;
  for (const char* h : hands) masks.push_back(cards(h));
  return Game::from_position(masks, 0, to_move, Move{}, -1, rules("four_partner"), {}, partner);
}

// Whether making the position throws std::invalid_argument.
bool refused(const std::vector<Mask>& hands, const char* preset_name, int partner) {
  try {
    Game::from_position(hands, 0, 0, Move{}, -1, rules(preset_name), {}, partner);
  } catch (const std::invalid_argument&) {
    return true;
  }
  return false;
}

bool play(Game& g, const char* text) { return g.apply(Action::play(move(text, MoveKind::Solo, g.rules()))); }

}  // namespace

TEST(partner_rules_and_preset) {
  Rules r = rules("four_partner");
  CHECK(r.partner);
  r.partner = false;
  CHECK(r == rules("four_player"));  // four_player plus the choice, nothing else
  Rules three;
  three.partner = true;
  CHECK(validate(three).find("partner") == 0);  // refused by name
  CHECK(rules_field_named("partner") != nullptr);
}

TEST(partner_choice_follows_the_kitty) {
  Game g(5, rules("four_partner"), 1);
  for (int i = 0; i < 3; ++i) CHECK(g.apply(Action::bid(0)));
  CHECK(g.apply(Action::bid(2)));  // seat 0 bids after three passes and wins
  const State& s = g.state();
  CHECK(s.phase == Phase::Partner);
  CHECK_EQ(int{s.landlord}, 0);
  CHECK_EQ(int{s.to_move}, 0);
  CHECK_EQ(total(s.hands[0]), 33);  // the kitty is taken before the choice
  // Exactly: alone, and each of the three other seats.
  const std::vector<Action> legal = g.legal_actions();
  CHECK(legal == (std::vector<Action>{Action::partner(-1), Action::partner(1), Action::partner(2), Action::partner(3)}));
  CHECK(!g.check(Action::partner(0)).empty());  // not itself
  CHECK(!g.check(Action{ActionType::Partner, 5, {}}).empty());
  CHECK(!g.check(Action::pass()).empty());
  CHECK(!g.check(Action::bid(3)).empty());
  CHECK(g.legal_actions() == legal);  // refusals changed nothing
  const std::uint64_t before = hash(s);
  CHECK(g.apply(Action::partner(3)));
  CHECK(g.state().phase == Phase::Playing);
  CHECK_EQ(int{g.state().partner}, 3);
  CHECK_EQ(int{g.state().to_move}, 0);  // the landlord still leads
  CHECK(!g.state().last.cards);
  const std::uint64_t chose_three = hash(g.state());
  CHECK(g.undo());
  CHECK(hash(g.state()) == before);
  CHECK(g.state().phase == Phase::Partner && g.state().partner == -1);
  CHECK(g.apply(Action::partner(-1)));
  CHECK(hash(g.state()) != chose_three);  // alone and a partner are different states
}

TEST(partner_actions_as_text) {
  CHECK_EQ(action_text(Action::partner(-1)), std::string("alone"));
  CHECK_EQ(action_text(Action::partner(2)), std::string("partner 2"));
  CHECK(action_word("Alone").action == Action::partner(-1));
  CHECK(action_word("partner 3").action == Action::partner(3));
  CHECK(!action_word("partner 4").action);
  CHECK(!action_word("partner 4").error.empty());
}

TEST(partner_alone_pays_three_stakes) {
  Game g = strong_four_player_landlord(rules("four_partner"));
  CHECK(g.state().phase == Phase::Partner);
  CHECK(g.apply(Action::partner(-1)));
  CHECK(play_out_strong_landlord(g));
  // Three bombs, the rocket, a spring: 2^5 from each of three, as four_player.
  const Settlement s = g.result();
  CHECK(s.landlord_won && s.spring);
  CHECK_EQ(s.partner, -1);
  CHECK(s.payouts == (std::array<long long, 4>{96, -32, -32, -32}));
}

TEST(partner_win_pays_the_landlord) {
  // Seat 1 (an opponent) leads, seat 2 (the partner) goes out over it.
  Game g = position({"34", "36", "7", "38"}, 1);
  CHECK(play(g, "6"));
  CHECK(play(g, "7"));
  const Settlement s = g.result();
  CHECK(s.landlord_won && !s.spring);  // an opponent played
  CHECK_EQ(s.partner, 2);
  CHECK(s.payouts == (std::array<long long, 4>{1, -1, 1, -1}));
}

TEST(partner_opponent_win_pays_the_opponents) {
  // The landlord leads, the partner plays, seat 3 goes out: no anti-spring.
  Game g = position({"34", "36", "57", "8"}, 0);
  CHECK(play(g, "3") && play(g, "6") && play(g, "7") && play(g, "8"));
  const Settlement s = g.result();
  CHECK(!s.landlord_won && !s.anti_spring);
  CHECK(s.payouts == (std::array<long long, 4>{-1, 1, -1, 1}));
}

TEST(partner_spring_and_anti_spring) {
  // Spring: the landlord leads, an opponent passes, the partner goes out; no opponent played.
  Game g = position({"34", "36", "7", "38"}, 0);
  CHECK(play(g, "4") && g.apply(Action::pass()) && play(g, "7"));
  Settlement s = g.result();
  CHECK(s.landlord_won && s.spring && s.multiplier == 2);
  CHECK(s.payouts == (std::array<long long, 4>{2, -2, 2, -2}));
  // Anti-spring: the landlord's side played only the landlord's first lead.
  Game h = position({"34", "6", "57", "38"}, 0);
  CHECK(play(h, "3") && play(h, "6"));
  s = h.result();
  CHECK(!s.landlord_won && s.anti_spring && s.multiplier == 2);
  CHECK(s.payouts == (std::array<long long, 4>{-2, 2, -2, 2}));
  // The partner's play spoils it.
  Game k = position({"34", "56", "7Q", "8"}, 0);
  CHECK(play(k, "3") && play(k, "5") && play(k, "7") && play(k, "8"));
  CHECK(!k.result().anti_spring);
}

TEST(partner_settle_and_its_checks) {
  // Base 2, a bomb: stake 4; the landlord (1) and its partner (3) lose one stake each.
  const Settlement s = settle(2, 1, 0, false, false, false, 1, 4, 0, {}, 3);
  CHECK(s.payouts == (std::array<long long, 4>{4, -4, 4, -4}));
  CHECK(!score_error(1, 0, 0, false, false, true, 1, 4, 0, 1).empty());  // the landlord itself
  CHECK(!score_error(1, 0, 0, false, false, true, 1, 3, 0, 2).empty());  // three seats
  CHECK(!score_error(1, 0, 0, false, false, true, 1, 4, 0, 4).empty());
  CHECK(score_error(1, 0, 0, false, false, true, 1, 4, 0, -1).empty());
}

TEST(partner_from_position_checks) {
  const std::vector<Mask> four{cards("3"), cards("4"), cards("5"), cards("6")};
  CHECK(refused(four, "four_player", 2));  // no partner rule
  CHECK(refused(four, "four_partner", 0));  // the landlord
  CHECK(refused(four, "four_partner", 4));
  CHECK(refused({cards("3"), cards("4")}, "four_partner", 1));
  CHECK(!refused(four, "four_partner", 3));
}

TEST(partner_random_games_properties) {
  // Zero-sum, undo back to the deal restores every state, and a replay of the same deal
  // reaches the same state.
  const Rules r = rules("four_partner");
  Rng rng(17);
  int partnered = 0;
  for (int n = 0; n < 60; ++n) {
    Game g(static_cast<std::uint64_t>(n), r, n % 4);
    std::vector<std::uint64_t> hashes{hash(g.state())};
    while (g.state().phase != Phase::Over) {
      const std::vector<Action> legal = g.legal_actions();
      CHECK(g.apply(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]));
      hashes.push_back(hash(g.state()));
    }
    const Settlement s = g.result();
    long long sum = 0;
    for (long long p : s.payouts) sum += p;
    CHECK_EQ(sum, 0LL);
    if (s.landlord >= 0) {
      CHECK_EQ(s.partner, int{g.state().partner});
      CHECK_EQ(s.landlord_won, on_landlord_side(g.state(), g.state().winner));
      for (int seat = 0; seat < 4; ++seat) {
        // Each seat wins or loses with its side; partnered, every seat moves one stake.
        CHECK_EQ(s.payouts[static_cast<std::size_t>(seat)] > 0, on_landlord_side(g.state(), seat) == s.landlord_won);
      }
      if (s.partner >= 0) ++partnered;
    }
    CHECK(g.replayed_on(g.deals().back()).state() == g.state());
    while (g.undo()) {
      hashes.pop_back();
      CHECK_EQ(hash(g.state()), hashes.back());
    }
    CHECK(g.state() == g.initial());
  }
  CHECK(partnered > 20);  // random choices name a partner three times in four
}
