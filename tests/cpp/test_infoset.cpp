// Information sets: every world of a seat has the seat's information set and key, and over
// a corpus of positions keys are equal exactly when the information sets are.
#include <map>

#include "check.hpp"
#include "game/infoset.hpp"
#include "helpers.hpp"
#include "play/policy.hpp"
#include "search/worlds.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

// A seeded game under `r` advanced `steps` actions by `kind` (random play reaches redeals
// and odd auctions; the heuristic, long hands).
Game infoset_game(const Rules& r, std::uint64_t seed, int steps, PolicyKind kind) {
  Game g(seed, r, static_cast<int>(seed % static_cast<std::uint64_t>(r.players)));
  std::vector<Action> legal;
  Rng rng(seed * 7 + 1);
  for (int i = 0; i < steps && g.state().phase != Phase::Over; ++i) {
    g.legal_actions(legal);
    g.apply_legal(legal[choose(kind, g, legal, rng)]);
  }
  return g;
}

// Every bidding system, wild cards, start bonuses, no kitty and four players.
std::vector<Rules> infoset_rules() {
  std::vector<Rules> out{call_rob_rules()};
  for (const char* name : {"standard", "douzero", "laizi", "laizi2", "happy", "sanren", "four_player"}) out.push_back(rules(name));
  return out;
}

}  // namespace

TEST(every_world_of_a_seat_has_its_infoset) {
  for (const Rules& r : infoset_rules()) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      const PolicyKind kind = seed % 2 ? PolicyKind::Random : PolicyKind::FastHeuristic;
      const Game g = infoset_game(r, seed, static_cast<int>(seed * 5 % 47), kind);
      for (int seat = 0; seat < r.players; ++seat) {
        const Infoset mine = infoset(g, seat);
        CHECK_EQ(mine.key, infoset_key(g, seat));
        for (const Game& w : sample_worlds(g, seat, 20, seed + static_cast<std::uint64_t>(seat))) {
          CHECK(infoset(w, seat) == mine);
          CHECK_EQ(infoset_key(w, seat), mine.key);
        }
      }
    }
  }
}

TEST(a_two_hand_position_is_its_own_world) {
  const Game g = Game::from_position({cards("3345"), cards("67")}, 0, 0, Move{}, -1, Rules{});
  for (int seat = 0; seat < 2; ++seat) {
    for (const Game& w : sample_worlds(g, seat, 5, 1)) CHECK_EQ(infoset_key(w, seat), infoset_key(g, seat));
  }
  // The move to beat a position began with is known after the trick ends.
  const Move pair = move("44", MoveKind::Pair);
  Game a = Game::from_position({cards("3355"), cards("67")}, 0, 1, pair, 0, Rules{});
  Game b = Game::from_position({cards("3355"), cards("67")}, 0, 1, move("33", MoveKind::Pair), 0, Rules{});
  CHECK(infoset_key(a, 0) != infoset_key(b, 0));
  a.apply(Action::pass());
  b.apply(Action::pass());
  CHECK(a.state() == b.state());
  CHECK(infoset(a, 0) != infoset(b, 0));
  CHECK(infoset_key(a, 0) != infoset_key(b, 0));
}

// The oracle: over many positions, seats and presets, two keys are equal exactly when the
// information sets are. Positions of one seed share a deal, so many pairs differ by one
// action, one card or one seat.
TEST(keys_are_equal_exactly_when_infosets_are) {
  std::map<std::uint64_t, Infoset> by_key;
  std::size_t infosets = 0, repeats = 0;
  for (const Rules& r : infoset_rules()) {
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      Game g(seed, r, 0);
      std::vector<Action> legal;
      Rng rng(seed);
      while (g.state().phase != Phase::Over) {
        for (int seat = 0; seat < r.players; ++seat) {
          Infoset v = infoset(g, seat);
          ++infosets;
          const auto [it, added] = by_key.try_emplace(v.key, v);
          if (!added) {
            CHECK(it->second == v);
            ++repeats;
          }
        }
        g.legal_actions(legal);
        g.apply_legal(legal[choose(PolicyKind::Random, g, legal, rng)]);
      }
    }
  }
  CHECK(infosets > 1000);
  CHECK_EQ(repeats, std::size_t{0});  // every step changes the history: no position repeats
}

TEST(what_the_seat_knows_changes_the_key) {
  const Game g = infoset_game(Rules{}, 3, 20, PolicyKind::FastHeuristic);
  const std::uint64_t key = infoset_key(g, 0);
  CHECK(key != infoset_key(g, 1));  // another seat
  Game on = g;
  std::vector<Action> legal;
  on.legal_actions(legal);
  on.apply_legal(legal.back());
  CHECK(key != infoset_key(on, 0));  // one more action

  // Cards moved between the deal's places: seat 0 tells them apart only when it can see them.
  const Deal d = fixed_deal();
  Deal mine = d, theirs = d, kitty = d;
  mine.hands[0] += cards("7") - cards("3");  // a 3 of seat 0 for a 7 of seat 1
  mine.hands[1] += cards("3") - cards("7");
  theirs.hands[1] += cards("Q") - cards("7");  // a 7 of seat 1 for a Q of seat 2
  theirs.hands[2] += cards("7") - cards("Q");
  kitty.kitty += cards("J") - cards("2");  // a kitty card for a J of seat 1
  kitty.hands[1] += cards("2") - cards("J");
  const auto key_of_deal = [](const Deal& deal, int landlord, const Rules& r) {
    return infoset_key(Game(deal, r, 0, landlord, 1), 0);
  };
  const std::uint64_t bidding = key_of_deal(d, -1, Rules{});
  CHECK(key_of_deal(mine, -1, Rules{}) != bidding);
  CHECK_EQ(key_of_deal(theirs, -1, Rules{}), bidding);
  CHECK_EQ(key_of_deal(kitty, -1, Rules{}), bidding);     // the kitty lies face down
  CHECK(key_of_deal(kitty, 1, Rules{}) != key_of_deal(d, 1, Rules{}));  // seat 1 took it: shown
  Rules other = Rules{};
  other.max_multiplier = 64;
  CHECK(key_of_deal(d, -1, other) != bidding);  // the rules are known
}
