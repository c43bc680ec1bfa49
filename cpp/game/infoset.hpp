// An information set: what one seat knows of a hand, as a value and as a 64-bit key, for
// searches that keep statistics per information set (ISMCTS, CFR, tables of seen
// positions) and for bots that must see no more than their seat.
//
// It is what seat_view.hpp defines a seat to know, and nothing else: the seat's hand and
// what it knows of the other hands and of the kitty (seat_view), the public part of the
// state (who moves, the move to beat, the auction, the stakes, bombs and rockets, the
// cards each seat played and how often it played, the shown kitty, the wild ranks), every
// action of the hand with the seat that took it, its own hand and the wild ranks of each
// deal thrown in, how a game from a position began, and the rules. The start bonuses are
// left out: they are judged on hands the seat cannot see. So every world sample_worlds
// draws for the seat has the same information set, and games that differ in anything the
// seat knows have different ones.
#pragma once

#include <cstdint>
#include <vector>

#include "game/game.hpp"
#include "game/seat_view.hpp"

namespace ddz {

struct Infoset {
  int seat = 0;
  State known;                      // the state less what `seat` cannot see (known_state)
  SeatView cards;                   // seat_view(state, seat)
  std::vector<SeatAction> history;  // every action since the first deal
  std::size_t deal_start = 0;       // history[deal_start..] are the current deal's actions
  std::vector<Deal> thrown_in;      // each deal before the current one as the seat saw it: its own hand, the wild ranks
  bool from_position = false;       // how the hand began: a position, with this move to beat,
  Move start_last{};                // its seat, and the seat to move
  std::int8_t start_last_by = -1;
  std::int8_t start_to_move = 0;
  Rules rules;
  std::uint64_t key = 0;  // infoset_key: a function of the fields above
  friend bool operator==(const Infoset&, const Infoset&) = default;
};

// `s` less what `seat` cannot see: each other hand holds only the cards the seat knows
// it holds, a face-down kitty is empty, and the start bonuses are cleared. `seat` must be
// a seat of the state.
State known_state(const State& s, int seat);

// What `seat` (a seat of the game) knows of `game`.
Infoset infoset(const Game& game, int seat);

// infoset(game, seat).key, without building the information set: equal for every world
// of the seat, and (but for the one chance in 2^64 of a collision) different for
// different information sets.
std::uint64_t infoset_key(const Game& game, int seat);

}  // namespace ddz
