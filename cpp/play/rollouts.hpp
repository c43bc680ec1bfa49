// Batch rollouts: many games, or many worlds of one seat, played to the end by built-in
// policies in one call, for searches that value a position by playing it out (flat Monte
// Carlo, the leaves of a tree search, determinized worlds). Only the payouts come back: a
// rollout's game is dropped as soon as it ends.
//
// Row r plays copy r % copies of game r / copies on its own stream, game_seed(seed, r)
// (selfplay.hpp): a world of `seat` drawn from it when `seat` >= 0, and the policies'
// choices from it (playout.hpp). Nothing else feeds a row, so the payouts do not depend
// on the thread count, and row r is playout(its game, policies, game_seed(seed, r)).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "game/game.hpp"
#include "play/playout.hpp"

namespace ddz {

struct RolloutOptions {
  SeatPolicies policies{};  // a policy for every seat
  std::uint64_t seed = 0;
  std::int64_t copies = 1;  // rollouts of each game
  int seat = -1;            // >= 0: each rollout plays a world of this seat (sample_world), drawn afresh
  int threads = 1;
};

struct RolloutPayouts {
  int seats = 0;                       // the games' seats: the width of a row
  std::vector<std::int64_t> payouts;  // row-major, games.size() x copies rows of `seats`
};

// The stream of row `row` (its world's draw uses a variant of it).
std::uint64_t rollout_stream(std::uint64_t seed, std::int64_t row);

// Why `games` cannot be rolled out with `options`, or empty: games of one seat count, a
// policy for each of their seats that fits each game's rules, copies >= 1, `seat` a seat
// of theirs (or -1).
std::string rollouts_error(const std::vector<Game>& games, const RolloutOptions& options);

// Every row's payouts by seat (zero for a void hand); a game already over gives its own.
// Throws std::invalid_argument for what rollouts_error refuses.
RolloutPayouts rollouts(std::vector<Game> games, const RolloutOptions& options);

}  // namespace ddz
