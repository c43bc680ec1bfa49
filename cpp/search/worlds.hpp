// Determinization: the complete games a player cannot tell apart from the real one.
//
// A world deals the cards a seat cannot know (seat_view.hpp: the other hands less their
// known cards, and the face-down kitty) afresh, uniformly (every arrangement of the
// unknown cards into the unknown places equally likely), keeps everything else, and replays
// the current deal's actions on the new deal, so a world is a full Game under the same
// rules with the same history, stakes, bombs and records. What else could tell the real
// cards is drawn afresh too (Game::hide_from): the hands of deals thrown in before this
// one (the seat's own kept), and the seed, whose deals and redeals would be the real ones.
#pragma once

#include <cstdint>
#include <vector>

#include "base/rng.hpp"
#include "game/game.hpp"
#include "game/seat_view.hpp"

namespace ddz {

// One world: `game` with the unknown cards of `seat` dealt afresh from `rng`.
// `seat` must be a seat of the game (0..seats-1).
Game sample_world(const Game& game, int seat, Rng& rng);
// The same world written over `out` (another Game than `game`), reusing its storage.
void sample_world_into(const Game& game, int seat, Rng& rng, Game& out);
// A world for outside the search (sample_worlds, a Python bot's view): sample_world with a
// seed its record replays it from (Game::seed_for_record).
Game handed_world(const Game& game, int seat, Rng& rng);

// `n` handed worlds drawn one after another from Rng(seed).
std::vector<Game> sample_worlds(const Game& game, int seat, int n, std::uint64_t seed);

}  // namespace ddz
