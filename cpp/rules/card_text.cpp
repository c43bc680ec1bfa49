#include "rules/card_text.hpp"

#include <algorithm>
#include <cctype>

namespace ddz {

namespace {

constexpr std::string_view kRankChars = "3456789TJQKA2BR";
constexpr int kTen = 7;

char upper(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }

// Rank of a one-character card (X is ten), or -1.
int rank_of(char c) {
  const char u = upper(c) == 'X' ? 'T' : upper(c);
  const auto pos = kRankChars.find(u);
  return pos == std::string_view::npos ? -1 : static_cast<int>(pos);
}

// The rank a long joker name stands for, or -1.
int joker_named(std::string_view token) {
  if (equals_ignoring_case(token, "BJ")) return kBlackJoker;
  if (equals_ignoring_case(token, "RJ")) return kRedJoker;
  return -1;
}

bool is_suit_letter(char c) {
  switch (upper(c)) {
    case 'S': case 'H': case 'D': case 'C': return true;
    default: return false;
  }
}

bool starts_with_bytes(std::string_view s, std::size_t i, std::string_view bytes) { return s.substr(i, bytes.size()) == bytes; }

// The bytes of a suit after a rank at i: a letter, or a suit symbol U+2660..U+2667
// (E2 99 A0..A7) with an optional variation selector U+FE0F (EF B8 8F); 0 for none.
std::size_t suit_length(std::string_view s, std::size_t i) {
  if (i >= s.size()) return 0;
  if (is_suit_letter(s[i])) return 1;
  if (!starts_with_bytes(s, i, "\xE2\x99") || i + 2 >= s.size()) return 0;
  const auto third = static_cast<unsigned char>(s[i + 2]);
  if (third < 0xA0 || third > 0xA7) return 0;
  return starts_with_bytes(s, i + 3, "\xEF\xB8\x8F") ? 6 : 3;
}

// The length of the UTF-8 character at i, or 0 when the bytes there are no UTF-8 (as
// strict as Python's decoder: no overlong forms, no surrogates, nothing past U+10FFFF).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  const std::size_t n = lead < 0x80 ? 1 : lead >= 0xC2 && lead < 0xE0 ? 2 : lead >= 0xE0 && lead < 0xF0 ? 3
                      : lead >= 0xF0 && lead < 0xF5                    ? 4
                                                                       : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  }
  // The second byte's range where the lead allows less than 80-BF.
  const auto second = n > 1 ? static_cast<unsigned char>(s[i + 1]) : 0x80;
  const bool in_range = lead == 0xE0 ? second >= 0xA0 : lead == 0xED ? second < 0xA0
                        : lead == 0xF0 ? second >= 0x90 : lead == 0xF4 ? second < 0x90 : true;
  return in_range ? n : 0;
}

// 3 where s[i] starts a lone surrogate as Python's "surrogatepass" encodes one (ED A0-BF
// 80-BF: no UTF-8, but one character of a str that error messages quote), else 0.
std::size_t surrogate_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0; };
  return byte(0) == 0xED && byte(1) >= 0xA0 && byte(1) <= 0xBF && (byte(2) & 0xC0) == 0x80 ? 3 : 0;
}

}  // namespace

std::size_t char_index(std::string_view s, std::size_t i) {
  std::size_t chars = 0;
  for (std::size_t k = 0; k < i && k < s.size(); ++chars) {
    k += std::max<std::size_t>({utf8_length(s, k), surrogate_length(s, k), 1});
  }
  return chars;
}

namespace {

std::string hex_escape(unsigned char c) {
  constexpr char kDigits[] = "0123456789abcdef";
  return {'\\', 'x', kDigits[c >> 4], kDigits[c & 0xF]};
}

// The code point of the valid UTF-8 character of n bytes at s[i].
char32_t code_point(std::string_view s, std::size_t i, std::size_t n) {
  constexpr unsigned char kLead[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  char32_t cp = static_cast<unsigned char>(s[i]) & kLead[n];
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return cp;
}

// Characters a terminal does not show as themselves: C1 controls, the invisible ones that
// reorder or hide the text around them (bidirectional marks and overrides, zero widths, a
// soft hyphen, tag characters), and the spaces other than ' ' and the line breaks of
// Unicode, which read as a plain space or a new line in a message.
bool unseen(char32_t cp) {
  return (cp >= 0x80 && cp <= 0xA0) || cp == 0xAD || cp == 0x61C || cp == 0x1680 || cp == 0x180E ||
         (cp >= 0x2000 && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202F) || (cp >= 0x205F && cp <= 0x206F) ||
         cp == 0x3000 || cp == 0xFEFF || (cp >= 0xE0000 && cp <= 0xE007F);
}

// \uXXXX, or past the basic plane \UXXXXXXXX (the tag characters), as Python writes them.
std::string code_point_escape(char32_t cp) {
  constexpr char kDigits[] = "0123456789abcdef";
  const bool wide = cp > 0xFFFF;
  std::string out = wide ? "\\U" : "\\u";
  for (int shift = wide ? 28 : 12; shift >= 0; shift -= 4) out += kDigits[(cp >> shift) & 0xF];
  return out;
}

// The token that starts at byte i, up to the next separator, for messages.
std::string_view token_from(std::string_view s, std::size_t i) {
  std::size_t j = i;
  while (j < s.size() && !is_separator(s[j])) ++j;
  return s.substr(i, std::max<std::size_t>(j - i, 1));
}

// The byte offset of character `chars` of `s` (char_index's inverse; the size past the end).
std::size_t byte_index(std::string_view s, std::size_t chars) {
  std::size_t k = 0;
  for (; chars > 0 && k < s.size(); --chars) k += std::max<std::size_t>(utf8_length(s, k), 1);
  return std::min(k, s.size());
}

// An error naming `token` (the text at byte i of `text`) and its position in characters,
// both as typed in `given` (`text` before half_width, which keeps every character's place).
ParseResult error_at(std::string_view given, std::string_view text, std::size_t i, std::string_view token, const std::string& what) {
  ParseResult r;
  const std::size_t at = char_index(text, i);
  const std::size_t from = byte_index(given, at);
  const std::string_view typed = given.substr(from, byte_index(given, at + char_index(token, token.size())) - from);
  r.error = what + " " + quoted(typed, 8) + " at position " + std::to_string(at) + " in " + quoted(given);
  return r;
}

std::size_t count_tokens(std::string_view text) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!is_separator(text[i]) && (i == 0 || is_separator(text[i - 1]))) ++n;
  }
  return n;
}

}  // namespace

bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

bool is_separator(char c) { return c == ',' || std::isspace(static_cast<unsigned char>(c)); }

std::string_view half_width(std::string_view text, std::string& storage) {
  // U+FF01..U+FF5E are EF BC 81..BF and EF BD 80..9E; U+3000 is E3 80 80.
  if (text.find_first_of("\xE3\xEF") == std::string_view::npos) return text;
  storage.clear();
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    const char32_t cp = n == 3 ? code_point(text, i, n) : 0;
    if (cp >= 0xFF01 && cp <= 0xFF5E) {
      storage += static_cast<char>(cp - 0xFEE0);
    } else if (cp == 0x3000) {
      storage += ' ';
    } else {
      storage.append(text.substr(i, std::max<std::size_t>(n, 1)));
    }
    i += std::max<std::size_t>(n, 1);
  }
  return storage;
}

std::string_view trimmed(std::string_view text) {
  const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return upper(x) == upper(y); });
}

char rank_char(int rank) { return rank >= 0 && rank < kNumRanks ? kRankChars[static_cast<std::size_t>(rank)] : '?'; }

std::string to_text(Mask m) {
  std::string out;
  for (int r = 0; r < kNumRanks; ++r) out.append(static_cast<std::size_t>(count(m, r)), rank_char(r));
  return out;
}

std::string quoted(std::string_view text, std::size_t max_chars) {
  std::string out = "'";
  std::size_t chars = 0, i = 0;
  for (; i < text.size() && chars < max_chars; ++chars) {
    const std::size_t n = utf8_length(text, i);
    const auto c = static_cast<unsigned char>(text[i]);
    if (surrogate_length(text, i)) {  // \udcff, as Python writes a lone surrogate
      out += code_point_escape(code_point(text, i, 3));
      i += 3;
    } else if (n == 0 || c < 0x20 || c == 0x7F) {
      out += hex_escape(c);
      ++i;
    } else if (c == '\\' || c == '\'') {  // escaped too, so that no two texts quote alike
      out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (n > 1 && unseen(code_point(text, i, n))) {
      out += code_point_escape(code_point(text, i, n));
      i += n;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  out += "'";
  if (i < text.size()) out += "... (" + std::to_string(char_index(text, text.size())) + " characters)";
  return out;
}

ParseResult parse_cards(std::string_view given, int max_per_rank, int max_per_joker, bool list_element) {
  std::string storage;
  const std::string_view text = half_width(given, storage);
  ParseResult result;
  const bool long_names = list_element || count_tokens(text) >= 2;
  std::size_t i = 0;
  while (i < text.size()) {
    if (is_separator(text[i])) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    const bool token_start = i == 0 || is_separator(text[i - 1]);
    int rank = long_names && token_start ? joker_named(token_from(text, i)) : -1;
    if (rank >= 0) {
      i += 2;
    } else if (text[i] == '1' && i + 1 < text.size() && text[i + 1] == '0') {
      rank = kTen;
      i += 2;
    } else {
      rank = rank_of(text[i]);
      if (rank < 0) return error_at(given, text, start, text.substr(start, std::max<std::size_t>(utf8_length(text, start), 1)), "unknown card token");
      ++i;
    }
    if (rank < kBlackJoker) i += suit_length(text, i);
    const int limit = std::min(rank >= kBlackJoker ? max_per_joker : max_per_rank, 15);
    if (count(result.cards, rank) >= limit) {
      return error_at(given, text, start, text.substr(start, i - start), "too many cards of rank " + std::string(1, rank_char(rank)) + " (at most " +
                                       std::to_string(limit) + "):");
    }
    result.cards += cards_of(rank, 1);
  }
  return result;
}

int rank_named(std::string_view text) {
  const ParseResult p = parse_cards(text, 1, 1, true);
  return p.ok() && total(p.cards) == 1 ? lowest_rank(ranks_with_at_least(p.cards, 1)) : -1;
}

}  // namespace ddz
