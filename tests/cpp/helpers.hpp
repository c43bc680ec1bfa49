// Shorthands for the C++ tests.
#pragma once

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

}  // namespace ddz::testing
