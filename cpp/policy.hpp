// Built-in players: given a game and its legal actions, pick one.
//
// `Random` is uniform over the distinct legal actions. `Heuristic` plans its hand into
// combinations and plays them weakest first, keeps bombs for when they win, lets its
// partner's plays stand, takes control when an opponent is about to go out, searches the
// endgame exactly on a few worlds dealt from its seat's view once 18 cards or fewer
// remain, and bids on jokers, 2s and bombs (heuristic.cpp). `FastHeuristic` is the same
// plan without the endgame search: weaker, and about a hundred times cheaper on average
// (the search is the heuristic's whole tail), for data generation and learners'
// opponents. Policies are plain functions of (game, legal actions, rng) with no state of
// their own, so one may serve many threads.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "game.hpp"
#include "rng.hpp"

namespace ddz {

enum class PolicyKind : std::uint8_t { Random, Heuristic, FastHeuristic };

// Every built-in policy by the name it is given wherever a policy is taken.
inline constexpr std::array<std::pair<std::string_view, PolicyKind>, 3> kPolicyNames{{
    {"random", PolicyKind::Random},
    {"heuristic", PolicyKind::Heuristic},
    {"fast_heuristic", PolicyKind::FastHeuristic},
}};

std::optional<PolicyKind> policy_named(std::string_view name);

enum class Endgame : bool { Plan, Search };  // whether the heuristic searches the endgame
std::size_t choose_heuristic(const Game& game, const std::vector<Action>& legal, Endgame endgame = Endgame::Search);

// The index in `legal` (non-empty) of the action the policy plays.
std::size_t choose(PolicyKind kind, const Game& game, const std::vector<Action>& legal, Rng& rng);

}  // namespace ddz
