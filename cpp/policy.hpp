// Built-in players: given a game and its legal actions, pick one.
//
// `Random` is uniform over the distinct legal actions. `Heuristic` plans its hand into
// combinations and plays them weakest first, keeps bombs for when they win, lets its
// partner's plays stand, takes control when an opponent is about to go out, searches the
// endgame exactly on a few worlds dealt from its seat's view once 18 cards or fewer
// remain, and bids on jokers, 2s and bombs (heuristic.cpp). Policies are plain functions of (game, legal
// actions, rng) with no state of their own, so one may serve many threads.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "game.hpp"
#include "rng.hpp"

namespace ddz {

enum class PolicyKind : std::uint8_t { Random, Heuristic };

std::optional<PolicyKind> policy_named(std::string_view name);

std::size_t choose_heuristic(const Game& game, const std::vector<Action>& legal);

// The index in `legal` (non-empty) of the action the policy plays.
std::size_t choose(PolicyKind kind, const Game& game, const std::vector<Action>& legal, Rng& rng);

}  // namespace ddz
