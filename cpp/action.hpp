// An action of a hand (docs/rules.md, "A hand of play"): a play, a pass, or a step of the
// auction. A value of 24 bytes: the Move of a play, or a type and a small value.
#pragma once

#include <cstdint>

#include "move.hpp"

namespace ddz {

enum class ActionType : std::uint8_t {
  Play,  // a Move
  Pass,  // when following
  Bid,   // classic: value 0 (pass) or 1..3
  Call,  // call-and-rob: value 1 call, 0 decline
  Rob,   // call-and-rob: value 1 rob, 0 not
};
inline constexpr int kNumActionTypes = 5;

struct Action {
  ActionType type = ActionType::Pass;
  std::uint8_t value = 0;
  Move move{};

  static Action play(const Move& m) { return {ActionType::Play, 0, m}; }
  static Action pass() { return {ActionType::Pass, 0, {}}; }
  static Action bid(int v) { return {ActionType::Bid, static_cast<std::uint8_t>(v), {}}; }
  static Action call(bool yes) { return {ActionType::Call, static_cast<std::uint8_t>(yes), {}}; }
  static Action rob(bool yes) { return {ActionType::Rob, static_cast<std::uint8_t>(yes), {}}; }
  friend bool operator==(const Action&, const Action&) = default;
};

struct SeatAction {
  int seat;
  Action action;
};

}  // namespace ddz
