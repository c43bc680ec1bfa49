// Playouts: a game played on by built-in policies, for search that estimates a position
// by playing it out (rollouts of determinized worlds, Monte Carlo tree search), for
// self-play and evaluation, which play every game this way, and for mixed tables, where
// Python players take some seats.
//
// The one loop of the engine that plays built-in seats. Each decision draws from
// Rng(splitmix(stream + actions taken so far)), so a game played partly elsewhere (a
// Python seat, a learner) draws the same numbers as one played here whole.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "base/rng.hpp"
#include "game/game.hpp"
#include "play/policy.hpp"

namespace ddz {

// A policy for each seat, or none where another player (Python) chooses.
using SeatPolicies = std::array<std::optional<Policy>, kMaxSeats>;

// The same policy for every seat.
inline SeatPolicies every_seat(const Policy& policy) {
  SeatPolicies out;
  out.fill(policy);
  return out;
}

inline void check_policies(const SeatPolicies& policies, const Rules& rules) {
  for (const auto& policy : policies) {
    if (policy) check_policy(*policy, rules);
  }
}

// The index in `legal` of the action `policy` plays in `game` on `stream`: what play_seats
// plays there.
inline std::size_t choose_on(const Policy& policy, const Game& game, const std::vector<Action>& legal, std::uint64_t stream) {
  Rng rng(splitmix_finalize(stream + game.actions_taken()));
  return choose(policy, game, legal, rng);
}

// Plays the seats that have a policy until a seat without one is to move or the hand is
// over (a hand ends by itself: rules.max_redeals bounds its redeals), calling
// on_action(seat, action) before each action is applied. `legal` is the caller's buffer
// for the legal actions: a policy may play games of its own while it chooses (ISMCTS's
// rollouts), so no buffer is shared between the loops of one thread.
template <class OnAction>
void play_seats(Game& game, const SeatPolicies& policies, std::uint64_t stream, OnAction&& on_action,
                std::vector<Action>& legal) {
  while (game.state().phase != Phase::Over) {
    const int seat = game.state().to_move;
    const auto& policy = policies[static_cast<std::size_t>(seat)];
    if (!policy) return;
    game.legal_actions(legal);
    const Action& a = legal[choose_on(*policy, game, legal, stream)];
    on_action(seat, a);
    game.apply_legal(a);
  }
}

template <class OnAction>
void play_seats(Game& game, const SeatPolicies& policies, std::uint64_t stream, OnAction&& on_action) {
  std::vector<Action> legal;
  play_seats(game, policies, stream, on_action, legal);
}

inline void play_seats(Game& game, const SeatPolicies& policies, std::uint64_t stream) {
  play_seats(game, policies, stream, [](int, const Action&) {});
}

// `game` played to the end by a policy in every seat.
inline Game playout(Game game, const SeatPolicies& policies, std::uint64_t stream) {
  play_seats(game, policies, stream);
  return game;
}

}  // namespace ddz
