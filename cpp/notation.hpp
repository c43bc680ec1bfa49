// The text forms of the engine (docs/rules.md, "Card text"): cards, moves, actions, kind
// names and the readings grammar, with the one parser every entry point uses.
//
// Cards: tokens separated by white space or commas. Within a token every character is
// one card (`3`..`9`, `T`/`X`, `J`, `Q`, `K`, `A`, `2`, `B`, `R`, any case; `10` is ten),
// and a rank other than a joker may carry a suit (`s h d c` or a suit symbol, with an
// optional emoji variation selector). The long joker names `BJ` and `RJ` are jokers only
// as a whole token of text that has two or more tokens (or as one element of a list of
// tokens): `QRJ8` is four cards and `BJ` is the black joker and a jack. Cards are written
// one character per card, ascending, so `parse_cards(to_text(m))` gives back `m`.
//
// Moves: "cards", or "spent=cards" when wild cards stand in (the cards taken from the
// hand, then the combination they form), optionally narrowed by "/KIND/key" (a kind name
// and the key's rank character) where the cards read several ways.
//
// Actions: "pass", "bid N" (N = 0 passes in the auction), "call", "decline", "rob",
// "no rob", or the text of a move; words are case-insensitive.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "action.hpp"
#include "cards.hpp"
#include "move.hpp"
#include "rules.hpp"

namespace ddz {

// The rank's character, or '?' outside 0..14.
char rank_char(int rank);
// One character per card, ascending ("33344456", "BR").
std::string to_text(Mask m);

struct ParseResult {
  Mask cards = 0;
  std::string error;  // empty on success; otherwise names the bad token and its position
  bool ok() const { return error.empty(); }
};

// Parses card text (the grammar above). `list_element`: the text is one element of a list
// of tokens, where `BJ` and `RJ` name jokers even when it is one token. Counts above `max_per_rank` (jokers:
// `max_per_joker`, both at most 15, a nibble) are errors.
ParseResult parse_cards(std::string_view text, int max_per_rank = 8, int max_per_joker = 2, bool list_element = false);

// The rank of text that names exactly one card ("3", "t", "10", "BJ"), or -1.
int rank_named(std::string_view text);

// `text` quoted for an error message: whole when short, else its first characters and
// its length in characters; cut at character boundaries, with control characters (NUL
// included) and bytes that are no UTF-8 escaped, so the message is always valid UTF-8.
std::string quoted(std::string_view text, std::size_t max_chars = 40);

// "SOLO", "PAIR", ..., "ROCKET" (the Python MoveKind names), or "UNKNOWN".
const char* kind_name(MoveKind kind);
std::optional<MoveKind> kind_named(std::string_view name);

// "cards", or "spent=cards" when wild cards stand in.
std::string move_text(const Move& m);
// A move for messages and repr: its text, kind, key and length.
std::string describe(const Move& m);

// Move text taken apart: the combination's cards, the cards spent (when written), and the
// reading named by a "/KIND/key" suffix (when written).
struct MoveText {
  Mask cards = 0;
  std::optional<Mask> spent;
  std::optional<MoveKind> kind;
  int key = -1;
  std::string error;  // empty when the text is well formed
};
MoveText parse_move_text(std::string_view text, const Rules& rules);

// The moves `text` names under `rules` with `wild` the wild ranks: every reading of its
// cards (narrowed by its suffix), played with its cards spent when written. Empty, with
// `error` set, when the text is not well formed; empty without error when it names no move.
std::vector<Move> readings_of(std::string_view text, const Rules& rules, WildRanks wild, std::string& error);

// The text of an action; with `rules`, a play whose cards read several ways adds
// "/KIND/key", so that the text names one move.
std::string action_text(const Action& a, const Rules* rules = nullptr);

// What the start of action text names: an action of the auction or a pass (`action`
// set), a misspelt one of those (`error` set: "bid" without a value), or neither (a
// play's move text, to be read by readings_of).
struct ActionWord {
  std::optional<Action> action;
  std::string error;
};
ActionWord action_word(std::string_view text);

}  // namespace ddz
