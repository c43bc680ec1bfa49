// Shorthands for the C++ tests.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>

#include "game/game.hpp"
#include "rules/movegen.hpp"
#include "rules/notation.hpp"

namespace ddz::testing {

inline Mask cards(const char* text) {
  const ParseResult p = parse_cards(text);
  if (!p.ok()) throw std::invalid_argument(p.error);
  return p.cards;
}

inline Rules rules(const char* name) { return preset(name).value(); }

// The standard rules with call-and-rob bidding (no preset has it).
inline Rules call_rob_rules() {
  Rules r;
  r.bidding = Bidding::CallRob;
  return r;
}

inline std::size_t leads(const char* hand, const Rules& r = Rules{}) {
  return legal_moves(cards(hand), nullptr, r).size();
}

// The single reading of `text` of the given kind.
inline Move move(const char* text, MoveKind kind, const Rules& r = Rules{}) {
  for (const Move& m : classify(cards(text), r)) {
    if (m.kind == kind) return m;
  }
  throw std::invalid_argument(std::string("no such reading: ") + text);
}

inline std::size_t follows(const char* hand, const Move& last, const Rules& r = Rules{}) {
  return legal_moves(cards(hand), &last, r).size();
}

// A fixed deal (hands of 17, kitty 3) covering the deck.
inline Deal fixed_deal() {
  Deal d;
  d.hands = {cards("33334444555566667"), cards("77788889999TTTTJJ"), cards("JJQQQQKKKKAAAA222")};
  d.kitty = cards("2BR");
  return d;
}

// Plays `text` (read as `kind`) and has every other seat pass, while the hand goes on.
inline bool play_then_passes(Game& g, const char* text, MoveKind kind) {
  if (!g.apply(Action::play(move(text, kind, g.rules())))) return false;
  for (int i = 1; i < g.state().seats && g.state().phase == Phase::Playing; ++i) {
    if (!g.apply(Action::pass())) return false;
  }
  return true;
}

// The `n` lowest cards of `m`, taken out of it.
inline Mask take_lowest(Mask& m, int n) {
  Mask out = 0;
  for (int r = 0; r < kNumRanks && n > 0; ++r) {
    const int k = std::min(count(m, r), n);
    out += cards_of(r, k);
    n -= k;
  }
  m -= out;
  return out;
}

// A four-player hand (rules of 2 decks, 4 players) whose landlord, seat 0, holds 3..A, four
// bombs and the rocket with the kitty, and can play them out while the others pass
// (play_out_strong_landlord).
inline Game strong_four_player_landlord(const Rules& r) {
  Deal d;
  d.hands[0] = cards("3456789TJQKAA22222222BBRR");  // 25
  d.kitty = cards("33334444");
  Mask rest = r.deck() - d.hands[0] - d.kitty;
  for (std::size_t seat = 1; seat < 4; ++seat) d.hands[seat] = take_lowest(rest, 25);
  return Game(d, r, 0, 0, 1);
}

// The landlord of strong_four_player_landlord plays out: three bombs, the rocket and a spring.
inline bool play_out_strong_landlord(Game& g) {
  return play_then_passes(g, "3456789TJQKA", MoveKind::Straight) && play_then_passes(g, "3333", MoveKind::Bomb) &&
         play_then_passes(g, "4444", MoveKind::Bomb) && play_then_passes(g, "A", MoveKind::Solo) &&
         play_then_passes(g, "22222222", MoveKind::Bomb) && play_then_passes(g, "BBRR", MoveKind::Rocket);
}

}  // namespace ddz::testing
