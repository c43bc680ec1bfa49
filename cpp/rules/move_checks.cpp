#include "rules/move_checks.hpp"

#include <array>

#include "rules/notation.hpp"

namespace ddz {

namespace {

// The widest rules of one deck and of two (every kicker rule relaxed, wild cards with one
// deck), one deck with Run Fast's kinds in place of the classic trio kinds (no wild
// cards), and Run Fast's own deck (the bomb of three aces): a move under some rules is a
// move under one of them.
const std::array<Rules, 4>& loosest_rules() {
  static const std::array<Rules, 4> rules = [] {
    Rules one = *preset("douzero");
    one.pair_kickers_share_rank = true;
    one.shortest_pair_chain = 2;
    one.wild = 2;
    Rules two = one;
    two.wild = 0;
    two.decks = 2;
    Rules free_one = one;
    free_one.wild = 0;
    free_one.trio_takes_two = true;
    free_one.four_with_three = true;
    return std::array<Rules, 4>{one, two, free_one, *preset("run_fast")};
  }();
  return rules;
}

}  // namespace

std::string move_error(const Move& m, const Rules* rules) {
  if (m.cards == 0) return m == Move{} ? "" : "a move of no cards (an empty row: no move) has no kind, key or length";
  if (static_cast<int>(m.kind) >= kNumMoveKinds) return "unknown move kind " + std::to_string(static_cast<int>(m.kind));
  // Cards no deck holds are said so: described, they showed as none (bits past the 15
  // ranks) or as hundreds of characters.
  if (std::string why = validate_cards(m.cards, rules ? *rules : loosest_rules()[1]); !why.empty()) return "cards: " + why;
  if (rules) {
    if (!deck_holds(spent(m) & kRankBits, *rules) || !is_valid_move(m, *rules)) return describe(m) + " is no move under these rules";
    return {};
  }
  for (const Rules& r : loosest_rules()) {
    if (is_valid_move(m, r)) return {};
  }
  // Stand-ins that fit no wild rules would make describe() print cards the move cannot
  // hold (the subtraction of spent() assumes them within the cards): say what is wrong.
  if (std::string why = wilds_error(m, loosest_rules()[0]); !why.empty()) return "a move's wild cards: " + why;
  return describe(m) + " is no move under any rules";
}

std::string last_move_error(const Move& m, const Rules& rules, WildRanks wild) {
  if (!is_valid_move(m, rules)) {
    const std::string why = move_error(m);
    return why.empty() ? describe(m) + " is no move under these rules" : why;
  }
  if (!uses_only(m, wild)) return describe(m) + " has wild cards of another rank";
  return short_move_error(m);
}

std::string short_move_error(const Move& m) {
  // A short trio or airplane empties its player's hand, which ends the hand: none is followed.
  if (is_short(m)) return describe(m) + " takes fewer kickers than its trios: only a hand's last cards, never a move to beat";
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
  const int most = a.type == ActionType::Bid       ? 3
                   : a.type == ActionType::Pass    ? 0
                   : a.type == ActionType::Partner ? kMostPartnerValue
                                                   : 1;
  // Named by its type: an action's text with the value 0 is another action ("bid 0", "alone").
  static constexpr std::array<const char*, kNumActionTypes> kTypeNames = {"play", "pass", "bid", "call", "rob", "partner"};
  if (a.value > most) {
    return std::string("a ") + kTypeNames[static_cast<std::size_t>(a.type)] + " action's value " + std::to_string(a.value) +
           " is past " + std::to_string(most);
  }
  return {};
}

}  // namespace ddz
