#include "play/evaluate.hpp"

#include "base/parallel.hpp"
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
  if (rules.bidding == Bidding::None) {
    d.seats = {d.first_bidder};  // the landlord
  } else {
    for (int seat = 0; seat < rules.players; ++seat) d.seats.push_back(seat);
  }
  return d;
}

bool plays_for_a(int seat_to_move, int seat, bool swapped) { return (seat_to_move == seat) != swapped; }

std::vector<EvaluationGame> evaluate(const Policy& a, const Policy& b, const Rules& rules, std::int64_t deals,
                                     std::uint64_t seed, int threads) {
  check_policy(a, rules);
  check_policy(b, rules);
  const auto per_deal = static_cast<std::int64_t>(evaluation_deal(rules, seed, 0).seats.size()) * 2;
  std::vector<EvaluationGame> games(static_cast<std::size_t>(deals * per_deal));
  parallel_for(deals, threads, [&](std::int64_t deal) {
    const EvaluationDeal d = evaluation_deal(rules, seed, deal);
    std::size_t out = static_cast<std::size_t>(deal * per_deal);
    for (const int seat : d.seats) {
      for (const bool swapped : {false, true}) {
        SeatPolicies policies{};
        for (int s = 0; s < rules.players; ++s) policies[static_cast<std::size_t>(s)] = plays_for_a(s, seat, swapped) ? a : b;
        Game game(d.deal_seed, rules, d.first_bidder);
        play_seats(game, policies, d.policy_seed + static_cast<std::uint64_t>(seat));
        const Settlement result = game.result();
        EvaluationGame& g = games[out++];
        g.deal = deal;
        g.seat = static_cast<std::int8_t>(seat);
        g.swapped = swapped;
        g.landlord = game.state().landlord;
        for (int s = 0; s < rules.players; ++s) {
          if (plays_for_a(s, seat, swapped)) g.a_score += result.payouts[static_cast<std::size_t>(s)];
        }
        g.multiplier = result.multiplier;
        g.bombs = result.bombs + result.rockets;
      }
    }
  });
  return games;
}

}  // namespace ddz
