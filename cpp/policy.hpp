// Built-in players: given a game and its legal actions, pick one.
//
// `Random` is uniform over the distinct legal actions. Policies are plain functions of
// (game, legal actions, rng) with no state of their own, so one may serve many threads.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "game.hpp"
#include "rng.hpp"

namespace ddz {

enum class PolicyKind : std::uint8_t { Random };

std::optional<PolicyKind> policy_named(std::string_view name);

// The index in `legal` (non-empty) of the action the policy plays.
std::size_t choose(PolicyKind kind, const Game& game, const std::vector<Action>& legal, Rng& rng);

}  // namespace ddz
