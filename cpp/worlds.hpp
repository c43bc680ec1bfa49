// Determinization: the complete games a player cannot tell apart from the real one.
//
// A seat knows its own hand, every card played and by whom, how many cards each seat
// holds, every action, and the kitty once the landlord has shown it (a shown kitty card
// the landlord has not played is still in the landlord's hand, as far as ranks tell).
// In a game started from a position, the cards outside every hand at the start were out
// of play before it and count as known. Everything else is unknown: the unknown cards
// are the other seats' hands less their known cards (and, during bidding, the hidden
// kitty). A world deals those cards afresh, uniformly (every arrangement of the unknown
// cards into the unknown places equally likely), keeps everything else, and replays
// the current deal's actions on the new deal, so a world is a full Game under the same
// rules with the same history, stakes, bombs and records.
#pragma once

#include <cstdint>
#include <vector>

#include "game.hpp"
#include "rng.hpp"

namespace ddz {

// The cards of `seat`'s view that are unknown to it, and where they may be.
struct Unknowns {
  Mask cards = 0;                     // every unknown card
  std::array<Mask, kMaxSeats> known{};  // per seat, the cards `seat` knows are in that hand
  std::array<int, kMaxSeats> slots{};   // per seat, how many of its cards are unknown
  int kitty_slots = 0;                // during bidding: the hidden kitty's 3 cards
};

Unknowns unknowns(const State& s, int seat);

// One world: `game` with the unknown cards of `seat` dealt afresh from `rng`.
// `seat` must be a seat of the game (0..seats-1).
Game sample_world(const Game& game, int seat, Rng& rng);

// `n` worlds drawn one after another from Rng(seed).
std::vector<Game> sample_worlds(const Game& game, int seat, int n, std::uint64_t seed);

}  // namespace ddz
