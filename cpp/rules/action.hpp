// An action of a hand (docs/rules.md, "A hand of play"): a play, a pass, or a step of the
// auction. A value of 24 bytes: the Move of a play, or a type and a small value.
#pragma once

#include <cstdint>

#include "rules/move.hpp"

namespace ddz {

enum class ActionType : std::uint8_t {
  Play,  // a Move
  Pass,  // when following
  Bid,   // classic: value 0 (pass) or 1..3
  Call,  // call-and-rob: value 1 call, 0 decline
  Rob,   // call-and-rob: value 1 rob, 0 not
  Partner,  // rules.partner, after the kitty: value 0 the landlord plays alone, 1..4 names seat value - 1
};
inline constexpr int kNumActionTypes = 6;
inline constexpr int kMostPartnerValue = 4;  // seat 3, the last of four

struct Action {
  ActionType type = ActionType::Pass;
  std::uint8_t value = 0;
  Move move{};

  static Action play(const Move& m) { return {ActionType::Play, 0, m}; }
  static Action pass() { return {ActionType::Pass, 0, {}}; }
  static Action bid(int v) { return {ActionType::Bid, static_cast<std::uint8_t>(v), {}}; }
  static Action call(bool yes) { return {ActionType::Call, static_cast<std::uint8_t>(yes), {}}; }
  static Action rob(bool yes) { return {ActionType::Rob, static_cast<std::uint8_t>(yes), {}}; }
  // The landlord's choice: `seat` as partner, or -1 to play alone.
  static Action partner(int seat) { return {ActionType::Partner, static_cast<std::uint8_t>(seat + 1), {}}; }
  friend bool operator==(const Action&, const Action&) = default;
};

// An action's fields, its cards aside, in one word: a play's fill 48 bits (move.hpp),
// the type and value go above them. With the cards it tells actions apart.
constexpr std::uint64_t fields_word(const Action& a) {
  return fields_word(a.move) | std::uint64_t{static_cast<std::uint8_t>(a.type)} << 48 | std::uint64_t{a.value} << 56;
}

constexpr std::uint64_t action_hash(const Action& a) { return hash_of(a.move.cards, fields_word(a)); }

struct SeatAction {
  int seat;
  Action action;
  friend bool operator==(const SeatAction&, const SeatAction&) = default;
};

}  // namespace ddz
