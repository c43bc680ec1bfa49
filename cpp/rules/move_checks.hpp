// Moves and actions that arrive from outside the engine (pickles, NumPy rows, records):
// whether each is one the engine could have made. The engine's own values need no such
// check; these guard the boundary, so that a tampered value is refused by name instead
// of misread.
#pragma once

#include <string>

#include "rules/action.hpp"
#include "rules/rules.hpp"

namespace ddz {

// Why `m` is no move under `rules`, or under any rules when null; empty when it is one.
// The empty move (Move{}: a lead, "no move") passes; no other move without cards does.
std::string move_error(const Move& m, const Rules* rules = nullptr);

// Why `m` cannot be the move to beat under `rules` with `wild` the wild ranks (no move of
// these rules, or wild cards of another rank, or short_move_error), or empty.
std::string last_move_error(const Move& m, const Rules& rules, WildRanks wild);

// Why `m` is never a move to beat under any rules (a short trio or airplane, Run Fast's
// last cards), or empty.
std::string short_move_error(const Move& m);

// Why `a` is no action of any game (its move under some rules, a bid of 0..3, a call or
// rob of 0 or 1, no cards or value where it has none), or empty.
std::string action_error(const Action& a);

}  // namespace ddz
