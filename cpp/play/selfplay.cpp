#include "play/selfplay.hpp"

#include <algorithm>


namespace ddz {

namespace {

constexpr std::uint64_t kPolicyStream = 0x5DEE'CE66'D1CE'4E5B;

}  // namespace

std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index) {
  return splitmix_finalize(seed + (index + 1) * 0x9E37'79B9'7F4A'7C15);
}

SelfPlayDeal selfplay_deal(const Rules& rules, std::uint64_t seed, std::uint64_t index) {
  const std::uint64_t s = game_seed(seed, index);
  // Without a landlord the 3 of spades leads; otherwise the first bidder rotates.
  const int first = rules.each_for_self ? kThreeOfSpades : static_cast<int>(index % static_cast<std::uint64_t>(rules.players));
  return {s, first, s ^ kPolicyStream};
}

GameSummary summary_of(const Game& game, std::int32_t moves) {
  const State& st = game.state();
  const Settlement result = game.result();
  GameSummary summary;
  summary.deal = game.deals().back();
  summary.landlord = st.landlord;
  summary.partner = st.partner;
  summary.landlord_won = result.landlord_won;
  summary.winner = static_cast<std::int8_t>(result.winner);
  summary.base = result.base;
  summary.multiplier = result.multiplier;
  summary.moves = moves;
  summary.redeals = st.redeals;
  for (int i = 0; i < st.seats; ++i) summary.payouts[static_cast<std::size_t>(i)] = result.payouts[static_cast<std::size_t>(i)];
  return summary;
}

SelfPlaySchedule::SelfPlaySchedule(const SelfPlayOptions& options) : options_(options) {
  check_policies(options_.policies, options_.rules);
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(options_.games, 0));
  result_.games.resize(n);
  records_.resize(options_.record ? n : 0);
}

bool SelfPlaySchedule::has_outside_seats() const {
  for (int s = 0; s < options_.rules.players; ++s) {
    if (!options_.policies[static_cast<std::size_t>(s)]) return true;
  }
  return false;
}

TableSetup SelfPlaySchedule::setup(std::int64_t index) const {
  const SelfPlayDeal d = selfplay_deal(options_.rules, options_.seed, options_.first + static_cast<std::uint64_t>(index));
  TableSetup t{Game(d.deal_seed, options_.rules, d.first_bidder), options_.policies, {}, d.policy_stream};
  for (int s = 0; s < kMaxSeats; ++s) t.outside[static_cast<std::size_t>(s)] = static_cast<std::int8_t>(s);
  return t;
}

void SelfPlaySchedule::finish(const PlayedGame& played) {
  const auto k = static_cast<std::size_t>(played.index);
  result_.games[k] = summary_of(*played.game, played.moves);
  if (options_.record) records_[k] = *played.record;
}

SelfPlayResult SelfPlaySchedule::take_result() {
  if (options_.record) {
    result_.offsets.reserve(records_.size() + 1);
    result_.offsets.push_back(0);
    for (const auto& r : records_) {
      result_.actions.insert(result_.actions.end(), r.begin(), r.end());
      result_.offsets.push_back(static_cast<std::int64_t>(result_.actions.size()));
    }
    records_.clear();
  }
  return std::move(result_);
}

SelfPlayResult self_play(const SelfPlayOptions& options) {
  auto schedule = std::make_unique<SelfPlaySchedule>(options);
  SelfPlaySchedule& games = *schedule;
  TableRunner runner(std::move(schedule), options.threads);
  runner.advance();
  return games.take_result();
}

}  // namespace ddz
