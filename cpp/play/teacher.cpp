#include "play/teacher.hpp"

#include <algorithm>
#include <numeric>

#include "base/parallel.hpp"
#include "learn/encode.hpp"
#include "play/selfplay.hpp"

namespace ddz {

namespace {

constexpr std::uint64_t kTeacherStream = 0x7EAC'4E52'DA7A'5EED;  // the run's own draws (keep, explore, actions)

// One game's samples, gathered on its thread and joined in game order.
struct GameSamples {
  std::vector<std::int8_t> x, z, position, action;
  std::vector<std::int64_t> owner;  // within the game
  std::vector<std::uint8_t> chosen, planned;
  std::vector<float> win, score;
};

// The seat's side's result of a finished game: won or lost, and one stake (what every seat
// but a lone landlord wins or pays), over the base (so that bids do not scale it).
void outcome(const Game& game, int seat, float& win, float& score) {
  const Settlement r = game.result();
  win = r.won(seat) ? 1.0f : -1.0f;
  const int other = (r.landlord + 1) % r.seats;  // not the landlord: its payout is one stake
  const auto stake = static_cast<double>(std::abs(r.payouts[static_cast<std::size_t>(other)]));
  score = static_cast<float>(win * stake / std::max(r.base, 1));
}

// The actions valued at a position: the teacher's and the plan's (always both: the plan
// column is learned from their difference), then others drawn without replacement up to
// max_actions in all (or every legal action).
std::vector<std::size_t> actions_to_value(std::size_t legal, std::size_t taught, std::size_t planned, int max_actions,
                                          Rng& rng) {
  std::vector<std::size_t> order(legal);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::swap(order[0], order[taught]);
  const std::size_t first = taught == planned ? 1 : 2;
  if (first == 2) std::swap(order[1], *std::find(order.begin() + 1, order.end(), planned));
  const std::size_t wanted = std::min(legal, std::max(first, static_cast<std::size_t>(max_actions)));
  for (std::size_t i = first; i < wanted; ++i) {
    std::swap(order[i], order[i + rng.below(static_cast<std::uint32_t>(legal - i))]);
  }
  order.resize(wanted);
  return order;
}

void value_position(const Game& game, const std::vector<Action>& legal, std::size_t taught, std::size_t planned,
                    const TeacherOptions& o,
                    const DouZeroLayout& layout, std::uint64_t stream, Rng& rng, GameSamples& out) {
  const GameView view = view_of(game);
  const int x_width = layout.batch_width;
  const std::size_t at = out.position.size();
  out.x.resize((at + 1) * static_cast<std::size_t>(x_width), 0);
  douzero_x_no_action(view, layout, out.x.data() + at * static_cast<std::size_t>(x_width));
  out.z.resize((at + 1) * static_cast<std::size_t>(layout.z_size()));
  douzero_z(view, layout, out.z.data() + at * static_cast<std::size_t>(layout.z_size()));
  out.position.push_back(static_cast<std::int8_t>(douzero_position_of(game.state())));
  const int seat = game.state().to_move;
  const auto rollouts = every_seat(o.rollout);
  for (const std::size_t i : actions_to_value(legal.size(), taught, planned, o.max_actions, rng)) {
    Game after = game;
    after.apply_legal(legal[i]);
    play_seats(after, rollouts, stream);
    const std::size_t row = out.action.size();
    out.action.resize(row + static_cast<std::size_t>(layout.action.width));
    douzero_action(layout, legal[i], out.action.data() + row);
    out.owner.push_back(static_cast<std::int64_t>(at));
    out.chosen.push_back(i == taught);
    out.planned.push_back(i == planned);
    float win = 0, score = 0;
    outcome(after, seat, win, score);
    out.win.push_back(win);
    out.score.push_back(score);
  }
}

GameSamples play_game(std::uint64_t index, const TeacherOptions& o, const DouZeroLayout& layout) {
  const SelfPlayDeal d = selfplay_deal(o.rules, o.seed, index);
  Game game(d.deal_seed, o.rules, d.first_bidder);
  Rng rng(splitmix_finalize(d.deal_seed ^ kTeacherStream));
  GameSamples out;
  std::vector<Action> legal;
  while (game.state().phase != Phase::Over) {
    game.legal_actions(legal);
    std::size_t taught = choose_on(o.teacher, game, legal, d.policy_stream);
    const bool playing = game.state().phase == Phase::Playing;
    if (playing && legal.size() > 1 && rng.chance(o.keep)) {
      const std::size_t planned = choose_heuristic(game, legal, Endgame::Plan);
      value_position(game, legal, taught, planned, o, layout, d.policy_stream, rng, out);
    }
    if (playing && rng.chance(o.explore)) {
      taught = rng.below(static_cast<std::uint32_t>(legal.size()));
    }
    game.apply_legal(legal[taught]);
  }
  return out;
}

template <class T>
void append(std::vector<T>& to, const std::vector<T>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

// One game's bids (the payout column still the seat until the hand ends).
BidSamples bid_game(std::uint64_t index, const BidSampleOptions& o) {
  const SelfPlayDeal d = selfplay_deal(o.rules, o.seed, index);
  Game game(d.deal_seed, o.rules, d.first_bidder);
  Rng rng(splitmix_finalize(d.deal_seed ^ kTeacherStream));
  BidSamples out;
  out.width = bid_feature_width(o.rules);
  const auto outputs = static_cast<std::size_t>(bid_outputs(o.rules));
  std::vector<Action> legal;
  std::vector<int> seats;
  while (game.state().phase != Phase::Over) {
    game.legal_actions(legal);
    const State& s = game.state();
    const bool bidding = s.phase == Phase::Bidding;
    std::size_t chosen = choose_on(bidding ? o.bidder : o.player, game, legal, d.policy_stream);
    if (bidding) {
      if (rng.chance(o.explore)) chosen = rng.below(static_cast<std::uint32_t>(legal.size()));
      const std::size_t row = out.output.size();
      out.features.resize((row + 1) * static_cast<std::size_t>(out.width));
      bid_features(s, o.rules, out.features.data() + row * static_cast<std::size_t>(out.width));
      out.output.push_back(static_cast<std::int8_t>(bid_output(legal[chosen])));
      out.legal.resize((row + 1) * outputs, 0);
      for (const Action& a : legal) out.legal[row * outputs + static_cast<std::size_t>(bid_output(a))] = 1;
      seats.push_back(s.to_move);
    }
    game.apply_legal(legal[chosen]);
  }
  // A redeal starts the auction again: every bid of the game is a sample of the hand it led to.
  const Settlement r = game.result();
  for (const int seat : seats) out.payout.push_back(static_cast<float>(r.payouts[static_cast<std::size_t>(seat)]));
  out.game.assign(seats.size(), static_cast<std::int64_t>(index));
  return out;
}

}  // namespace

std::string sample_run_error(const SampleRun& run) {
  if (std::string why = validate(run.rules); !why.empty()) return why;
  if (!(run.explore >= 0 && run.explore <= 1)) return "explore must be in [0, 1]";
  if (run.games < 0) return "games must be at least 0";
  if (run.threads < 1) return "threads must be at least 1";
  return {};
}

std::string bid_sample_error(const BidSampleOptions& o) {
  if (std::string why = sample_run_error(o); !why.empty()) return why;
  if (o.rules.bidding == Bidding::None) return "auction data needs rules with bidding";
  if (std::string why = policy_error(o.bidder, o.rules); !why.empty()) return "bidder: " + why;
  if (std::string why = policy_error(o.player, o.rules); !why.empty()) return "player: " + why;
  return {};
}

BidSamples bid_samples(const BidSampleOptions& o) {
  const std::string why = bid_sample_error(o);
  if (!why.empty()) throw std::invalid_argument(why);
  std::vector<BidSamples> games(static_cast<std::size_t>(o.games));
  parallel_for(o.games, o.threads, [&](std::int64_t i) {
    games[static_cast<std::size_t>(i)] = bid_game(o.first + static_cast<std::uint64_t>(i), o);
  });
  BidSamples out;
  out.width = bid_feature_width(o.rules);
  for (const BidSamples& g : games) {
    append(out.features, g.features);
    append(out.output, g.output);
    append(out.legal, g.legal);
    append(out.payout, g.payout);
    append(out.game, g.game);
  }
  return out;
}

std::string teacher_error(const TeacherOptions& o) {
  if (std::string why = sample_run_error(o); !why.empty()) return why;
  if (!douzero_layout(o.rules).exact) return std::string("teacher data is DouZero's features: ") + kDouZeroSetting;
  if (!(o.keep >= 0 && o.keep <= 1)) return "keep must be in [0, 1]";
  if (o.max_actions < 1) return "max_actions must be at least 1";
  if (std::string why = policy_error(o.teacher, o.rules); !why.empty()) return "teacher: " + why;
  if (std::string why = policy_error(o.rollout, o.rules); !why.empty()) return "rollout: " + why;
  return {};
}

TeacherSamples teacher_samples(const TeacherOptions& o) {
  const std::string why = teacher_error(o);
  if (!why.empty()) throw std::invalid_argument(why);
  const DouZeroLayout layout = douzero_layout(o.rules);
  std::vector<GameSamples> games(static_cast<std::size_t>(o.games));
  parallel_for(o.games, o.threads, [&](std::int64_t i) {
    games[static_cast<std::size_t>(i)] = play_game(o.first + static_cast<std::uint64_t>(i), o, layout);
  });
  TeacherSamples out;
  out.x_width = layout.batch_width;
  out.z_size = layout.z_size();
  out.action_width = layout.action.width;
  for (std::size_t g = 0; g < games.size(); ++g) {
    const GameSamples& s = games[g];
    const auto base = static_cast<std::int64_t>(out.position.size());
    append(out.x, s.x);
    append(out.z, s.z);
    append(out.position, s.position);
    out.game.insert(out.game.end(), s.position.size(), static_cast<std::int64_t>(o.first + g));
    append(out.action, s.action);
    for (const std::int64_t owner : s.owner) out.owner.push_back(base + owner);
    append(out.chosen, s.chosen);
    append(out.planned, s.planned);
    append(out.win, s.win);
    append(out.score, s.score);
  }
  return out;
}

}  // namespace ddz
