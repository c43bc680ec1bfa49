#include "policy.hpp"

namespace ddz {

std::optional<PolicyKind> policy_named(std::string_view name) {
  if (name == "random") return PolicyKind::Random;
  if (name == "heuristic") return PolicyKind::Heuristic;
  return std::nullopt;
}

std::size_t choose(PolicyKind kind, const Game& game, const std::vector<Action>& legal, Rng& rng) {
  if (kind == PolicyKind::Heuristic) return choose_heuristic(game, legal);
  return rng.below(static_cast<std::uint32_t>(legal.size()));
}

}  // namespace ddz
