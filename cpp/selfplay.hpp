// Self-play: many whole games on a pool of threads, the same games whatever the thread
// count. Game i is dealt from seed `game_seed(seed, i)`, seat i % players bids first, and its players draw from
// `Rng(game_seed(seed, i) ^ kPolicyStream)`; each thread writes only its own games' slots.
#pragma once

#include <cstdint>
#include <vector>

#include "game.hpp"
#include "playout.hpp"

namespace ddz {

// One action of a recorded game, 16 bytes: the move's fields first (as in a Move), then
// what the action is and who took it. A play with wild cards standing in keeps the
// move's `stand_ins` (in two halves) and, in `value`, its wild_rank byte.
struct ActionRow {
  Mask cards = 0;
  std::uint8_t kind = 0;
  std::uint8_t key = 0;
  std::uint8_t length = 0;
  std::uint8_t type = 0;   // ActionType
  std::uint8_t value = 0;  // bid, or 1/0 for call and rob; a play's wild rank
  std::uint8_t seat = 0;
  std::uint16_t stand_ins = 0;       // a play's stood-in ranks: Move::stand_ins, its low half
  std::uint16_t stand_ins_high = 0;  // and its high half (the second group of two wild ranks)
  std::uint16_t zero[3] = {};        // padding kept zero, so that equal rows are equal bytes
};
// 24 bytes: the first 16 are the row of the one-wild-rank layout as it was.
static_assert(sizeof(ActionRow) == 24);

ActionRow to_row(int seat, const Action& a);
Action from_row(const ActionRow& row);

struct GameSummary {
  Deal deal;  // the deal that was played (after any redeals)
  std::int8_t landlord = -1;  // -1: a void hand (nobody bid, no redeal)
  bool landlord_won = false;
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

// Plays game `index` of the options' seed; appends its actions to `record` when given.
GameSummary play_one(std::uint64_t index, const SelfPlayOptions& options, std::vector<ActionRow>* record);

SelfPlayResult self_play(const SelfPlayOptions& options);

}  // namespace ddz
