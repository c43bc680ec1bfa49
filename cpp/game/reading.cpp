#include "game/reading.hpp"

#include <algorithm>

#include "rules/notation.hpp"

namespace ddz {

namespace {

Reading fault(ReadingFault kind, std::string error) { return {Move{}, kind, std::move(error)}; }

std::string reading_list(const std::vector<Move>& readings) {
  std::string list;
  for (const Move& m : readings) {
    if (!list.empty()) list += "; ";
    list += reading_text(m, readings);
  }
  return list;
}

// The one of `readings` (of `text`), or why not; `none` says what no reading fits.
Reading one_of(const std::vector<Move>& readings, std::string_view text, std::string_view none) {
  if (readings.size() == 1) return {readings.front(), ReadingFault::None, {}};
  if (readings.empty()) return fault(ReadingFault::NoReading, quoted(text) + " is no " + std::string(none));
  return fault(ReadingFault::Several,
               quoted(text) + " has several readings, pass a Move or write one as cards/KIND/rank[/length]: " + reading_list(readings));
}

const char* combination(std::optional<MoveKind> kind) {
  return kind ? "combination of that kind under these rules" : "combination under these rules";
}

void keep_kind(std::vector<Move>& readings, std::optional<MoveKind> kind) {
  if (kind) std::erase_if(readings, [&](const Move& m) { return m.kind != *kind; });
}

// Every reading of the text, or the Text fault in `error_out`.
std::vector<Move> readings(std::string_view text, const Rules& rules, WildRanks wild, Reading& error_out) {
  std::string error;
  std::vector<Move> out = readings_of(text, rules, wild, error);
  if (!error.empty()) {
    error_out = fault(ReadingFault::Text, std::move(error));
  } else if (out.empty() && wild.none() && text.find('=') != std::string_view::npos) {
    error_out = fault(ReadingFault::NoReading,
                      quoted(text) + " has cards standing in for others (spent=combination), and no wild rank is given");
  }
  return out;
}

}  // namespace

Reading read_cards(Mask cards, const Rules& rules, std::optional<MoveKind> kind) {
  std::vector<Move> all = classify(cards, rules);
  keep_kind(all, kind);
  return one_of(all, to_text(cards), combination(kind));
}

Reading read_move(std::string_view text, const Rules& rules, WildRanks wild, std::optional<MoveKind> kind) {
  Reading bad;
  std::vector<Move> all = readings(text, rules, wild, bad);
  if (!bad.ok()) return bad;
  keep_kind(all, kind);
  return one_of(all, text, combination(kind));
}

Reading read_play(std::string_view text, const Game& game) {
  Reading bad;
  std::vector<Move> all = readings(text, game.rules(), game.state().wild, bad);
  if (!bad.ok()) return bad;
  if (all.size() > 1) std::erase_if(all, [&](const Move& m) { return !game.check(Action::play(m)).empty(); });
  return one_of(all, text, "legal combination here");
}

Reading read_playable(std::string_view text, Mask hand, const Move* last, const Rules& rules, WildRanks wild) {
  Reading bad;
  const std::vector<Move> all = readings(text, rules, wild, bad);
  if (!bad.ok()) return bad;
  if (all.empty()) return one_of(all, text, combination(std::nullopt));
  std::string first_error;
  for (const Move& m : all) {
    std::string why = play_error(hand, m, last, rules, wild);
    if (why.empty()) return {m, ReadingFault::None, {}};
    if (first_error.empty()) first_error = std::move(why);
  }
  return fault(ReadingFault::NoReading, std::move(first_error));
}

ActionReading read_action(std::string_view text, const Game& game) {
  const ActionWord word = action_word(text);
  if (word.action) return {*word.action, ReadingFault::None, {}};
  if (!word.error.empty()) {
    std::string why = word.meant ? game.check(*word.meant) : std::string();  // the phase first
    return {Action{}, ReadingFault::NoReading, why.empty() ? word.error : why};
  }
  Reading r = read_play(text, game);
  return {Action::play(r.move), r.fault, std::move(r.error)};
}

}  // namespace ddz
