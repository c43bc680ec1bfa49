#include "play/evaluate.hpp"

#include "play/selfplay.hpp"

namespace ddz {

namespace {

constexpr std::uint64_t kEvaluationStream = 0xE7A1'0A7E'5EED'5EEDull;

}  // namespace

EvaluationDeal evaluation_deal(const Rules& rules, std::uint64_t seed, std::int64_t deal) {
  EvaluationDeal d;
  d.deal_seed = game_seed(seed, static_cast<std::uint64_t>(deal));
  d.policy_seed = splitmix_finalize(d.deal_seed ^ kEvaluationStream);
  d.first_bidder = static_cast<int>(deal % rules.players);
  if (rules.each_for_self) {
    d.seats = {d.first_bidder};  // one seat against two, the 3 of spades leading
    d.first_bidder = kThreeOfSpades;
  } else if (rules.bidding == Bidding::None) {
    d.seats = {d.first_bidder};  // the landlord
  } else {
    for (int seat = 0; seat < rules.players; ++seat) d.seats.push_back(seat);
  }
  return d;
}

bool plays_for_a(int seat_to_move, int seat, bool swapped) { return (seat_to_move == seat) != swapped; }

EvaluationSchedule::EvaluationSchedule(std::optional<Policy> a, std::optional<Policy> b, const Rules& rules,
                                       std::int64_t deals, std::uint64_t seed)
    : a_(std::move(a)), b_(std::move(b)), rules_(rules), seed_(seed) {
  if (a_) check_policy(*a_, rules_);
  if (b_) check_policy(*b_, rules_);
  per_deal_ = static_cast<std::int64_t>(evaluation_deal(rules_, seed_, 0).seats.size()) * 2;
  results_.resize(static_cast<std::size_t>(deals * per_deal_));
}

// Game `index` is deal index / per_deal, its k-th seat played alone (k = index % per_deal
// / 2), by A and then, swapped, by B.
TableSetup EvaluationSchedule::setup(std::int64_t index) const {
  const std::int64_t deal = index / per_deal_, k = index % per_deal_;
  const EvaluationDeal d = evaluation_deal(rules_, seed_, deal);
  const int seat = d.seats[static_cast<std::size_t>(k / 2)];
  const bool swapped = k % 2 == 1;
  TableSetup t{Game(d.deal_seed, rules_, d.first_bidder), {}, {}, d.policy_seed + static_cast<std::uint64_t>(seat)};
  for (int s = 0; s < rules_.players; ++s) {
    const bool for_a = plays_for_a(s, seat, swapped);
    t.policies[static_cast<std::size_t>(s)] = for_a ? a_ : b_;
    t.outside[static_cast<std::size_t>(s)] = for_a ? 0 : 1;
  }
  return t;
}

void EvaluationSchedule::finish(const PlayedGame& played) {
  const std::int64_t deal = played.index / per_deal_, k = played.index % per_deal_;
  const Game& game = *played.game;
  const Settlement result = game.result();
  EvaluationGame& g = results_[static_cast<std::size_t>(played.index)];
  g.deal = deal;
  g.seat = static_cast<std::int8_t>(evaluation_deal(rules_, seed_, deal).seats[static_cast<std::size_t>(k / 2)]);
  g.swapped = k % 2 == 1;
  g.landlord = game.state().landlord;
  g.partner = game.state().partner;
  if (result.winner >= 0) g.a_won = plays_for_a(result.winner, g.seat, g.swapped) ? 1 : 0;
  for (int s = 0; s < rules_.players; ++s) {
    if (plays_for_a(s, g.seat, g.swapped)) g.a_score += result.payouts[static_cast<std::size_t>(s)];
  }
  g.multiplier = result.multiplier;
  g.bombs = result.bombs + result.rockets;
}

std::vector<EvaluationGame> evaluate(const Policy& a, const Policy& b, const Rules& rules, std::int64_t deals,
                                     std::uint64_t seed, int threads) {
  auto schedule = std::make_unique<EvaluationSchedule>(a, b, rules, deals, seed);
  EvaluationSchedule& games = *schedule;
  TableRunner runner(std::move(schedule), threads);
  runner.advance();
  return games.results();
}

}  // namespace ddz
