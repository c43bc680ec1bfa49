#include "rules.hpp"

namespace ddz {

std::string validate(const Rules& rules) {
  // Two decks arrive with the four-player variant; the masks already hold their counts.
  if (rules.decks != 1) return "decks must be 1";
  if (rules.max_solo_kicker_copies < 1 || rules.max_solo_kicker_copies > 4) {
    return "max_solo_kicker_copies must be between 1 and 4";
  }
  if (rules.call_base < 1 || rules.call_base > 1000) return "call_base must be between 1 and 1000";
  if (rules.max_multiplier < 0) return "max_multiplier must be 0 (no cap) or positive";
  if (rules.wild && rules.decks != 1) return "wild cards are played with one deck";
  return {};
}

std::string validate_cards(Mask cards, const Rules& rules) {
  if (cards & ~kRankBits) return "bits set outside the 15 ranks";
  const RankSet over = (ranks_with_at_least(cards, rules.max_per_rank() + 1) & ~kJokers) |
                       (ranks_with_at_least(cards, rules.max_per_joker() + 1) & kJokers);
  if (!over) return {};
  for (int r = 0; r < kNumRanks; ++r) {
    const int limit = r >= kBlackJoker ? rules.max_per_joker() : rules.max_per_rank();
    if (count(cards, r) > limit) {
      return std::to_string(count(cards, r)) + " cards of rank " + rank_char(r) + ", at most " +
             std::to_string(limit) + " with " + std::to_string(rules.decks) + " deck(s)";
    }
  }
  return {};
}

std::optional<Rules> preset(std::string_view name) {
  Rules r;
  if (name == "standard") return r;
  if (name == "douzero") {
    r.max_solo_kicker_copies = 4;
    r.kicker_trio_extends_airplane = true;
    r.joker_kicks_four_with_two = true;
    r.both_jokers_as_kickers = true;
    r.bidding = Bidding::None;
    return r;
  }
  if (name == "rlcard") {
    r.max_solo_kicker_copies = 3;
    r.joker_kicks_four_with_two = true;
    r.bidding = Bidding::None;
    return r;
  }
  if (name == "openspiel") {
    r.four_with_two = false;
    r.max_solo_kicker_copies = 3;
    r.kicker_trio_extends_airplane = true;
    r.passed_may_bid_again = true;
    r.redeal_when_nobody_bids = false;
    return r;
  }
  if (name == "laizi") {
    r.wild = true;
    return r;
  }
  return std::nullopt;
}

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names{"standard", "douzero", "rlcard", "openspiel", "laizi"};
  return names;
}

}  // namespace ddz
