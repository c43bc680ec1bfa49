#include "rules/notation.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <initializer_list>
#include <string_view>

#include "rules/card_text.hpp"
#include "rules/wild.hpp"

namespace ddz {

namespace {

constexpr std::array<const char*, kNumMoveKinds> kKindNames = {
    "SOLO",     "PAIR",           "TRIO",           "TRIO_SOLO",      "TRIO_PAIR",      "STRAIGHT", "PAIR_STRAIGHT",
    "AIRPLANE", "AIRPLANE_SOLOS", "AIRPLANE_PAIRS", "FOUR_TWO_SOLOS", "FOUR_TWO_PAIRS", "BOMB",     "ROCKET",
    "TRIO_TWO", "AIRPLANE_TWOS",  "FOUR_THREE"};

// A reading's length written after its key: 1 to 99, in decimal; -1 for anything else.
int chain_length_named(std::string_view text) {
  if (text.empty() || text.size() > 2 || text.front() == '0') return -1;
  int n = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return -1;
    n = 10 * n + (c - '0');
  }
  return n;
}

}  // namespace

const char* kind_name(MoveKind kind) {
  const auto i = static_cast<std::size_t>(kind);
  return i < kKindNames.size() ? kKindNames[i] : "UNKNOWN";
}

std::optional<MoveKind> kind_named(std::string_view name) {
  for (std::size_t i = 0; i < kKindNames.size(); ++i) {
    if (equals_ignoring_case(name, kKindNames[i])) return static_cast<MoveKind>(i);
  }
  return std::nullopt;
}

std::string move_text(const Move& m) { return m.stand_ins ? to_text(spent(m)) + "=" + to_text(m.cards) : to_text(m.cards); }

std::string describe(const Move& m) {
  return move_text(m) + " as " + kind_name(m.kind) + " (rank " + std::string(1, rank_char(m.key)) + ", length " +
         std::to_string(m.length) + ")";
}

ParseResult parse_cards_for(std::string_view text, const Rules& rules, bool list_element) {
  // Parsed against two decks first, so that a count past the rules' deck but within two
  // gets validate_cards' message, which names the deck, whatever the entry point.
  ParseResult p = parse_cards(text, 8, 2, list_element);
  if (!p.ok()) return parse_cards(text, rules.max_per_rank(), rules.max_per_joker(), list_element);
  p.error = validate_cards(p.cards, rules);
  return p;
}

namespace {

// Move text naming its reading: "cards/KIND/rank", and "/length" when `length`.
std::string named_reading(const Move& m, bool length) {
  std::string text = move_text(m) + '/' + kind_name(m.kind) + '/' + rank_char(m.key);
  return length ? text + '/' + std::to_string(m.length) : text;
}

// parse_move_text of text already half-width.
MoveText parse_half_width_move_text(std::string_view text, const Rules& rules) {
  MoveText out;
  const auto fail = [&](std::string why) {
    out.error = std::move(why);
    return out;
  };
  const auto slash = text.find('/');
  const std::string_view cards_part = text.substr(0, slash);
  const auto equals = cards_part.find('=');
  // `what` names the part in the message where there are two ("spent=cards").
  const auto read = [&](std::string_view part, const char* what) -> std::optional<Mask> {
    const ParseResult p = parse_cards_for(part, rules);
    if (!p.ok()) {
      out.error = what ? std::string(what) + ": " + p.error : p.error;
      return std::nullopt;
    }
    return p.cards;
  };
  if (equals != std::string_view::npos && cards_part.find('=', equals + 1) != std::string_view::npos) {
    return fail("one '=' at most, between the cards spent and the cards they stand for, not " + quoted(cards_part));
  }
  const auto cards = equals == std::string_view::npos ? read(cards_part, nullptr) : read(cards_part.substr(equals + 1), "cards stood for");
  if (!cards) return out;
  out.cards = *cards;
  if (equals != std::string_view::npos) {
    out.spent = read(cards_part.substr(0, equals), "cards spent");
    if (!out.spent) return out;
  }
  if (slash != std::string_view::npos) {
    const std::string_view spec = text.substr(slash + 1);
    const auto second = spec.find('/');
    // White space around each part means nothing, as between card tokens.
    out.kind = kind_named(trimmed(spec.substr(0, second)));
    const std::string_view rest = second == std::string_view::npos ? std::string_view() : spec.substr(second + 1);
    const auto third = rest.find('/');
    out.key = rank_named(trimmed(rest.substr(0, third)));
    if (third != std::string_view::npos) out.length = chain_length_named(trimmed(rest.substr(third + 1)));
    if (!out.kind || out.key < 0 || (third != std::string_view::npos && out.length < 0)) {
      std::string written(1, '/');
      written += spec;
      return fail("a reading is written /KIND/rank or /KIND/rank/length, the rank its body starts from as card text, "
                  "such as '/AIRPLANE_SOLOS/3' or '/STRAIGHT/T', not " + quoted(written));
    }
  }
  return out;
}

}  // namespace

MoveText parse_move_text(std::string_view given, const Rules& rules) {
  std::string storage;
  const std::string_view text = half_width(given, storage);
  MoveText out = parse_half_width_move_text(text, rules);
  if (!out.error.empty() && text.data() != given.data()) out.error += " (typed " + quoted(given) + ")";  // its parts quoted half-width
  return out;
}

std::vector<Move> readings_of(std::string_view text, const Rules& rules, WildRanks wild, std::string& error) {
  const MoveText parsed = parse_move_text(text, rules);
  error = parsed.error;
  std::vector<Move> readings;
  if (!error.empty()) return readings;
  for (const Move& m : classify(parsed.cards, rules)) {
    if (parsed.kind && (m.kind != *parsed.kind || m.key != parsed.key)) continue;
    if (parsed.length >= 0 && m.length != parsed.length) continue;
    if (!parsed.spent) {
      readings.push_back(m);
      continue;
    }
    Move played;
    if (played_with(m, *parsed.spent, wild, played) && wilds_error(played, rules).empty()) readings.push_back(played);
  }
  return readings;
}

std::string action_text(const Action& a, const Rules* rules) {
  switch (a.type) {
    case ActionType::Pass: return "pass";
    case ActionType::Bid: return "bid " + std::to_string(a.value);
    case ActionType::Call: return a.value ? "call" : "decline";
    case ActionType::Rob: return a.value ? "rob" : "no rob";
    case ActionType::Partner: return a.value ? "partner " + std::to_string(a.value - 1) : "alone";
    case ActionType::Play: break;
  }
  return rules ? reading_text(a.move, classify(a.move.cards, *rules)) : unmistakable_text(a.move);
}

std::string unmistakable_text(const Move& m) {
  // Cards read several ways through kickers and chains: every preset, and each with its
  // kicker rules at their loosest (pair_kickers_share_rank's 33334444 in standard).
  static const std::vector<Rules> widest = [] {
    std::vector<Rules> all;
    for (const std::string& name : preset_names()) {
      Rules loose = *preset(name);
      all.push_back(loose);
      loose.max_solo_kicker_copies = 4;
      loose.kicker_trio_extends_airplane = loose.joker_kicks_four_with_two = loose.both_jokers_as_kickers = true;
      loose.pair_kickers_share_rank = true;
      if (validate(loose).empty()) all.push_back(loose);
    }
    return all;
  }();
  const auto several = [&](const Rules& rules) { return classify(m.cards, rules).size() > 1; };
  return std::none_of(widest.begin(), widest.end(), several) ? move_text(m) : named_reading(m, true);
}

std::string reading_text(const Move& m, const std::vector<Move>& readings) {
  if (readings.size() <= 1) return move_text(m);
  // Under Run Fast a last airplane may be short of kickers: the same cards, kind and key
  // can be a full airplane or a longer short one.
  const auto alike = [&](const Move& r) { return r.kind == m.kind && r.key == m.key; };
  return named_reading(m, std::count_if(readings.begin(), readings.end(), alike) > 1);
}

ActionWord action_word(std::string_view given) {
  std::string storage;
  const std::string_view text = half_width(given, storage);
  // The words, lower case, single-spaced.
  std::string words;
  for (std::size_t i = 0; i < text.size();) {
    if (is_separator(text[i]) && text[i] != ',') {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && !(is_separator(text[j]) && text[j] != ',')) ++j;
    if (!words.empty()) words += ' ';
    for (std::size_t k = i; k < j; ++k) words += static_cast<char>(std::tolower(static_cast<unsigned char>(text[k])));
    i = j;
  }
  ActionWord out;
  if (words == "pass") out.action = Action::pass();
  if (words == "call" || words == "decline" || words == "no call") out.action = Action::call(words == "call");
  if (words == "rob" || words == "no rob") out.action = Action::rob(words == "rob");
  if (words.size() == 5 && words.starts_with("bid ") && words[4] >= '0' && words[4] <= '3') out.action = Action::bid(words[4] - '0');
  if (words == "alone") out.action = Action::partner(-1);
  if (words.size() == 9 && words.starts_with("partner ") && words[8] >= '0' && words[8] < '0' + kMostPartnerValue) {
    out.action = Action::partner(words[8] - '0');
  }
  if (out.action) return out;
  if (words.empty()) out.error = "no action in " + quoted(given) + ": write cards, pass, call, rob, bid 0-3 or partner 0-3";
  // A first word that begins as a word does (a typo such as "passs" or "bid3") is no card
  // text: no card token starts with "pa", "bi", "c", "d", "ro", "al" or "n".
  const std::string_view first = std::string_view(words).substr(0, words.find(' '));
  if (std::any_of(kActionWords.begin(), kActionWords.end(), [&](std::string_view word) { return first.starts_with(word); })) {
    out.error = quoted(given) + " is no action (the words are pass, call, decline or no call, rob, no rob, bid 0-3, alone and partner N)";
  }
  if (first.starts_with("bid")) {
    out.error = "a bid is written 'bid 0' (a pass) to 'bid 3', not " + quoted(given);
    out.meant = Action::bid(0);
  }
  if (first.starts_with("partner")) {
    out.error = "a partner is written 'partner 0' to 'partner 3' (a seat, under four_partner rules), not " + quoted(given);
    out.meant = Action::partner(-1);
  }
  return out;
}

}  // namespace ddz
