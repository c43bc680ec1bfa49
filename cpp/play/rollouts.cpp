#include "play/rollouts.hpp"

#include <stdexcept>

#include "base/parallel.hpp"
#include "play/selfplay.hpp"
#include "search/worlds.hpp"

namespace ddz {

namespace {

constexpr std::uint64_t kRolloutWorldStream = 0xA076'1D64'78BD'642F;  // the world's draw, apart from the policies'

void write_payouts(const Game& game, std::int64_t* row) {
  const Settlement result = game.result();
  for (int i = 0; i < result.seats; ++i) row[i] = result.payouts[static_cast<std::size_t>(i)];
}

}  // namespace

std::uint64_t rollout_stream(std::uint64_t seed, std::int64_t row) { return game_seed(seed, static_cast<std::uint64_t>(row)); }

std::string rollouts_error(const std::vector<Game>& games, const RolloutOptions& options) {
  if (options.copies < 1) return "copies must be at least 1";
  if (games.empty()) return {};
  const int seats = games.front().state().seats;
  if (options.seat < -1 || options.seat >= seats) return "seat must be a seat of the games (0.." + std::to_string(seats - 1) + ")";
  for (std::size_t g = 0; g < games.size(); ++g) {
    if (games[g].state().seats != seats) {
      return "every game must have the same seats: games[0] has " + std::to_string(seats) + ", games[" + std::to_string(g) +
             "] " + std::to_string(games[g].state().seats);
    }
    for (int i = 0; i < seats; ++i) {
      const auto& policy = options.policies[static_cast<std::size_t>(i)];
      if (!policy) return "seat " + std::to_string(i) + " has no policy";
      // The rules of a batch are usually one: judge each rules once.
      if (g > 0 && games[g].rules() == games[g - 1].rules()) continue;
      if (auto why = policy_error(*policy, games[g].rules()); !why.empty()) return why;
    }
  }
  return {};
}

RolloutPayouts rollouts(std::vector<Game> games, const RolloutOptions& options) {
  if (auto why = rollouts_error(games, options); !why.empty()) throw std::invalid_argument(why);
  RolloutPayouts out;
  if (games.empty()) return out;
  out.seats = games.front().state().seats;
  const auto rows = static_cast<std::int64_t>(games.size()) * options.copies;
  out.payouts.assign(static_cast<std::size_t>(rows * out.seats), 0);
  // One copy of a game played in place; copies and worlds each start from the game.
  const bool in_place = options.copies == 1 && options.seat < 0;
  parallel_for(rows, options.threads, [&](std::int64_t r) {
    const std::uint64_t stream = rollout_stream(options.seed, r);
    const Game& source = games[static_cast<std::size_t>(r / options.copies)];
    std::int64_t* row = out.payouts.data() + r * out.seats;
    if (in_place) {
      Game& game = games[static_cast<std::size_t>(r)];
      play_seats(game, options.policies, stream);
      write_payouts(game, row);
    } else if (options.seat >= 0) {
      Rng world_rng(stream ^ kRolloutWorldStream);
      Game world = sample_world(source, options.seat, world_rng);
      play_seats(world, options.policies, stream);
      write_payouts(world, row);
    } else {
      write_payouts(playout(source, options.policies, stream), row);
    }
  });
  return out;
}

}  // namespace ddz
