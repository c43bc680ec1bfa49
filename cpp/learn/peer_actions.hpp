// The action encodings of the public engines, so data and agents move between them and
// us. Each maps an Action to the peer's form and back wherever the action exists there.
//
// RLCard 1.2.0 (`rlcard.games.doudizhu`): a play is its cards as text in our order and
// alphabet ("33344456", "BR"), a pass is "pass"; there is no bidding. Its space holds the
// 27471 moves of the rlcard preset that fit in a 20-card hand (each card text there has
// one reading), and pass.
//
// OpenSpiel (`dou_dizhu`, 2.x): player action ids 0 pass (in the auction and in play),
// 1-3 bid 1-3, and from 4 the 26053 plays of the openspiel preset, in blocks:
//   4      solos, by rank (15, jokers last)
//   19     straights, by length 5..12, then lowest rank
//   55     pairs, by rank (13)
//   68     pair straights, by length 3..10, then lowest rank
//   120    trios, by rank (13)
//   133    trio + solo: trio rank x 14 + the kicker's place among the other 14 ranks
//   315    trio + pair: trio rank x 12 + the kicker's place among the other 12 ranks 3..2
//   471    airplanes, by length 2..6, then lowest rank
//   516    airplane + solos, by length 2..5, then lowest rank, then the kicker multiset
//   23104  airplane + pairs, by length 2..4, then lowest rank, then the kicker set
//   26043  bombs, by rank (13)
//   26056  the rocket
// Kicker multisets are ordered as the non-increasing sequences of their ranks, compared
// lexicographically: solo kickers of ranks outside the body, at most 3 of a rank, a
// joker at most once and never both; pair kickers of distinct ranks 3..2. (Card-dealing
// and face-up chance outcomes are not player actions and have no place here.)
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "game/game.hpp"

namespace ddz {

// RLCard: the action's text, or nothing when the action is not in RLCard's space.
std::optional<std::string> to_rlcard(const Action& a);
// The action of an RLCard action string, or nothing when it names none.
std::optional<Action> from_rlcard(std::string_view text);

inline constexpr int kOpenSpielPass = 0;
inline constexpr int kOpenSpielFirstPlay = 4;
inline constexpr int kOpenSpielNumActions = 26057;

// OpenSpiel: the action id, or -1 when the action is not in OpenSpiel's space.
int to_openspiel(const Action& a);
// The action of an OpenSpiel player action id (0 is a pass in play, or a pass in the
// auction when `bidding`), or nothing for an id outside 0..kOpenSpielNumActions-1.
std::optional<Action> from_openspiel(int id, bool bidding);

}  // namespace ddz
