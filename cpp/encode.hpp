// Observation encoders: what one seat knows, as numbers for learning.
//
// Two encodings read the same `GameView` (a game's state plus its recent plays):
//
// - our own (`encode_observation`): a float vector whose blocks are listed by
//   `ObservationLayout` (name, offset, size), everything relative to the observer;
// - DouZero's (`douzero_*`): the features DouZero 1.1.0's `get_obs` computes for the
//   player to move, value for value (its x_no_action, z, and the x_batch rows).
//
// Cards in both are a "card plane": for each rank 3..2, `4 x decks` slots of which the
// first `count` are 1 (a thermometer), then `decks` slots for each joker likewise. With
// one deck that is 54 slots, rank r at 4r..4r+3 and the jokers at 52 and 53: the layout
// of DouZero's `_cards2array`.
//
// A `GameView` is a copy, so the encoders may run without Python's lock while the
// games it came from change.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "game.hpp"

namespace ddz {

// The plays (and passes) kept for the history features: DouZero's 15.
inline constexpr int kHistoryLength = 15;

// What the encoders read from a game.
struct GameView {
  State state;
  Rules rules;
  // The last play-phase actions of the current deal, oldest first (bids are not plays).
  // A game started from a position with a move to beat begins with that move and the
  // passes after it, so the history says who played it.
  std::array<SeatAction, kHistoryLength> recent{};
  int recent_count = 0;
};

GameView view_of(const Game& g);

// Slots of a card plane, and the plane itself written into `out` (zeros elsewhere are
// the caller's; counts above the slots of a rank are clamped).
constexpr int card_plane_size(int decks) { return (4 * (kNumRanks - 2) + 2) * decks; }
template <class T>
void write_card_plane(Mask cards, int decks, T* out);

// ---------------------------------------------------------------------------------------
// Our encoding.
//
// Seats are relative to the observer: slot 0 is the observer, slot k the seat k places
// after it in the direction of play. A game with fewer seats than the layout (a
// two-hand position in the three-seat layout) leaves the missing seats' slots zero.

struct Block {
  const char* name;
  int offset;
  int size;
};

// The blocks, in layout order (see observation_layout).
enum BlockId : int {
  kHand, kUnseen, kPlayed, kHandSizes, kKitty, kLastMove, kLastKind, kLastBy, kLandlord, kToMove, kPhase,
  kBid, kHighBidder, kOut, kRobs, kBase, kBombs, kMultiplier, kHistory, kPasses, kLeading, kSeatsPresent, kWild,
  kObservationBlocks
};

struct ObservationLayout {
  int seats = 3;
  int decks = 1;
  int size = 0;
  std::array<Block, kObservationBlocks> blocks{};

  const Block& operator[](BlockId id) const { return blocks[static_cast<std::size_t>(id)]; }
};

// The layout for games of up to `seats` seats (at least 2) dealt from `decks` decks.
// Blocks, in order (C = card plane, S = seats, thermometers set their first n slots):
//   hand          C       the observer's hand
//   unseen        C       cards neither in the observer's hand nor played by anyone
//   played        S x C   cards each seat has played this hand
//   hand_sizes    S x M   each seat's card count, thermometer (M = 20 with one deck, 33
//                         with two: a landlord's hand; more cards read as M)
//   kitty         C       the kitty once it is public (after the bidding), else zeros
//   last_move     C       the move to beat (zeros when leading)
//   last_kind     14      its MoveKind, one-hot
//   last_by       S       who played it, one-hot
//   landlord      S       one-hot; zeros while bidding
//   to_move       S       one-hot; zeros once the hand is over
//   phase         3       one-hot: bidding, playing, over
//   bid           4       classic bidding: the highest bid so far (0..3), one-hot; call and
//                         rob: slot 1 once someone called; no bidding: slot 1
//   high_bidder   S       the highest bidder (classic) or provisional landlord, one-hot
//   out           S       seats that passed (classic) or declined (call and rob)
//   robs          S       robs so far, thermometer
//   base          1       log2 of the stake bid so far (0 before any bid)
//   bombs         13d+1   bombs and rockets played, thermometer
//   multiplier    1       log2 of the multiplier so far (bombs and rockets, capped)
//   history       H x (C + S + 1)   the last H = 15 plays and passes, most recent first:
//                         the cards, who (one-hot), and 1 for a pass; zeros before the first
//   passes        1       consecutive passes since the move to beat
//   leading       1       1 when the observer is to move and leads
//   seats_present S       1 for each seat in the game
//   wild          13      the wild rank 3..2 (laizi), one-hot; zeros without wild cards
ObservationLayout observation_layout(int seats, int decks);

// The layout a game's observations use: at least three seats (a two-hand position is a
// three-seat game with one seat absent).
ObservationLayout observation_layout_for(const GameView& v);

// Why `seat`'s view of `v` cannot be written with `layout`, or empty.
std::string observation_error(const GameView& v, int seat, const ObservationLayout& layout);

// Writes `layout.size` floats: what `seat` knows of `v`. Throws std::invalid_argument
// where observation_error is not empty.
void encode_observation(const GameView& v, int seat, const ObservationLayout& layout, float* out);

// ---------------------------------------------------------------------------------------
// DouZero 1.1.0's encoding (douzero/env/env.py, get_obs), for the player to move.
//
// Positions relative to the landlord: DouZero's `landlord`, `landlord_down` (the next
// seat in play) and `landlord_up` (the one before the landlord).

enum class DouZeroPosition : std::uint8_t { Landlord, LandlordDown, LandlordUp };

inline constexpr int kDouZeroCards = 54;
inline constexpr int kDouZeroZRows = 5;
inline constexpr int kDouZeroZCols = 3 * kDouZeroCards;

// Why DouZero's encoding does not describe `v` (not three seats, not in play, a hand too
// big for its one-hot counts), or empty.
std::string douzero_error(const GameView& v);
// Why DouZero's encoding cannot describe the play of games under `rules` (not three
// seats of one deck, wild cards, hands bigger than its one-hot counts), or empty.
std::string douzero_rules_error(const Rules& rules);

DouZeroPosition douzero_position(const State& s);
const char* douzero_position_name(DouZeroPosition p);
// Width of x_no_action (319 for the landlord, 430 for a peasant); x_batch rows add 54.
int douzero_x_width(DouZeroPosition p);

// x_no_action (douzero_x_width values) and z (5 x 162 values, row-major) of the player to
// move. Throw std::invalid_argument where douzero_error is not empty.
void douzero_x_no_action(const GameView& v, std::int8_t* out);
void douzero_z(const GameView& v, std::int8_t* out);

// x_batch and z_batch for `legal`: row i is x_no_action followed by the card plane of
// legal[i] (zeros for a pass), and a copy of z.
void douzero_batches(const std::int8_t* x_no_action, int width, const std::int8_t* z,
                     const std::vector<Action>& legal, float* x_batch, float* z_batch);

// ---------------------------------------------------------------------------------------

template <class T>
void write_card_plane(Mask cards, int decks, T* out) {
  const int per_rank = 4 * decks;
  const auto fill = [](T* at, int n, int slots) {
    for (int i = 0; i < (n < slots ? n : slots); ++i) at[i] = T(1);
  };
  for (RankSet held = ranks_with_at_least(cards, 1) & ~kJokers; held; held &= held - 1) {
    const int r = lowest_rank(held);
    fill(out + r * per_rank, count(cards, r), per_rank);
  }
  T* jokers = out + (kNumRanks - 2) * per_rank;
  fill(jokers, count(cards, kBlackJoker), decks);
  fill(jokers + decks, count(cards, kRedJoker), decks);
}

}  // namespace ddz
