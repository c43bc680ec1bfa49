// The text forms of the engine (docs/rules.md, "Card text"): moves, actions, kind names and
// the readings grammar, over the card text of card_text.hpp.
//
// Moves: "cards", or "spent=cards" when wild cards stand in (the cards taken from the
// hand, then the combination they form), optionally narrowed by "/KIND/rank" (a kind name
// and the rank its body starts from, Move::key written as card text: "3" for key 0) where
// the cards read several ways, and "/KIND/rank/length" (the number of chain units, in
// decimal) where they read several ways of that kind and rank (Run Fast's last airplane,
// which may be short of kickers).
//
// Actions: "pass", "bid N" (N = 0 passes in the auction), "call", "decline", "rob",
// "no rob", "alone", "partner N" (N the seat the landlord names), or the text of a move;
// words are case-insensitive and separated by white space ("no call" is "decline").
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/action.hpp"
#include "rules/card_text.hpp"
#include "rules/move.hpp"
#include "rules/rules.hpp"

namespace ddz {

// "SOLO", "PAIR", ..., "ROCKET" (the Python MoveKind names), or "UNKNOWN".
const char* kind_name(MoveKind kind);
std::optional<MoveKind> kind_named(std::string_view name);

// "cards", or "spent=cards" when wild cards stand in.
std::string move_text(const Move& m);
// A move for messages and repr: its text, kind, rank (its key as card text) and length.
std::string describe(const Move& m);

// Card text read for the deck of `rules`: parse_cards, with counts past that deck refused
// by validate_cards (which names the deck). `list_element` as for parse_cards.
ParseResult parse_cards_for(std::string_view text, const Rules& rules, bool list_element = false);

// Move text taken apart: the combination's cards, the cards spent (when written), and the
// reading named by a "/KIND/rank" or "/KIND/rank/length" suffix (when written; `key` is
// that rank's index).
struct MoveText {
  Mask cards = 0;
  std::optional<Mask> spent;
  std::optional<MoveKind> kind;
  int key = -1;
  int length = -1;  // -1: not written
  std::string error;  // empty when the text is well formed
};
MoveText parse_move_text(std::string_view text, const Rules& rules);

// The moves `text` names under `rules` with `wild` the wild ranks: every reading of its
// cards (narrowed by its suffix), played with its cards spent when written. Empty, with
// `error` set, when the text is not well formed; empty without error when it names no move.
std::vector<Move> readings_of(std::string_view text, const Rules& rules, WildRanks wild, std::string& error);

// The text of an action; with `rules`, a play whose cards read several ways adds
// "/KIND/rank" (and "/length" if that is not yet one reading), so that the text names one
// move; without, unmistakable_text.
std::string action_text(const Action& a, const Rules* rules = nullptr);
// A move's text for str() and repr(), which know no rules: its move text, with
// "/KIND/rank/length" where the cards read several ways under a preset or a preset with
// its kicker rules at their loosest, so that the text names this move under the rules it
// came from.
std::string unmistakable_text(const Move& m);
// The text naming `m` among `readings` (its cards' readings): its move text, with the
// suffix above when there are several.
std::string reading_text(const Move& m, const std::vector<Move>& readings);

// The words an action that is no play begins with ("no" of "no call" and "no rob"), as
// action_word reads them; a text beginning with one is no card text.
inline constexpr std::array<std::string_view, 8> kActionWords = {"pass", "bid", "call", "decline", "rob", "no", "alone", "partner"};

// What the start of action text names: an action of the auction or a pass (`action`
// set), a misspelt one of those (`error` set: "bid" without a value), or neither (a
// play's move text, to be read by readings_of).
struct ActionWord {
  std::optional<Action> action;
  std::string error;
  // For a malformed bid or partner ("bid 7", "partner9"): an action of the kind it meant,
  // so that a phase taking no such action says so first, as for a well-formed one.
  std::optional<Action> meant;
};
ActionWord action_word(std::string_view text);

}  // namespace ddz
