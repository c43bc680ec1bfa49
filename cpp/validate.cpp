#include "validate.hpp"

#include <array>

#include "notation.hpp"

namespace ddz {

namespace {

// The widest rules of one deck and of two (every kicker rule relaxed, wild cards with one
// deck): a move under some rules is a move under one of them.
const std::array<Rules, 2>& loosest_rules() {
  static const std::array<Rules, 2> rules = [] {
    Rules one = *preset("douzero");
    one.pair_kickers_share_rank = true;
    one.wild = 2;
    Rules two = one;
    two.wild = 0;
    two.decks = 2;
    return std::array<Rules, 2>{one, two};
  }();
  return rules;
}

}  // namespace

std::string move_error(const Move& m, const Rules* rules) {
  if (m.cards == 0) return {};
  if (static_cast<int>(m.kind) >= kNumMoveKinds) return "unknown move kind " + std::to_string(static_cast<int>(m.kind));
  if (rules) {
    if (!deck_holds(spent(m) & kRankBits, *rules) || !is_valid_move(m, *rules)) return describe(m) + " is no move under these rules";
    return {};
  }
  for (const Rules& r : loosest_rules()) {
    if (is_valid_move(m, r)) return {};
  }
  return describe(m) + " is no move under any rules";
}

std::string last_move_error(const Move& m, const Rules& rules, WildRanks wild) {
  if (!is_valid_move(m, rules)) {
    const std::string why = move_error(m);
    return why.empty() ? describe(m) + " is no move under these rules" : why;
  }
  if (!uses_only(m, wild)) return describe(m) + " has wild cards of another rank";
  return {};
}

std::string action_error(const Action& a) {
  if (static_cast<int>(a.type) >= kNumActionTypes) return "unknown action type";
  if (a.type == ActionType::Play) {
    if (a.value != 0) return "a play has no value";
    if (a.move.cards == 0) return "a play holds cards";
    return move_error(a.move);
  }
  if (!(a.move == Move{})) return "only a play holds cards";
  const int most = a.type == ActionType::Bid ? 3 : a.type == ActionType::Pass ? 0 : 1;
  if (a.value > most) return "value " + std::to_string(a.value) + " of " + action_text(Action{a.type, 0, {}}) + " is past " + std::to_string(most);
  return {};
}

std::string action_row_error(const ActionRow& row) {
  if (row.seat >= kMaxSeats) return "seat " + std::to_string(row.seat) + " is no seat";
  if (row.type >= kNumActionTypes) return "unknown action type " + std::to_string(row.type);
  if (row.type != static_cast<int>(ActionType::Play) && (row.cards || row.kind || row.key || row.length || row.stand_ins || row.stand_ins_high)) {
    return "only a play holds cards";
  }
  return action_error(from_row(row));
}

std::string restore_settlement(Settlement& s) {
  if (s.seats < 2 || s.seats > kMaxSeats) return "seats must be in 2.." + std::to_string(kMaxSeats);
  if (s.landlord < 0) {
    s = void_settlement(s.seats);
    return {};
  }
  if ((s.start_bonus.jokers | s.start_bonus.straight) >> s.seats) return "a start bonus names a seat past the hand's seats";
  if (auto why = score_error(s.base, s.bombs, s.rockets, s.spring, s.anti_spring, s.landlord_won, s.landlord, s.seats, 0);
      !why.empty()) {
    return why;
  }
  // The multiplier, capped or not, as the cap: settle() gives it back unless it is wrong.
  const Settlement settled = settle(s.base, s.bombs, s.rockets, s.spring, s.anti_spring, s.landlord_won, s.landlord, s.seats,
                                    s.multiplier, s.start_bonus);
  if (settled.multiplier != s.multiplier) return "the multiplier does not follow";
  s = settled;
  return {};
}

}  // namespace ddz
