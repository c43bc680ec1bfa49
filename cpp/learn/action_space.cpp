#include "learn/action_space.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <string>
#include <tuple>

#include "rules/movegen.hpp"
#include "rules/wild.hpp"

namespace ddz {

namespace {

// Calls f(acc + k) for every multiset k of at most `most` cards of `avail`, ranks from `rank` up.
template <class F>
void for_each_multiset_up_to(Mask avail, int most, F& f, int rank = 0, Mask acc = 0) {
  if (rank == kNumRanks) return f(acc);
  for (int c = 0; c <= std::min(count(avail, rank), most); ++c) {
    for_each_multiset_up_to(avail, most - c, f, rank + 1, acc + cards_of(rank, c));
  }
}

// Run Fast's short trios and airplanes (is_short): a body with fewer kickers than two a
// trio, a move only of a hand's last cards, which the whole deck therefore never lists.
void append_short_moves(const Rules& rules, std::vector<Move>& out) {
  if (!rules.trio_takes_two) return;
  const Mask deck = rules.deck();
  const auto add = [&](MoveKind kind, int key, int length) {
    const Mask body = run_of(key, length, 3);
    if (!contains(deck, body) || 3 * length > rules.max_hand()) return;
    auto emit = [&](Mask kickers) {
      if (is_bomb_cards(body + kickers, rules)) return;  // the bomb's reading, listed already
      if (!jokers_allowed(kickers, rules)) return;       // never both jokers (Kickers rule 5)
      out.push_back({body + kickers, kind, static_cast<std::uint8_t>(key), static_cast<std::uint8_t>(length)});
    };
    for_each_multiset_up_to(deck - body, std::min(2 * length - 1, rules.max_hand() - 3 * length), emit);
  };
  for (int key = 0; key < kBlackJoker; ++key) add(MoveKind::TrioTwo, key, 1);
  const ChainLimits limits = chain_limits(3, rules);
  for (int length = limits.shortest; length <= limits.longest; ++length) {
    for (int key = 0; key + length <= kAce + 1; ++key) add(MoveKind::AirplaneTwos, key, length);
  }
}

// Every move a hand can play under `rules`, in the documented order.
std::vector<Move> enumerate_moves(const Rules& rules) {
  std::vector<Move> moves = legal_moves(rules.deck(), nullptr, rules);
  append_short_moves(rules, moves);
  const int most = rules.max_hand();
  std::erase_if(moves, [most](const Move& m) { return total(m.cards) > most; });
  std::sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) {
    return std::tuple(a.kind, a.length, a.key, a.cards) < std::tuple(b.kind, b.length, b.key, b.cards);
  });
  return moves;
}

std::vector<Action> auction_actions(Bidding bidding) {
  switch (bidding) {
    case Bidding::Classic: return {Action::bid(0), Action::bid(1), Action::bid(2), Action::bid(3)};
    case Bidding::CallRob: return {Action::call(false), Action::call(true), Action::rob(false), Action::rob(true)};
    case Bidding::None: break;
  }
  return {};
}

// The auction's actions, then the landlord's choice of a partner (alone, seats 0..3).
std::vector<Action> bidding_actions(const Rules& rules) {
  std::vector<Action> out = auction_actions(rules.bidding);
  if (rules.partner) {
    for (int seat = -1; seat < rules.players; ++seat) out.push_back(Action::partner(seat));
  }
  return out;
}

// The stand-in enumeration of one group: each id's ranks (a count per rank), and the id
// of each group's packed stand-ins (encode_stand_ins of one group, below 2^16; -1 for none).
struct StandIns {
  std::vector<Mask> ranks;
  std::vector<std::int16_t> id = std::vector<std::int16_t>(1 << 16, -1);

  StandIns() {
    for (int size = 0; size <= kMaxWilds; ++size) add(size, 0, 0);
    assert(static_cast<int>(ranks.size()) == ActionSpace::kStandInIds);
  }
  // Every ascending run of `left` more ranks from `low` on, after those of `prefix`.
  void add(int left, int low, Mask prefix) {
    if (left == 0) {
      id[encode_stand_ins(prefix)] = static_cast<std::int16_t>(ranks.size());
      ranks.push_back(prefix);
      return;
    }
    for (int r = low; r <= kTwo; ++r) add(left - 1, r, prefix + cards_of(r, 1));
  }
  int id_of(Mask group) const { return total(group) > kMaxWilds ? -1 : id[encode_stand_ins(group)]; }
};

const StandIns& stand_ins() {
  static const StandIns table;
  return table;
}

Rules natural(Rules rules) {
  rules.wild = 0;  // the combinations as they stand are the natural rules' moves
  return rules;
}

}  // namespace


ActionSpace::ActionSpace(const Rules& rules) : rules_(rules) {
  if (auto why = validate(rules); !why.empty()) throw std::invalid_argument(why);
  moves_ = MoveTable(enumerate_moves(natural(rules)));
  bidding_ = bidding_actions(rules);
}

int ActionSpace::id(const Move& m) const {
  Move combination = m;
  if (rules_.wild) combination.stand_ins = combination.wild_rank = 0;
  const int i = moves_.find(combination);
  return i < 0 ? -1 : 1 + i;
}

int ActionSpace::stand_in_id(const Move& m, WildRanks wild) {
  const StandInGroups g = stand_in_groups(m);
  if (wild.none()) wild = {g.first.wild, g.second.wild};  // the move's own ranks
  Mask by_low = 0, by_high = 0;
  for (const StandInGroup& group : {g.first, g.second}) {
    if (group.wild == kNoWild) continue;
    if (group.wild == wild.low) {
      by_low = group.ranks;
    } else if (group.wild == wild.high) {
      by_high = group.ranks;
    } else {
      return -1;
    }
  }
  const int low = stand_ins().id_of(by_low), high = stand_ins().id_of(by_high);
  return low < 0 || high < 0 ? -1 : low + kStandInIds * high;
}

Move ActionSpace::with_stand_ins(int id, int stand_in_id, WildRanks wild) const {
  const int ids = wild.high == kNoWild ? kStandInIds : kStandInIds * kStandInIds;
  if (stand_in_id < 0 || stand_in_id >= ids) {
    throw std::out_of_range("stand-in id " + std::to_string(stand_in_id) + " outside 0.." + std::to_string(ids - 1));
  }
  const auto in_range = [](int r) { return r >= 0 && r <= kTwo; };
  if (!in_range(wild.low) || (wild.high != kNoWild && (!in_range(wild.high) || wild.high == wild.low))) {
    throw std::out_of_range("the wild ranks must be one or two different ranks 3..2");
  }
  const Move& c = move(id);
  const Mask by_low = stand_ins().ranks[static_cast<std::size_t>(stand_in_id % kStandInIds)];
  const Mask by_high = stand_ins().ranks[static_cast<std::size_t>(stand_in_id / kStandInIds)];
  const Move m = with_stand_in_groups(c, wild.low, by_low, wild.high, by_high);
  if (const std::string why = wilds_error(m, rules_); !why.empty()) throw std::invalid_argument(why);
  return m;
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

std::optional<Action> legal_action_of(const ActionSpace& space, const Game& game, int id, int stand_in_id) {
  if (!space.rules().wild) {
    // Without wild cards an id is one action: the game's own check says whether it is legal.
    const Action a = space.action(id);
    if (stand_in_id != 0 || !game.check(a).empty()) return std::nullopt;
    return a;
  }
  thread_local std::vector<Action> legal;
  game.legal_actions(legal);
  for (const Action& a : legal) {
    const int stand_in = a.type == ActionType::Play ? ActionSpace::stand_in_id(a.move, game.state().wild) : 0;
    if (space.id(a) == id && stand_in == stand_in_id) return a;
  }
  return std::nullopt;
}

}  // namespace ddz
