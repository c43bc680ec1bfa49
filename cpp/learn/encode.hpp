// Observation encoders: what one seat knows, as numbers for learning.
//
// Two encodings read the same `GameView` (a game's state plus its recent plays):
//
// - our own (`encode_observation`): a float vector whose blocks are listed by
//   `ObservationLayout` (name, offset, size), everything relative to the observer;
// - DouZero's (`douzero_*`): the features DouZero 1.1.0's `get_obs` computes for the
//   player to move, value for value (its x_no_action, z, and the x_batch rows) in its
//   setting, and the same blocks widened under the other rules (`DouZeroLayout`).
//
// Cards in both are a "card plane": for each rank 3..2, `4 x decks` slots of which the
// first `count` are 1 (a thermometer), then `decks` slots for each joker likewise. With
// one deck that is 54 slots, rank r at 4r..4r+3 and the jokers at 52 and 53: the layout
// of DouZero's `_cards2array`.
//
// A `GameView` is a copy, so the encoders may run without Python's lock while the
// games it came from change.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "game/game.hpp"

namespace ddz {

// The plays (and passes) of our encoding's history: DouZero's 15.
inline constexpr int kHistoryLength = 15;

// What the encoders read from a game.
// The plays and passes a GameView keeps: DouZero-style z's 5 rounds of four seats.
inline constexpr int kDouZeroMaxRecent = 5 * kMaxSeats;

struct GameView {
  State state;
  Rules rules;
  // The last play-phase actions of the current deal, oldest first (bids are not plays).
  // A game started from a position with a move to beat begins with that move and the
  // passes after it, so the history says who played it.
  std::array<SeatAction, kDouZeroMaxRecent> recent{};
  int recent_count = 0;
};

GameView view_of(const Game& g);

// Slots of a card plane, and the plane itself written into `out` (all of its slots;
// counts above the slots of a rank are clamped).
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
  kPartner,
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
//   last_kind     17      its MoveKind, one-hot (the last three: Run Fast's kinds)
//   last_by       S       who played it, one-hot
//   landlord      S       one-hot; zeros while bidding and without a landlord (Run Fast)
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
//   wild          13      the wild rank 3..2 (laizi), one-hot (two-hot with two wild
//                         ranks, laizi2); zeros without wild cards
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
// DouZero's encoding (douzero/env/env.py, get_obs), for the player to move, under every
// rules (docs/guide/douzero.md):
//
// - three seats of one deck without wild cards, 20 cards for the landlord and 17 for a
//   peasant (the `douzero`, `standard`, `rlcard`, `openspiel` and `happy` presets):
//   DouZero 1.1.0's own features, value for value (`DouZeroLayout::exact`);
// - other rules (`sanren`, `four_player`, `laizi`): the same blocks generalized, in one
//   order for every position: card planes of the deck (54 or 108 slots), each other seat's
//   played cards, last action and cards left (one-hot, as long as that role's dealt hand),
//   bombs one-hot over every count the deck allows, the wild rank (one-hot over 3..2) with
//   wild cards, and per action its combination plane and, with wild cards, the plane of
//   the cards it spends. z holds the last 5 x seats plays and passes, one round per row.
//
// Positions are relative to the landlord: position p is the seat p places after it in
// play (DouZero's `landlord`, `landlord_down`, and `landlord_up` the one before the
// landlord; four seats add `landlord_across`, position 2, and `landlord_up` is 3).

enum class DouZeroPosition : std::uint8_t { Landlord, LandlordDown, LandlordUp };

// DouZero's own setting.
inline constexpr int kDouZeroCards = 54;
inline constexpr int kDouZeroZRows = 5;
inline constexpr int kDouZeroZCols = 3 * kDouZeroCards;
enum class DouZeroBlockKind : std::uint8_t {
  Hand,         // C   the hand of the player to move
  Others,       // C   the cards in the other hands (after the bidding: every card it has not seen)
  LastMove,     // C   the move to beat (its combination), zeros when leading
  Played,       // C   the cards a seat has played (spent, with wild cards)
  LastAction,   // C   a seat's latest play (its combination), zeros for a pass or none yet
  CardsLeft,    // M   a seat's card count less 1, one-hot (M: that role's dealt hand)
  Bombs,        // B   bombs and rockets played, one-hot
  Wild,         // 13  the wild rank 3..2, one-hot (two-hot under laizi2)
  Action,       // C   the action's combination (zeros for a pass)
  ActionSpent,  // C   the cards the action spends (wild cards as themselves)
};

struct DouZeroBlock {
  DouZeroBlockKind kind = DouZeroBlockKind::Hand;
  int position = -1;  // Played, LastAction, CardsLeft: the seat's position; else -1
  int offset = 0;
  int size = 0;
};

// Blocks in order, tiling `width` values.
struct DouZeroBlocks {
  std::array<DouZeroBlock, 16> blocks{};
  int count = 0;
  int width = 0;
  void add(DouZeroBlockKind kind, int size, int position = -1);
  const DouZeroBlock* begin() const { return blocks.data(); }
  const DouZeroBlock* end() const { return blocks.data() + count; }
};

// The rules DouZero's own layout is for, as messages name them.
inline constexpr const char* kDouZeroSetting = "three seats of 17 cards and a kitty of 3, one deck, no wild cards";

struct DouZeroLayout {
  bool exact = true;  // DouZero 1.1.0's own layout: kDouZeroSetting
  int seats = 3;
  int decks = 1;
  bool wild = false;
  int cards = kDouZeroCards;  // C: a card plane of the rules' deck
  int landlord_cards = 20;    // the one-hot sizes of CardsLeft
  int peasant_cards = 17;
  int bomb_slots = 15;        // counts 0 .. bomb_slots - 1
  int z_rows = kDouZeroZRows;
  int z_cols = kDouZeroZCols;
  std::array<DouZeroBlocks, kMaxSeats> x{};  // x_no_action by position
  DouZeroBlocks action;                      // each row of x_batch after x_no_action
  int batch_width = 0;                       // the widest x_no_action

  int z_moves() const { return z_rows * seats; }
  int z_size() const { return z_rows * z_cols; }
};

// The layout of DouZero's features for games under `rules` (valid rules).
DouZeroLayout douzero_layout(const Rules& rules);
// "hand", "played_landlord_up", "action_spent", ...: the block's name in Python's tables.
std::string douzero_block_name(const DouZeroBlock& b, int seats);

// Why DouZero's encoding cannot describe games under `rules` (rules without a landlord:
// each_for_self), or empty.
std::string douzero_rules_error(const Rules& rules);

// Why DouZero's encoding does not describe `v` (douzero_rules_error, a game without every
// seat of its rules, not in play, a hand too big for its one-hot counts), or empty.
std::string douzero_error(const GameView& v);
std::string douzero_error(const GameView& v, const DouZeroLayout& layout);  // layout = douzero_layout(v.rules)

// The position of the player to move (three or four seats: DouZeroPosition's order for three).
int douzero_position_of(const State& s);
const char* douzero_position_name(int position, int seats);
// Width of x_no_action in DouZero's setting (319 for the landlord, 430 for a peasant);
// x_batch rows add 54.
int douzero_x_width(DouZeroPosition p);

// x_no_action (layout.x[position].width values) and z (z_rows x z_cols values,
// row-major) of the player to move, with `layout` = douzero_layout(v.rules). Throw
// std::invalid_argument where douzero_error is not empty.
void douzero_x_no_action(const GameView& v, const DouZeroLayout& layout, std::int8_t* out);
void douzero_z(const GameView& v, const DouZeroLayout& layout, std::int8_t* out);
void douzero_x_no_action(const GameView& v, std::int8_t* out);
void douzero_z(const GameView& v, std::int8_t* out);

// An action's part of an x_batch row (layout.action.width values, zeros for a pass).
template <class T>
void douzero_action(const DouZeroLayout& layout, const Action& a, T* out);

// x_batch and z_batch for `legal`: row i is x_no_action (`width` values) followed by
// legal[i]'s action part, and a copy of z. Without a layout: DouZero's setting.
void douzero_batches(const DouZeroLayout& layout, const std::int8_t* x_no_action, int width, const std::int8_t* z,
                     const std::vector<Action>& legal, float* x_batch, float* z_batch);
void douzero_batches(const std::int8_t* x_no_action, int width, const std::int8_t* z,
                     const std::vector<Action>& legal, float* x_batch, float* z_batch);

// ---------------------------------------------------------------------------------------

// The `slots` values of a rank's block for each count a Mask nibble can hold: the first
// min(count, slots) are 1. A plane is then one fixed-size copy per rank, without branches
// (encoding is a large part of a VectorEnv step).
template <class T, int slots>
inline constexpr auto kThermometers = [] {
  std::array<std::array<T, slots>, 16> table{};
  for (int n = 0; n < 16; ++n) {
    for (int i = 0; i < slots && i < n; ++i) table[static_cast<std::size_t>(n)][static_cast<std::size_t>(i)] = T(1);
  }
  return table;
}();

template <int decks, class T>
void write_card_plane_of(Mask cards, T* out) {
  constexpr int per_rank = 4 * decks;
  for (int r = 0; r < kNumRanks - 2; ++r) {
    std::memcpy(out + r * per_rank, kThermometers<T, per_rank>[static_cast<std::size_t>(count(cards, r))].data(),
                sizeof(T) * per_rank);
  }
  T* jokers = out + (kNumRanks - 2) * per_rank;
  for (const int j : {kBlackJoker, kRedJoker}) {
    std::memcpy(jokers, kThermometers<T, decks>[static_cast<std::size_t>(count(cards, j))].data(), sizeof(T) * decks);
    jokers += decks;
  }
}

template <class T>
void write_card_plane(Mask cards, int decks, T* out) {
  if (decks == 1) {
    write_card_plane_of<1>(cards, out);
  } else {
    write_card_plane_of<2>(cards, out);
  }
}

template <class T>
void douzero_action(const DouZeroLayout& layout, const Action& a, T* out) {
  std::fill(out, out + layout.action.width, T(0));
  if (a.type != ActionType::Play) return;
  write_card_plane(a.move.cards, layout.decks, out);
  if (layout.wild) write_card_plane(spent(a.move), layout.decks, out + layout.cards);
}

}  // namespace ddz
