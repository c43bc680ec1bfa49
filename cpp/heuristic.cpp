// The rule-based player: plans its hand into combinations, leads its weakest group, keeps
// bombs and the rocket for when they win and its 2s and jokers for taking the lead back,
// lets its partner's plays stand, and takes control when an opponent is about to go out.
// With few cards left in all hands it searches the endgame exactly, on worlds dealt from
// what its seat knows.
#include <algorithm>
#include <array>

#include "policy.hpp"
#include "solver.hpp"
#include "worlds.hpp"

namespace ddz {

namespace {

constexpr int kThreat = 3;  // an opponent with this many cards or fewer is about to go out

// A hand split into combinations; fewer groups means fewer turns to go out.
struct Plan {
  std::vector<Move> groups;  // bombs and the rocket included
  int turns() const { return static_cast<int>(groups.size()); }
};

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

// The plan search. Bombs and the rocket stay whole; every set of chains (straights, pair
// straights, airplanes) the rest of the hand holds is tried, up to kPlanNodes sets, the
// longest chains first; what no chain takes splits by count into trios, pairs and solos,
// and the trios and airplanes take the lowest solos below 2 as kickers (else pairs). The
// plan with the fewest turns wins, and among those the one whose loose solos and pairs
// (kickers aside) are highest.
constexpr int kPlanNodes = 160;

struct Chain {
  Mask cards;
  MoveKind kind;
  int key, length;
};

struct ChainSearch {
  std::array<Chain, 12> chosen{}, best{};
  int depth = 0, best_depth = 0, best_cost = 1 << 30, nodes = 0;

  // Turns (x64) plus the lowness of the loose solos and pairs, of `rest` split by count
  // with the chosen chains.
  int cost(Mask rest) const {
    const RankSet at_least_1 = ranks_with_at_least(rest, 1), at_least_2 = ranks_with_at_least(rest, 2),
                  at_least_3 = ranks_with_at_least(rest, 3);
    RankSet solos = at_least_1 & ~at_least_2, pairs = at_least_2 & ~at_least_3;
    const RankSet trios = at_least_3;
    int turns = depth + rank_count(trios) + rank_count(solos) + rank_count(pairs);
    constexpr RankSet below_two = (1u << kTwo) - 1;
    RankSet kick_solos = solos & below_two, kick_pairs = pairs & below_two;
    const auto take = [&](RankSet& pool, int need) {
      if (rank_count(pool) < need) return false;
      for (int k = 0; k < need; ++k) pool &= pool - 1;
      return true;
    };
    const auto body = [&](int need) {
      if (take(kick_solos, need) || take(kick_pairs, need)) turns -= need;
    };
    for (int i = 0; i < depth; ++i) {
      if (chosen[static_cast<std::size_t>(i)].kind == MoveKind::Airplane) body(chosen[static_cast<std::size_t>(i)].length);
    }
    for (int k = rank_count(trios); k > 0; --k) body(1);
    int lowness = 0;
    for (RankSet x = (kick_solos | (solos & ~below_two)) | (kick_pairs | (pairs & ~below_two)); x; x &= x - 1) {
      lowness += std::max(0, kAce - lowest_rank(x));
    }
    return 64 * turns + lowness;
  }

  void search(Mask rest, int from) {
    ++nodes;
    const int c = cost(rest);
    if (c < best_cost) {
      best_cost = c;
      best = chosen;
      best_depth = depth;
    }
    if (depth == static_cast<int>(chosen.size())) return;
    for (int low = from; low <= kAce && nodes < kPlanNodes; ++low) {
      for (int unit = 3; unit >= 1 && nodes < kPlanNodes; --unit) {
        const ChainLimits lim = chain_limits(unit);
        int run = 0;
        while (low + run <= kAce && run < lim.longest && count(rest, low + run) >= unit) ++run;
        for (int length = run; length >= lim.shortest && nodes < kPlanNodes; --length) {
          const Mask cards = run_of(low, length, unit);
          const MoveKind kind = unit == 1 ? MoveKind::Straight : unit == 2 ? MoveKind::PairStraight : MoveKind::Airplane;
          chosen[static_cast<std::size_t>(depth++)] = {cards, kind, low, length};
          search(rest - cards, low);
          --depth;
        }
      }
    }
  }
};

// The search's cost of a hand (turns x 64 plus lowness), bombs and the rocket apart.
int plan_cost(Mask hand, const Rules& rules) {
  Mask rest = hand;
  int power = 0;
  if (contains(rest, rules.rocket())) rest -= rules.rocket(), ++power;
  for (RankSet s = ranks_with_at_least(rest, 4) & ~kJokers; s; s &= s - 1) rest -= cards_of(lowest_rank(s), count(rest, lowest_rank(s))), ++power;
  ChainSearch search;
  search.search(rest, 0);
  return search.best_cost + 64 * power;
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
  ChainSearch search;
  search.search(rest, 0);
  for (int i = 0; i < search.best_depth; ++i) {
    const Chain& c = search.best[static_cast<std::size_t>(i)];
    take(c.kind == MoveKind::Airplane ? bodies : chains, c.cards, c.kind, c.key, c.length);
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

// What the seat to move knows, and nothing more: its own hand, the cards every seat has
// played, the hand sizes and who sits where. `unseen` is the cards in the other hands
// taken together, which the seat can count: in a dealt game the deck less its own hand and
// every card played (the kitty's cards the landlord still holds among them); in a game
// from a position, the cards the position puts outside its own hand (the rest were out of
// play before it), as sample_worlds reads it. Which of those cards sits in which hand it
// never reads.
struct View {
  const State& s;
  const Rules& rules;
  int seat;
  Mask hand;
  Mask unseen = 0;
  int opp_fewest = 99;  // cards of the opponent nearest to going out
  int opp_most = 0;

  View(const Game& game) : s(game.state()), rules(game.rules()), seat(s.to_move), hand(s.hands[static_cast<std::size_t>(seat)]) {
    for (int other = 0; other < s.seats; ++other) {
      if (other == seat) continue;
      unseen += s.hands[static_cast<std::size_t>(other)];  // only the union is used
      if (!opponents(s, seat, other)) continue;
      const int n = total(s.hands[static_cast<std::size_t>(other)]);  // a hand's size is public
      opp_fewest = std::min(opp_fewest, n);
      opp_most = std::max(opp_most, n);
    }
  }
  int size(int other) const { return total(s.hands[static_cast<std::size_t>(other)]); }
  int next() const { return (seat + 1) % s.seats; }
  bool partner(int other) const { return other != seat && !opponents(s, seat, other); }
};

// Whether the cards out of the seat's sight hold a reply to `g` that an opponent could
// hold (at most as many cards as the biggest opponent hand): bombs and the rocket count
// only when `bombs`.
bool beatable(const Move& g, const View& v, bool bombs) {
  thread_local std::vector<Move> replies;
  replies.clear();
  append_legal_moves(v.unseen, &g, v.rules, v.s.wild, replies);
  for (const Move& m : replies) {
    if ((bombs || !is_power(m)) && total(spent(m)) <= v.opp_most) return true;
  }
  return false;
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

// The number of the plan's groups an opponent may beat (bombs aside): with at most one,
// the hand keeps control and goes out by playing the others first.
int loose_groups(const Plan& plan, const View& v) {
  int loose = 0;
  for (const Move& g : plan.groups) loose += beatable(g, v, is_power(g));
  return loose;
}

std::size_t lead(const View& v, const std::vector<Action>& legal, const Plan& plan) {
  const auto at = [&](const Move& g) {
    const std::size_t i = index_of(legal, Action::play(g));
    return i < legal.size() ? i : 0;  // a group is always a legal lead; 0 is the lowest solo
  };
  if (plan.turns() == 1) return at(plan.groups.front());
  // Control: with at most one group an opponent can beat, play the unbeatable ones first
  // (the most cards first, bombs last) and the loose one last.
  {
    const Move* best = nullptr;
    int loose = 0;
    for (const Move& g : plan.groups) {
      if (beatable(g, v, is_power(g))) {
        if (++loose > 1) break;
        continue;
      }
      const auto rank = [](const Move& m) { return is_power(m) ? -100 + total(m.cards) : total(m.cards); };
      if (!best || rank(g) > rank(*best)) best = &g;
    }
    if (loose <= 1 && best) return at(*best);
  }
  // A partner who plays next with one card left: give it a low solo to go out on.
  if (v.partner(v.next()) && v.size(v.next()) == 1 && v.opp_fewest > 1) {
    const int low = lowest_rank(ranks_with_at_least(v.hand, 1));
    for (std::size_t i = 0; i < legal.size(); ++i) {
      if (legal[i].move.kind == MoveKind::Solo && legal[i].move.key == low) return i;
    }
  }
  const bool threat = v.opp_fewest <= 2;
  // Weakest first: low keys and many cards; with an opponent nearly out, not a low single.
  const auto weakness = [&](const Move& g) {
    return g.key - 2 * (total(g.cards) - 1) + (threat && g.kind == MoveKind::Solo ? 30 - 2 * g.key : 0);
  };
  const Move* best = nullptr;
  for (const Move& g : plan.groups) {
    if (is_power(g)) continue;
    if (!best || weakness(g) < weakness(*best)) best = &g;
  }
  if (!best) best = &plan.groups.front();
  return at(*best);
}

// A 2 or a joker played as a single or a pair over a play below the ace: while no opponent
// is about to go out, the hand keeps such cards to take the lead back when it matters.
bool spends_control(const Move& m, const Move& last) {
  return (m.kind == MoveKind::Solo || m.kind == MoveKind::Pair) && m.key >= kTwo && last.key < kAce;
}

std::size_t follow(const View& v, const Game& game, const std::vector<Action>& legal, const Plan& plan) {
  const State& s = v.s;
  const Mask hand = v.hand;
  for (std::size_t i = 1; i < legal.size(); ++i) {
    if (spent(legal[i].move) == hand) return i;  // going out
  }
  if (!opponents(s, v.seat, s.last_by)) {
    // The partner's play stands, unless the opponent after us is about to go out and
    // could beat it: then take the trick with our strongest play.
    if (!v.partner(v.next()) && v.size(v.next()) <= 2 && beatable(s.last, v, false)) {
      std::size_t top = 0;
      for (std::size_t i = 1; i < legal.size(); ++i) {
        if (is_power(legal[i].move)) continue;
        if (!top || legal[i].move.key >= legal[top].move.key) top = i;
        if (!beatable(legal[i].move, v, false)) return i;
      }
      if (top) return top;
    }
    return 0;
  }
  const int danger = v.opp_fewest;
  std::size_t pick = 0, power = 0;
  int pick_cost = 1 << 30;
  RankSet bomb_ranks = 0;  // bombs and the rocket are never broken to follow
  for (const Move& g : plan.groups) {
    if (is_power(g)) bomb_ranks |= ranks_with_at_least(g.cards, 1);
  }
  for (std::size_t i = 1; i < legal.size(); ++i) {
    const Move& m = legal[i].move;
    if (is_power(m)) {
      if (!power) power = i;  // the lowest bomb (the rocket is listed last)
      continue;
    }
    if (ranks_with_at_least(spent(m), 1) & bomb_ranks) continue;
    if (danger > kThreat && spends_control(m, s.last)) continue;
    // A play out of the plan may cost one turn more than a planned one (or anything with
    // an opponent about to go out); among those, the one leaving the best plan.
    const bool in_plan = std::any_of(plan.groups.begin(), plan.groups.end(), [&](const Move& g) { return g == m; });
    const int turns = in_plan ? plan.turns() - 1 : plan_hand(hand - spent(m), game.rules()).turns();
    const bool affordable = in_plan || turns <= plan.turns() || danger <= kThreat;
    const int cost = plan_cost(hand - spent(m), game.rules());
    if (affordable && cost < pick_cost) {
      pick = i;
      pick_cost = cost;
    }
  }
  if (pick) return pick;
  if (power && (danger <= kThreat || plan.turns() <= 2 ||
                loose_groups(plan_hand(hand - spent(legal[power].move), game.rules()), v) <= 1)) {
    return power;
  }
  return 0;
}

// The endgame: once the hands hold few cards in all, the exact solver on worlds dealt
// afresh from what the seat knows (worlds.hpp), never on the real hands; the action that
// wins the most worlds (an action the node limit left unsolved counts half), the plan's
// choice among equals. The worlds' seed is a function of the seat's view alone, so the
// choice is too.
constexpr int kEndgameCards = 18;  // in all hands together
constexpr int kEndgameWorlds = 8;
constexpr std::int64_t kEndgameNodes = 3000;  // per world

int cards_in_play(const State& s) {
  int n = 0;
  for (int i = 0; i < s.seats; ++i) n += total(s.hands[static_cast<std::size_t>(i)]);
  return n;
}

std::uint64_t view_seed(const View& v) {
  return splitmix_finalize(splitmix_finalize(v.hand ^ v.s.last.cards) ^ v.unseen);
}

std::size_t endgame(const View& v, const Game& game, const std::vector<Action>& legal, std::size_t planned) {
  Rng rng(view_seed(v));
  SolveOptions options;
  options.node_limit = kEndgameNodes;
  options.tt_bytes = std::size_t{64} << 10;
  std::vector<int> score(legal.size());
  for (int w = 0; w < kEndgameWorlds; ++w) {
    // solve_moves lists its outcomes in the order of Game::legal_actions, as `legal` is.
    const MovesResult r = solve_moves(sample_world(game, v.seat, rng).state(), game.rules(), options);
    for (std::size_t i = 0; i < legal.size(); ++i) {
      score[i] += r.moves[i].outcome == Outcome::Win ? 2 : r.moves[i].outcome == Outcome::Unknown;
    }
  }
  std::size_t best = planned;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    if (score[i] > score[best]) best = i;
  }
  return best;
}

}  // namespace

std::size_t choose_heuristic(const Game& game, const std::vector<Action>& legal, Endgame endgame_search) {
  const State& s = game.state();
  if (s.phase == Phase::Bidding) return bid(game, legal);
  const View v(game);
  const Plan plan = plan_hand(v.hand, game.rules());
  const std::size_t planned = s.last.cards ? follow(v, game, legal, plan) : lead(v, legal, plan);
  // Nothing to search when there is no choice or the plan goes out.
  const bool search = endgame_search == Endgame::Search && legal.size() > 1 && spent(legal[planned].move) != v.hand && cards_in_play(s) <= kEndgameCards;
  return search ? endgame(v, game, legal, planned) : planned;
}

}  // namespace ddz
