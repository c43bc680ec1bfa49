// Playouts: a game finished by built-in policies, for search that estimates a position
// by playing it out (rollouts of determinized worlds, Monte Carlo tree search), and for
// self-play, which plays every game this way.
#pragma once

#include <array>
#include <vector>

#include "game.hpp"
#include "policy.hpp"
#include "rng.hpp"

namespace ddz {

// Plays `game` to its end (a hand ends by itself: rules.max_redeals bounds its redeals),
// seat i choosing with policies[i] (random policies draw from `rng`), calling
// on_action(seat, action) before each action is applied.
template <class OnAction>
void play_to_end(Game& game, const std::array<PolicyKind, kMaxSeats>& policies, Rng& rng, OnAction&& on_action) {
  thread_local std::vector<Action> legal;
  while (game.state().phase != Phase::Over) {
    game.legal_actions(legal);
    const int seat = game.state().to_move;
    const Action& a = legal[choose(policies[static_cast<std::size_t>(seat)], game, legal, rng)];
    on_action(seat, a);
    game.apply_legal(a);
  }
}

// `game` played to the end, as play_to_end.
inline Game playout(Game game, const std::array<PolicyKind, kMaxSeats>& policies, Rng& rng) {
  play_to_end(game, policies, rng, [](int, const Action&) {});
  return game;
}

}  // namespace ddz
