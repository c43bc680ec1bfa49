#include "game/seat_view.hpp"

#include <cassert>

namespace ddz {

SeatView seat_view(const State& s, int seat) {
  assert(seat >= 0 && seat < s.seats);
  SeatView v;
  v.hand = s.hands[static_cast<std::size_t>(seat)];
  v.kitty_shown = s.landlord >= 0;
  for (int i = 0; i < s.seats; ++i) {
    if (i == seat) continue;
    const auto k = static_cast<std::size_t>(i);
    // Ranks cannot tell which copies the landlord played since it showed the kitty, so
    // only the kitty cards beyond its plays of that rank are known to be in its hand.
    if (i == s.landlord) v.known[k] = s.kitty - per_rank_min(s.kitty, s.played[k]);
    v.others += s.hands[k];
    v.unknown += s.hands[k] - v.known[k];
    v.unknown_slots[k] = total(s.hands[k] - v.known[k]);
  }
  if (!v.kitty_shown) {
    v.others += s.kitty;
    v.unknown += s.kitty;
    v.kitty_slots = total(s.kitty);
  }
  return v;
}

}  // namespace ddz
