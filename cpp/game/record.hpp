// A recorded game's rows (ACTION_DTYPE) and settlement, and the checks of those that
// arrive from outside (pickles, NumPy rows, records): a tampered value is refused by name
// instead of misread.
#pragma once

#include <cstdint>
#include <string>

#include "game/game.hpp"

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

// Why an ACTION_DTYPE row is no (seat, action) of any game, or empty.
std::string action_row_error(const ActionRow& row);

// Why no hand settles with `s`'s counts, flags and multiplier, or empty; when empty, `s`
// holds that settlement (its payouts recomputed).
std::string restore_settlement(Settlement& s);

}  // namespace ddz
