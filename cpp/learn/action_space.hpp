// Action ids: a fixed enumeration of every action a player can take in one rules' game,
// for learning agents that need a fixed-size output and a legal-action mask.
//
// The enumeration, for rules R (deterministic; the same on every machine):
//   id 0                      pass (when following)
//   ids 1 .. M                every move under R that fits in the largest hand a player can
//                             hold (the landlord's: 20 cards, 18 without a kitty, 33 with
//                             four players), that is every move a player
//                             leading with the whole deck could play, minus those of more
//                             cards than a hand holds, and under Run Fast's rules the
//                             short trios and airplanes (is_short) a hand of up to that
//                             many cards may end with; ordered by kind (MoveKind order),
//                             then length, then key, then the cards mask as an unsigned
//                             integer (ascending)
//   ids M+1 ..                the bidding actions of R's bidding system:
//                             classic: bid 0 (pass), bid 1, bid 2, bid 3;
//                             call-and-rob: decline, call, no rob, rob; none: nothing;
//                             then with rules.partner the landlord's choice: alone,
//                             partner 0, partner 1, partner 2, partner 3
// Under RLCard's rules (preset rlcard) this gives 27471 moves + pass = 27472 actions, the
// size of RLCard's action space (and the figure the DouZero paper gives; DouZero 1.1.0's
// own kicker rules, preset douzero, allow 30383 moves); under OpenSpiel's, 26053 moves,
// OpenSpiel's count of play actions. Standard rules: 12342 moves.
//
// Wild-card rules (laizi) have the same ids, naming combinations: a wild move's id is that
// of its combination as it stands (the move read naturally), and a second, fixed
// enumeration names what its wild cards stand in for: stand-in id 0 is none, then every
// multiset of 1..4 ranks 3..2, by size, then ranks ascending (2380 ids in all). A move is
// the pair (id, stand-in id) and the hand's wild rank; a flat id space of the pairs would
// hold tens of millions. The factoring lets a policy choose the combination as under the
// natural rules, then how to pay for it (envs/_table.py plays them as two steps).
// With two wild ranks (laizi2) what the cards of each wild rank stand in for has an id of
// that enumeration, and the move's stand-in id is low + 2380 x high (low: the stand-ins of
// the hand's lower wild rank, high: of its higher; under one wild rank high is 0, so the
// ids are those of laizi); envs/_table.py plays them as up to three steps.
#pragma once

#include <optional>
#include <vector>

#include "game/game.hpp"
#include "learn/move_table.hpp"
#include "rules/action.hpp"
#include "rules/rules.hpp"

namespace ddz {

class ActionSpace {
 public:
  static constexpr int kPassId = 0;
  static constexpr int kStandInIds = 2380;  // multisets of 0..4 ranks out of 13

  // Throws std::invalid_argument for rules that do not validate().
  explicit ActionSpace(const Rules& rules);

  const Rules& rules() const { return rules_; }
  int size() const { return 1 + moves_.size() + static_cast<int>(bidding_.size()); }
  int num_moves() const { return moves_.size(); }
  // The id of the first bidding action (== size() when the rules have no bidding).
  int first_bid_id() const { return 1 + moves_.size(); }

  // The id of an action or a move (under wild-card rules, of its combination), or -1 when
  // it is not in the space.
  int id(const Action& a) const;
  int id(const Move& m) const;
  // The stand-in id of a move (0 for a natural one) when `wild` are the hand's wild ranks
  // (none: the move's own, its lowest one taken as the lower), or -1 for stand-ins that no
  // move of those wild ranks has.
  static int stand_in_id(const Move& m, WildRanks wild = {});
  // The move of id `id` (a move's) whose wild cards, of the ranks `wild`, stand in for the
  // ranks of `stand_in_id`; std::out_of_range for ids outside their spaces, and
  // std::invalid_argument where the stand-ins do not fit the combination under these
  // rules (wilds_error). Whether it is a reading of a hand is the game's to say.
  Move with_stand_ins(int id, int stand_in_id, WildRanks wild) const;
  // The action of an id; std::out_of_range outside [0, size()).
  Action action(int id) const;
  // Whether an id is a play (the others are pass and the bidding actions).
  bool is_move(int id) const { return id >= 1 && id <= moves_.size(); }
  // The move of an id of a play; std::out_of_range for any other id.
  const Move& move(int id) const;

  // The ids of `actions` in order into `out` (cleared first); returns the index of the
  // first action that is not in the space, or -1 when all are.
  int ids(const std::vector<Action>& actions, std::vector<int>& out) const;

 private:
  Rules rules_;
  MoveTable moves_;
  std::vector<Action> bidding_;
};

// The legal action of `game` that `id` names, with `stand_in_id` what its wild cards
// stand in for (the pairs legal_ids and legal_stand_in_ids give; 0 for every action
// without wild cards), or nothing when no legal action has those ids now (the hand is
// over, an id of another phase, cards the hand does not hold). `id` must be an id of the
// space and `game` under its rules: what a learner's policy picks, applied by id.
std::optional<Action> legal_action_of(const ActionSpace& space, const Game& game, int id, int stand_in_id = 0);

}  // namespace ddz
