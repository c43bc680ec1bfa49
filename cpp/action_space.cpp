#include "action_space.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

#include "movegen.hpp"

namespace ddz {

namespace {

// Every move a hand can play under `rules`, in the documented order.
std::vector<Move> enumerate_moves(const Rules& rules) {
  std::vector<Move> moves = legal_moves(rules.deck(), nullptr, rules);
  const int most = rules.max_hand();
  std::erase_if(moves, [most](const Move& m) { return total(m.cards) > most; });
  std::sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) {
    return std::tuple(a.kind, a.length, a.key, a.cards) < std::tuple(b.kind, b.length, b.key, b.cards);
  });
  return moves;
}

std::vector<Action> bidding_actions(Bidding bidding) {
  switch (bidding) {
    case Bidding::Classic: return {Action::bid(0), Action::bid(1), Action::bid(2), Action::bid(3)};
    case Bidding::CallRob: return {Action::call(false), Action::call(true), Action::rob(false), Action::rob(true)};
    case Bidding::None: break;
  }
  return {};
}

}  // namespace


ActionSpace::ActionSpace(const Rules& rules) : rules_(rules) {
  if (auto why = validate(rules); !why.empty()) throw std::invalid_argument(why);
  if (rules.wild) {
    throw std::invalid_argument("wild-card (laizi) rules have no fixed action ids: a move there also names the ranks "
                                "its wild cards stand in for, which depend on the wild rank drawn each hand");
  }
  moves_ = MoveTable(enumerate_moves(rules));
  bidding_ = bidding_actions(rules.bidding);
}

int ActionSpace::id(const Action& a) const {
  if (a.type == ActionType::Play) return id(a.move);
  if (a.type == ActionType::Pass) return kPassId;
  const auto it = std::find(bidding_.begin(), bidding_.end(), a);
  return it == bidding_.end() ? -1 : first_bid_id() + static_cast<int>(it - bidding_.begin());
}

Action ActionSpace::action(int id) const {
  if (id == kPassId) return Action::pass();
  if (is_move(id)) return Action::play(moves_[id - 1]);
  if (id < 0 || id >= size()) throw std::out_of_range("action id " + std::to_string(id) + " outside the action space");
  return bidding_[static_cast<std::size_t>(id - first_bid_id())];
}

const Move& ActionSpace::move(int id) const {
  if (!is_move(id)) throw std::out_of_range("action id " + std::to_string(id) + " is not a move");
  return moves_[id - 1];
}

int ActionSpace::ids(const std::vector<Action>& actions, std::vector<int>& out) const {
  out.clear();
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const int id_of = id(actions[i]);
    if (id_of < 0) return static_cast<int>(i);
    out.push_back(id_of);
  }
  return -1;
}

}  // namespace ddz
