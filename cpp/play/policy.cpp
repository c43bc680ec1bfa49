#include "play/policy.hpp"

#include <mutex>
#include <stdexcept>

namespace ddz {

namespace {

struct Shipped {
  std::mutex mutex;
  std::string path;
  std::shared_ptr<const Network> network;
};

Shipped& shipped() {
  static Shipped s;
  return s;
}

// The layout of DouZero's features for `rules`, computed once per thread while the rules stay the same.
const DouZeroLayout& layout_for(const Rules& rules) {
  thread_local Rules cached_rules;
  thread_local DouZeroLayout cached = douzero_layout(cached_rules);
  if (!(rules == cached_rules)) {
    cached = douzero_layout(rules);
    cached_rules = rules;
  }
  return cached;
}

std::size_t best_bid(const Network& net, const Game& game, const std::vector<Action>& legal) {
  thread_local std::vector<float> values;
  net.bid_values(game.state(), game.rules(), values);
  require_finite(values);
  std::size_t best = 0;
  for (std::size_t i = 1; i < legal.size(); ++i) {
    if (values[static_cast<std::size_t>(bid_output(legal[i]))] > values[static_cast<std::size_t>(bid_output(legal[best]))]) best = i;
  }
  return best;
}

}  // namespace

std::optional<Policy> policy_named(std::string_view name) {
  for (const auto& [known, kind] : kPolicyNames) {
    if (name == known) return Policy{kind, kind == PolicyKind::Neural ? shipped_network() : nullptr};
  }
  return std::nullopt;
}

void set_shipped_network_path(std::string path) {
  Shipped& s = shipped();
  const std::lock_guard lock(s.mutex);
  s.path = std::move(path);
  s.network.reset();
}

std::shared_ptr<const Network> shipped_network() {
  Shipped& s = shipped();
  const std::lock_guard lock(s.mutex);
  if (!s.network) {
    if (s.path.empty()) throw NetworkError("no network was shipped with this build");
    s.network = Network::read(s.path);
  }
  return s.network;
}

std::string policy_error(const Policy& policy, const Rules& rules) {
  if (policy.kind == PolicyKind::Ismcts) {
    const Policy rollout = rollout_of(policy);
    if (rollout.kind == PolicyKind::Ismcts) return {};  // search_params_error's
    if (std::string why = policy_error(rollout, rules); !why.empty()) return "rollout: " + why;
    return policy.search.leaf_values ? leaf_values_error(policy.network.get(), rules) : std::string();
  }
  if (policy.kind != PolicyKind::Neural) return {};
  if (!policy.network) return "the neural policy has no networks";
  return policy.network->play_error(rules);
}

std::string leaf_values_error(const Network* network, const Rules& rules) {
  if (!network) return "leaf values: no networks to value the leaves with";
  std::string why = network->play_error(rules);
  return why.empty() ? why : "leaf values: " + why;
}

namespace {

// A two-hand position (Game.from_position): the features have no place for the seat left out.
std::string two_hands_error(const Game& game) {
  const int hands = game.state().seats;
  if (hands == game.rules().players) return {};
  return "the neural networks play a hand of " + std::to_string(game.rules().players) + " seats, not a position of " +
         std::to_string(hands) + " hands: play it with the heuristic, or solve it";
}

}  // namespace

std::string network_position_error(const Game& game) {
  if (std::string why = two_hands_error(game); !why.empty()) return why;
  // Hands only shrink in a search, and a deck has fewer bombs than the encoding counts.
  return game.state().phase == Phase::Playing ? douzero_error(view_of(game)) : std::string();
}

void check_policy(const Policy& policy, const Rules& rules) {
  if (std::string why = search_params_error(policy); !why.empty()) throw std::invalid_argument(why);
  if (std::string why = policy_error(policy, rules); !why.empty()) throw NetworkError(why);
}

void neural_play_values(const Network& net, const Game& game, const std::vector<Action>& legal, std::vector<float>& values) {
  const std::size_t planned = net.reads_plan() ? choose_heuristic(game, legal, Endgame::Plan) : kNoPlan;
  net.play_values(view_of(game), layout_for(game.rules()), legal, planned, values);
}

std::size_t choose_neural(const Network& net, const Game& game, const std::vector<Action>& legal, Endgame endgame) {
  if (legal.size() == 1) return 0;
  if (game.state().phase == Phase::Bidding) {
    return net.bids(game.rules()) ? best_bid(net, game, legal) : choose_heuristic(game, legal);
  }
  if (game.state().phase == Phase::Partner) return choose_heuristic(game, legal);  // the networks value plays only
  // The rest of what the networks cannot read the encoding refuses as it writes the features.
  if (std::string why = two_hands_error(game); !why.empty()) throw std::invalid_argument(why);
  thread_local std::vector<float> values;
  neural_play_values(net, game, legal, values);
  const std::size_t best = argmax(values);
  return endgame == Endgame::Search ? search_endgame(game, legal, best) : best;
}

namespace {

// A play that empties the mover's hand, if one is legal: it wins the hand for the mover's
// side at once, under every rule set.
std::optional<std::size_t> going_out(const Game& game, const std::vector<Action>& legal) {
  const State& s = game.state();
  if (s.phase != Phase::Playing) return std::nullopt;
  const Mask hand = s.hands[static_cast<std::size_t>(s.to_move)];
  for (std::size_t i = 0; i < legal.size(); ++i) {
    if (legal[i].type == ActionType::Play && spent(legal[i].move) == hand) return i;
  }
  return std::nullopt;
}

}  // namespace

std::size_t choose(const Policy& policy, const Game& game, const std::vector<Action>& legal, Rng& rng) {
  // A hand in play always offers an action; a game built past the rules' checks would
  // have every policy index an empty list.
  if (legal.empty()) throw std::logic_error("no legal action in a hand in play: no policy can choose");
  // Every policy but the random one goes out when it can: the plans keep 2s, jokers and
  // bombs apart from kickers (a trio and a 2, four with two), a network may value another
  // play higher, and the endgame's sampled worlds count a sure win no higher than a likely one.
  if (policy.kind != PolicyKind::Random) {
    if (const auto out = going_out(game, legal)) return *out;
  }
  switch (policy.kind) {
    case PolicyKind::Heuristic: return choose_heuristic(game, legal, Endgame::Search);
    case PolicyKind::FastHeuristic: return choose_heuristic(game, legal, Endgame::Plan);
    case PolicyKind::Neural: return choose_neural(*policy.network, game, legal, policy.endgame);
    case PolicyKind::Ismcts: return choose_ismcts(policy, game, legal, rng);
    case PolicyKind::Random: break;
  }
  return rng.below(static_cast<std::uint32_t>(legal.size()));
}

}  // namespace ddz
