#include "game/infoset.hpp"

#include <cassert>
#include <span>

namespace ddz {

namespace {

// Folds words into a 64-bit key: a multiply and a shift a word (the key hashes a whole
// history, so a word must cost a few cycles), then splitmix64's finalizer over the whole.
class InfosetHasher {
 public:
  void add(std::uint64_t word) {
    h_ = (h_ ^ word) * 0x9E37'79B9'7F4A'7C15;
    h_ ^= h_ >> 29;
  }
  std::uint64_t done() const { return splitmix_finalize(h_); }

 private:
  std::uint64_t h_ = 0x3C6E'F372'FE94'F82B;
};

void add_rules(InfosetHasher& h, const Rules& rules) {
  for (const RulesField& f : kRulesFields) {
    if (f.flag) h.add(static_cast<std::uint64_t>(rules.*f.flag));
    if (f.number) h.add(static_cast<std::uint64_t>(rules.*f.number));
    if (f.choice) h.add(static_cast<std::uint64_t>(rules.*f.choice));
  }
}

// What `seat` saw of `deal`, a deal thrown in: its own hand and the wild ranks.
Deal seen_of(const Deal& deal, int seat) {
  Deal seen;
  seen.hands[static_cast<std::size_t>(seat)] = deal.hands[static_cast<std::size_t>(seat)];
  seen.wild = deal.wild;
  return seen;
}

// The key of the information set whose fields are given, `thrown_in` the deals before the
// current one (whole or as seen: only what seen_of keeps is read); `visit_history` calls
// its argument on each (seat, action) of the history, oldest first. Every field it reads
// is a field of Infoset (or follows from them), so equal information sets have equal keys.
template <class VisitHistory>
std::uint64_t infoset_key_of(int seat, const State& known, const SeatView& cards, bool from_position, const Move& start_last,
                     int start_last_by, int start_to_move, const Rules& rules, std::span<const Deal> thrown_in,
                     std::size_t actions, VisitHistory&& visit_history) {
  InfosetHasher h;
  for (const Deal& d : thrown_in) {
    h.add(d.hands[static_cast<std::size_t>(seat)]);
    const auto rank_byte = [](std::int8_t rank) { return static_cast<std::uint64_t>(static_cast<std::uint8_t>(rank)); };
    h.add(rank_byte(d.wild.low) | rank_byte(d.wild.high) << 8);
  }
  h.add(hash(known));
  h.add(static_cast<std::uint64_t>(seat));
  h.add(cards.others);
  h.add(static_cast<std::uint64_t>(cards.kitty_slots));
  for (int i = 0; i < known.seats; ++i) h.add(static_cast<std::uint64_t>(cards.unknown_slots[static_cast<std::size_t>(i)]));
  h.add(from_position ? move_hash(start_last) ^ static_cast<std::uint64_t>(start_last_by + 2) << 8 ^ static_cast<std::uint64_t>(start_to_move) : 1);
  add_rules(h, rules);
  h.add(actions);
  // One word an action (a history is long): the cards and the seat spread by odd
  // multipliers, so that neither lines up with the fields' bits.
  visit_history([&h](int by, const Action& a) {
    h.add(a.move.cards * 0xC2B2'AE3D'27D4'EB4F ^ fields_word(a) ^ static_cast<std::uint64_t>(by + 1) * 0xD6E8'FEB8'6659'FD93);
  });
  return h.done();
}

// `s` less what `seat`, whose view is `v`, cannot see (known_state).
State known_of(const State& s, int seat, const SeatView& v) {
  State k = s;
  for (int i = 0; i < s.seats; ++i) {
    if (i != seat) k.hands[static_cast<std::size_t>(i)] = v.known[static_cast<std::size_t>(i)];
  }
  if (!v.kitty_shown) k.kitty = 0;
  k.start_bonus = {};
  return k;
}

}  // namespace

State known_state(const State& s, int seat) {
  assert(seat >= 0 && seat < s.seats);
  return known_of(s, seat, seat_view(s, seat));
}

Infoset infoset(const Game& game, int seat) {
  const State& s = game.state();
  const State& start = game.initial();
  Infoset out;
  out.seat = seat;
  out.cards = seat_view(s, seat);
  out.known = known_of(s, seat, out.cards);
  out.history = game.history();
  out.deal_start = game.deal_start();
  out.from_position = game.started_from_position();
  if (out.from_position) {
    out.start_last = start.last;
    out.start_last_by = start.last_by;
    out.start_to_move = start.to_move;
  }
  out.rules = game.rules();
  for (std::size_t i = 0; i + 1 < game.deals().size(); ++i) out.thrown_in.push_back(seen_of(game.deals()[i], seat));
  out.key = infoset_key_of(seat, out.known, out.cards, out.from_position, out.start_last, out.start_last_by, out.start_to_move, out.rules,
                   out.thrown_in, out.history.size(), [&out](auto&& f) {
                     for (const SeatAction& sa : out.history) f(sa.seat, sa.action);
                   });
  return out;
}

std::uint64_t infoset_key(const Game& game, int seat) {
  const State& s = game.state();
  const State& start = game.initial();
  const bool from_position = game.started_from_position();
  const SeatView cards = seat_view(s, seat);
  return infoset_key_of(seat, known_of(s, seat, cards), cards, from_position, from_position ? start.last : Move{},
                from_position ? start.last_by : -1, from_position ? start.to_move : 0, game.rules(),
                std::span<const Deal>(game.deals()).first(game.deals().empty() ? 0 : game.deals().size() - 1), game.actions_taken(),
                [&game](auto&& f) { game.visit_history(f); });
}

}  // namespace ddz
