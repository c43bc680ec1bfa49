#include "cards.hpp"

#include <algorithm>
#include <cctype>

namespace ddz {

namespace {

constexpr std::string_view kRankChars = "3456789TJQKA2BR";

// Rank of a single-character token (X is ten), or -1.
int rank_of(char c) {
  char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == 'X') upper = 'T';
  const auto pos = kRankChars.find(upper);
  return pos == std::string_view::npos ? -1 : static_cast<int>(pos);
}

bool is_suit_letter(char c) {
  switch (std::tolower(static_cast<unsigned char>(c))) {
    case 's': case 'h': case 'd': case 'c': return true;
    default: return false;
  }
}

// Suit symbols U+2660..U+2667 are E2 99 A0..A7 in UTF-8; returns their byte length or 0.
std::size_t suit_symbol_length(std::string_view s, std::size_t i) {
  if (i + 2 < s.size() && static_cast<unsigned char>(s[i]) == 0xE2 &&
      static_cast<unsigned char>(s[i + 1]) == 0x99) {
    const auto third = static_cast<unsigned char>(s[i + 2]);
    if (third >= 0xA0 && third <= 0xA7) return 3;
  }
  return 0;
}

// The token that starts at i for an error message: up to the next separator.
std::string token_at(std::string_view s, std::size_t i) {
  std::size_t j = i;
  while (j < s.size() && s[j] != ' ' && s[j] != ',' && j - i < 8) ++j;
  return std::string(s.substr(i, std::max<std::size_t>(j - i, 1)));
}

ParseResult error(std::string_view text, std::size_t i, std::string_view what) {
  ParseResult r;
  r.error = std::string(what) + " '" + token_at(text, i) + "' at position " + std::to_string(i);
  return r;
}

}  // namespace

char rank_char(int rank) { return rank >= 0 && rank < kNumRanks ? kRankChars[static_cast<std::size_t>(rank)] : '?'; }

std::string to_text(Mask m) {
  std::string out;
  for (int r = 0; r < kNumRanks; ++r) out.append(static_cast<std::size_t>(count(m, r)), rank_char(r));
  return out;
}

ParseResult parse_cards(std::string_view text, int max_per_rank, int max_per_joker) {
  ParseResult result;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    int rank = -1;
    const char next = i + 1 < text.size() ? static_cast<char>(std::toupper(static_cast<unsigned char>(text[i + 1]))) : '\0';
    if (c == '1' && next == '0') {
      rank = 7;
      i += 2;
    } else if ((c == 'B' || c == 'b' || c == 'R' || c == 'r') && next == 'J') {
      rank = rank_of(c);
      i += 2;
    } else {
      rank = rank_of(c);
      if (rank < 0) return error(text, start, "unknown card token");
      ++i;
    }
    // An optional suit right after a rank (never after a joker).
    if (rank < kBlackJoker && i < text.size()) {
      if (is_suit_letter(text[i])) {
        ++i;
      } else {
        i += suit_symbol_length(text, i);
      }
    }
    // A nibble holds 15: a larger limit cannot be honoured.
    const int limit = std::min(rank >= kBlackJoker ? max_per_joker : max_per_rank, 15);
    if (count(result.cards, rank) >= limit) {
      return error(text, start, "too many cards of rank " + std::string(1, rank_char(rank)) +
                                    " (at most " + std::to_string(limit) + "):");
    }
    result.cards += cards_of(rank, 1);
  }
  return result;
}

}  // namespace ddz
