// Batch rollouts: each row is the playout of its game on its own stream, whatever the
// threads; worlds keep what their seat knows.
#include <stdexcept>

#include "check.hpp"
#include "helpers.hpp"
#include "play/rollouts.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

std::vector<Game> rollout_games(const Rules& r, int n) {
  std::vector<Game> games;
  for (int i = 0; i < n; ++i) {
    Game g(static_cast<std::uint64_t>(i) + 100, r, i % r.players);
    play_seats(g, every_seat(PolicyKind::FastHeuristic), 7);
    games.push_back(g);
    // Half of them taken back into play.
    if (i % 2) {
      for (int k = 0; k < 10 && games.back().undo(); ++k) {
      }
    }
  }
  return games;
}

RolloutOptions rollout_options(PolicyKind kind, std::int64_t copies, int seat, int threads) {
  RolloutOptions o;
  o.policies = every_seat(kind);
  o.seed = 42;
  o.copies = copies;
  o.seat = seat;
  o.threads = threads;
  return o;
}

}  // namespace

TEST(rollout_rows_are_playouts_on_their_streams) {
  const auto games = rollout_games(Rules{}, 12);
  const RolloutOptions o = rollout_options(PolicyKind::Random, 3, -1, 1);
  const RolloutPayouts r = rollouts(games, o);
  CHECK_EQ(r.seats, 3);
  CHECK_EQ(r.payouts.size(), std::size_t{12 * 3 * 3});
  for (std::int64_t row = 0; row < 36; ++row) {
    const Game end = playout(games[static_cast<std::size_t>(row / 3)], o.policies, rollout_stream(o.seed, row));
    for (int s = 0; s < 3; ++s) CHECK_EQ(r.payouts[static_cast<std::size_t>(row * 3 + s)], end.result().payouts[static_cast<std::size_t>(s)]);
  }
}

TEST(rollouts_do_not_depend_on_the_threads) {
  for (const char* name : {"standard", "four_player", "laizi"}) {
    const auto games = rollout_games(rules(name), 7);
    for (const int seat : {-1, 1}) {
      // 7 games x 40 copies: more rows than one thread's chunk.
      const auto one = rollouts(games, rollout_options(PolicyKind::Random, 40, seat, 1));
      const auto three = rollouts(games, rollout_options(PolicyKind::Random, 40, seat, 3));
      CHECK(one.payouts == three.payouts);
      long long nonzero = 0;
      for (std::size_t row = 0; row < one.payouts.size(); row += static_cast<std::size_t>(one.seats)) {
        long long sum = 0;
        for (int s = 0; s < one.seats; ++s) sum += one.payouts[row + static_cast<std::size_t>(s)];
        CHECK_EQ(sum, 0LL);
        nonzero += one.payouts[row] != 0;
      }
      CHECK(nonzero > 0);
    }
  }
}

TEST(world_rollouts_vary_the_hidden_cards) {
  // A game in play whose end by the heuristic depends on the hidden cards: the rows of
  // worlds differ among themselves, while the same world played again does not.
  auto games = rollout_games(Rules{}, 2);
  const Game& g = games[1];
  CHECK(g.state().phase != Phase::Over);
  const auto worlds = rollouts({g}, rollout_options(PolicyKind::FastHeuristic, 64, 0, 2));
  const auto real = rollouts({g}, rollout_options(PolicyKind::FastHeuristic, 64, -1, 2));
  bool worlds_vary = false;
  for (std::size_t i = 3; i < worlds.payouts.size(); ++i) worlds_vary = worlds_vary || worlds.payouts[i] != worlds.payouts[i % 3];
  CHECK(worlds_vary);
  CHECK(worlds.payouts != real.payouts);
}

TEST(rollouts_refuse_what_does_not_fit) {
  auto games = rollout_games(Rules{}, 2);
  games.push_back(Game::from_position({cards("3"), cards("4")}, 0, 0, Move{}, -1, Rules{}));
  CHECK(!rollouts_error(games, rollout_options(PolicyKind::Random, 1, -1, 1)).empty());  // 3 seats and 2
  games.pop_back();
  CHECK(!rollouts_error(games, rollout_options(PolicyKind::Random, 0, -1, 1)).empty());
  CHECK(!rollouts_error(games, rollout_options(PolicyKind::Random, 1, 3, 1)).empty());
  RolloutOptions o = rollout_options(PolicyKind::Random, 1, -1, 1);
  o.policies[1].reset();
  CHECK(!rollouts_error(games, o).empty());
  bool threw = false;
  try {
    rollouts(games, o);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
  CHECK(rollouts({}, rollout_options(PolicyKind::Random, 5, -1, 2)).payouts.empty());
}

TEST(a_finished_game_rolls_out_to_its_result) {
  auto games = rollout_games(Rules{}, 1);
  CHECK(games[0].state().phase == Phase::Over);
  const auto r = rollouts(games, rollout_options(PolicyKind::Random, 4, 2, 1));
  for (std::size_t i = 0; i < r.payouts.size(); ++i) CHECK_EQ(r.payouts[i], games[0].result().payouts[i % 3]);
}
