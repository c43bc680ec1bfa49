// The rule-based player: plans its hand into combinations, leads its weakest group, keeps
// bombs and the rocket for when they win, lets its partner's plays stand, and takes
// control when an opponent is about to go out.
#include <algorithm>

#include "policy.hpp"

namespace ddz {

namespace {

constexpr int kThreat = 4;  // an opponent with this many cards or fewer is about to go out

// A hand split into combinations; fewer groups means fewer turns to go out.
struct Plan {
  std::vector<Move> groups;  // bombs and the rocket included
  int turns() const { return static_cast<int>(groups.size()); }
};

// The longest run of at least `shortest` ranks holding `unit` cards each, as (low, length).
std::pair<int, int> longest_run(Mask cards, int unit, int shortest, int longest) {
  const RankSet base = ranks_with_at_least(cards, unit) & kChainRanks;
  std::pair<int, int> best{-1, 0};
  RankSet starts = base;
  for (int length = 1; length <= longest && starts; ++length) {
    if (length > 1) starts &= base >> (length - 1);
    if (length >= shortest && starts) best = {lowest_rank(starts), length};
  }
  return best;
}

Move group(Mask cards, MoveKind kind, int key, int length) {
  return {cards, kind, static_cast<std::uint8_t>(key), static_cast<std::uint8_t>(length)};
}

// Gives trio and airplane bodies the lowest free singles below 2 as kickers, else pairs.
void attach_kickers(std::vector<Move>& bodies, std::vector<Move>& solos, std::vector<Move>& pairs, const Rules& rules) {
  for (Move& body : bodies) {
    const int need = body.length;
    const RankSet body_ranks = ranks_with_at_least(body.cards, 1);
    for (const bool solo : {true, false}) {
      std::vector<Move>& pool = solo ? solos : pairs;
      std::vector<std::size_t> picks;
      for (std::size_t i = 0; i < pool.size() && static_cast<int>(picks.size()) < need; ++i) {
        if (pool[i].key < kTwo && !((body_ranks >> pool[i].key) & 1)) picks.push_back(i);
      }
      if (static_cast<int>(picks.size()) < need) continue;
      Mask kickers = 0;
      for (std::size_t i : picks) kickers += pool[i].cards;
      const bool chain = body.kind == MoveKind::Airplane;
      const MoveKind kind = chain ? (solo ? MoveKind::AirplaneSolos : MoveKind::AirplanePairs)
                                  : (solo ? MoveKind::TrioSolo : MoveKind::TrioPair);
      if (!reads_as(body.cards + kickers, kind, body.key, body.length, rules)) continue;
      body = group(body.cards + kickers, kind, body.key, body.length);
      for (auto it = picks.rbegin(); it != picks.rend(); ++it) pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(*it));
      break;
    }
  }
}

Plan plan_hand(Mask hand, const Rules& rules) {
  std::vector<Move> power, chains, bodies, pairs, solos;
  Mask rest = hand;
  const auto take = [&](std::vector<Move>& into, Mask cards, MoveKind kind, int key, int length) {
    into.push_back(group(cards, kind, key, length));
    rest -= cards;
  };
  if (contains(rest, rules.rocket())) take(power, rules.rocket(), MoveKind::Rocket, kBlackJoker, total(rules.rocket()));
  for (RankSet s = ranks_with_at_least(rest, 4) & ~kJokers; s; s &= s - 1) {
    const int r = lowest_rank(s), n = count(rest, r);  // with two decks a bomb holds 4..8 cards
    take(power, cards_of(r, n), MoveKind::Bomb, r, n);
  }
  // Chains, longest first: airplanes; straights only where they absorb singles; pair
  // straights from ranks that are not trios.
  for (auto run = longest_run(rest, 3, 2, 6); run.first >= 0; run = longest_run(rest, 3, 2, 6)) {
    take(bodies, run_of(run.first, run.second, 3), MoveKind::Airplane, run.first, run.second);
  }
  for (auto run = longest_run(rest, 1, 5, 12); run.first >= 0; run = longest_run(rest, 1, 5, 12)) {
    const Mask straight = run_of(run.first, run.second, 1);
    const int singles = rank_count(ranks_with_at_least(straight, 1) & ~ranks_with_at_least(rest, 2));
    if (singles * 2 < run.second) break;  // it would break more pairs and trios than it saves
    take(chains, straight, MoveKind::Straight, run.first, run.second);
  }
  const auto pairs_only = [&] { return rest & ~(one_of_each(ranks_with_at_least(rest, 3)) * 0xF); };
  for (auto run = longest_run(pairs_only(), 2, 3, 10); run.first >= 0; run = longest_run(pairs_only(), 2, 3, 10)) {
    take(chains, run_of(run.first, run.second, 2), MoveKind::PairStraight, run.first, run.second);
  }
  for (RankSet s = ranks_with_at_least(rest, 3); s; s &= s - 1) take(bodies, cards_of(lowest_rank(s), 3), MoveKind::Trio, lowest_rank(s), 1);
  for (RankSet s = ranks_with_at_least(rest, 2); s; s &= s - 1) take(pairs, cards_of(lowest_rank(s), 2), MoveKind::Pair, lowest_rank(s), 1);
  for (RankSet s = ranks_with_at_least(rest, 1); s; s &= s - 1) take(solos, cards_of(lowest_rank(s), 1), MoveKind::Solo, lowest_rank(s), 1);
  attach_kickers(bodies, solos, pairs, rules);
  Plan plan;
  for (const auto* part : {&power, &chains, &bodies, &pairs, &solos}) plan.groups.insert(plan.groups.end(), part->begin(), part->end());
  return plan;
}

bool is_power(const Move& m) { return m.kind == MoveKind::Bomb || m.kind == MoveKind::Rocket; }

// Seats on the other side from `seat`.
bool opponents(const State& s, int a, int b) { return (a == s.landlord) != (b == s.landlord); }

int fewest_opponent_cards(const State& s, int seat) {
  int fewest = 99;
  for (int other = 0; other < s.seats; ++other) {
    if (other != seat && opponents(s, seat, other)) fewest = std::min(fewest, total(s.hands[static_cast<std::size_t>(other)]));
  }
  return fewest;
}

std::size_t index_of(const std::vector<Action>& legal, const Action& a) {
  return static_cast<std::size_t>(std::find(legal.begin(), legal.end(), a) - legal.begin());
}

// A bid from the hand's strength: jokers, 2s and bombs.
int strength(Mask hand) {
  return 4 * count(hand, kRedJoker) + 3 * count(hand, kBlackJoker) + 2 * count(hand, kTwo) +
         5 * rank_count(ranks_with_at_least(hand, 4) & ~kJokers) + count(hand, kAce);
}

std::size_t bid(const Game& game, const std::vector<Action>& legal) {
  const int s = strength(game.state().hands[static_cast<std::size_t>(game.state().to_move)]);
  for (std::size_t i = legal.size(); i-- > 0;) {
    const Action& a = legal[i];
    const bool yes = a.value != 0;
    if (a.type == ActionType::Bid && yes && s >= 4 + 3 * a.value) return i;  // 7, 10, 13 for 1, 2, 3
    if ((a.type == ActionType::Call && yes && s >= 7) || (a.type == ActionType::Rob && yes && s >= 10)) return i;
  }
  return 0;  // pass, decline, no rob: always listed first
}

std::size_t lead(const Game& game, const std::vector<Action>& legal, const Plan& plan) {
  const State& s = game.state();
  const bool threat = fewest_opponent_cards(s, s.to_move) <= 2;
  // Weakest first: low keys and many cards; with an opponent nearly out, not a low single.
  const auto weakness = [&](const Move& g) {
    return g.key - 2 * (total(g.cards) - 1) + (threat && g.kind == MoveKind::Solo ? 30 - 2 * g.key : 0);
  };
  const Move* best = nullptr;
  for (const Move& g : plan.groups) {
    if (is_power(g) && plan.turns() > 1) continue;
    if (!best || weakness(g) < weakness(*best)) best = &g;
  }
  const std::size_t i = best ? index_of(legal, Action::play(*best)) : legal.size();
  return i < legal.size() ? i : 0;  // a group is always a legal lead; 0 is the lowest solo
}

std::size_t follow(const Game& game, const std::vector<Action>& legal, const Plan& plan) {
  const State& s = game.state();
  const int seat = s.to_move;
  const Mask hand = s.hands[static_cast<std::size_t>(seat)];
  if (!opponents(s, seat, s.last_by)) return 0;  // the partner's play stands: pass
  const int danger = fewest_opponent_cards(s, seat);
  std::size_t pick = 0, power = 0;
  int pick_turns = 99;
  for (std::size_t i = 1; i < legal.size(); ++i) {
    const Move& m = legal[i].move;
    if (spent(m) == hand) return i;  // going out
    if (is_power(m)) {
      if (!power) power = i;  // the lowest bomb (the rocket is listed last)
      continue;
    }
    const bool in_plan = std::any_of(plan.groups.begin(), plan.groups.end(), [&](const Move& g) { return g == m; });
    const int turns = in_plan ? plan.turns() - 1 : plan_hand(hand - spent(m), game.rules()).turns();
    const bool affordable = in_plan || turns <= plan.turns() || danger <= kThreat;
    if (affordable && turns < pick_turns) {
      pick = i;
      pick_turns = turns;
    }
  }
  if (pick) return pick;
  if (power && (danger <= kThreat || plan.turns() <= 2)) return power;
  return 0;
}

}  // namespace

std::size_t choose_heuristic(const Game& game, const std::vector<Action>& legal) {
  const State& s = game.state();
  if (s.phase == Phase::Bidding) return bid(game, legal);
  const Plan plan = plan_hand(s.hands[static_cast<std::size_t>(s.to_move)], game.rules());
  return s.last.cards ? follow(game, legal, plan) : lead(game, legal, plan);
}

}  // namespace ddz
