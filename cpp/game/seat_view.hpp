// What a seat knows (docs/rules.md, "What a seat knows"): the one definition that the
// observations, the encoders, determinization and the bots read.
//
// A seat knows its own hand, every card played and by whom, how many cards each seat
// holds, every action, and the kitty once the landlord has taken it (a shown kitty card
// the landlord has not played is still in the landlord's hand, as far as ranks tell). In
// a game started from a position, the cards outside every hand at the start were out of
// play before it and count as known. Everything else is unknown: the other seats' hands
// less their known cards, and the kitty while it lies face down.
#pragma once

#include <array>

#include "game/game.hpp"

namespace ddz {

struct SeatView {
  Mask hand = 0;                        // the seat's own cards
  Mask others = 0;                      // every card in another hand or the face-down kitty
  bool kitty_shown = false;             // the landlord has taken the kitty (it is public)
  Mask unknown = 0;                     // `others` less what the seat knows of them
  std::array<Mask, kMaxSeats> known{};  // per other seat, the cards it is known to hold
  std::array<int, kMaxSeats> unknown_slots{};  // per other seat, how many of its cards are unknown
  int kitty_slots = 0;                  // the face-down kitty's cards, while it is hidden
  friend bool operator==(const SeatView&, const SeatView&) = default;
};

// `seat` must be a seat of the state (0..seats-1).
SeatView seat_view(const State& s, int seat);

}  // namespace ddz
