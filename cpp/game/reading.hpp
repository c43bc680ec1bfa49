// Which move some text means. notation.hpp gives every reading of card or move text; this
// picks the one meant: the only reading (of a kind, when one is asked for), the only one
// legal now in a game, or the one a hand may play over a move. Every entry that takes
// text (Python, the CLI) reads it here, so a choice between readings is made once.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "game/game.hpp"

namespace ddz {

enum class ReadingFault : std::uint8_t {
  None,
  Text,       // the text is not well formed (notation.hpp's error)
  NoReading,  // it reads as no move that fits
  Several,    // it reads several ways that fit
};

struct Reading {
  Move move{};
  ReadingFault fault = ReadingFault::None;
  std::string error;  // why `move` is not the one reading; empty when it is

  bool ok() const { return fault == ReadingFault::None; }
};

// The one reading of `cards` (of `kind` when given) under `rules`.
Reading read_cards(Mask cards, const Rules& rules, std::optional<MoveKind> kind = std::nullopt);

// The one move that move text names (of `kind` when given), `wild` the wild ranks.
Reading read_move(std::string_view text, const Rules& rules, WildRanks wild, std::optional<MoveKind> kind = std::nullopt);

// The one reading of a play's text in `game`: its only reading, or of several the only
// one legal now (a single reading is returned even when illegal, for the game to say why).
Reading read_play(std::string_view text, const Game& game);

// The reading of `text` that `hand` may play over `last` (nullptr: leading); when none
// may, fault NoReading with the first reading's play_error.
Reading read_playable(std::string_view text, Mask hand, const Move* last, const Rules& rules, WildRanks wild);

// The action that action text names in `game`: a word of the auction or "pass"
// (notation.hpp's action_word), or a play (read_play). `fault` as a Reading's.
struct ActionReading {
  Action action{};
  ReadingFault fault = ReadingFault::None;
  std::string error;
};
ActionReading read_action(std::string_view text, const Game& game);

}  // namespace ddz
