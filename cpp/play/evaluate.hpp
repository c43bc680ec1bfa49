// Evaluation of one policy against another: DouZero's protocol, generalised.
//
// Every deal (deal d dealt from game_seed(seed, d)) is played once for each seat that
// policy A takes alone (the other seats B's), and once more with the policies swapped, the
// random policies drawing the same numbers in both, so that a policy against itself
// scores exactly even. Without bidding the seat is the landlord's alone (the first
// bidder, d mod players): exactly DouZero's two games per deal, A as the landlord against
// B as the peasants and back. With bidding every seat takes its turn, so each policy bids
// from each seat equally. A's score in a game is the sum of its seats' payouts. Without a
// landlord (each_for_self) the seat is d mod players, played alone against the other two,
// and a game is won by the policy whose seat went out first.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "game/game.hpp"
#include "play/playout.hpp"
#include "play/table_runner.hpp"

namespace ddz {

// One game of an evaluation: where it comes from and what A's seats won.
struct EvaluationGame {
  std::int64_t deal = 0;
  std::int8_t seat = 0;      // the seat one policy plays alone
  bool swapped = false;      // false: A plays `seat` alone; true: B does
  std::int8_t landlord = -1;  // -1: a void hand
  std::int8_t partner = -1;   // the landlord's partner (four_partner), or -1: alone or none
  std::int64_t a_score = 0;  // the payouts of A's seats, in stakes
  std::int8_t a_won = -1;    // without a landlord: 1 when one of A's seats went out first, else 0; -1 otherwise
  std::int32_t multiplier = 1;
  std::int32_t bombs = 0;    // bombs and rockets played
};

// The games of deal `deal`, in order (their results still empty); `first_bidder` and the
// seeds are those every evaluation of that deal uses.
struct EvaluationDeal {
  std::uint64_t deal_seed = 0;
  std::uint64_t policy_seed = 0;  // the random policies' stream, shared by a game and its swap
  int first_bidder = 0;
  std::vector<int> seats;  // the seats one policy plays alone
};
EvaluationDeal evaluation_deal(const Rules& rules, std::uint64_t seed, std::int64_t deal);

// The seats A plays in a game: `seat` alone, or every other seat when swapped.
bool plays_for_a(int seat_to_move, int seat, bool swapped);

// The games of an evaluation of A against B, for the table runner. A policy left empty is
// an outside player: A is player 0, B player 1.
class EvaluationSchedule final : public Schedule {
 public:
  EvaluationSchedule(std::optional<Policy> a, std::optional<Policy> b, const Rules& rules, std::int64_t deals,
                     std::uint64_t seed);
  std::int64_t games() const override { return static_cast<std::int64_t>(results_.size()); }
  TableSetup setup(std::int64_t index) const override;
  void finish(const PlayedGame& played) override;
  bool has_outside_seats() const override { return !a_ || !b_; }
  const std::vector<EvaluationGame>& results() const { return results_; }

 private:
  std::optional<Policy> a_, b_;
  Rules rules_;
  std::uint64_t seed_;
  std::int64_t per_deal_;
  std::vector<EvaluationGame> results_;
};

// Every game of `deals` deals between two built-in policies, on `threads` threads; the
// same seed gives the same games whatever the thread count.
std::vector<EvaluationGame> evaluate(const Policy& a, const Policy& b, const Rules& rules, std::int64_t deals,
                                     std::uint64_t seed, int threads);

}  // namespace ddz
