// Run Fast's table (docs/rules.md, "Run Fast"): with rules.each_for_self no seat is
// landlord and every seat plays for itself. Here are the rules of play the game adds to
// the combinations: who leads first and what that lead holds, must-beat, the warning of a
// seat on its last card, and the settlement of the first out.
#pragma once

#include <string>
#include <vector>

#include "base/rng.hpp"
#include "game/game.hpp"

namespace ddz {

// Whether `rules` have rules of play beyond the combinations (the first lead's rank,
// must-beat, the warning): the hot paths skip them otherwise.
inline bool has_table_rules(const Rules& rules) { return rules.each_for_self || rules.must_beat || rules.single_card_warning; }

// The first lead of a hand: its seat, and the rank it must contain (-1: any lead).
struct FirstLead {
  int seat = 0;
  int rank = -1;
};

// The holder of the 3 of spades leads, with a 3. The deal is of ranks only, so which of
// the four 3s is the spade is drawn from `rng` (a seat holding k of them leads with chance
// k/4); when the spade was set aside, the seat holding the lowest card dealt leads with
// that rank (among seats holding that rank, a seat holding k of its n cards dealt leads
// with chance k/n).
FirstLead first_lead(const Deal& deal, const Rules& rules, Rng& rng);

// Why the player to move may not play `m` (nullptr: pass) under Run Fast's rules of play,
// though the combination itself is legal, or empty: the first lead's rank, the warning,
// must-beat (which needs the moves the player holds, `moves`, already filtered).
std::string run_fast_error(const State& s, const Rules& rules, const Move* m, const std::vector<Move>& moves);

// Removes from `moves` (the player to move's combinations) those the first lead's rank or
// the warning forbid.
void keep_run_fast_moves(const State& s, const Rules& rules, std::vector<Move>& moves);

// Whether a pass is legal in `s`, given the moves left by keep_run_fast_moves.
bool may_pass(const State& s, const Rules& rules, const std::vector<Move>& moves);

// The settlement of a finished hand without a landlord (docs/rules.md, "Run Fast"): each
// other seat pays the first out a point per card it holds, nothing for one card, double if
// it never played; with bomb_pay each bomb's owner collected 10 from each other seat.
Settlement settle_each_for_self(const State& s, const Rules& rules);

// Why a settlement of a hand without a landlord is not one (pickles), or empty.
std::string each_for_self_settlement_error(const Settlement& s);

}  // namespace ddz
