#include "vector_env.hpp"

#include <algorithm>
#include <cassert>
#include <stdexcept>

#include "require.hpp"
#include "parallel.hpp"

namespace ddz {

// Names of their own: a unity build shares one anonymous namespace among its files.
namespace {

std::size_t as_index(std::int64_t i) { return static_cast<std::size_t>(i); }

}  // namespace

VectorEnv::VectorEnv(const VectorEnvOptions& options)
    : options_(options),
      // DouZero has no bidding features, and a role is known only once the bidding ends:
      // then the built-in policies bid for every seat.
      learners_bid_(options.features != Features::DouZero && options.learners.by == Learners::By::Seats),
      layout_(observation_layout(std::max(options.rules.players, 3), options.rules.decks)) {
  if (auto why = validate(options.rules); !why.empty()) throw std::invalid_argument(why);
  require(options.num_envs >= 1, "num_envs must be at least 1");
  const auto all_seats = static_cast<std::uint8_t>((1u << options.rules.players) - 1);
  require(options.learners.by != Learners::By::Seats || (options.learners.seats & all_seats) != 0,
          "learners: give at least one seat");
  require(!(options.learners.seats & ~all_seats), "learners: a seat outside the game");
  for (int seat = 0; seat < options.rules.players; ++seat) {
    require(options.opponents[as_index(seat)].has_value(), "opponents: give a built-in policy for every seat");
  }
  if (options.features == Features::DouZero) {
    const std::string why = douzero_rules_error(options.rules);
    require(why.empty(), "features='douzero': " + why + " (features='compact' or None serve these rules)");
  }
  if (options.features == Features::Compact && !options.rules.wild) space_.emplace(options.rules);
  require(!options.mask || space_, "mask: a legal-action mask needs features='compact' and rules with action ids "
                                   "(wild-card rules have none)");
  tables_.reserve(as_index(options.num_envs));
  for (std::int64_t i = 0; i < options.num_envs; ++i) tables_.push_back(table(i, 0));
  offsets_.assign(as_index(options.num_envs) + 1, 0);
}

VectorEnv::Table VectorEnv::table(std::int64_t env, std::int64_t hand) const {
  const auto index = static_cast<std::uint64_t>(env) + static_cast<std::uint64_t>(hand) * static_cast<std::uint64_t>(num_envs());
  const SelfPlayDeal d = selfplay_deal(options_.rules, options_.seed, index);
  return Table{Game(d.deal_seed, options_.rules, d.first_bidder), d.policy_stream, hand, 0, {}, {}};
}

bool VectorEnv::learner_decides(const State& s) const {
  const Learners& l = options_.learners;
  if (s.phase == Phase::Bidding) return learners_bid_ && ((l.seats >> s.to_move) & 1);
  switch (l.by) {
    case Learners::By::Seats: return (l.seats >> s.to_move) & 1;
    case Learners::By::Landlord: return s.to_move == s.landlord;
    case Learners::By::Peasants: return s.to_move != s.landlord;
  }
  return false;
}

void VectorEnv::apply(Table& t, const Action& a) const {
  if (t.game.state().phase == Phase::Playing) ++t.moves;  // plays and passes, as self-play counts them
  t.game.apply_legal(a);
}

// Plays the table's other seats until a learner decides, dealing the next hand whenever one ends.
void VectorEnv::advance(std::int64_t env) {
  Table& t = tables_[as_index(env)];
  for (;;) {
    const State& s = t.game.state();
    if (s.phase == Phase::Over) {
      t.finished.push_back({env, t.hand, summary_of(t.game, t.moves)});
      std::vector<FinishedHand> finished = std::move(t.finished);
      t = table(env, t.hand + 1);
      t.finished = std::move(finished);
      continue;
    }
    t.game.legal_actions(t.legal);
    if (learner_decides(s)) return;
    apply(t, t.legal[choose_on(*options_.opponents[as_index(s.to_move)], t.game, t.legal, t.stream)]);
  }
}

void VectorEnv::reset(std::uint64_t seed) {
  options_.seed = seed;
  started_ = true;
  run(false, nullptr);
}

std::string VectorEnv::choices_error(const std::int64_t* choices, std::size_t n) const {
  if (!started_) return "reset() the environment before step()";
  if (n != tables_.size()) {
    return "choices must hold one choice per table (" + std::to_string(tables_.size()) + "), not " + std::to_string(n);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t legal = tables_[i].legal.size();
    if (choices[i] < 0 || static_cast<std::uint64_t>(choices[i]) >= legal) {
      return "choices[" + std::to_string(i) + "] = " + std::to_string(choices[i]) + ": table " + std::to_string(i) +
             " has " + std::to_string(legal) + " legal actions (0.." + std::to_string(legal - 1) + ")";
    }
  }
  return {};
}

void VectorEnv::step(const std::int64_t* choices, std::size_t n) {
  const std::string why = choices_error(choices, n);
  require(why.empty(), why);
  run(true, choices);
}

// Every table in parallel (a fresh deal on reset, the choice on step), then the batch's offsets.
void VectorEnv::run(bool apply_choices, const std::int64_t* choices) {
  parallel_for(num_envs(), options_.threads, [&](std::int64_t i) {
    Table& t = tables_[as_index(i)];
    if (apply_choices) {
      t.finished.clear();
      apply(t, t.legal[as_index(choices[i])]);
    } else {
      t = table(i, 0);
    }
    advance(i);
  });
  finished_.clear();
  for (std::size_t i = 0; i < tables_.size(); ++i) {
    const Table& t = tables_[i];
    offsets_[i + 1] = offsets_[i] + static_cast<std::int64_t>(t.legal.size());
    finished_.insert(finished_.end(), t.finished.begin(), t.finished.end());
  }
}

void VectorEnv::write(const BatchOut& out) const {
  assert(started_);
  parallel_for(num_envs(), options_.threads, [&](std::int64_t i) { write_table(i, out); });
}

void VectorEnv::write_table(std::int64_t env, const BatchOut& out) const {
  const Table& t = tables_[as_index(env)];
  const State& s = t.game.state();
  const std::int64_t first = offsets_[as_index(env)];
  out.env[env] = env;
  out.seat[env] = s.to_move;
  out.offsets[env + 1] = offsets_[as_index(env) + 1];
  if (env == 0) out.offsets[0] = 0;
  for (std::size_t k = 0; k < t.legal.size(); ++k) out.actions[as_index(first) + k] = to_row(s.to_move, t.legal[k]);
  if (options_.features == Features::None) return;
  const GameView v = view_of(t.game);
  if (options_.features == Features::Compact) {
    encode_observation(v, s.to_move, layout_, out.observation + env * layout_.size);
    if (!space_) return;
    thread_local std::vector<int> ids;
    [[maybe_unused]] const int missing = space_->ids(t.legal, ids);
    assert(missing < 0);  // the space holds every move that fits in a hand
    std::copy(ids.begin(), ids.end(), out.action_ids + first);
    if (!out.mask) return;
    bool* mask = out.mask + env * space_->size();
    std::fill(mask, mask + space_->size(), false);
    for (const int id : ids) mask[id] = true;
    return;
  }
  const int width = douzero_batch_width();
  std::int8_t* x = out.x_no_action + env * width;
  std::fill(x, x + width, std::int8_t{0});
  douzero_x_no_action(v, x);
  douzero_z(v, out.z + env * kDouZeroZRows * kDouZeroZCols);
  out.position[env] = static_cast<std::int8_t>(douzero_position(s));
  std::int8_t* planes = out.action_planes + first * kDouZeroCards;
  std::fill(planes, planes + t.legal.size() * kDouZeroCards, std::int8_t{0});
  for (std::size_t k = 0; k < t.legal.size(); ++k) {
    if (t.legal[k].type == ActionType::Play) write_card_plane(t.legal[k].move.cards, 1, planes + k * kDouZeroCards);
  }
}

}  // namespace ddz
