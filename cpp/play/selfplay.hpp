// Self-play: many whole games on a pool of threads, the same games whatever the thread
// count. Game i is dealt from seed `game_seed(seed, i)`, seat i % players bids first, and its players draw from
// `Rng(game_seed(seed, i) ^ kPolicyStream)`; each thread writes only its own games' slots.
#pragma once

#include <cstdint>
#include <vector>

#include "game/game.hpp"
#include "game/record.hpp"
#include "play/playout.hpp"
#include "play/table_runner.hpp"

namespace ddz {

struct GameSummary {
  Deal deal;  // the deal that was played (after any redeals)
  std::int8_t landlord = -1;  // -1: a void hand (nobody bid, no redeal)
  std::int8_t partner = -1;   // the landlord's partner (four_partner), or -1: alone or none
  bool landlord_won = false;
  std::int8_t winner = -1;    // without a landlord (each_for_self): the first out; else -1
  std::int32_t base = 0;
  std::int32_t multiplier = 1;
  std::int32_t moves = 0;  // plays and passes after the auction
  std::int32_t redeals = 0;
  std::array<std::int64_t, kMaxSeats> payouts{};  // by seat, rules.players of them
};

struct SelfPlayOptions {
  std::int64_t games = 0;
  std::uint64_t seed = 0;
  std::uint64_t first = 0;  // index of the first game: runs [first, first + games) split work
  int threads = 1;
  SeatPolicies policies{};  // by seat, one for each
  Rules rules{};
  bool record = false;
};

struct SelfPlayResult {
  std::vector<GameSummary> games;
  std::vector<ActionRow> actions;       // with record: every action of every game
  std::vector<std::int64_t> offsets;    // with record: game i is actions[offsets[i], offsets[i+1])
};

std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index);

// Where game `index` of a run comes from: its deal's seed, its first bidder (the seats in
// turn) and the built-in policies' stream (playout.hpp).
struct SelfPlayDeal {
  std::uint64_t deal_seed = 0;
  int first_bidder = 0;
  std::uint64_t policy_stream = 0;
};
SelfPlayDeal selfplay_deal(const Rules& rules, std::uint64_t seed, std::uint64_t index);

// The summary of a finished game that made `moves` plays and passes after the auction.
GameSummary summary_of(const Game& game, std::int32_t moves);

// The games of a self-play run, for the table runner: game i of the options is game
// first + i of the seed. A seat without a policy is an outside player's: the player of
// that seat's number.
class SelfPlaySchedule final : public Schedule {
 public:
  explicit SelfPlaySchedule(const SelfPlayOptions& options);
  std::int64_t games() const override { return static_cast<std::int64_t>(result_.games.size()); }
  TableSetup setup(std::int64_t index) const override;
  void finish(const PlayedGame& played) override;
  bool has_outside_seats() const override;
  bool records() const override { return options_.record; }
  // The games' summaries, and with record their actions in game order.
  SelfPlayResult take_result();

 private:
  SelfPlayOptions options_;
  SelfPlayResult result_;
  std::vector<std::vector<ActionRow>> records_;
};

SelfPlayResult self_play(const SelfPlayOptions& options);

}  // namespace ddz
