#include "play/ismcts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "base/parallel.hpp"
#include "base/rng.hpp"
#include "play/playout.hpp"
#include "search/worlds.hpp"

namespace ddz {

namespace {

constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();
constexpr int kMaxThreads = 256;

struct TreeNode {
  Action action{};  // the action that led here (none at the root)
  int actor = -1;   // the seat that took it
  std::int64_t visits = 0;
  std::int64_t available = 0;  // simulations in which its action was legal at its parent
  double total = 0;            // results summed, from the actor's side
  std::vector<std::uint32_t> children;
};

// +1 when `seat`'s side won the hand, -1 when it lost, 0 for a void hand.
double result_for(const Settlement& r, int seat) {
  const long long payout = r.payouts[static_cast<std::size_t>(seat)];
  return payout > 0 ? 1.0 : payout < 0 ? -1.0 : 0.0;
}

// One thread's tree over the searching seat's information set.
class Tree {
 public:
  Tree(const Game& root, const IsmctsOptions& options) : root_(root), options_(options), seat_(root.state().to_move) {
    nodes_.emplace_back();
  }

  void simulate(Rng& rng, std::uint64_t stream) {
    Game world = sample_world(root_, seat_, rng);
    path_.assign(1, 0);
    for (std::uint32_t at = 0; world.state().phase != Phase::Over;) {
      world.legal_actions(legal_);
      const int actor = world.state().to_move;
      const std::uint32_t next = descend(at, actor, rng);
      world.apply_legal(nodes_[next].action);
      path_.push_back(next);
      if (nodes_[next].visits == 0) break;  // a new node: the rollout takes over
      at = next;
    }
    play_seats(world, every_seat(options_.rollout), stream, [](int, const Action&) {});
    const Settlement r = world.result();
    for (const std::uint32_t i : path_) {
      TreeNode& n = nodes_[i];
      ++n.visits;
      if (n.actor >= 0) n.total += result_for(r, n.actor);
    }
  }

  const std::vector<TreeNode>& nodes() const { return nodes_; }

 private:
  // The child of `at` this world goes to: an untried legal action expanded (drawn
  // uniformly), else the available child of highest UCB score. Every available child's
  // availability counts this simulation.
  std::uint32_t descend(std::uint32_t at, int actor, Rng& rng) {
    untried_.clear();
    available_.clear();
    for (const Action& a : legal_) {
      const std::uint32_t child = child_with(at, a);
      if (child == kNoNode) {
        untried_.push_back(a);
      } else {
        ++nodes_[child].available;
        available_.push_back(child);
      }
    }
    if (!untried_.empty()) {
      const Action a = untried_[rng.below(static_cast<std::uint32_t>(untried_.size()))];
      const auto child = static_cast<std::uint32_t>(nodes_.size());
      nodes_.push_back(TreeNode{a, actor, 0, 1, 0.0, {}});
      nodes_[at].children.push_back(child);
      return child;
    }
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

  std::uint32_t child_with(std::uint32_t at, const Action& a) const {
    for (const std::uint32_t child : nodes_[at].children) {
      if (nodes_[child].action == a) return child;
    }
    return kNoNode;
  }

  const Game& root_;
  const IsmctsOptions& options_;
  const int seat_;
  std::vector<TreeNode> nodes_;
  std::vector<std::uint32_t> path_, available_;
  std::vector<Action> legal_, untried_;
};

}  // namespace

std::string ismcts_error(const Game& game, const IsmctsOptions& o) {
  if (game.state().phase == Phase::Over) return "the hand is over: there is nothing to search";
  if (o.simulations < 1) return "simulations must be at least 1";
  if (!(o.exploration >= 0) || !std::isfinite(o.exploration)) return "exploration must be a finite number >= 0";
  if (o.threads < 1) return "threads must be at least 1";
  if (std::string why = policy_error(o.rollout, game.rules()); !why.empty()) return "rollout: " + why;
  return {};
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
  std::vector<std::vector<TreeNode>> roots(static_cast<std::size_t>(threads));
  parallel_each(threads, [&](int t) {
    // Thread t: simulations t, t + threads, ... of the budget, on its own generator.
    Tree tree(game, o);
    Rng rng(splitmix_finalize(o.seed ^ splitmix_finalize(static_cast<std::uint64_t>(t) + 1)));
    for (std::int64_t i = t; i < o.simulations; i += threads) {
      tree.simulate(rng, splitmix_finalize(o.seed + static_cast<std::uint64_t>(i)));
    }
    std::vector<TreeNode>& kept = roots[static_cast<std::size_t>(t)];
    for (const std::uint32_t child : tree.nodes().front().children) kept.push_back(tree.nodes()[child]);
  });
  for (const std::vector<TreeNode>& children : roots) {
    for (const TreeNode& c : children) {
      const auto i = static_cast<std::size_t>(std::find(out.actions.begin(), out.actions.end(), c.action) - out.actions.begin());
      out.visits[i] += c.visits;
      totals[i] += c.total;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (out.visits[i]) out.value[i] = totals[i] / static_cast<double>(out.visits[i]);
    if (out.visits[i] > out.visits[out.best]) out.best = i;
  }
  return out;
}

}  // namespace ddz
