// Card text parsing: parse_cards against a reference tokenizer written from docs/rules.md
// (full-width text read as ASCII).
//
// Input: byte 0 and 1 choose max_per_rank and max_per_joker (0..17, so limits past what a
// nibble holds are tried too); the rest is the text. Checked:
//   - parse_cards agrees with the reference on success, on the position of the first
//     error, and on every count (no nibble ever wraps: a limit above 15 acts as 15);
//   - an error message is non-empty and names the position;
//   - on success the mask is within the 15 ranks, to_text() has one character per card
//     and parses back to the same mask; the parse is ASCII-case-insensitive.
#include <array>
#include <cctype>
#include <optional>

#include "fuzz_common.hpp"

using namespace ddz;
using namespace ddz::fuzz;

namespace {

struct Ref {
  bool ok = true;
  std::size_t error_at = 0;
  std::array<int, kNumRanks> counts{};
};

int ref_rank(char c) {
  switch (c) {
    case '3': return 0;
    case '4': return 1;
    case '5': return 2;
    case '6': return 3;
    case '7': return 4;
    case '8': return 5;
    case '9': return 6;
    case 'T': case 't': case 'X': case 'x': return 7;
    case 'J': case 'j': return 8;
    case 'Q': case 'q': return 9;
    case 'K': case 'k': return 10;
    case 'A': case 'a': return 11;
    case '2': return 12;
    case 'B': case 'b': return 13;
    case 'R': case 'r': return 14;
    default: return -1;
  }
}

bool is_sep(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == ','; }

// Positions in messages count characters: a valid UTF-8 sequence is one, any other byte one.
std::size_t chars_before(std::string_view s, std::size_t end) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < end; ++chars) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t n = b < 0x80 ? 1 : (b >= 0xC2 && b <= 0xDF) ? 2 : (b >= 0xE0 && b <= 0xEF) ? 3 : (b >= 0xF0 && b <= 0xF4) ? 4 : 0;
    for (std::size_t k = 1; n && k < n; ++k) {
      if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) n = 0;
    }
    i += n ? n : 1;
  }
  return chars;
}

// The text as rules.md reads it: a full-width form of ASCII (U+FF01..U+FF5E: EF BC 81..BF,
// EF BD 80..9E) as its ASCII character, the ideographic space (E3 80 80) as a space. EF and
// E3 are never continuation bytes, so matching the bytes anywhere is matching characters.
std::string folded(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto at = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0; };
    if (at(0) == 0xEF && at(1) == 0xBC && at(2) >= 0x81 && at(2) <= 0xBF) {
      out += static_cast<char>(at(2) - 0x81 + 0x21), i += 3;
    } else if (at(0) == 0xEF && at(1) == 0xBD && at(2) >= 0x80 && at(2) <= 0x9E) {
      out += static_cast<char>(at(2) - 0x80 + 0x60), i += 3;
    } else if (at(0) == 0xE3 && at(1) == 0x80 && at(2) == 0x80) {
      out += ' ', i += 3;
    } else {
      out += s[i++];
    }
  }
  return out;
}

Ref reference(std::string_view given, int max_rank, int max_joker) {
  const std::string text = folded(given);
  const std::string_view s = text;
  Ref out;
  std::size_t tokens = 0;
  for (std::size_t k = 0; k < s.size(); ++k) tokens += !is_sep(s[k]) && (k == 0 || is_sep(s[k - 1]));
  const bool long_names = tokens >= 2;
  const auto error = [&](std::size_t at) {
    out.ok = false;
    out.error_at = chars_before(s, at);
    return out;
  };
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' || c == ',') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    int rank;
    const char next = i + 1 < s.size() ? s[i + 1] : '\0';
    if (c == '1' && next == '0') {
      rank = 7;
      i += 2;
    } else if (long_names && (i == 0 || is_sep(s[i - 1])) && (i + 2 >= s.size() || is_sep(s[i + 2])) &&
               (c == 'B' || c == 'b' || c == 'R' || c == 'r') && (next == 'J' || next == 'j')) {
      rank = (c == 'B' || c == 'b') ? 13 : 14;  // a long joker name: a whole token of text of two or more
      i += 2;
    } else {
      rank = ref_rank(c);
      if (rank < 0) return error(start);
      ++i;
    }
    if (rank < 13 && i < s.size()) {
      const char t = s[i];
      if (t == 's' || t == 'S' || t == 'h' || t == 'H' || t == 'd' || t == 'D' || t == 'c' || t == 'C') {
        ++i;
      } else if (i + 2 < s.size() && static_cast<unsigned char>(s[i]) == 0xE2 &&
                 static_cast<unsigned char>(s[i + 1]) == 0x99 && static_cast<unsigned char>(s[i + 2]) >= 0xA0 &&
                 static_cast<unsigned char>(s[i + 2]) <= 0xA7) {
        i += 3;
        if (s.compare(i, 3, "\xEF\xB8\x8F") == 0) i += 3;  // the emoji variation selector
      }
    }
    // A nibble holds 15: a limit above that cannot be honoured and acts as 15.
    const int limit = std::min(rank >= 13 ? max_joker : max_rank, 15);
    if (out.counts[static_cast<std::size_t>(rank)] >= limit) return error(start);
    ++out.counts[static_cast<std::size_t>(rank)];
  }
  return out;
}

std::optional<std::size_t> position_in(const std::string& message) {
  const auto at = message.find("at position ");  // the first: the quoted text may hold the words too
  if (at == std::string::npos) return std::nullopt;
  return static_cast<std::size_t>(std::strtoull(message.c_str() + at + 12, nullptr, 10));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const int max_rank = data[0] % 18, max_joker = data[1] % 18;
  const std::string text(reinterpret_cast<const char*>(data + 2), size - 2);
  const std::string where = " (limits " + std::to_string(max_rank) + "/" + std::to_string(max_joker) + ")";

  const ParseResult got = parse_cards(text, max_rank, max_joker);
  const Ref want = reference(text, max_rank, max_joker);

  FUZZ_CHECK(got.ok() == want.ok, "parse_cards and the reference disagree on success" + where + ": " + got.error);
  if (!got.ok()) {
    FUZZ_CHECK(!got.error.empty(), "empty error");
    const auto pos = position_in(got.error);
    FUZZ_CHECK(pos.has_value(), "the error names no position: " + got.error);
    FUZZ_CHECK(*pos == want.error_at, "error at " + std::to_string(*pos) + ", reference at " +
                                          std::to_string(want.error_at) + where + ": " + got.error);
  } else {
    FUZZ_CHECK((got.cards & ~kRankBits) == 0, "bits outside the 15 ranks");
    for (int r = 0; r < kNumRanks; ++r) {
      FUZZ_CHECK(count(got.cards, r) == want.counts[static_cast<std::size_t>(r)],
                 std::string("count of rank ") + rank_char(r) + " is " + std::to_string(count(got.cards, r)) +
                     ", reference " + std::to_string(want.counts[static_cast<std::size_t>(r)]) + where);
    }
    const std::string canonical = to_text(got.cards);
    FUZZ_CHECK(static_cast<int>(canonical.size()) == total(got.cards), "to_text length differs from the card count");
    const ParseResult again = parse_cards(canonical, max_rank, max_joker);
    FUZZ_CHECK(again.ok() && again.cards == got.cards, "to_text does not parse back: '" + canonical + "'");
  }

  // Case-insensitivity of the ASCII letters: the same outcome and cards.
  std::string upper = text;
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  const ParseResult up = parse_cards(upper, max_rank, max_joker);
  FUZZ_CHECK(up.ok() == got.ok(), "upper-casing changes success");
  if (up.ok()) FUZZ_CHECK(up.cards == got.cards, "upper-casing changes the cards");
  if (!up.ok()) FUZZ_CHECK(position_in(up.error) == position_in(got.error), "upper-casing moves the error");

  // rank_char and to_text are total functions.
  (void)rank_char(static_cast<int>(static_cast<std::int8_t>(data[0])));
  Mask raw = 0;
  std::memcpy(&raw, data, std::min<std::size_t>(size, sizeof raw));
  FUZZ_CHECK(static_cast<int>(to_text(raw).size()) == total(raw & kRankBits), "to_text of a raw mask");
  return 0;
}
