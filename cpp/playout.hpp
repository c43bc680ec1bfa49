// Playouts: a game finished by built-in policies, for search that estimates a position
// by playing it out (rollouts of determinized worlds, Monte Carlo tree search).
#pragma once

#include <array>

#include "game.hpp"
#include "policy.hpp"
#include "rng.hpp"

namespace ddz {

// `game` played to the end, seat i choosing with policies[i] (random policies draw from
// `rng`). A hand that keeps being redealt stops after `max_redeals` more redeals, unfinished.
Game playout(Game game, const std::array<PolicyKind, kMaxSeats>& policies, Rng& rng, int max_redeals = 100);

}  // namespace ddz
