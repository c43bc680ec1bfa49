#include "policy.hpp"

namespace ddz {

std::optional<PolicyKind> policy_named(std::string_view name) {
  if (name == "random") return PolicyKind::Random;
  return std::nullopt;
}

std::size_t choose(PolicyKind kind, const Game& /*game*/, const std::vector<Action>& legal, Rng& rng) {
  switch (kind) {
    case PolicyKind::Random: break;
  }
  return rng.below(static_cast<std::uint32_t>(legal.size()));
}

}  // namespace ddz
