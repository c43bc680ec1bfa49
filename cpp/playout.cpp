#include "playout.hpp"

namespace ddz {

Game playout(Game game, const std::array<PolicyKind, kMaxSeats>& policies, Rng& rng, int max_redeals) {
  thread_local std::vector<Action> legal;
  const int redeal_limit = game.state().redeals + max_redeals;
  while (game.state().phase != Phase::Over && game.state().redeals <= redeal_limit) {
    game.legal_actions(legal);
    const auto seat = static_cast<std::size_t>(game.state().to_move);
    game.apply_legal(legal[choose(policies[seat], game, legal, rng)]);
  }
  return game;
}

}  // namespace ddz
