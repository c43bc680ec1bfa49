#include "policy.hpp"

namespace ddz {

std::optional<PolicyKind> policy_named(std::string_view name) {
  for (const auto& [known, kind] : kPolicyNames) {
    if (name == known) return kind;
  }
  return std::nullopt;
}

std::size_t choose(PolicyKind kind, const Game& game, const std::vector<Action>& legal, Rng& rng) {
  if (kind == PolicyKind::Heuristic) return choose_heuristic(game, legal, Endgame::Search);
  if (kind == PolicyKind::FastHeuristic) return choose_heuristic(game, legal, Endgame::Plan);
  return rng.below(static_cast<std::uint32_t>(legal.size()));
}

}  // namespace ddz
