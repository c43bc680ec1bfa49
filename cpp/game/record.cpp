#include "game/record.hpp"

#include "rules/move_checks.hpp"

namespace ddz {

ActionRow to_row(int seat, const Action& a) {
  ActionRow row;
  if (a.type == ActionType::Play) {
    row.cards = a.move.cards;
    row.kind = static_cast<std::uint8_t>(a.move.kind);
    row.key = a.move.key;
    row.length = a.move.length;
    row.stand_ins = static_cast<std::uint16_t>(a.move.stand_ins);
    row.stand_ins_high = static_cast<std::uint16_t>(a.move.stand_ins >> 16);
  }
  row.type = static_cast<std::uint8_t>(a.type);
  row.value = a.type == ActionType::Play ? a.move.wild_rank : a.value;
  row.seat = static_cast<std::uint8_t>(seat);
  return row;
}

Action from_row(const ActionRow& row) {
  Action a{static_cast<ActionType>(row.type), row.value, {}};
  if (a.type == ActionType::Play) {
    a.value = 0;
    a.move = {row.cards, static_cast<MoveKind>(row.kind), row.key,
              row.length, row.value, row.stand_ins | std::uint32_t{row.stand_ins_high} << 16};
  }
  return a;
}

std::string action_row_error(const ActionRow& row) {
  if (row.seat >= kMaxSeats) return "seat " + std::to_string(row.seat) + " is no seat";
  if (row.type >= kNumActionTypes) return "unknown action type " + std::to_string(row.type);
  if (row.type != static_cast<int>(ActionType::Play) && (row.cards || row.kind || row.key || row.length || row.stand_ins || row.stand_ins_high)) {
    return "only a play holds cards, a kind, a key, a length or stand-ins (the row's fields other than seat, type "
           "and value are 0 for any other action)";
  }
  return action_error(from_row(row));
}

std::string restore_settlement(Settlement& s) {
  if (s.seats < 2 || s.seats > kMaxSeats) return "seats must be in 2.." + std::to_string(kMaxSeats);
  if (s.winner >= 0 || s.landlord < -1) return each_for_self_settlement_error(s);
  if (s.landlord < 0) {
    s = void_settlement(s.seats);
    return {};
  }
  if ((s.start_bonus.jokers | s.start_bonus.straight) >> s.seats) return "a start bonus names a seat past the hand's seats";
  if (auto why = score_error(s.base, s.bombs, s.rockets, s.spring, s.anti_spring, s.landlord_won, s.landlord, s.seats, 0, s.partner);
      !why.empty()) {
    return why;
  }
  // The multiplier is the doublings' exact product, or a cap below it that rules can set
  // (passing any multiplier as the cap refused an exact one past the largest cap, 2^20
  // bombs' worth under four_player).
  const auto settled = [&](int cap) {
    return settle(s.base, s.bombs, s.rockets, s.spring, s.anti_spring, s.landlord_won, s.landlord, s.seats, cap, s.start_bonus,
                  s.partner);
  };
  const Settlement exact = settled(0);
  const bool capped = s.multiplier < exact.multiplier && max_multiplier_error(s.multiplier).empty();
  if (s.multiplier != exact.multiplier && !capped) return "the multiplier does not follow";
  s = capped ? settled(s.multiplier) : exact;
  return {};
}

}  // namespace ddz
