// The exact perfect-information solver: who wins a position in play when every hand is
// known, with best play by both sides.
//
// Sides (game.hpp's same_side): the landlord, with its partner if it named one, against
// the other seats (one in a two-hand puzzle, two or three cooperating peasants otherwise:
// any of a side going out wins for the side). The value of a position
// is win or loss for the side to move; the search is alpha-beta on that two-valued
// game (a win is a move after which the other side loses, or the same side wins when a
// partner moves next), with
//   - immediate wins: a move that empties the hand ends the search of the node;
//   - move ordering: moves no opponent can beat (they keep the lead), then those that
//     leave the hand the fewest plays from going out (memoized per hand), then the ones
//     that shed the most cards; a pass last, or first when it lets a partner's play stand;
//   - a transposition table keyed by a 64-bit hash of the position (only what decides
//     the rest of the hand: hands, the move to beat and who played it, who moves),
//     buckets of four 8-byte entries holding a 56-bit tag, the value and the size of
//     the search behind it; a full bucket gives up its smallest search. The table
//     starts at 1 MB and doubles whenever it is half full, up to `tt_bytes` (at least
//     8 KB), so small searches stay small and in cache.
// Limits on nodes and time end the search with Outcome::Unknown rather than running on.
#pragma once

#include <cstdint>
#include <vector>

#include "game/game.hpp"

namespace ddz {

enum class Outcome : std::uint8_t { Loss, Win, Unknown };

struct SolveOptions {
  std::int64_t node_limit = 0;  // stop after this many nodes; 0: no limit
  double time_limit = 0;        // stop after this many seconds; 0: no limit
  std::size_t tt_bytes = std::size_t{64} << 20;
};

struct SolveResult {
  Outcome outcome = Outcome::Unknown;  // for the side to move
  Action move{};                       // when outcome == Win: a winning action
  std::int64_t nodes = 0;              // positions searched
  double seconds = 0;
};

// The value after each legal action, for the side that takes it, in the order of
// Game::legal_actions (pass first when following). Once a limit is hit the remaining
// actions are Unknown.
struct MoveOutcome {
  Action action;
  Outcome outcome = Outcome::Unknown;
};
struct MovesResult {
  std::vector<MoveOutcome> moves;
  std::int64_t nodes = 0;
  double seconds = 0;
};

// Both take a state in the play phase (throw std::invalid_argument otherwise).
SolveResult solve(const State& s, const Rules& rules, const SolveOptions& options);
MovesResult solve_moves(const State& s, const Rules& rules, const SolveOptions& options);

}  // namespace ddz
