#include "search/worlds.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>

#include "base/stop_request.hpp"
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

// Where a world of a seat puts the cards: the hands as they are now, and the kitty.
struct Placement {
  std::array<Mask, kMaxSeats> hands{};
  Mask kitty = 0;
};

// The current deal of the world `p` of `game`.
Deal deal_of(const Game& game, const Placement& p) {
  return deal_behind(game.state(), p.hands, p.kitty, game.started_from_position());
}

// A world of `seat`: the unknown cards dealt afresh from `rng`.
Placement world_placement(const Game& game, int seat, Rng& rng) {
  const State& s = game.state();
  if (seat < 0 || seat >= s.seats) throw std::invalid_argument("seat must be a seat of the game");
  const SeatView u = seat_view(s, seat);
  ShuffledCards unknown(u.unknown, rng);
  Placement p{s.hands, s.kitty};
  for (int i = 0; i < s.seats; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (i != seat) p.hands[k] = u.known[k] + unknown.deal(u.unknown_slots[k]);
  }
  if (u.kitty_slots) p.kitty = unknown.deal(u.kitty_slots);
  return p;
}

// Run Fast's rules of play make actions say something of the cards (docs/rules.md, "Run
// Fast"): under must-beat a pass says the seat could not beat, under the warning a solo
// that it held no higher card. A world is drawn again until every recorded action is legal
// in it, at most this many draws (a draw costs a replay of the hand); then the last draw
// is mended (repaired: in heuristic self-play 0.3% of worlds, 1.4% with 64 draws), and only
// if that fails stands with its actions as recorded.
constexpr int kMostWorldDraws = 256;
// Steps of repaired()'s walk: each a replay of the hand (in the hardest positions
// measured, half the walks end within 61 steps, 99% within 1,500, the longest at 3,958).
constexpr int kMostRepairs = 16384;

// When the hand's first lead was drawn (Run Fast's 3 of spades), who led and with what
// rank tell something of the deal for the rest of the hand: a world deal is kept with the
// chance that it gives that lead (first_lead_chance), so that worlds are drawn as the
// seat's knowledge weighs them, and none leaves the leader without the rank it had to lead.
// The real deal has a positive chance, so a draw is kept within a few on average (the
// leader's share of the rank's cards); the bound only ends a loop that cannot end.
constexpr int kMostLeadDraws = 1 << 16;

Placement weighed_world_placement(const Game& game, int seat, Rng& rng) {
  const std::optional<FirstLead> lead = game.drawn_first_lead();
  if (!lead) return world_placement(game, seat, rng);
  for (int draw = 0; draw < kMostLeadDraws; ++draw) {
    Placement p = world_placement(game, seat, rng);
    if (rng.chance(first_lead_chance(deal_of(game, p), game.rules(), *lead))) return p;
  }
  throw std::logic_error("no world deal gives the first lead that was drawn");
}

// The rank of one card of `cards` (not empty): half the time its `highest` (else lowest)
// rank of the cards not of `wild`'s ranks if it has any (a wild card is neither high nor
// low: it stands for any rank), else any card's, each as likely. A refused pass or solo
// tells of a card too high for it, so the walk below takes low cards more often, and gives
// high ones where it has no cause to draw by (rank_by_weight).
int rank_of_one(Mask cards, bool highest, Rng& rng, Mask wild = 0) {
  if (rng.below(2) == 0) {
    const Mask plain = cards & ~wild;
    const RankSet ranks = ranks_with_at_least(plain ? plain : cards, 1);
    return highest ? highest_rank(ranks) : lowest_rank(ranks);
  }
  auto i = static_cast<int>(rng.below(static_cast<std::uint32_t>(total(cards))));
  for (int r = 0;; ++r) {
    if (i < count(cards, r)) return r;
    i -= count(cards, r);
  }
}

// The rank of one card of `cards` (not empty) drawn by `weights` (Refusals::cause), each
// rank as likely as its weight; rank_of_one's highest when no rank of `cards` weighs.
int rank_by_weight(Mask cards, const std::array<std::uint32_t, kNumRanks>& weights, Rng& rng) {
  std::uint32_t sum = 0;
  for (int r = 0; r < kNumRanks; ++r) sum += count(cards, r) ? weights[static_cast<std::size_t>(r)] : 0;
  if (sum == 0) return rank_of_one(cards, true, rng);
  auto i = rng.below(sum);
  for (int r = 0;; ++r) {
    const std::uint32_t w = count(cards, r) ? weights[static_cast<std::size_t>(r)] : 0;
    if (i < w) return r;
    i -= w;
  }
}

// What repaired()'s walk reads of a game: the viewing seat's view (which cards it may
// move: the others' unknown ones), the seats, and the cards of the wild ranks (a wild
// card is neither a high nor a low card to rank_of_one: it stands for any rank).
struct Walk {
  SeatView view;
  int seats = 0;
  Mask wild = 0;
};

Walk walk_of(const Game& game, int seat) {
  const State& s = game.state();
  return {seat_view(s, seat), s.seats, s.wild.nibbles()};
}

// The places a walk moves unknown cards between: the hands of `p` whose cards are unknown
// to the viewing seat (so never its own), but `except`'s, and the face-down cards.
struct Place {
  Mask* cards;
  Mask unknown;  // of them: the ones a walk may move
};
struct Places {
  std::array<Place, kMaxSeats + 1> at{};
  std::uint32_t n = 0;
};

Places places_of(Placement& p, const Walk& w, int except = -1) {
  Places out;
  for (int i = 0; i < w.seats; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (i != except && w.view.unknown_slots[k]) out.at[out.n++] = {&p.hands[k], p.hands[k] - w.view.known[k]};
  }
  if (w.view.kitty_slots) out.at[out.n++] = {&p.kitty, p.kitty};
  return out;
}

// `k` distinct places of `places` (at least k), drawn uniformly.
template <std::size_t k>
std::array<Place*, k> distinct_places(Places& places, Rng& rng) {
  std::array<std::uint32_t, kMaxSeats + 1> order{};
  for (std::uint32_t i = 0; i < places.n; ++i) order[i] = i;
  std::array<Place*, k> out{};
  for (std::uint32_t i = 0; i < k; ++i) {
    std::swap(order[i], order[i + rng.below(places.n - i)]);
    out[i] = &places.at[order[i]];
  }
  return out;
}

// `p` with one unknown card of `giver` (a seat but the viewing one) swapped for one of
// another place. The card given is drawn by `cause` if any (the giver's refusal,
// Refusals::cause), else as rank_of_one's highest; the card taken as its lowest. Nothing
// when either side has none.
std::optional<Placement> swapped(const Placement& p, const Walk& w, int giver, const std::array<std::uint32_t, kNumRanks>* cause,
                                 Rng& rng) {
  Placement next = p;
  const Places places = places_of(next, w, giver);  // where the taken card may come from
  Mask others = 0;
  for (std::uint32_t i = 0; i < places.n; ++i) others += places.at[i].unknown;
  Mask& hand = next.hands[static_cast<std::size_t>(giver)];
  const Mask mine = hand - w.view.known[static_cast<std::size_t>(giver)];
  if (!mine || !others) return std::nullopt;
  const int given = cause ? rank_by_weight(mine, *cause, rng) : rank_of_one(mine, true, rng, w.wild);
  const int taken = rank_of_one(others, false, rng, w.wild);
  // The taken card's place, as likely as its share of that rank's unknown cards.
  auto copy = static_cast<int>(rng.below(static_cast<std::uint32_t>(count(others, taken))));
  const Place* from = places.at.data();
  for (; copy >= count(from->unknown, taken); ++from) copy -= count(from->unknown, taken);
  hand = hand - cards_of(given, 1) + cards_of(taken, 1);
  *from->cards = *from->cards - cards_of(taken, 1) + cards_of(given, 1);
  return next;
}

// `p` with the unknown cards of two places dealt afresh between them, each keeping its
// count. Nothing when fewer than two places hold unknown cards.
std::optional<Placement> redealt(const Placement& p, const Walk& w, Rng& rng) {
  Placement next = p;
  Places places = places_of(next, w);
  if (places.n < 2) return std::nullopt;
  const auto [a, b] = distinct_places<2>(places, rng);
  ShuffledCards pool(a->unknown + b->unknown, rng);
  *a->cards = *a->cards - a->unknown + pool.deal(total(a->unknown));
  *b->cards = *b->cards - b->unknown + pool.deal(total(b->unknown));
  return next;
}

// `p` with one unknown card of each of three places passed on to the next of them in a
// ring (each card drawn as rank_of_one's, the highest or lowest as often). Nothing when
// fewer than three places hold unknown cards.
std::optional<Placement> rotated(const Placement& p, const Walk& w, Rng& rng) {
  Placement next = p;
  Places places = places_of(next, w);
  if (places.n < 3) return std::nullopt;
  const std::array<Place*, 3> ring = distinct_places<3>(places, rng);
  std::array<Mask, 3> moved{};
  for (std::size_t i = 0; i < 3; ++i) moved[i] = cards_of(rank_of_one(ring[i]->unknown, rng.below(2) == 0, rng, w.wild), 1);
  for (std::size_t i = 0; i < 3; ++i) *ring[i]->cards = *ring[i]->cards - moved[i] + moved[(i + 2) % 3];
  return next;
}

// The seat that gives a card in the next swap of repaired(): half the time the seat of the
// first refused action, whose cards the refusal reads, else any seat but the viewing one
// whose cards are unknown: the cards it must take may be held by a seat that cannot take
// what it gives, and first have to move between two other seats.
int giver_of(const Walk& w, int refused, Rng& rng) {
  if (rng.below(2) == 0) return refused;
  std::array<int, kMaxSeats> open{};
  std::uint32_t n = 0;
  for (int i = 0; i < w.seats; ++i) {
    if (w.view.unknown_slots[static_cast<std::size_t>(i)]) open[n++] = i;
  }
  return n ? open[rng.below(n)] : refused;
}

// The next step of repaired()'s walk from `p`: half the time a seat (giver_of) swaps a
// card with another place (swapped); else, as often, two places' unknown cards are dealt
// afresh between them (redealt) or three places pass one on in a ring (rotated), which
// move several cards at once: a fix that needs a card moved between two seats before
// another can go where it must, each move alone taking the deal further from allowing
// the refused actions, is one step. Nothing when the step moves no card; `stuck` when
// the first refused seat's cards are all known (no step can change them).
std::optional<Placement> walk_step(const Placement& p, const Walk& w, const Refusals& refused, Rng& rng, bool& stuck) {
  switch (rng.below(4)) {
    case 0: return redealt(p, w, rng);
    case 1: return rotated(p, w, rng);
    default: {
      const int giver = giver_of(w, refused.first->seat, rng);
      const bool refused_gives = giver == refused.first->seat;
      std::optional<Placement> next = swapped(p, w, giver, refused_gives ? &refused.cause : nullptr, rng);
      stuck = !next && refused_gives;
      return next;
    }
  }
}

// Whether `a` is nearer than `b` to a deal that allows every recorded action: its first
// refusal later in the hand, or the same one and a shorter distance (Refusals::distance).
// The distance alone cannot compare two deals refused at different actions (under wild
// cards it counts the plays of the first refusal only: the others' are thousands to list),
// and a deal that allows more of the hand's start is one a later step can finish.
bool nearer(const Refusals& a, const Refusals& b) {
  const auto first = [](const Refusals& r) { return r.first ? r.first->action : std::numeric_limits<std::size_t>::max(); };
  return first(a) != first(b) ? first(a) > first(b) : a.distance < b.distance;
}

// Mends `p`, a world of `seat` in which recorded actions break Run Fast's rules of play
// (redrawing rarely finds one where none does), by a walk of walk_step's moves, each kept
// unless it takes the deal further from allowing them (nearer) or makes the first lead
// impossible (kept when as far: a refused pass often needs two moves, the first moving
// the trouble to another seat). True, with `out` the world, once no action is refused
// within kMostRepairs steps. (Such worlds are not weighed exactly as the drawn ones: the
// walk ends at the first it finds, near the draw it began from.)
bool repaired(const Game& game, int seat, Rng& rng, Placement& p, Game& out) {
  const Walk w = walk_of(game, seat);
  const std::optional<FirstLead> lead = game.drawn_first_lead();
  Refusals refused = game.refusals(deal_of(game, p), out);
  for (int step = 0; refused.count && refused.first->seat != seat && step < kMostRepairs; ++step) {
    bool stuck = false;
    const std::optional<Placement> next = walk_step(p, w, refused, rng, stuck);
    if (stuck) return false;
    if (!next || next->hands == p.hands) continue;  // nothing moved, or cards for their like: nothing to replay
    const Deal deal = deal_of(game, *next);
    if (lead && first_lead_chance(deal, game.rules(), *lead) <= 0) continue;
    const Refusals now = game.refusals(deal, out);
    if (!now.held || nearer(refused, now)) continue;
    p = *next;
    refused = now;
  }
  return refused.count == 0;
}

// `game` replayed into `out` on a current deal drawn for `seat`.
void replay_on_world_deal(const Game& game, int seat, Rng& rng, Game& out) {
  Placement p = weighed_world_placement(game, seat, rng);
  if (!has_table_rules(game.rules())) return game.replay_into(deal_of(game, p), out);
  for (int draw = 1; game.strict_refusal(deal_of(game, p), out); ++draw) {
    if (draw == kMostWorldDraws) {
      if (!repaired(game, seat, rng, p, out)) game.replay_into(deal_of(game, p), out);
      return;
    }
    p = weighed_world_placement(game, seat, rng);
  }
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
  // The worlds' draws apart from any deal's: Game(seed) shuffles from Rng(seed) too, and
  // both place cards sorted by rank, so a world drawn with the deal's own seed put cards of
  // like rank where the deal had them (a bot handed it read the kitty in 29% of hands).
  constexpr std::uint64_t kWorldsStream = 0x5A3D'9E1B'C47F'2E61;
  Rng rng(splitmix_finalize(seed ^ kWorldsStream));
  std::vector<Game> worlds;
  worlds.reserve(static_cast<std::size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i) {
    // A world takes a microsecond, or a millisecond where must-beat leaves few placements:
    // a hundred thousand of them, minutes.
    if (stop_requested()) throw StopRequested{};
    worlds.push_back(handed_world(game, seat, rng));
  }
  return worlds;
}

}  // namespace ddz
