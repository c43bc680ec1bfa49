// Cards as text (docs/rules.md, "Card text"), with the one card parser every entry point uses.
//
// Cards: tokens separated by white space or commas. Within a token every character is
// one card (`3`..`9`, `T`/`X`, `J`, `Q`, `K`, `A`, `2`, `B`, `R`, any case; `10` is ten),
// and a rank other than a joker may carry a suit (`s h d c` or a suit symbol, with an
// optional emoji variation selector). The long joker names `BJ` and `RJ` are jokers only
// as a whole token of text that has two or more tokens (or as one element of a list of
// tokens): `QRJ8` is four cards and `BJ` is the black joker and a jack. Cards are written
// one character per card, ascending, so `parse_cards(to_text(m))` gives back `m`. Text is
// read as ASCII after half_width(): what a keyboard types in full-width mode reads the same.
#pragma once

#include <string>
#include <string_view>

#include "rules/cards.hpp"

namespace ddz {

// Whether `c` separates tokens of card text: white space or a comma.
bool is_separator(char c);

// `text` with the full-width forms of ASCII (U+FF01..U+FF5E, typed by Chinese and
// Japanese keyboards in full-width mode) and the ideographic space (U+3000) as ASCII; one
// character for one, so positions in characters stay. `storage` holds the copy when one
// is needed; otherwise the view is `text` itself.
std::string_view half_width(std::string_view text, std::string& storage);
// `text` without leading and trailing white space.
std::string_view trimmed(std::string_view text);

bool equals_ignoring_case(std::string_view a, std::string_view b);

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
// of tokens, where `BJ` and `RJ` name jokers even when it is one token. Counts above
// `max_per_rank` (jokers: `max_per_joker`, both at most 15, a nibble) are errors.
ParseResult parse_cards(std::string_view text, int max_per_rank = 8, int max_per_joker = 2, bool list_element = false);

// The rank of text that names exactly one card ("3", "t", "10", "BJ"), or -1.
int rank_named(std::string_view text);

// Whether `text` is valid UTF-8, as strictly as Python decodes it.
bool is_utf8(std::string_view text);

// Characters before byte offset i of `s` (positions and lengths in messages count
// characters, as Python does; a byte that is no UTF-8 counts as one).
std::size_t char_index(std::string_view s, std::size_t i);

// `text` quoted for an error message: whole when short, else its first characters and
// its length in characters; cut at character boundaries, with control characters (NUL
// included) and bytes that are no UTF-8 escaped (\x1b), so the message is always valid
// UTF-8, the characters a terminal does not show (C1 controls, bidirectional marks,
// zero widths) and lone surrogates (as a str's "surrogatepass" bytes hold them) as code
// points (\u202e, \udcff), and a backslash and a quote escaped (\\, \'), so that no two
// texts quote alike.
std::string quoted(std::string_view text, std::size_t max_chars = 40);

}  // namespace ddz
