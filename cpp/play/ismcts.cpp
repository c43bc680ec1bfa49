#include "play/ismcts.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

#include "base/parallel.hpp"
#include "base/rng.hpp"
#include "base/stop_request.hpp"
#include "play/playout.hpp"
#include "search/worlds.hpp"

namespace ddz {

namespace {

constexpr int kMaxThreads = 256;

// An action's identity as an ordered pair (its cards, then its other fields): children are
// kept in this order, so that the legal actions of a world, sorted alike, meet their
// children in one merge rather than a search per action.
struct TreeKey {
  Mask cards = 0;
  std::uint64_t fields = 0;
  friend auto operator<=>(const TreeKey&, const TreeKey&) = default;
};

TreeKey tree_key(const Action& a) { return {a.move.cards, fields_word(a)}; }

struct TreeNode {
  Action action{};  // the action that led here (none at the root)
  TreeKey key{};
  int actor = -1;   // the seat that took it
  std::int64_t visits = 0;
  std::int64_t available = 0;  // simulations in which its action was legal at its parent
  double total = 0;            // results summed, from the actor's side
  std::vector<std::uint32_t> children;  // by key
  // The legal actions of the last world that left this node (their hash), each one's child
  // (kUntried: none yet): the searching seat's own nodes see the same actions in every
  // world, and skip matching them to the children again.
  std::uint64_t legal_hash = 0;
  std::vector<std::uint32_t> by_legal;
};

constexpr std::uint32_t kUntried = std::numeric_limits<std::uint32_t>::max();
// Progressive widening below the root: a node of n visits has at most 1 + kWidening x
// sqrt(n) children (measured: at 300 simulations a move against the heuristic, WP 0.378
// expanding every legal action, 0.458 widened and expanding the rollout policy's choice
// first; bench/RESULTS.md, "ISMCTS").
constexpr double kWidening = 1.0;
constexpr double kConfidence = 1.0;  // beats_plan's
// The fewest simulations of the search's best action for its mean to count against the
// plan (beats_plan): with more actions than simulations every action is simulated once,
// the best is merely the first of them, and one won rollout against the plan's one lost
// one passed the test of kConfidence.
constexpr std::int64_t kLeastEvidence = 16;

// +1 when `seat`'s side won the hand, -1 when it lost, 0 for a void hand. Not the sign of
// its payout: under Run Fast a loser holding one card pays nothing, and bombs collect
// from every other seat, win or lose.
double result_for(const Settlement& r, int seat) {
  if (r.landlord < 0 && r.winner < 0) return 0.0;
  return r.won(seat) ? 1.0 : -1.0;
}

// One thread's tree over the searching seat's information set.
class Tree {
 public:
  // `share`: this tree's simulations at most, each adding a node at most. A budget of
  // simulations alone makes room for them all at once, so that the array never doubles
  // (its last growth held two arrays at once); under a clock, which may end the search
  // after a few (a time budget alone counts 10M), the array grows, never past that room.
  // `root_legal`: the root's legal actions, in Game::legal_actions' order.
  Tree(const Game& root, const std::vector<Action>& root_legal, const IsmctsOptions& options, std::int64_t share)
      : root_(root), root_legal_(root_legal), options_(options), rollout_(every_seat(options.rollout)),
        seat_(root.state().to_move), world_(root), room_(static_cast<std::size_t>(share) + 1) {
    nodes_.reserve(options.seconds > 0 ? std::min<std::size_t>(room_, 1024) : room_);
    nodes_.emplace_back();
    nodes_.front().by_legal.assign(root_legal.size(), kUntried);
    root_hash_ = legal_hash();
  }

  void simulate(Rng& rng, std::uint64_t stream) {
    Game& world = world_;
    sample_world_into(root_, seat_, rng, world);
    path_.assign(1, 0);
    for (std::uint32_t at = 0; world.state().phase != Phase::Over;) {
      // The searching seat's actions at the root are the same in every world: generated
      // once (under wild cards a lead has tens of thousands, the simulation's largest cost).
      if (at == 0) {
        here_ = &root_legal_;
      } else {
        world.legal_actions(legal_);
        here_ = &legal_;
      }
      const int actor = world.state().to_move;
      const std::uint32_t next = descend(at, actor, rng, world, stream);
      world.apply_legal(nodes_[next].action);
      path_.push_back(next);
      if (nodes_[next].visits == 0) break;  // a new node: the rollout, or the networks, judge it
      at = next;
    }
    if (options_.leaf_values && world.state().phase == Phase::Playing) {
      const int mover = world.state().to_move;
      const double v = leaf_value(world);
      back_up([&](int actor) { return same_side(world.state(), actor, mover) ? v : -v; });
    } else {
      play_seats(world, rollout_, stream, [](int, const Action&) {}, legal_);
      const Settlement r = world.result();
      back_up([&](int actor) { return result_for(r, actor); });
    }
  }

  // The root's child for each of its legal actions (nullptr: never expanded).
  const TreeNode* root_child(std::size_t i) const {
    const std::uint32_t child = nodes_.front().by_legal[i];
    return child == kUntried ? nullptr : &nodes_[child];
  }

 private:
  // Adds the simulation to the nodes of its path, each with result(the seat that took it).
  template <class Result>
  void back_up(Result&& result) {
    for (const std::uint32_t i : path_) {
      TreeNode& n = nodes_[i];
      ++n.visits;
      if (n.actor >= 0) n.total += result(n.actor);
    }
  }

  // The networks' value of `world` (in play) for its seat to move: the best of its legal
  // actions' values, which estimate its side's result (+1 won, -1 lost).
  double leaf_value(const Game& world) {
    world.legal_actions(legal_);
    neural_play_values(*options_.rollout.network, world, legal_, values_);
    return std::clamp(static_cast<double>(*std::max_element(values_.begin(), values_.end())), -1.0, 1.0);
  }

  // The child of `at` this world goes to: an untried legal action expanded (drawn
  // uniformly), else the available child of highest UCB score. Every available child's
  // availability counts this simulation.
  std::uint32_t descend(std::uint32_t at, int actor, Rng& rng, const Game& world, std::uint64_t stream) {
    const std::uint64_t h = at == 0 ? root_hash_ : legal_hash();
    if (!(h == nodes_[at].legal_hash && recall(at))) match(at, h);
    if (!untried_.empty() && widens(at)) return expand(at, actor, untried_pick(at, rng, world, stream));
    std::uint32_t best = available_.front();
    double best_score = -std::numeric_limits<double>::infinity();
    for (const std::uint32_t child : available_) {
      const TreeNode& n = nodes_[child];
      const double visits = static_cast<double>(n.visits);
      const double score = n.total / visits + options_.exploration * std::sqrt(std::log(static_cast<double>(n.available)) / visits);
      if (score > best_score) {
        best_score = score;
        best = child;
      }
    }
    return best;
  }

  // Whether `at` takes a new child in this world: always at the root and where no child is
  // available; elsewhere while it has fewer than 1 + kWidening x sqrt(visits) children.
  bool widens(std::uint32_t at) const {
    const TreeNode& n = nodes_[at];
    if (at == 0 || available_.empty()) return true;
    return static_cast<double>(n.children.size()) < 1 + kWidening * std::sqrt(static_cast<double>(n.visits));
  }

  // The untried action to expand: the rollout policy's own choice when it is untried,
  // else one drawn uniformly.
  std::uint32_t untried_pick(std::uint32_t at, Rng& rng, const Game& world, std::uint64_t stream) {
    const std::uint32_t i = at == 0 ? root_choice(world, stream) : rollout_choice(world, stream);
    if (nodes_[at].by_legal[i] == kUntried) return i;
    return untried_[rng.below(static_cast<std::uint32_t>(untried_.size()))];
  }

  // The rollout policy's choice among here().
  std::uint32_t rollout_choice(const Game& world, std::uint64_t stream) const {
    return static_cast<std::uint32_t>(choose_on(options_.rollout, world, here(), stream));
  }

  // The rollout policy's choice at the root. Every built-in policy but `random` reads only
  // what the seat knows and draws nothing, so its choice is the same in every world: made
  // once (it reads every root action).
  std::uint32_t root_choice(const Game& world, std::uint64_t stream) {
    if (options_.rollout.kind == PolicyKind::Random) return rollout_choice(world, stream);
    if (root_choice_ == kUntried) root_choice_ = rollout_choice(world, stream);
    return root_choice_;
  }

  const std::vector<Action>& here() const { return *here_; }

  std::uint64_t legal_hash() const {
    std::uint64_t h = here().size();
    for (const Action& a : here()) h = splitmix_finalize(h ^ action_hash(a));
    return h;
  }

  // The available children and untried actions of `at` from the legal actions' last match
  // there (the same actions: their hash agrees, each child's action is checked); false,
  // counting nothing, when they differ.
  bool recall(std::uint32_t at) {
    const std::vector<std::uint32_t>& by_legal = nodes_[at].by_legal;
    if (by_legal.size() != here().size()) return false;
    untried_.clear();
    available_.clear();
    for (std::uint32_t i = 0; i < by_legal.size(); ++i) {
      if (by_legal[i] == kUntried) {
        untried_.push_back(i);
      } else if (nodes_[by_legal[i]].action == here()[i]) {
        available_.push_back(by_legal[i]);
      } else {
        return false;
      }
    }
    for (const std::uint32_t child : available_) ++nodes_[child].available;
    return true;
  }

  // The legal actions matched to the children of `at` by key (both in key order), the
  // match kept for the next world with the same actions.
  void match(std::uint32_t at, std::uint64_t h) {
    sort_legal();
    untried_.clear();
    available_.clear();
    TreeNode& node = nodes_[at];
    node.legal_hash = h;
    node.by_legal.assign(here().size(), kUntried);
    std::size_t c = 0;
    for (const auto& [key, i] : keyed_) {
      while (c < node.children.size() && nodes_[node.children[c]].key < key) ++c;
      if (c < node.children.size() && nodes_[node.children[c]].key == key) {
        ++nodes_[node.children[c]].available;
        available_.push_back(node.children[c]);
        node.by_legal[i] = node.children[c];
      } else {
        untried_.push_back(i);
      }
    }
  }

  // The legal actions' keys with their indices in here(), in key order.
  void sort_legal() {
    keyed_.clear();
    for (std::uint32_t i = 0; i < here().size(); ++i) keyed_.emplace_back(tree_key(here()[i]), i);
    std::sort(keyed_.begin(), keyed_.end());
  }

  // A new child of `at` for legal action `i`, in its key's place among the children.
  std::uint32_t expand(std::uint32_t at, int actor, std::uint32_t i) {
    const auto child = static_cast<std::uint32_t>(nodes_.size());
    if (nodes_.size() == nodes_.capacity()) nodes_.reserve(std::min(2 * nodes_.capacity(), room_));
    const TreeKey key = tree_key(here()[i]);
    nodes_.push_back(TreeNode{here()[i], key, actor, 0, 1, 0.0, {}, 0, {}});
    TreeNode& node = nodes_[at];
    const auto place = std::lower_bound(node.children.begin(), node.children.end(), key,
                                        [&](std::uint32_t c, const TreeKey& k) { return nodes_[c].key < k; });
    node.children.insert(place, child);
    node.by_legal[i] = child;
    return child;
  }

  const Game& root_;
  const std::vector<Action>& root_legal_;
  std::uint64_t root_hash_ = 0;
  std::uint32_t root_choice_ = kUntried;  // root_choice's, once made
  const IsmctsOptions& options_;
  const SeatPolicies rollout_;
  const int seat_;
  Game world_;  // the simulation's world, its storage reused
  const std::size_t room_;  // the most nodes the tree can need
  std::vector<TreeNode> nodes_;
  std::vector<std::uint32_t> path_, available_, untried_;
  std::vector<std::pair<TreeKey, std::uint32_t>> keyed_;
  std::vector<Action> legal_;
  const std::vector<Action>* here_ = &root_legal_;  // the legal actions of the node being descended
  std::vector<float> values_;  // leaf_value's
};

// Why the search's parameters cannot search any game, or empty.
std::string search_options_error(const IsmctsOptions& o) {
  if (o.simulations < 1 || o.simulations > kMostSimulations) {
    return "simulations must be in 1.." + std::to_string(kMostSimulations) + " (the tree grows by each)";
  }
  if (!(o.exploration >= 0) || !std::isfinite(o.exploration)) return "exploration must be a finite number >= 0";
  if (!(o.seconds >= 0) || !std::isfinite(o.seconds)) return "seconds must be a finite number >= 0 (0: no budget of time)";
  if (o.threads < 1) return "threads must be at least 1";
  if (o.rollout.kind == PolicyKind::Ismcts) return "rollout: ISMCTS cannot roll out by ISMCTS (every simulation would search again)";
  return {};
}

// Whether the search's best action beats `planned`, the heuristic's plan, by more than
// kConfidence standard errors of the difference of their means (a result in [-1, 1] has a
// standard deviation of at most 1): the plan stands unless the search clearly finds
// better. Measured against the heuristic at 1000 simulations a move (douzero preset, 200
// deals, roles swapped): WP 0.472 (0.432-0.513) playing the search's best, 0.557
// (0.521-0.594) with the plan standing.
bool beats_plan(const IsmctsResult& r, std::size_t planned) {
  if (r.best == planned) return false;
  // A budget below the actions, or near them: no evidence against the plan.
  if (r.visits[planned] == 0 || r.visits[r.best] < kLeastEvidence) return false;
  const double spread = std::sqrt(1.0 / static_cast<double>(r.visits[r.best]) + 1.0 / static_cast<double>(r.visits[planned]));
  return r.value[r.best] - r.value[planned] > kConfidence * spread;
}

}  // namespace

IsmctsOptions ismcts_options(const Policy& policy, std::uint64_t seed) {
  IsmctsOptions o;
  o.simulations = policy.search.simulations;
  o.seconds = policy.search.seconds;
  o.exploration = policy.search.exploration;
  o.rollout = rollout_of(policy);
  o.seed = seed;
  o.threads = policy.search.threads;
  o.leaf_values = policy.search.leaf_values;
  return o;
}

std::string search_params_error(const Policy& policy) {
  return policy.kind == PolicyKind::Ismcts ? search_options_error(ismcts_options(policy, 0)) : std::string();
}

std::string ismcts_error(const Game& game, const IsmctsOptions& o) {
  if (game.state().phase == Phase::Over) return "the hand is over: there is nothing to search";
  if (std::string why = search_options_error(o); !why.empty()) return why;
  if (std::string why = policy_error(o.rollout, game.rules()); !why.empty()) return "rollout: " + why;
  if (o.rollout.kind == PolicyKind::Neural) {
    if (std::string why = network_position_error(game); !why.empty()) return "rollout: " + why;
  }
  if (!o.leaf_values) return {};
  if (std::string why = leaf_values_error(o.rollout.network.get(), game.rules()); !why.empty()) return why;
  if (std::string why = network_position_error(game); !why.empty()) return "leaf values: " + why;
  return {};
}

std::size_t choose_ismcts(const Policy& policy, const Game& game, const std::vector<Action>& legal, Rng& rng) {
  if (legal.size() == 1) return 0;
  if (game.state().phase != Phase::Playing) return choose_heuristic(game, legal);  // the auction, the partner: the plan's rules
  const IsmctsResult r = ismcts(game, ismcts_options(policy, rng.next()));
  const std::size_t planned = choose_heuristic(game, legal, Endgame::Plan);  // r.actions is legal, in order
  const std::size_t chosen = beats_plan(r, planned) ? r.best : planned;
  // A budget of time bounds the check as it bounded the search: a play takes at most twice it.
  return policy.endgame == Endgame::Search ? search_endgame(game, legal, chosen, policy.search.seconds) : chosen;
}

IsmctsResult ismcts(const Game& game, const IsmctsOptions& o) {
  if (std::string why = ismcts_error(game, o); !why.empty()) throw std::invalid_argument(why);
  IsmctsResult out;
  out.actions = game.legal_actions();
  const std::size_t n = out.actions.size();
  out.visits.assign(n, 0);
  out.value.assign(n, 0.0);
  if (n == 1) return out;  // nothing to choose
  std::vector<double> totals(n, 0.0);
  const int threads = static_cast<int>(std::min<std::int64_t>(std::min(o.threads, kMaxThreads), o.simulations));
  struct RootChild {
    std::size_t action;  // its index in out.actions
    std::int64_t visits;
    double total;
  };
  std::vector<std::vector<RootChild>> roots(static_cast<std::size_t>(threads));
  // Ctrl-C: the caller's thread (tree 0) alone can hear it (stop_request.hpp); it tells
  // the other trees, and the search ends with no result.
  std::atomic<bool> stopped{false};
  const auto start = std::chrono::steady_clock::now();
  const auto out_of_time = [&] {
    return o.seconds > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= o.seconds;
  };
  parallel_each(threads, [&](int t) {
    // Thread t: simulations t, t + threads, ... of the budget, on its own generator.
    Tree tree(game, out.actions, o, (o.simulations - t + threads - 1) / threads);
    Rng rng(splitmix_finalize(o.seed ^ splitmix_finalize(static_cast<std::uint64_t>(t) + 1)));
    for (std::int64_t i = t; i < o.simulations; i += threads) {
      if (t == 0 && stop_requested()) stopped.store(true, std::memory_order_relaxed);
      if (stopped.load(std::memory_order_relaxed)) return;
      // One simulation at least, the first tree's: the others may run none (with many
      // threads each one's first simulation would run past the budget on a few cores).
      if (i > 0 && out_of_time()) break;
      tree.simulate(rng, splitmix_finalize(o.seed + static_cast<std::uint64_t>(i)));
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (const TreeNode* c = tree.root_child(i)) roots[static_cast<std::size_t>(t)].push_back({i, c->visits, c->total});
    }
  });
  if (stopped) throw StopRequested{};
  for (const std::vector<RootChild>& children : roots) {
    for (const RootChild& c : children) {
      out.visits[c.action] += c.visits;
      totals[c.action] += c.total;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (out.visits[i]) out.value[i] = totals[i] / static_cast<double>(out.visits[i]);
    if (out.visits[i] > out.visits[out.best]) out.best = i;
  }
  return out;
}

}  // namespace ddz
