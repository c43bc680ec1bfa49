// Regressions of the robustness work: every crash or wrong answer that the fuzzers
// (fuzz/) and the hostile-input tests found, as the smallest input that showed it.
#include <stdexcept>
#include <string>

#include "check.hpp"
#include "game/game.hpp"
#include "helpers.hpp"
#include "rules/notation.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

template <class F>
bool refuses(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return std::string(e.what()).size() > 0;
  }
  return false;
}

}  // namespace

TEST(parse_limit_above_a_nibble_does_not_wrap) {
  // fuzz_parse: 17 threes with a limit of 16 wrapped rank 3's nibble into rank 4 ("34").
  const ParseResult p = parse_cards(std::string(17, '3'), 16, 16);
  CHECK(!p.ok());
  const ParseResult q = parse_cards(std::string(15, '3'), 16, 16);
  CHECK(q.ok() && q.cards == cards_of(0, 15));
}

TEST(no_cards_of_an_unknown_kind_is_no_move) {
  // fuzz_classify: reads_as gave kinds past Rocket an empty shape, which no cards fit, so
  // is_valid_move accepted {cards 0, kind 200} and a leader could "play" nothing.
  Move m{};
  m.kind = static_cast<MoveKind>(200);
  m.length = 1;
  CHECK(!is_valid_move(m, Rules{}));
  Game g = Game::from_position({cards("34"), cards("5")}, 0, 0, Move{}, -1, Rules{});
  CHECK(!g.check(Action::play(m)).empty());
  CHECK(!g.apply(Action::play(m)));
}

TEST(call_rob_base_is_not_capped_at_255) {
  // fuzz_game: State::base was a uint8, so call_base 100 robbed three times gave 255.
  Rules r;
  r.bidding = Bidding::CallRob;
  r.call_base = 100;
  Game g(1, r, 0);
  for (const Action& a : {Action::call(true), Action::rob(true), Action::rob(true), Action::rob(true)}) CHECK(g.apply(a));
  CHECK(g.state().phase == Phase::Playing);
  CHECK_EQ(int{g.state().base}, 800);
}

TEST(settle_is_exact_or_refuses) {
  // hostile input: score(1, bombs=2**31-1, rockets=1) overflowed an int (UB), multiplier 1;
  // later it was capped at 2**30 without a word. Counts no deck holds are refused now.
  CHECK(refuses([] { settle(1, 2147483647, 1, true, false, true, 0, 3, 0); }));
  CHECK(refuses([] { settle(3, 40, 0, false, false, true, 0, 3, 0); }));
  CHECK(refuses([] { settle(1, 0, 2, false, false, true, 0, 3, 0); }));
  const Settlement most = settle(1, 26, 1, true, false, true, 0, 4, 0);  // two decks' every bomb, the rocket, a spring
  CHECK_EQ(most.multiplier, 1 << 28);
  CHECK_EQ(most.payouts[0], 3LL << 28);
  CHECK_EQ(most.payouts[0] + most.payouts[1] + most.payouts[2] + most.payouts[3], 0LL);
  CHECK(refuses([] { settle(1, 0, 0, false, false, true, 5, 3, 0); }));  // landlord out of range wrote past payouts
}

TEST(constructors_refuse_what_they_cannot_play) {
  // fuzz_game raw starts: a first bidder of 7 indexed hands[7]; an empty hand in a position
  // stuck the game with no legal action; rules that do not validate were taken as given.
  Rules none = *preset("douzero");
  CHECK(refuses([&] { Game(1, none, 7); }));
  CHECK(refuses([&] { Game(1, Rules{}, -1); }));
  Rules bad;
  bad.decks = 5;
  CHECK(refuses([&] { Game(1, bad, 0); }));
  const Move three = move("3", MoveKind::Solo);
  CHECK(refuses([&] { Game::from_position({cards("4"), 0, cards("5")}, 0, 2, three, 1, Rules{}); }));
  CHECK(refuses([&] { Game::from_position({cards("4"), cards("5")}, 0, 5, Move{}, -1, Rules{}); }));
  CHECK(refuses([&] { Game::from_position({cards("4"), cards("5")}, 0, 0, three, 0, Rules{}); }));
  CHECK(refuses([&] { Game::from_position({cards("33333"), cards("5")}, 0, 0, Move{}, -1, Rules{}); }));
  CHECK(refuses([&] { Game::from_position({cards("4")}, 0, 0, Move{}, -1, Rules{}); }));
  Move junk = three;
  junk.kind = MoveKind::Bomb;
  CHECK(refuses([&] { Game::from_position({cards("4"), cards("5")}, 0, 0, junk, 1, Rules{}); }));
  // Positions no deal reaches: a hand past the landlord's 20 cards (33 with four players),
  // a move to beat whose cards the hands already hold, a last_by without a last.
  const Mask twenty_one = cards("33334444555566667777T");
  CHECK(refuses([&] { Game::from_position({twenty_one, cards("5")}, 0, 0, Move{}, -1, Rules{}); }));
  CHECK(!refuses([&] { Game::from_position({twenty_one - cards("T"), cards("9")}, 0, 0, Move{}, -1, Rules{}); }));
  CHECK(refuses([&] { Game::from_position({cards("9"), twenty_one - cards("T77")}, 0, 0, Move{}, -1, Rules{}); }));  // a peasant's 18
  CHECK(!refuses([&] { Game::from_position({cards("9"), twenty_one - cards("T777")}, 0, 0, Move{}, -1, Rules{}); }));
  const Rules four = *preset("four_player");
  const Mask thirty_four = cards("33333333444444445555555566666666TT");
  CHECK(refuses([&] { Game::from_position({thirty_four, cards("9")}, 0, 0, Move{}, -1, four); }));
  CHECK(!refuses([&] { Game::from_position({thirty_four - cards("T"), cards("9")}, 0, 0, Move{}, -1, four); }));
  CHECK(refuses([&] { Game::from_position({cards("3333"), cards("4")}, 0, 1, three, 0, Rules{}); }));
  CHECK(!refuses([&] { Game::from_position({cards("333"), cards("4")}, 0, 1, three, 0, Rules{}); }));
  CHECK(refuses([&] { Game::from_position({cards("4"), cards("5")}, 0, 1, Move{}, 0, Rules{}); }));
  Deal d;
  d.hands = {cards("33334444555566667"), cards("77788889999TTTTJJ"), cards("JJQQQQKKKKAAAA222")};
  d.kitty = cards("2BR");
  CHECK(!refuses([&] { Game(d, Rules{}, 0, -1, 1); }));
  d.kitty = cards("2BB");
  CHECK(refuses([&] { Game(d, Rules{}, 0, -1, 1); }));
  // What the boundary accepts still builds.
  CHECK(!refuses([&] { Game::from_position({cards("4"), cards("5"), cards("6")}, 0, 2, three, 1, Rules{}); }));
}
