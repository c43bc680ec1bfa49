// The exact perfect-information solver: who wins a position in play when every hand is
// known, with best play by both sides.
//
// Sides (game.hpp's same_side): the landlord, with its partner if it named one, against
// the other seats (one in a two-hand puzzle, two or three cooperating peasants otherwise:
// any of a side going out wins for the side). The value of a position
// is win or loss for the side to move; the search is on that two-valued game (a win is
// a move after which the other side loses, or the same side wins when a partner moves
// next), with
//   - immediate wins (the move is tried alone, and settles the node): a move that
//     empties the hand; a lead from a hand that splits into moves no opponent can beat
//     and one more combination (the sure moves first, then out); a follow no opponent
//     can beat that leaves such a hand (the opponents pass, the lead comes back); a move
//     the opponents seated before the next partner cannot beat and that partner's whole
//     hand, one combination, can (it goes out). A bounded search (below) asks them to
//     fit the proving side's budget of plays;
//   - a search for short wins first (without wild cards): each side tries to win within
//     b plays of its own, for b the fewest plays either side needs to go out (the
//     fewest combinations a hand splits into, a lower bound that prunes a side's lines
//     once it exceeds what is left); a bounded search only ever prunes the proving
//     side's moves, so a win it finds is a win. Many positions have such a short win and
//     are proved by it alone; the rest (and any it has not settled in 16,384 nodes) go
//     on to the unbounded search, which reuses the wins the bounded ones stored (b + 1
//     as well halves the nodes of easy positions but costs the hard ones more); the
//     bounded searches are alpha-beta;
//   - the unbounded search is depth-first proof-number search (df-pn, Nagai 2002, with
//     the 1 + epsilon trick of Pawlewicz and Lew 2007, epsilon 1/2). A new node's proof
//     and disproof numbers are the squares of the fewest plays its side and the other
//     side need to go out, each hand's fewest plays less the combinations no opponent
//     can beat, and a leader's disproof number times its number of leads, a follower's
//     times its follows and the pass (each must be refuted). df-pn reads a node's
//     children's numbers once (their buckets prefetched as they are made) and then only
//     the searched child's;
//   - move ordering: moves no opponent can beat (they keep the lead), then those that
//     leave the hand the fewest plays from going out (memoized per hand), then the ones
//     that shed the most cards; a pass last, or first when it lets a partner's play stand
//     (the fewest plays of a hand are memoized in an open-addressing table);
//   - moves another legal move is at least as good as are not tried (dominance.hpp):
//     a kicker, solo or pair that spends a free rank (one or two cards no chain can use)
//     where a lower free rank would do as well;
//   - a transposition table keyed by a 64-bit hash of the position (only what decides
//     the rest of the hand: hands, the move to beat and who played it, who moves; with
//     the ranks nobody holds taken out where that joins no hand's cards, rank_gaps.hpp),
//     buckets of four 16-byte entries (one cache line) holding the whole key, for each
//     side the fewest plays it is known to win within and the most it is known not to,
//     and the size of the searches behind them; a full bucket gives up its smallest
//     search. df-pn keeps its numbers in a second such table (16-byte entries, where
//     the latest always finds room). Each starts at 1 MB and doubles whenever it is half
//     full, up to half of `tt_bytes` (at least 8 KB each), so small searches stay
//     small and in cache; from 2 MB on a table asks for huge pages (madvise), a probe
//     being a TLB miss as well as a cache miss otherwise (transposition_table.hpp);
//   - a player who cannot beat the move to beat passes without a node of its own;
//   - with threads (SolveOptions::threads), a position one thread has not settled within
//     alone_nodes goes on over the same tables (grown to their bound, read and written
//     without locks): the first thread with df-pn from the root, the others taking the
//     root's next move in turn and solving its child; a child where the side to move
//     wins, or every child lost, stops them all.
// Limits on nodes and time end the search with Outcome::Unknown rather than running on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "game/game.hpp"

namespace ddz {

enum class Outcome : std::uint8_t { Loss, Win, Unknown };

struct SolveOptions {
  std::int64_t node_limit = 0;  // stop after this many nodes; 0: no limit
  double time_limit = 0;        // stop after this many seconds; 0: no limit
  std::size_t tt_bytes = std::size_t{64} << 20;
  // Threads searching together, sharing the tables: once one thread has searched
  // `alone_nodes` nodes without settling the root, it goes on from the root while the
  // others share out the root's moves (most positions take fewer nodes, and a table
  // threads share no longer grows from small).
  int threads = 1;
  // 2^15: on the 100 dealt positions of bench/RESULTS.md, two threads, the 95th position
  // 0.70 s against 0.81 s at 2^17; at 2^13 easy ones paid for starting a thread (median
  // 0.045 s against 0.025 s).
  std::int64_t alone_nodes = std::int64_t{1} << 15;
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

// Why the solver cannot play positions under `rules` (Run Fast's rules: each_for_self,
// must_beat, single_card_warning), or empty; solve and solve_moves throw it.
std::string solver_rules_error(const Rules& rules);

// Both take a state in the play phase (throw std::invalid_argument otherwise).
SolveResult solve(const State& s, const Rules& rules, const SolveOptions& options);
MovesResult solve_moves(const State& s, const Rules& rules, const SolveOptions& options);

}  // namespace ddz
