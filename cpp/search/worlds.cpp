#include "search/worlds.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "game/shuffled_cards.hpp"

namespace ddz {

namespace {

// The current deal (a position game: the starting hands) that leads to `hands` and
// `kitty` after the plays recorded in `s`.
Deal deal_behind(const State& s, const std::array<Mask, kMaxSeats>& hands, Mask kitty, bool from_position) {
  Deal d;
  for (int i = 0; i < s.seats; ++i) {
    const auto k = static_cast<std::size_t>(i);
    d.hands[k] = hands[k] + s.played[k];
  }
  if (!from_position) {
    d.kitty = kitty;
    if (s.landlord >= 0) d.hands[static_cast<std::size_t>(s.landlord)] -= kitty;
  }
  return d;
}

// The current deal of a world of `seat`: the unknown cards dealt afresh from `rng`.
Deal world_deal(const Game& game, int seat, Rng& rng) {
  const State& s = game.state();
  if (seat < 0 || seat >= s.seats) throw std::invalid_argument("seat must be a seat of the game");
  const SeatView u = seat_view(s, seat);
  ShuffledCards unknown(u.unknown, rng);
  std::array<Mask, kMaxSeats> hands = s.hands;
  for (int i = 0; i < s.seats; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (i != seat) hands[k] = u.known[k] + unknown.deal(u.unknown_slots[k]);
  }
  const Mask kitty = u.kitty_slots ? unknown.deal(u.kitty_slots) : s.kitty;
  return deal_behind(s, hands, kitty, game.started_from_position());
}

// Run Fast's rules of play make actions say something of the cards (docs/rules.md, "Run
// Fast"): under must-beat a pass says the seat could not beat, under the warning a solo
// that it held no higher card. A world is drawn again until every recorded action is legal
// in it, at most this many draws; then the last draw stands with its actions as recorded
// (in heuristic self-play 0.3% of worlds, 1.4% with 64 draws; a draw costs a replay of the
// hand).
constexpr int kMostWorldDraws = 256;

// When the hand's first lead was drawn (Run Fast's 3 of spades), who led and with what
// rank tell something of the deal for the rest of the hand: a world deal is kept with the
// chance that it gives that lead (first_lead_chance), so that worlds are drawn as the
// seat's knowledge weighs them, and none leaves the leader without the rank it had to lead.
// The real deal has a positive chance, so a draw is kept within a few on average (the
// leader's share of the rank's cards); the bound only ends a loop that cannot end.
constexpr int kMostLeadDraws = 1 << 16;

Deal weighed_world_deal(const Game& game, int seat, Rng& rng) {
  const std::optional<FirstLead> lead = game.drawn_first_lead();
  if (!lead) return world_deal(game, seat, rng);
  for (int draw = 0; draw < kMostLeadDraws; ++draw) {
    Deal deal = world_deal(game, seat, rng);
    if (rng.chance(first_lead_chance(deal, game.rules(), *lead))) return deal;
  }
  throw std::logic_error("no world deal gives the first lead that was drawn");
}

// `game` replayed into `out` on a current deal drawn for `seat`.
void replay_on_world_deal(const Game& game, int seat, Rng& rng, Game& out) {
  if (has_table_rules(game.rules())) {
    for (int draw = 1; draw < kMostWorldDraws; ++draw) {
      if (game.replays_strictly(weighed_world_deal(game, seat, rng), out)) return;
    }
  }
  game.replay_into(weighed_world_deal(game, seat, rng), out);
}

}  // namespace

Game sample_world(const Game& game, int seat, Rng& rng) {
  Game out = game;
  sample_world_into(game, seat, rng, out);
  return out;
}

void sample_world_into(const Game& game, int seat, Rng& rng, Game& out) {
  replay_on_world_deal(game, seat, rng, out);
  out.hide_from(seat, rng);  // the earlier deals and the seed: no way back to the real cards
}

Game handed_world(const Game& game, int seat, Rng& rng) {
  Game out = sample_world(game, seat, rng);
  out.seed_for_record(rng);
  return out;
}

std::vector<Game> sample_worlds(const Game& game, int seat, int n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<Game> worlds;
  worlds.reserve(static_cast<std::size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i) worlds.push_back(handed_world(game, seat, rng));
  return worlds;
}

}  // namespace ddz
