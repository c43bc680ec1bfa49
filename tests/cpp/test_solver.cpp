// The solver against a plain minimax over the Game API (no table, no pruning, no
// ordering), on thousands of small random positions, and against a memoized one on
// larger dealt positions; hand-worked puzzles; limits.
#include <algorithm>
#include <array>
#include <map>

#include "base/stop_request.hpp"
#include "check.hpp"
#include "game/game.hpp"
#include "helpers.hpp"
#include "search/dominance.hpp"
#include "search/rank_gaps.hpp"
#include "search/solver.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

// Positions a minimax has valued, keyed by everything play depends on: the hands, the
// move to beat and who played it, who moves, the passes in the trick.
using MinimaxMemo = std::map<std::array<std::uint64_t, 7>, bool>;

// Whether the landlord's side wins `g` with best play: every action is tried and every
// child valued before the results are combined. With `memo`, a position valued once is
// not valued again, so that hands of half a dozen cards each stay within reach; nothing
// of the solver's (bounds, ordering, sure wins, its key) is used either way.
bool minimax_landlord_wins(Game& g, MinimaxMemo* memo = nullptr) {
  const State& s = g.state();
  if (s.phase == Phase::Over) return on_landlord_side(s, s.winner);
  const MinimaxMemo::key_type key{s.hands[0], s.hands[1], s.hands[2], s.hands[3], s.last.cards, fields_word(s.last),
                                  static_cast<std::uint64_t>(s.last_by + 1) | static_cast<std::uint64_t>(s.to_move) << 8 |
                                      static_cast<std::uint64_t>(s.passes) << 16};
  if (memo) {
    if (const auto it = memo->find(key); it != memo->end()) return it->second;
  }
  const bool landlord_moves = on_landlord_side(s, s.to_move);
  bool any = false, all = true;
  for (const Action& a : g.legal_actions()) {
    g.apply_legal(a);
    const bool v = minimax_landlord_wins(g, memo);
    g.undo();
    any = any || v;
    all = all && v;
  }
  const bool value = landlord_moves ? any : all;
  if (memo) memo->emplace(key, value);
  return value;
}

bool mover_wins(Game& g) {
  const bool landlord_moves = on_landlord_side(g.state(), g.state().to_move);
  return minimax_landlord_wins(g) == landlord_moves;
}

// Leaves the moves `last_by` could have played: its hand and the move within its share.
void keep_playable(std::vector<Move>& moves, const std::vector<Mask>& hands, int landlord, int last_by, const Rules& rules) {
  const int share = (last_by == landlord ? rules.max_hand() : rules.hand_size()) - total(hands[static_cast<std::size_t>(last_by)]);
  std::erase_if(moves, [&](const Move& m) { return total(spent(m)) > share; });
}

// A random position: hands of 1..max_cards from a shuffled deck of the rules; half the
// time a move to beat, drawn from the legal leads of cards outside every hand that fit in
// its player's share; with wild cards, a random wild rank.
Game random_position(Rng& rng, int seats, int max_cards, const Rules& rules) {
  const Deal d = deal_cards(rng, rules);
  std::vector<Mask> hands;
  Mask spare = d.kitty;
  for (int i = 0; i < seats; ++i) {
    const int want = 1 + static_cast<int>(rng.below(static_cast<std::uint32_t>(max_cards)));
    Mask h = 0, from = d.hands[static_cast<std::size_t>(i)];
    for (int r = 0; r < kNumRanks && total(h) < want; ++r) {
      const int take = std::min(count(from, r), want - total(h));
      if (rng.below(3) != 0) h += cards_of(r, take);
    }
    if (h == 0) h = cards_of(lowest_rank(ranks_with_at_least(from, 1)), 1);
    hands.push_back(h);
    spare += from - h;
  }
  const int landlord = static_cast<int>(rng.below(static_cast<std::uint32_t>(seats)));
  const int to_move = static_cast<int>(rng.below(static_cast<std::uint32_t>(seats)));
  Move last{};
  int last_by = -1;
  if (rng.below(2)) {
    last_by = (to_move + 1 + static_cast<int>(rng.below(static_cast<std::uint32_t>(seats - 1)))) % seats;
    auto leads = legal_moves(per_rank_min(spare, cards("3456789TJQKA2") * 4), nullptr, rules);
    keep_playable(leads, hands, landlord, last_by, rules);
    if (!leads.empty()) {
      last = leads[rng.below(static_cast<std::uint32_t>(leads.size()))];
    } else {
      last_by = -1;
    }
  }
  // Where the landlord may name a partner: one of the other seats, or none.
  const int partner = rules.partner && rng.below(4) != 0 ? (landlord + 1 + static_cast<int>(rng.below(3))) % seats : -1;
  return Game::from_position(hands, landlord, to_move, last, last_by, rules, draw_wilds(rng, rules.wild), partner);
}

void compare_with_minimax(int seats, int max_cards, const char* preset_name, int positions, std::uint64_t seed) {
  const Rules r = rules(preset_name);
  Rng rng(seed);
  int wins = 0;
  for (int i = 0; i < positions; ++i) {
    Game g = random_position(rng, seats, max_cards, r);
    const bool expected = mover_wins(g);
    const SolveResult got = solve(g.state(), r, SolveOptions{0, 0, 1 << 16});
    CHECK(got.outcome == (expected ? Outcome::Win : Outcome::Loss));
    if (got.outcome == Outcome::Win) {
      ++wins;
      // The reported move wins: after it, minimax gives the mover's side the hand.
      const int mover = g.state().to_move;
      const bool mover_is_landlord = on_landlord_side(g.state(), mover);
      CHECK(g.apply(got.move));
      CHECK(minimax_landlord_wins(g) == mover_is_landlord);
      g.undo();
    }
    // Every action's value, against the minimax value of the position after it.
    // With a table of 8 buckets, so that entries are replaced all the time.
    const MovesResult each = solve_moves(g.state(), r, SolveOptions{0, 0, 256});
    CHECK_EQ(each.moves.size(), g.legal_actions().size());
    const bool mover_is_landlord = on_landlord_side(g.state(), g.state().to_move);
    for (const MoveOutcome& mo : each.moves) {
      CHECK(g.apply(mo.action));
      CHECK(mo.outcome == (minimax_landlord_wins(g) == mover_is_landlord ? Outcome::Win : Outcome::Loss));
      g.undo();
    }
  }
  // Both values occur: a sample of only wins or only losses would test little.
  CHECK(wins > positions / 10);
  CHECK(wins < positions - positions / 10);
}

// Three hands of exactly `each` cards from a shuffled deck, the landlord and the seat
// to move at random; half of them lead, the rest follow a random lead of the cards
// left out, played by another seat.
Game dealt_position(Rng& rng, int each, const Rules& rules) {
  std::vector<int> deck;
  for (int r = 0; r < kNumRanks; ++r) {
    for (int k = 0; k < count(rules.deck(), r); ++k) deck.push_back(r);
  }
  for (std::size_t i = deck.size() - 1; i > 0; --i) std::swap(deck[i], deck[rng.below(static_cast<std::uint32_t>(i + 1))]);
  std::vector<Mask> hands(3, 0);
  for (int i = 0; i < 3 * each; ++i) hands[static_cast<std::size_t>(i / each)] += cards_of(deck[static_cast<std::size_t>(i)], 1);
  Mask spare = 0;
  for (std::size_t i = static_cast<std::size_t>(3 * each); i < deck.size(); ++i) spare += cards_of(deck[i], 1);
  const int landlord = static_cast<int>(rng.below(3));
  const int to_move = static_cast<int>(rng.below(3));
  Move last{};
  int last_by = -1;
  if (rng.below(2)) {
    last_by = (to_move + 1 + static_cast<int>(rng.below(2))) % 3;
    auto leads = legal_moves(spare, nullptr, rules);
    keep_playable(leads, hands, landlord, last_by, rules);
    last = leads[rng.below(static_cast<std::uint32_t>(leads.size()))];
  }
  return Game::from_position(hands, landlord, to_move, last, last_by, rules);
}

// The solver's value (and its winning move, and every action's value on some) against
// the memoized minimax on dealt positions: hands full, so that the iterative deepening
// on the plays each side needs, the sure-win test and the table's bounds all take part.
void compare_dealt_with_minimax(const char* preset_name, int each, int positions, int with_moves, std::uint64_t seed) {
  const Rules r = rules(preset_name);
  Rng rng(seed);
  int wins = 0;
  for (int i = 0; i < positions; ++i) {
    Game g = dealt_position(rng, each, r);
    MinimaxMemo memo;
    const bool mover_is_landlord = on_landlord_side(g.state(), g.state().to_move);
    const bool expected = minimax_landlord_wins(g, &memo) == mover_is_landlord;
    const SolveResult got = solve(g.state(), r, SolveOptions{});
    CHECK(got.outcome == (expected ? Outcome::Win : Outcome::Loss));
    if (got.outcome == Outcome::Win) {
      ++wins;
      CHECK(g.apply(got.move));
      CHECK(minimax_landlord_wins(g, &memo) == mover_is_landlord);
      g.undo();
    }
    if (i >= with_moves) continue;
    // A small table, replaced all the time, serving every action in turn.
    const MovesResult each_move = solve_moves(g.state(), r, SolveOptions{0, 0, 4096});
    CHECK_EQ(each_move.moves.size(), g.legal_actions().size());
    for (const MoveOutcome& mo : each_move.moves) {
      CHECK(g.apply(mo.action));
      CHECK(mo.outcome == (minimax_landlord_wins(g, &memo) == mover_is_landlord ? Outcome::Win : Outcome::Loss));
      g.undo();
    }
  }
  CHECK(wins > positions / 10);
  CHECK(wins < positions - positions / 10);
}

}  // namespace

TEST(solver_matches_memoized_minimax_on_dealt_hands) {
  compare_dealt_with_minimax("standard", 4, 300, 60, 21);
  compare_dealt_with_minimax("douzero", 5, 8, 2, 22);
}

TEST(solver_threads_agree_with_one_thread) {
  // Two threads sharing out the root's moves from the first round on (alone_nodes 0), and
  // every action of solve_moves, against one thread (checked against minimax above), on
  // dealt positions of 8 cards a hand: large enough that most get past the short wins.
  const Rules r = rules("standard");
  Rng rng(31);
  SolveOptions two;
  two.threads = 2;
  two.alone_nodes = 0;
  for (int i = 0; i < 40; ++i) {
    Game g = dealt_position(rng, 8, r);
    const SolveResult one = solve(g.state(), r, SolveOptions{});
    const SolveResult got = solve(g.state(), r, two);
    CHECK(got.outcome == one.outcome);
    if (got.outcome == Outcome::Win) {  // a winning move: after it, the mover's side wins
      const int mover = g.state().to_move;
      CHECK(g.apply(got.move));
      const bool over = g.state().phase == Phase::Over;
      CHECK(over ? same_side(g.state(), g.state().winner, mover)
                 : same_side(g.state(), g.state().to_move, mover) == (solve(g.state(), r, SolveOptions{}).outcome == Outcome::Win));
      g.undo();
    }
    if (i % 8) continue;
    const MovesResult each_one = solve_moves(g.state(), r, SolveOptions{});
    const MovesResult each_two = solve_moves(g.state(), r, two);
    CHECK_EQ(each_two.moves.size(), each_one.moves.size());
    for (std::size_t k = 0; k < each_one.moves.size(); ++k) CHECK(each_two.moves[k].outcome == each_one.moves[k].outcome);
  }
}

TEST(solver_matches_minimax_two_seats) {
  compare_with_minimax(2, 5, "standard", 1500, 1);
  compare_with_minimax(2, 5, "douzero", 500, 2);
  compare_with_minimax(2, 5, "openspiel", 500, 3);
}

TEST(solver_matches_minimax_three_seats) {
  compare_with_minimax(3, 3, "standard", 1500, 4);
  compare_with_minimax(3, 3, "rlcard", 500, 5);
  compare_with_minimax(3, 3, "douzero", 500, 6);
}

TEST(solver_matches_minimax_under_the_variants) {
  // Four seats (the landlord against three peasants, two decks), and wild cards: moves
  // that spend other cards than the combination shows.
  compare_with_minimax(4, 2, "four_player", 400, 7);
  compare_with_minimax(4, 2, "four_partner", 400, 12);
  compare_with_minimax(2, 4, "laizi", 800, 8);
  compare_with_minimax(3, 3, "laizi", 400, 9);
  // Two wild ranks: fewer positions, as the brute-force minimax there takes about 0.1 s each.
  compare_with_minimax(2, 4, "laizi2", 40, 10);
  compare_with_minimax(3, 3, "laizi2", 30, 11);
}

TEST(solver_two_seat_puzzle_lead_the_two) {
  // Landlord (seat 0) holds 2 and 3, the opponent an ace; the landlord leads. Leading the
  // 3 loses (the ace beats it and goes out); leading the 2 wins: the ace cannot beat
  // it, the opponent passes, and the 3 goes out.
  const Game g = Game::from_position({cards("32"), cards("A")}, 0, 0, Move{}, -1, Rules{});
  const SolveResult r = solve(g.state(), Rules{}, SolveOptions{});
  CHECK(r.outcome == Outcome::Win);
  CHECK(r.move == Action::play(move("2", MoveKind::Solo)));
}

TEST(solver_two_seat_puzzle_lost) {
  // Landlord holds 3 and 4 and leads; the opponent's 5 beats either and goes out.
  const Game g = Game::from_position({cards("34"), cards("5")}, 0, 0, Move{}, -1, Rules{});
  CHECK(solve(g.state(), Rules{}, SolveOptions{}).outcome == Outcome::Loss);
}

TEST(solver_peasants_cooperate) {
  // Seat 1 (peasant) leads holding 3 and K; seat 2 (its partner) holds a 5; the landlord
  // (seat 0) holds Q and A. Play goes 1 -> 2 -> 0. Leading the 3 lets the partner go out
  // with the 5: a win for both peasants. Leading the K loses: the 5 cannot beat it, the
  // landlord's A does, nobody beats the A, and the landlord's Q goes out.
  const Game g = Game::from_position({cards("QA"), cards("3K"), cards("5")}, 0, 1, Move{}, -1, Rules{});
  const SolveResult r = solve(g.state(), Rules{}, SolveOptions{});
  CHECK(r.outcome == Outcome::Win);
  CHECK(r.move == Action::play(move("3", MoveKind::Solo)));
  const MovesResult each = solve_moves(g.state(), Rules{}, SolveOptions{});
  CHECK_EQ(each.moves.size(), std::size_t{2});
  for (const MoveOutcome& mo : each.moves) {
    CHECK(mo.outcome == (mo.action.move.cards == cards("3") ? Outcome::Win : Outcome::Loss));
  }
}

TEST(solver_beats_the_partner_when_passing_loses) {
  // Seat 2 (peasant) follows its partner's 9 holding 2 4 4; the landlord (seat 0) holds a
  // K; seat 1 holds a 3. Passing loses: the landlord's K beats the 9 and goes out.
  // Beating with the 2 wins: nobody beats a 2 here, and seat 2 then leads the pair of 4s
  // and goes out. No other action is legal (a 4 does not beat a 9).
  const Game g = Game::from_position({cards("K"), cards("3"), cards("244")}, 0, 2, move("9", MoveKind::Solo), 1, Rules{});
  const SolveResult r = solve(g.state(), Rules{}, SolveOptions{});
  CHECK(r.outcome == Outcome::Win);
  CHECK(r.move == Action::play(move("2", MoveKind::Solo)));
  const MovesResult each = solve_moves(g.state(), Rules{}, SolveOptions{});
  CHECK_EQ(each.moves.size(), std::size_t{2});
  CHECK(each.moves[0].action == Action::pass() && each.moves[0].outcome == Outcome::Loss);
  CHECK(each.moves[1].outcome == Outcome::Win);
}

TEST(solver_a_follow_keeps_the_lead_only_if_unbeatable) {
  // The landlord (seat 0) follows the opponent's 9 holding K 4 4; the opponent holds A 3.
  // The K would leave one combination (the pair), but the A beats it and the 3 goes out;
  // passing lets the opponent lead the A, then the 3. Lost either way.
  Game g = Game::from_position({cards("K44"), cards("A3")}, 0, 0, move("9", MoveKind::Solo), 1, Rules{});
  CHECK(solve(g.state(), Rules{}, SolveOptions{}).outcome == Outcome::Loss);
  CHECK(!mover_wins(g));
  // Without the A, the K keeps the lead and the pair goes out.
  Game h = Game::from_position({cards("K44"), cards("Q3")}, 0, 0, move("9", MoveKind::Solo), 1, Rules{});
  const SolveResult won = solve(h.state(), Rules{}, SolveOptions{});
  CHECK(won.outcome == Outcome::Win);
  CHECK(won.move == Action::play(move("K", MoveKind::Solo)));
}

TEST(solver_feeds_the_partner_only_past_passing_opponents) {
  // Seat 2 (peasant) leads holding 3 and 6; play goes 2 -> 0 (the landlord, holding 7
  // and K) -> 1 (the partner, holding a 5). The 5 would go out over the 3, but the
  // landlord beats the 3 first (with the K, then leads the 7 and goes out). Lost.
  Game g = Game::from_position({cards("7K"), cards("5"), cards("36")}, 0, 2, Move{}, -1, Rules{});
  CHECK(solve(g.state(), Rules{}, SolveOptions{}).outcome == Outcome::Loss);
  CHECK(!mover_wins(g));
  // Pairs: the landlord's two singles beat no pair, so the pair of 3s lets the partner's
  // pair of 5s go out.
  Game h = Game::from_position({cards("QK"), cards("55"), cards("3369")}, 0, 2, Move{}, -1, Rules{});
  const SolveResult won = solve(h.state(), Rules{}, SolveOptions{});
  CHECK(won.outcome == Outcome::Win);
  CHECK(mover_wins(h));
}

TEST(solver_limits_give_unknown) {
  const Game g = Game::from_position({cards("366789TJJJKKA2B"), cards("3344499TQKAA22R")}, 0, 0, Move{}, -1, Rules{});
  const SolveResult by_nodes = solve(g.state(), Rules{}, SolveOptions{50, 0, 1 << 16});
  CHECK(by_nodes.outcome == Outcome::Unknown);
  CHECK(by_nodes.nodes <= 51);
  const SolveResult by_time = solve(g.state(), Rules{}, SolveOptions{0, 1e-6, 1 << 16});
  CHECK(by_time.outcome == Outcome::Unknown);
  // Threads count their nodes together, 1,024 at a time: each may pass the limit by that.
  // (Past the short-win searches' 65,536 nodes, so that the threads start.)
  SolveOptions shared{100'000, 0, 1 << 20};
  shared.threads = 3;
  shared.alone_nodes = 0;
  const SolveResult by_threads = solve(g.state(), Rules{}, shared);
  CHECK(by_threads.outcome == Outcome::Unknown);
  CHECK(by_threads.nodes <= 100'000 + 3 * 1024);
  CHECK(by_threads.nodes >= 100'000);
}

TEST(solver_limits_stop_a_positions_own_work) {
  // A hand of 42 cards (a kitty of 36 taken): splitting it into its fewest plays took 12.7 s
  // before the first node, where the limits were read only every 1,024 nodes.
  Rules rules{};
  rules.kitty_size = 36;
  Game g(0, rules, 0);
  CHECK(g.apply(Action::bid(3)));
  int asked = 0;
  {
    const StopCheck ctrl_c([&] { return ++asked >= 1; });  // Ctrl-C at the first chance
    const SolveResult stopped = solve(g.state(), rules, SolveOptions{});
    CHECK(stopped.outcome == Outcome::Unknown);
    CHECK_EQ(stopped.nodes, std::int64_t{0});
    CHECK_EQ(asked, 1);
  }
  // Asked and never stopping, the search is the one it was.
  const Game small = Game::from_position({cards("KK5543"), cards("225543")}, 0, 0, Move{}, -1, Rules{});
  const StopCheck never([] { return false; });
  CHECK(solve(small.state(), Rules{}, SolveOptions{}).outcome == Outcome::Win);
}

TEST(solver_refuses_bidding_and_finished_hands) {
  const Game bidding(1, Rules{}, 0);
  bool threw = false;
  try {
    solve(bidding.state(), Rules{}, SolveOptions{});
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
}

TEST(solver_table_size_does_not_change_the_value) {
  // The smallest table (8 KB, replaced all the time) against one that grows from 1 MB to
  // 64 MB: positions of 8 cards a side take thousands of nodes, enough for both.
  Rng rng(77);
  for (int i = 0; i < 30; ++i) {
    const Deal d = deal_cards(rng);
    Mask a = 0, b = 0;
    for (int r = 0, n = 0; r < kNumRanks && n < 8; ++r) {
      const int take = std::min(count(d.hands[0], r), 8 - n);
      a += cards_of(r, take);
      n += take;
    }
    for (int r = kNumRanks - 1, n = 0; r >= 0 && n < 8; --r) {
      const int take = std::min(count(d.hands[1], r), 8 - n);
      b += cards_of(r, take);
      n += take;
    }
    const Game g = Game::from_position({a, b}, 0, 0, Move{}, -1, Rules{});
    const SolveResult small = solve(g.state(), Rules{}, SolveOptions{0, 0, 1});
    const SolveResult large = solve(g.state(), Rules{}, SolveOptions{0, 0, std::size_t{64} << 20});
    CHECK(small.outcome == large.outcome);
    CHECK(small.outcome != Outcome::Unknown);
  }
}

namespace {

OtherHands other_hands_of(const State& s) {
  OtherHands others;
  for (int seat = 0; seat < s.seats; ++seat) {
    if (seat == s.to_move) continue;
    others.all += s.hands[static_cast<std::size_t>(seat)];
    if (same_side(s.landlord, s.partner, seat, s.to_move)) others.partners += s.hands[static_cast<std::size_t>(seat)];
  }
  return others;
}

struct Skips {
  int kickers = 0;
  int solos_and_pairs = 0;
};

// Every play better_twin() lets the search skip, on random positions: its twin is legal
// and, by minimax, wins for the mover's side whenever the skipped play does.
template <class Position>
void check_dominated_moves(const Rules& r, Position&& position, int positions, Skips& skips) {
  for (int i = 0; i < positions; ++i) {
    Game g = position();
    const State s = g.state();
    const Mask hand = s.hands[static_cast<std::size_t>(s.to_move)];
    const Move* last = s.last.cards ? &s.last : nullptr;
    const std::vector<Action> actions = g.legal_actions();
    const bool landlord_moves = on_landlord_side(s, s.to_move);
    MinimaxMemo memo;
    const auto mover_wins_after = [&](const Action& a) {
      CHECK(g.apply(a));
      const bool won = minimax_landlord_wins(g, &memo) == landlord_moves;
      g.undo();
      return won;
    };
    for (const Action& a : actions) {
      if (a.type != ActionType::Play) continue;
      const std::optional<Move> twin = better_twin(a.move, hand, last, other_hands_of(s), r);
      if (!twin) continue;
      const Action twin_play = Action::play(*twin);
      CHECK(std::find(actions.begin(), actions.end(), twin_play) != actions.end());
      CHECK(!mover_wins_after(a) || mover_wins_after(twin_play));
      ++(a.move.kind == MoveKind::Solo || a.move.kind == MoveKind::Pair ? skips.solos_and_pairs : skips.kickers);
    }
  }
}

// The shapes of hand where a skip rule's conditions decide: a trio with solos to kick
// (and a partner whose cards may lie between them), a straight with solos above it,
// solos following a solo, and a four with a pair and solos (a solo split from the pair
// against a lower solo: the four could take both as kickers).
enum class Shape { TrioAndSolos, StraightAndSolos, SolosFollowing, FourPairAndSolos };

// Three seats of the standard rules; seat 1, a peasant (seat 2 its partner), or the
// landlord at random, to move with a hand of `shape`; the other seats hold 1..3 cards
// drawn from what is left of the deck.
Game shaped_position(Rng& rng, Shape shape) {
  Mask left = Rules{}.deck();
  const auto take = [&left](int rank, int n) {
    const int k = std::min(n, count(left, rank));
    left -= cards_of(rank, k);
    return cards_of(rank, k);
  };
  const auto random_rank = [&rng](int low, int high) { return low + static_cast<int>(rng.below(static_cast<std::uint32_t>(high - low + 1))); };
  Mask mover = 0;
  if (shape == Shape::TrioAndSolos) mover += take(random_rank(0, kTwo), 3);
  if (shape == Shape::FourPairAndSolos) {
    mover += take(random_rank(0, kTwo), 4);
    mover += take(random_rank(0, kTwo), 2);
  }
  if (shape == Shape::StraightAndSolos) {
    const int low = random_rank(0, kAce - 4);
    for (int r = low; r < low + 5; ++r) mover += take(r, 1);
  }
  for (int i = 0, n = random_rank(2, 3); i < n; ++i) mover += take(random_rank(0, kTwo), 1);
  std::vector<Mask> hands(3, 0);
  hands[1] = mover;
  // Against the four, half the time the rocket: then the four with two kickers out at
  // once is worth more than the four and a pair.
  if (shape == Shape::FourPairAndSolos && rng.below(2)) hands[0] = take(kBlackJoker, 1) + take(kRedJoker, 1);
  for (const int seat : {0, 2}) {
    for (int i = 0, n = random_rank(1, 3); i < n; ++i) hands[static_cast<std::size_t>(seat)] += take(random_rank(0, kBlackJoker), 1);
    if (hands[static_cast<std::size_t>(seat)] == 0) hands[static_cast<std::size_t>(seat)] = take(lowest_rank(ranks_with_at_least(left, 1)), 1);
  }
  Move last{};
  int last_by = -1;
  if (shape == Shape::SolosFollowing) {
    const int rank = random_rank(0, kAce);
    if (count(left, rank)) {
      last = {cards_of(rank, 1), MoveKind::Solo, static_cast<std::uint8_t>(rank), 1};
      last_by = 0;
    }
  }
  return Game::from_position(hands, rng.below(2) ? 0 : 1, 1, last, last_by, Rules{});
}

// `hands` and `last` with the ranks above `gone` (3..A, held by nobody) one lower: the
// same position with one more rank gone from the top of the chain ranks.
Game without_rank(const State& s, int gone, const Rules& r) {
  const auto shift = [gone](Mask m) {
    const Mask below = m & ((Mask{1} << (4 * gone)) - 1);
    const Mask chain_part = m & ((Mask{1} << (4 * (kAce + 1))) - 1);
    return below | ((chain_part - below) >> 4) | (m - chain_part);
  };
  std::vector<Mask> hands;
  for (int seat = 0; seat < s.seats; ++seat) hands.push_back(shift(s.hands[static_cast<std::size_t>(seat)]));
  Move last = s.last;
  if (last.cards) {
    last.cards = shift(last.cards);
    if (last.key > gone && last.key <= kAce) --last.key;
  }
  return Game::from_position(hands, s.landlord, s.to_move, last, s.last.cards ? s.last_by : -1, r);
}

}  // namespace

TEST(solver_skips_only_dominated_plays) {
  Skips skips;
  Rng rng(41);
  for (const char* name : {"standard", "douzero"}) {
    const Rules r = rules(name);
    check_dominated_moves(r, [&] { return random_position(rng, 3, 7, r); }, 150, skips);
  }
  const Rules partner = rules("four_partner");
  check_dominated_moves(partner, [&] { return random_position(rng, 4, 5, partner); }, 200, skips);
  for (const Shape shape : {Shape::TrioAndSolos, Shape::StraightAndSolos, Shape::SolosFollowing, Shape::FourPairAndSolos}) {
    check_dominated_moves(Rules{}, [&] { return shaped_position(rng, shape); }, 400, skips);
  }
  // Both kinds of skips occur, often enough to test: a sample without them would test nothing.
  CHECK(skips.kickers > 500);
  CHECK(skips.solos_and_pairs > 1000);
}

TEST(solver_closes_rank_gaps_only_where_positions_play_alike) {
  const Rules r = rules("standard");
  Rng rng(51);
  int alike = 0;
  for (int i = 0; i < 1000; ++i) {
    // Half of them with a straight in one hand, where a closed gap would matter.
    Game g = i % 2 ? random_position(rng, 3, 5, r) : shaped_position(rng, Shape::StraightAndSolos);
    const State& s = g.state();
    Mask all = s.last.cards;
    for (int seat = 0; seat < 3; ++seat) all += s.hands[static_cast<std::size_t>(seat)];
    const RankSet gone = ~ranks_with_at_least(all, 1) & kChainRanks & ~(RankSet{1} << kAce);
    if (gone == 0) continue;
    // One rank more gone from the top: where no hand then holds cards on both sides of
    // a gap that the first position did not have, the two close alike.
    Game h = without_rank(s, lowest_rank(gone), r);
    const ClosedRanks a = close_rank_gaps(s.hands, 3, s.last), b = close_rank_gaps(h.state().hands, 3, h.state().last);
    if (a.hands != b.hands || a.last_key != b.last_key) continue;
    MinimaxMemo memo_g, memo_h;
    CHECK_EQ(minimax_landlord_wins(g, &memo_g), minimax_landlord_wins(h, &memo_h));
    ++alike;
  }
  CHECK(alike > 300);
  // A gap with cards of one hand on both sides stays open: 3 4 _ 6 7 8 would otherwise
  // make a straight. The gaps above 9 close, the king moving down to the ten.
  const std::array<Mask, kMaxSeats> hands{cards("34678"), cards("9"), cards("K")};
  const ClosedRanks c = close_rank_gaps(hands, 3, Move{});
  CHECK_EQ(c.hands[0], cards("34678"));
  CHECK_EQ(c.hands[2], cards("T"));
  // The move to beat, a jack nobody holds, goes between the 9 and the closed king.
  const ClosedRanks d = close_rank_gaps(hands, 3, move("J", MoveKind::Solo));
  CHECK(d.last_key > 2 * 6 && d.last_key < 2 * 7);
}
