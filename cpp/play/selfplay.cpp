#include "play/selfplay.hpp"

#include <algorithm>

#include "base/parallel.hpp"

namespace ddz {

namespace {

constexpr std::uint64_t kPolicyStream = 0x5DEE'CE66'D1CE'4E5B;

}  // namespace

std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index) {
  return splitmix_finalize(seed + (index + 1) * 0x9E37'79B9'7F4A'7C15);
}

SelfPlayDeal selfplay_deal(const Rules& rules, std::uint64_t seed, std::uint64_t index) {
  const std::uint64_t s = game_seed(seed, index);
  return {s, static_cast<int>(index % static_cast<std::uint64_t>(rules.players)), s ^ kPolicyStream};
}

GameSummary summary_of(const Game& game, std::int32_t moves) {
  const State& st = game.state();
  const Settlement result = game.result();
  GameSummary summary;
  summary.deal = game.deals().back();
  summary.landlord = st.landlord;
  summary.landlord_won = result.landlord_won;
  summary.base = result.base;
  summary.multiplier = result.multiplier;
  summary.moves = moves;
  summary.redeals = st.redeals;
  for (int i = 0; i < st.seats; ++i) summary.payouts[static_cast<std::size_t>(i)] = result.payouts[static_cast<std::size_t>(i)];
  return summary;
}

GameSummary play_one(std::uint64_t index, const SelfPlayOptions& options, std::vector<ActionRow>* record) {
  const SelfPlayDeal d = selfplay_deal(options.rules, options.seed, index);
  Game game(d.deal_seed, options.rules, d.first_bidder);
  std::int32_t moves = 0;
  play_seats(game, options.policies, d.policy_stream, [&](int seat, const Action& a) {
    if (game.state().phase == Phase::Playing) ++moves;
    if (record) record->push_back(to_row(seat, a));
  });
  return summary_of(game, moves);
}

SelfPlayResult self_play(const SelfPlayOptions& options) {
  check_policies(options.policies, options.rules);
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(options.games, 0));
  SelfPlayResult result;
  result.games.resize(n);
  std::vector<std::vector<ActionRow>> records(options.record ? n : 0);
  parallel_for(static_cast<std::int64_t>(n), options.threads, [&](std::int64_t i) {
    const auto k = static_cast<std::size_t>(i);
    result.games[k] = play_one(options.first + k, options, options.record ? &records[k] : nullptr);
  });
  if (options.record) {
    result.offsets.reserve(n + 1);
    result.offsets.push_back(0);
    for (const auto& r : records) {
      result.actions.insert(result.actions.end(), r.begin(), r.end());
      result.offsets.push_back(static_cast<std::int64_t>(result.actions.size()));
    }
  }
  return result;
}

}  // namespace ddz
