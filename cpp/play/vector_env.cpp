#include "play/vector_env.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <stdexcept>

#include "base/parallel.hpp"
#include "base/require.hpp"
#include "base/stop_request.hpp"

namespace ddz {

// Names of their own: a unity build shares one anonymous namespace among its files.
namespace {

std::size_t as_index(std::int64_t i) { return static_cast<std::size_t>(i); }

// Copies a group's column into the caller's array (absent columns are skipped).
template <class T, class U>
void copy_out(const std::vector<T>& from, U* to) {
  static_assert(sizeof(T) == sizeof(U));
  if (to && !from.empty()) std::memcpy(static_cast<void*>(to), from.data(), from.size() * sizeof(T));
}

}  // namespace

VectorEnv::VectorEnv(const VectorEnvOptions& options)
    : options_(options),
      // DouZero has no bidding features, and a role is known only once the bidding ends:
      // then the built-in policies bid for every seat.
      learners_bid_(options.features != Features::DouZero && options.learners.by == Learners::By::Seats),
      layout_(observation_layout(std::max(options.rules.players, 3), options.rules.decks)) {
  if (auto why = validate(options.rules); !why.empty()) throw std::invalid_argument(why);
  if (options.features == Features::DouZero) {
    if (auto why = douzero_rules_error(options.rules); !why.empty()) throw std::invalid_argument("features='douzero': " + why);
  }
  require(!options.rules.each_for_self || options.learners.by == Learners::By::Seats,
          "learners: 'landlord' and 'peasants' need a landlord; these rules have none (each_for_self): give seats");
  douzero_ = ddz::douzero_layout(options.rules);
  require(options.num_envs >= 1, "num_envs must be at least 1");
  if (options_.batch_size == 0) options_.batch_size = options.num_envs;
  require(options_.batch_size >= 1 && options_.batch_size <= options.num_envs && options.num_envs % options_.batch_size == 0,
          "batch_size must divide num_envs (" + std::to_string(options.num_envs) + "), not be " +
              std::to_string(options_.batch_size));
  const auto all_seats = static_cast<std::uint8_t>((1u << options.rules.players) - 1);
  require(options.learners.by != Learners::By::Seats || (options.learners.seats & all_seats) != 0,
          "learners: give at least one seat");
  require(!(options.learners.seats & ~all_seats), "learners: a seat outside the game");
  for (int seat = 0; seat < options.rules.players; ++seat) {
    require(options.opponents[as_index(seat)].has_value() || !opponent_needed(seat),
            "opponents: seat " + std::to_string(seat) + " needs a built-in policy (None only where a learner makes every decision)");
  }
  check_policies(options.opponents, options.rules);
  if (options.features == Features::Compact) space_.emplace(options.rules);
  require(!options.mask || space_, "mask: a legal-action mask needs features='compact'");
  tables_.reserve(as_index(options.num_envs));
  for (std::int64_t i = 0; i < options.num_envs; ++i) tables_.push_back(table(i, 0));
  groups_.resize(as_index(groups()));
  for (Group& g : groups_) g.offsets.assign(as_index(batch_size()) + 1, 0);
}

VectorEnv::Table VectorEnv::table(std::int64_t env, std::int64_t hand) const {
  const auto index = static_cast<std::uint64_t>(env) + static_cast<std::uint64_t>(hand) * static_cast<std::uint64_t>(num_envs());
  const SelfPlayDeal d = selfplay_deal(options_.rules, options_.seed, index);
  return Table{Game(d.deal_seed, options_.rules, d.first_bidder), d.policy_stream, hand, 0, -1, {}, {}};
}

bool VectorEnv::opponent_needed(int seat) const {
  const Learners& l = options_.learners;
  if (l.by != Learners::By::Seats || !((l.seats >> seat) & 1)) return true;
  // A learner's seat whose bids (and partner choice) the policies make: DouZero's features.
  const bool before_play = options_.rules.bidding != Bidding::None || options_.rules.partner;
  return before_play && !learners_bid_;
}

bool VectorEnv::learner_decides(const State& s) const {
  const Learners& l = options_.learners;
  // The landlord's choice of a partner goes with the auction: a role's seats are known after it.
  if (s.phase != Phase::Playing) return learners_bid_ && ((l.seats >> s.to_move) & 1);
  switch (l.by) {
    case Learners::By::Seats: return (l.seats >> s.to_move) & 1;
    case Learners::By::Landlord: return on_landlord_side(s, s.to_move);
    case Learners::By::Peasants: return !on_landlord_side(s, s.to_move);
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

template <class F>
void VectorEnv::stoppable(F&& work) {
  try {
    work();
    // Asked during the last piece of the work, which ended whole: the caller hears of a
    // stop all the same, and a stop always leaves the environment to reset.
    if (stop_requested()) throw StopRequested{};
  } catch (const StopRequested&) {
    stopped_ = true;
    started_ = sent_ = false;
    throw;
  }
}

void VectorEnv::reset(std::uint64_t seed) {
  worker_.wait_all();
  stopped_ = false;
  options_.seed = seed;
  started_ = true;
  sent_ = false;
  stoppable([&] {
    for (std::size_t g = 0; g < groups_.size(); ++g) play_group(g, false);
  });
  received_ = 0;
}

std::string VectorEnv::choices_error(const std::int64_t* choices, std::size_t n) const {
  if (!started_) {
    return stopped_ ? "the last reset, step or recv was stopped part way: reset() the environment"
                    : "reset() the environment before step()";
  }
  if (sent_) return "this batch's choices were sent: recv() the next batch first";
  const auto rows = as_index(batch_size());
  if (n != rows) {
    return "choices must hold one choice per decision of the batch (" + std::to_string(rows) + "), not " +
           std::to_string(n);
  }
  const std::vector<std::int64_t>& offsets = this->offsets();
  for (std::size_t b = 0; b < n; ++b) {
    const auto legal = offsets[b + 1] - offsets[b];
    if (choices[b] < 0 || choices[b] >= legal) {
      return "choices[" + std::to_string(b) + "] = " + std::to_string(choices[b]) + ": table " +
             std::to_string(first_env() + static_cast<std::int64_t>(b)) + " has " + std::to_string(legal) +
             " legal actions (0.." + std::to_string(legal - 1) + ")";
    }
  }
  return {};
}

void VectorEnv::take_choices(const std::int64_t* choices, std::size_t n) {
  const std::string why = choices_error(choices, n);
  require(why.empty(), why);
  for (std::size_t b = 0; b < n; ++b) tables_[as_index(first_env()) + b].choice = choices[b];
}

void VectorEnv::send(const std::int64_t* choices, std::size_t n) {
  take_choices(choices, n);
  const std::size_t g = received_;
  groups_[g].ticket = worker_.submit([this, g] {
    const StopCheck check([this] { return stopped_.load(); });  // the caller's Ctrl-C, passed on by recv
    try {
      play_group(g, true);
    } catch (const StopRequested&) {  // stopped_ says so to the recv waiting for it, and to reset
    }
  });
  sent_ = true;
}

void VectorEnv::recv() {
  require(sent_, "send() the batch's choices before recv()");
  received_ = (received_ + 1) % groups_.size();
  stoppable([&] {
    worker_.wait(groups_[received_].ticket, [this] {
      if (stop_requested()) stopped_ = true;
    });
  });
  sent_ = false;
}

void VectorEnv::step(const std::int64_t* choices, std::size_t n) {
  if (groups_.size() > 1) {
    send(choices, n);
    recv();
    return;
  }
  take_choices(choices, n);
  stoppable([&] { play_group(0, true); });
}

const Game& VectorEnv::game(int env) const {
  worker_.wait(groups_[as_index(env / batch_size())].ticket);
  return tables_[as_index(env)].game;
}

void VectorEnv::play_group(std::size_t g, bool apply_choices) {
  const std::int64_t first = static_cast<std::int64_t>(g) * batch_size();
  // With groups in turn the caller's thread computes while a group plays: it is one of the
  // `threads`, and the group gets the others (at least the worker's).
  const int threads = groups_.size() > 1 ? std::max(1, options_.threads - 1) : options_.threads;
  parallel_for(batch_size(), threads, [&](std::int64_t b) {
    const std::int64_t i = first + b;
    Table& t = tables_[as_index(i)];
    t.finished.clear();
    if (apply_choices) {
      apply(t, t.legal[as_index(t.choice)]);
    } else {
      t = table(i, 0);
    }
    advance(i);
  });
  Group& group = groups_[g];
  group.finished.clear();
  for (std::size_t b = 0; b < as_index(batch_size()); ++b) {
    const Table& t = tables_[as_index(first) + b];
    group.offsets[b + 1] = group.offsets[b] + static_cast<std::int64_t>(t.legal.size());
    group.finished.insert(group.finished.end(), t.finished.begin(), t.finished.end());
  }
  const BatchOut out = group.sized(options_, layout_.size, space_ ? space_->size() : 0, douzero_);
  parallel_for(batch_size(), threads, [&](std::int64_t b) { write_table(first + b, b, group.offsets, out); });
}

BatchOut VectorEnv::Group::sized(const VectorEnvOptions& o, int observation_size, int space_size,
                                 const DouZeroLayout& douzero) {
  const auto rows = as_index(o.batch_size), actions_n = as_index(offsets.back());
  BatchOut out;
  env.resize(rows);
  seat.resize(rows);
  actions.resize(actions_n);
  out.env = env.data();
  out.seat = seat.data();
  out.actions = actions.data();
  if (o.features == Features::Compact) {
    observation.resize(rows * as_index(observation_size));
    out.observation = observation.data();
    action_ids.resize(actions_n);
    out.action_ids = action_ids.data();
    if (o.rules.wild) {
      stand_in_ids.resize(actions_n);
      out.stand_in_ids = stand_in_ids.data();
    }
    if (o.mask) {
      mask.resize(rows * as_index(space_size));
      out.mask = reinterpret_cast<bool*>(mask.data());
    }
  } else if (o.features == Features::DouZero) {
    x_no_action.resize(rows * as_index(douzero.batch_width));
    z.resize(rows * as_index(douzero.z_size()));
    position.resize(rows);
    action_planes.resize(actions_n * as_index(douzero.action.width));
    out.x_no_action = x_no_action.data();
    out.z = z.data();
    out.position = position.data();
    out.action_planes = action_planes.data();
  }
  return out;
}

void VectorEnv::write(const BatchOut& out) const {
  assert(started_ && !sent_);
  const Group& g = groups_[received_];
  copy_out(g.env, out.env);
  copy_out(g.seat, out.seat);
  copy_out(g.offsets, out.offsets);
  copy_out(g.actions, out.actions);
  copy_out(g.observation, out.observation);
  copy_out(g.action_ids, out.action_ids);
  copy_out(g.stand_in_ids, out.stand_in_ids);
  copy_out(g.mask, out.mask);
  copy_out(g.x_no_action, out.x_no_action);
  copy_out(g.z, out.z);
  copy_out(g.position, out.position);
  copy_out(g.action_planes, out.action_planes);
}

void VectorEnv::write_table(std::int64_t env, std::int64_t row, const std::vector<std::int64_t>& offsets,
                            const BatchOut& out) const {
  const Table& t = tables_[as_index(env)];
  const State& s = t.game.state();
  const std::int64_t first = offsets[as_index(row)];
  out.env[row] = env;
  out.seat[row] = s.to_move;
  for (std::size_t k = 0; k < t.legal.size(); ++k) out.actions[as_index(first) + k] = to_row(s.to_move, t.legal[k]);
  if (options_.features == Features::None) return;
  const GameView v = view_of(t.game);
  if (options_.features == Features::Compact) {
    encode_observation(v, s.to_move, layout_, out.observation + row * layout_.size);
    if (!space_) return;
    thread_local std::vector<int> ids;
    [[maybe_unused]] const int missing = space_->ids(t.legal, ids);
    assert(missing < 0);  // the space holds every move that fits in a hand
    std::copy(ids.begin(), ids.end(), out.action_ids + first);
    if (out.stand_in_ids) {
      for (std::size_t k = 0; k < t.legal.size(); ++k) {
        const Action& a = t.legal[k];
        out.stand_in_ids[as_index(first) + k] = a.type == ActionType::Play ? ActionSpace::stand_in_id(a.move, s.wild) : 0;
      }
    }
    if (!out.mask) return;
    bool* mask = out.mask + row * space_->size();
    std::fill(mask, mask + space_->size(), false);
    for (const int id : ids) mask[id] = true;
    return;
  }
  const int width = douzero_.batch_width, action_width = douzero_.action.width;
  std::int8_t* x = out.x_no_action + row * width;
  std::fill(x, x + width, std::int8_t{0});
  douzero_x_no_action(v, douzero_, x);
  douzero_z(v, douzero_, out.z + row * douzero_.z_size());
  out.position[row] = static_cast<std::int8_t>(douzero_position_of(s));
  std::int8_t* planes = out.action_planes + first * action_width;
  for (std::size_t k = 0; k < t.legal.size(); ++k) douzero_action(douzero_, t.legal[k], planes + k * action_width);
}

}  // namespace ddz
