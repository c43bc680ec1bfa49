// The rule-based player: plans its hand into combinations (its wild cards as wild under
// laizi), leads its weakest group, keeps bombs and the rocket for when they win and its 2s
// and jokers for taking the lead back, lets its partner's plays stand, and takes control
// when an opponent is about to go out (sooner with four seats). With few cards left in all
// hands it searches the endgame exactly, on worlds dealt from what its seat knows.
#include <algorithm>
#include <array>
#include <chrono>
#include <optional>

#include "game/seat_view.hpp"
#include "play/policy.hpp"
#include "search/solver.hpp"
#include "search/worlds.hpp"

namespace ddz {

namespace {

constexpr int kThreat = 3;  // an opponent with this many cards or fewer is about to go out
// With four seats any of three peasants may go out before the landlord, and the hands are
// long: the hand stops keeping its 2s and jokers and sticking to its plan once an opponent
// is down to half a hand (by evaluate without bidding, WP and ADP rise with it up to
// about 13). Its bombs still wait for kThreat: earlier bombs win more games but lose
// more stakes.
constexpr int kFourSeatThreat = 13;

// The ranks whose cards are wild this deal (laizi, laizi2), as the nibbles of a Mask: `hand &
// wild_nibbles(s)` is a hand's wild cards. The one reading of the state's wild ranks.
Mask wild_nibbles(const State& s) { return s.wild.nibbles(); }

// `n` of the wild cards `wilds`, the lowest ranks first.
Mask some_wilds(Mask wilds, int n) {
  Mask out = 0;
  for (RankSet r = ranks_with_at_least(wilds, 1); r && n > 0; r &= r - 1) {
    const int k = std::min(n, count(wilds, lowest_rank(r)));
    out += cards_of(lowest_rank(r), k);
    n -= k;
  }
  return out;
}

// A planned combination: its reading (the cards as they stand, with no wild-card fields)
// and the cards it takes from the hand, which differ where wild cards stand in.
struct Group {
  Move move;
  Mask spent;
};

// Whether the legal move `m` plays the planned group `g`.
bool plays(const Move& m, const Group& g) {
  return m.cards == g.move.cards && m.kind == g.move.kind && m.key == g.move.key && m.length == g.move.length &&
         spent(m) == g.spent;
}

// A hand split into combinations; fewer groups means fewer turns to go out.
struct Plan {
  std::vector<Group> groups;  // bombs and the rocket included
  int turns() const { return static_cast<int>(groups.size()); }
};

Group group(Mask cards, Mask spent_cards, MoveKind kind, int key, int length) {
  return {{cards, kind, static_cast<std::uint8_t>(key), static_cast<std::uint8_t>(length)}, spent_cards};
}

// Gives trio and airplane bodies the lowest free singles below 2 as kickers, else pairs.
void attach_kickers(std::vector<Group>& bodies, std::vector<Group>& solos, std::vector<Group>& pairs, const Rules& rules) {
  for (Group& body : bodies) {
    const int need = body.move.length;
    const RankSet body_ranks = ranks_with_at_least(body.move.cards, 1);
    for (const bool solo : {true, false}) {
      std::vector<Group>& pool = solo ? solos : pairs;
      std::vector<std::size_t> picks;
      for (std::size_t i = 0; i < pool.size() && static_cast<int>(picks.size()) < need; ++i) {
        if (pool[i].move.key < kTwo && !((body_ranks >> pool[i].move.key) & 1)) picks.push_back(i);
      }
      if (static_cast<int>(picks.size()) < need) continue;
      Mask kickers = 0, kickers_spent = 0;
      for (std::size_t i : picks) kickers += pool[i].move.cards, kickers_spent += pool[i].spent;
      const bool chain = body.move.kind == MoveKind::Airplane;
      const MoveKind kind = chain ? (solo ? MoveKind::AirplaneSolos : MoveKind::AirplanePairs)
                                  : (solo ? MoveKind::TrioSolo : MoveKind::TrioPair);
      if (!reads_as(body.move.cards + kickers, kind, body.move.key, body.move.length, rules)) continue;
      body = group(body.move.cards + kickers, body.spent + kickers_spent, kind, body.move.key, body.move.length);
      for (auto it = picks.rbegin(); it != picks.rend(); ++it) pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(*it));
      break;
    }
  }
}

// The plan search. Bombs and the rocket stay whole; every set of chains (straights, pair
// straights, airplanes) the rest of the hand holds is tried, up to kPlanNodes sets, the
// longest chains first; what no chain takes splits by count into bombs, trios, pairs and
// solos, and the trios and airplanes take the lowest solos below 2 as kickers (else
// pairs). The plan with the fewest turns wins, and among those the one whose loose solos
// and pairs (kickers aside) are highest. Wild cards (laizi) are no rank of their own: the
// chains may take them for missing cards, and those left go one by one where they lower
// the score most (a pair made a trio, a trio a bomb, a solo a pair, or a 2: a wild card
// alone is as high a solo as a 2), so the plan never leads one as a low solo.
constexpr int kPlanNodes = 160;

struct Chain {
  Mask cards;
  MoveKind kind;
  int key, length;
};

// A plan's worth: turns, then the lowness of its loose solos and pairs.
struct Score {
  int turns = 0, lowness = 0;
  int cost() const { return 64 * turns + lowness; }
};

struct ChainSearch {
  std::array<Chain, 12> chosen{}, best{};
  int depth = 0, best_depth = 0, nodes = 0;
  Score best_score{1 << 20, 0};

  // The score of `rest` split by count with the chosen chains.
  Score split(Mask rest) const {
    const RankSet at_least_1 = ranks_with_at_least(rest, 1), at_least_2 = ranks_with_at_least(rest, 2),
                  at_least_3 = ranks_with_at_least(rest, 3), bombs = ranks_with_at_least(rest, 4);
    RankSet solos = at_least_1 & ~at_least_2, pairs = at_least_2 & ~at_least_3;
    const RankSet trios = at_least_3 & ~bombs;
    int turns = depth + rank_count(bombs) + rank_count(trios) + rank_count(solos) + rank_count(pairs);
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
    return {turns, lowness};
  }

  // The score of `rest` with `wilds` wild cards placed one by one where each lowers it most
  // (ranks 3..2 short of a bomb, the lowest among equals); `placed` gets their ranks.
  Score split(Mask rest, int wilds, Mask* placed) const {
    Score score = split(rest);
    constexpr RankSet placeable = (1u << (kTwo + 1)) - 1;
    for (; wilds > 0; --wilds) {
      const RankSet open = placeable & ~ranks_with_at_least(rest, 4);
      RankSet candidates = open & (ranks_with_at_least(rest, 1) | (1u << kTwo));
      if (!candidates) candidates = open;
      int pick = lowest_rank(candidates);
      score = Score{1 << 20, 0};
      for (; candidates; candidates &= candidates - 1) {
        const Score s = split(rest + cards_of(lowest_rank(candidates), 1));
        if (s.cost() < score.cost()) score = s, pick = lowest_rank(candidates);
      }
      rest += cards_of(pick, 1);
      if (placed) *placed += cards_of(pick, 1);
    }
    return score;
  }

  void search(Mask rest, int wilds, int from) {
    ++nodes;
    const Score score = split(rest, wilds, nullptr);
    if (score.cost() < best_score.cost()) {
      best_score = score;
      best = chosen;
      best_depth = depth;
    }
    if (depth == static_cast<int>(chosen.size())) return;
    for (int low = from; low <= kAce && nodes < kPlanNodes; ++low) {
      if (!count(rest, low)) continue;  // a chain starts on a card of its own rank
      for (int unit = 3; unit >= 1 && nodes < kPlanNodes; --unit) {
        const ChainLimits lim = chain_limits(unit);
        int run = 0;
        for (int need = 0; low + run <= kAce && run < lim.longest; ++run) {
          need += std::max(0, unit - count(rest, low + run));
          if (need > wilds) break;
        }
        for (int length = run; length >= lim.shortest && nodes < kPlanNodes; --length) {
          const Mask cards = run_of(low, length, unit), natural = per_rank_min(cards, rest);
          const MoveKind kind = unit == 1 ? MoveKind::Straight : unit == 2 ? MoveKind::PairStraight : MoveKind::Airplane;
          chosen[static_cast<std::size_t>(depth++)] = {cards, kind, low, length};
          search(rest - natural, wilds - (total(cards) - total(natural)), low);
          --depth;
        }
      }
    }
  }
};

// A hand for planning: its natural cards and its wild cards.
struct Hand {
  Mask natural, wilds;
  Hand(Mask cards, Mask wild_ranks) : natural(cards & ~wild_ranks), wilds(cards & wild_ranks) {}
};

// Takes the rocket and the natural bombs out of `natural` (they stay whole) and calls
// f(cards, kind, key, length) for each; three aces are a bomb under ace_trio_bomb.
template <class F>
void take_power(Mask& natural, const Rules& rules, F&& f) {
  if (contains(natural, rules.rocket())) natural -= rules.rocket(), f(rules.rocket(), MoveKind::Rocket, kBlackJoker, total(rules.rocket()));
  for (RankSet s = ranks_with_at_least(natural, 4) & ~kJokers; s; s &= s - 1) {
    const int r = lowest_rank(s);  // with two decks a bomb holds 4..8 cards
    const Mask bomb = cards_of(r, count(natural, r));
    natural -= bomb, f(bomb, MoveKind::Bomb, r, total(bomb));
  }
  if (rules.ace_trio_bomb && count(natural, kAce) == 3) {
    const Mask aces = cards_of(kAce, 3);
    natural -= aces, f(aces, MoveKind::Bomb, kAce, 3);
  }
}

// The ranks of the bombs and the rocket `hand` holds whole (its wild cards aside).
RankSet power_ranks(Mask hand, const Rules& rules, Mask wild_ranks) {
  Mask natural = hand & ~wild_ranks;
  RankSet ranks = 0;
  take_power(natural, rules, [&](Mask power, MoveKind, int, int) { ranks |= ranks_with_at_least(power, 1); });
  return ranks;
}

// The plan's score without its groups: what following compares its candidates by.
Score plan_score(Mask cards, const Rules& rules, Mask wild_ranks) {
  Hand hand(cards, wild_ranks);
  int power = 0;
  take_power(hand.natural, rules, [&](Mask, MoveKind, int, int) { ++power; });
  ChainSearch search;
  search.search(hand.natural, total(hand.wilds), 0);
  return {search.best_score.turns + power, search.best_score.lowness};
}

Plan plan_hand(Mask cards, const Rules& rules, Mask wild_ranks) {
  std::vector<Group> power, chains, bodies, pairs, solos;
  Hand hand(cards, wild_ranks);
  take_power(hand.natural, rules, [&](Mask bomb, MoveKind kind, int key, int length) { power.push_back(group(bomb, bomb, kind, key, length)); });
  ChainSearch search;
  search.search(hand.natural, total(hand.wilds), 0);
  // The search's best, rebuilt: each group spends its natural cards and wild cards for
  // the rest.
  Mask rest = hand.natural, wilds = hand.wilds;
  const auto take = [&](std::vector<Group>& into, Mask combination, MoveKind kind, int key, int length) {
    const Mask natural = per_rank_min(combination, rest);
    const Mask stand_ins = some_wilds(wilds, total(combination) - total(natural));
    rest -= natural, wilds -= stand_ins;
    // Four wild cards of one rank alone are its natural bomb; of two ranks they stand in
    // for the bomb's rank (a soft bomb, docs/rules.md).
    if (kind == MoveKind::Bomb && !natural && ranks_with_at_least(stand_ins, kMaxWilds)) {
      combination = stand_ins, key = lowest_rank(ranks_with_at_least(stand_ins, 1));
    }
    into.push_back(group(combination, natural + stand_ins, kind, key, length));
  };
  for (int i = 0; i < search.best_depth; ++i) {
    const Chain& c = search.best[static_cast<std::size_t>(i)];
    take(c.kind == MoveKind::Airplane ? bodies : chains, c.cards, c.kind, c.key, c.length);
  }
  search.depth = search.best_depth;
  search.chosen = search.best;
  Mask placed = 0;
  search.split(rest, total(wilds), &placed);
  const Mask split = rest + placed;  // at most 4 of a rank: more were a natural bomb
  const auto by_count = [&](std::vector<Group>& into, int n, MoveKind kind) {
    const RankSet ranks = ranks_with_at_least(split, n) & ~ranks_with_at_least(split, n + 1);
    for (RankSet s = ranks; s; s &= s - 1) take(into, cards_of(lowest_rank(s), n), kind, lowest_rank(s), kind == MoveKind::Bomb ? n : 1);
  };
  by_count(power, 4, MoveKind::Bomb);
  by_count(bodies, 3, MoveKind::Trio);
  by_count(pairs, 2, MoveKind::Pair);
  by_count(solos, 1, MoveKind::Solo);
  attach_kickers(bodies, solos, pairs, rules);
  Plan plan;
  for (const auto* part : {&power, &chains, &bodies, &pairs, &solos}) plan.groups.insert(plan.groups.end(), part->begin(), part->end());
  return plan;
}

bool is_power(const Move& m) { return m.kind == MoveKind::Bomb || m.kind == MoveKind::Rocket; }

// Seats on different sides.
bool opponents(const State& s, int a, int b) { return !same_side(s, a, b); }

// What the seat to move knows, and nothing more: its own hand, the cards every seat has
// played, the hand sizes and who sits where. `unseen` is the cards the seat cannot see,
// which it can count (seat_view's `others`): in a dealt game the deck less its own hand and
// every card played (the kitty's cards the landlord still holds among them, and a kitty
// still face down or Run Fast's cards set aside: not the other hands alone, which would
// tell it which cards lie aside); in a game from a position, the cards the position puts
// outside its own hand (the rest were out of play before it), as sample_worlds reads it.
// Which of those cards sits in which hand it never reads.
struct View {
  const State& s;
  const Rules& rules;
  int seat;
  Mask hand;
  Mask wild_ranks;  // the nibbles of the wild ranks: wild_nibbles(s)
  Mask unseen;
  int opp_fewest = 99;  // cards of the opponent nearest to going out
  int opp_most = 0;

  View(const Game& game) : s(game.state()), rules(game.rules()), seat(s.to_move), hand(s.hands[static_cast<std::size_t>(seat)]),
                             wild_ranks(wild_nibbles(s)), unseen(seat_view(s, seat).others) {
    for (int other = 0; other < s.seats; ++other) {
      if (other == seat || !opponents(s, seat, other)) continue;
      const int n = total(s.hands[static_cast<std::size_t>(other)]);  // a hand's size is public
      opp_fewest = std::min(opp_fewest, n);
      opp_most = std::max(opp_most, n);
    }
  }
  int size(int other) const { return total(s.hands[static_cast<std::size_t>(other)]); }
  int after(int other) const { return (other - seat + s.seats) % s.seats; }  // 1: plays next
  // The opponent who plays first after this seat, and whether a partner who plays before
  // it holds one card.
  int next_opponent() const {
    int other = (seat + 1) % s.seats;
    while (!opponents(s, seat, other)) other = (other + 1) % s.seats;
    return other;
  }
  bool partner_on_last_card() const {
    const int opponent = next_opponent();
    for (int other = (seat + 1) % s.seats; other != opponent; other = (other + 1) % s.seats) {
      if (size(other) == 1) return true;
    }
    return false;
  }
  Plan plan(Mask cards) const { return plan_hand(cards, rules, wild_ranks); }
  Score score(Mask cards) const { return plan_score(cards, rules, wild_ranks); }
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

// A bid from the hand's strength: jokers, 2s, aces and bombs.
int strength(Mask hand) {
  return 4 * count(hand, kRedJoker) + 3 * count(hand, kBlackJoker) + 2 * count(hand, kTwo) +
         5 * rank_count(ranks_with_at_least(hand, 4) & ~kJokers) + count(hand, kAce);
}

// With two decks a hand holds about twice the jokers, 2s, aces and bombs, and the
// landlord plays against three: the bars of the bids rise by kFourSeatBar. By evaluate
// against the three-seat bars, 2 wins more games for as many stakes; higher bars win
// still more games but fewer stakes (against random above all, which a landlord beats
// nearly always). A wild card counts as much as a black joker (by evaluate, from 1 to 4
// each point more wins more games and stakes against the heuristic that ignored them, and
// fewer games but more stakes against random; 3 keeps random's WP).
constexpr int kFourSeatBar = 2;
constexpr int kWildStrength = 3;

std::size_t bid(const Game& game, const std::vector<Action>& legal) {
  const State& st = game.state();
  const Mask hand = st.hands[static_cast<std::size_t>(st.to_move)];
  const int s = strength(hand) + kWildStrength * total(hand & wild_nibbles(st)) -
                (game.rules().players == 4 ? kFourSeatBar : 0);
  for (std::size_t i = legal.size(); i-- > 0;) {
    const Action& a = legal[i];
    const bool yes = a.value != 0;
    if (a.type == ActionType::Bid && yes && s >= 4 + 3 * a.value) return i;  // 7, 10, 13 for 1, 2, 3
    if ((a.type == ActionType::Call && yes && s >= 7) || (a.type == ActionType::Rob && yes && s >= 10)) return i;
  }
  return 0;  // pass, decline, no rob: always listed first
}

// The landlord's choice (four_partner): alone with a hand that plays out in few turns
// for its size, otherwise the seat whose auction showed the most strength (its highest bid,
// call or rob; a rob outranks a call), else the seat across the table, so that
// the sides alternate round it and each opponent sits between the partners.
constexpr int kAloneTurns = 7;  // plan turns of the 33-card hand, at most

int strongest_bidder(const Game& game) {
  const int landlord = game.state().landlord;
  int best = -1, best_value = 0;
  game.visit_recent([&](int seat, const Action& a) {
    // Newest first, so that among equal robs the last robber counts.
    const int value = a.type == ActionType::Rob ? 2 * a.value : a.value;
    if (seat != landlord && value > best_value) {
      best = seat;
      best_value = value;
    }
    return true;
  });
  return best;
}

std::size_t choose_partner(const Game& game, const std::vector<Action>& legal) {
  const State& s = game.state();
  const Mask hand = s.hands[static_cast<std::size_t>(s.landlord)];
  if (plan_score(hand, game.rules(), wild_nibbles(s)).turns <= kAloneTurns) return 0;  // alone: listed first
  const int bidder = strongest_bidder(game);
  const int partner = bidder >= 0 ? bidder : (s.landlord + 2) % s.seats;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    if (legal[i] == Action::partner(partner)) return i;
  }
  return 0;
}

// The number of the plan's groups an opponent may beat (bombs aside): with at most one,
// the hand keeps control and goes out by playing the others first.
int loose_groups(const Plan& plan, const View& v) {
  int loose = 0;
  for (const Group& g : plan.groups) loose += beatable(g.move, v, is_power(g.move));
  return loose;
}

// Run Fast (each for itself, must-beat): a lead sheds what leaves the fewest turns (so
// long combinations first, low cards before high), keeps the bombs whole (they pay whenever
// they go off: four with three kickers would spend one for nothing) and the highest card
// (the solo the warning allows), and with the next seat on its last card leads no solo
// while it holds another combination.
std::size_t run_fast_lead(const View& v, const std::vector<Action>& legal) {
  const bool warned = v.size((v.seat + 1) % v.s.seats) == 1;
  const int top = highest_rank(ranks_with_at_least(v.hand, 1));
  const RankSet bombs = power_ranks(v.hand, v.rules, v.wild_ranks);
  std::size_t best = 0;
  int best_value = 0;
  for (std::size_t i = 0; i < legal.size(); ++i) {
    const Move& m = legal[i].move;
    if (spent(m) == v.hand) return i;  // going out
    int value = 8 * total(m.cards) - v.score(v.hand - spent(m)).cost();  // a turn is worth 64
    if (is_power(m)) value -= 256;
    if (!is_power(m) && (ranks_with_at_least(spent(m), 1) & bombs)) value -= 512;  // worse than playing it
    if (m.kind == MoveKind::Solo) value -= warned ? 4096 : m.key == top ? 128 : 0;
    if (i == 0 || value > best_value) best = i, best_value = value;
  }
  return best;
}

std::size_t lead(const View& v, const std::vector<Action>& legal, const Plan& plan) {
  if (v.rules.each_for_self) return run_fast_lead(v, legal);
  const auto at = [&](const Group& g) {
    const auto it = std::find_if(legal.begin(), legal.end(), [&](const Action& a) { return plays(a.move, g); });
    return it == legal.end() ? 0 : static_cast<std::size_t>(it - legal.begin());  // a group is always a legal lead; 0 is the lowest solo
  };
  if (plan.turns() == 1) return at(plan.groups.front());
  // Control: with at most one group an opponent can beat, play the unbeatable ones first
  // (the most cards first, bombs last) and the loose one last.
  {
    const Group* best = nullptr;
    int loose = 0;
    for (const Group& g : plan.groups) {
      const Move& m = legal[at(g)].move;  // with its wild cards: a soft bomb loses to natural ones
      if (beatable(m, v, is_power(m))) {
        if (++loose > 1) break;
        continue;
      }
      const auto rank = [](const Group& x) { return is_power(x.move) ? -100 + total(x.move.cards) : total(x.move.cards); };
      if (!best || rank(g) > rank(*best)) best = &g;
    }
    if (loose <= 1 && best) return at(*best);
  }
  // A partner with one card left who plays before any opponent (with four seats, either
  // partner): give it a low solo to go out on.
  if (v.partner_on_last_card() && v.opp_fewest > 1) {
    const Mask natural = v.hand & ~v.wild_ranks;  // a wild card is no low solo
    const int low = lowest_rank(ranks_with_at_least(natural ? natural : v.hand, 1));
    for (std::size_t i = 0; i < legal.size(); ++i) {
      if (legal[i].move.kind == MoveKind::Solo && spent(legal[i].move) == cards_of(low, 1)) return i;
    }
  }
  const bool threat = v.opp_fewest <= 2;
  // Weakest first: low keys and many cards; with an opponent nearly out, not a low single.
  const auto weakness = [&](const Group& g) {
    const Move& m = g.move;
    return m.key - 2 * (total(m.cards) - 1) + (threat && m.kind == MoveKind::Solo ? 30 - 2 * m.key : 0);
  };
  const Group* best = nullptr;
  for (const Group& g : plan.groups) {
    if (is_power(g.move)) continue;
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

std::size_t follow(const View& v, const std::vector<Action>& legal, const Plan& plan) {
  const State& s = v.s;
  const Mask hand = v.hand;
  // The plays: after the pass, or from the first action when must-beat leaves no pass.
  const std::size_t first = legal.front().type == ActionType::Pass ? 1 : 0;
  for (std::size_t i = first; i < legal.size(); ++i) {
    if (spent(legal[i].move) == hand) return i;  // going out
  }
  if (!opponents(s, v.seat, s.last_by)) {
    // The partner's play stands, unless an opponent who plays before the trick comes back
    // to the partner is about to go out and could beat it: then take the trick with our
    // strongest play.
    const int opponent = v.next_opponent();
    if (v.after(opponent) < v.after(s.last_by) && v.size(opponent) <= 2 && beatable(s.last, v, false)) {
      std::optional<std::size_t> top;
      for (std::size_t i = first; i < legal.size(); ++i) {
        if (is_power(legal[i].move)) continue;
        if (!top || legal[i].move.key >= legal[*top].move.key) top = i;
        if (!beatable(legal[i].move, v, false)) return i;
      }
      if (top) return *top;
    }
    if (first == 1) return 0;  // pass
    // Must-beat owes a play even over the partner: chosen below as over an opponent's.
  }
  const int danger = v.opp_fewest, pressed = v.rules.players == 4 ? kFourSeatThreat : kThreat;
  const std::size_t none = legal.size();
  std::size_t pick = none, power = none;
  int pick_cost = 1 << 30;
  RankSet bomb_ranks = 0;  // bombs and the rocket are never broken to follow
  for (const Group& g : plan.groups) {
    if (is_power(g.move)) bomb_ranks |= ranks_with_at_least(g.spent, 1);
  }
  for (std::size_t i = first; i < legal.size(); ++i) {
    const Move& m = legal[i].move;
    if (is_power(m)) {
      if (power == none) power = i;  // the lowest bomb (the rocket is listed last)
      continue;
    }
    if (ranks_with_at_least(spent(m), 1) & bomb_ranks) continue;
    if (danger > pressed && spends_control(m, s.last)) continue;
    // A play out of the plan may cost one turn more than a planned one (or anything with
    // an opponent about to go out); among those, the one leaving the best plan.
    const bool in_plan = std::any_of(plan.groups.begin(), plan.groups.end(), [&](const Group& g) { return plays(m, g); });
    const Score after = v.score(hand - spent(m));
    const int turns = in_plan ? plan.turns() - 1 : after.turns;
    const bool affordable = in_plan || turns <= plan.turns() || danger <= pressed;
    const int cost = after.cost();
    if (affordable && cost < pick_cost) {
      pick = i;
      pick_cost = cost;
    }
  }
  if (pick != none) return pick;
  if (power != none && (danger <= kThreat || plan.turns() <= 2 ||
                loose_groups(v.plan(hand - spent(legal[power].move)), v) <= 1)) {
    return power;
  }
  // Must-beat leaves no pass: a bomb whole rather than a play that breaks one (a hand that
  // holds a bomb can play it here, since only a higher bomb is beyond it, and then no play
  // is legal and the pass is).
  return first == 0 && power != none ? power : 0;
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

// The seats other than the mover's that hold cards: 1 only in a two-hand position (every
// seat of a dealt hand holds cards until one goes out and the hand ends).
int other_holders(const View& v) {
  int holders = 0;
  for (int other = 0; other < v.s.seats; ++other) holders += other != v.seat && v.size(other) > 0;
  return holders;
}

std::size_t endgame(const View& v, const Game& game, const std::vector<Action>& legal, std::size_t planned,
                    double seconds) {
  // When one other seat holds every card out of sight (a two-hand position), each world is
  // the position itself: one search with the worlds' whole budget.
  const int worlds = other_holders(v) == 1 ? 1 : kEndgameWorlds;
  Rng rng(view_seed(v));
  SolveOptions options;
  options.node_limit = kEndgameNodes * kEndgameWorlds / worlds;
  options.tt_bytes = std::size_t{64} << 10;
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> score(legal.size());
  for (int w = 0; w < worlds; ++w) {
    if (seconds > 0) {
      options.time_limit = seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (options.time_limit <= 0) break;
    }
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

std::size_t search_endgame(const Game& game, const std::vector<Action>& legal, std::size_t planned, double seconds) {
  if (!solver_rules_error(game.rules()).empty()) return planned;  // Run Fast: no exact solver
  const View v(game);
  // Nothing to search when there is no choice or the planned action goes out. A two-hand
  // position (a puzzle) is one world, searched whatever its size.
  const bool small = cards_in_play(game.state()) <= kEndgameCards || other_holders(v) == 1;
  const bool search = legal.size() > 1 && spent(legal[planned].move) != v.hand && small;
  return search ? endgame(v, game, legal, planned, seconds) : planned;
}

std::size_t choose_heuristic(const Game& game, const std::vector<Action>& legal, Endgame endgame_search) {
  const State& s = game.state();
  if (s.phase == Phase::Bidding) return bid(game, legal);
  if (s.phase == Phase::Partner) return choose_partner(game, legal);
  const View v(game);
  const Plan plan = v.plan(v.hand);
  const std::size_t planned = s.last.cards ? follow(v, legal, plan) : lead(v, legal, plan);
  return endgame_search == Endgame::Search ? search_endgame(game, legal, planned) : planned;
}

}  // namespace ddz
