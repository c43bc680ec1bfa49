#include "rules/rules.hpp"

#include "rules/card_text.hpp"

namespace ddz {

namespace {

// The largest hand wild cards are played with: the landlord's 17 cards and the kitty.
constexpr int kMostWildHand = 20;

// The Run Fast fields' combinations (docs/rules.md, "Run Fast").
std::string run_fast_error(const Rules& rules) {
  if (rules.deck_48 && (rules.players != 3 || rules.decks != 1 || rules.wild != 0)) {
    return "deck_48 needs players=3, decks=1 and wild=0";
  }
  if (rules.each_for_self && (rules.bidding != Bidding::None || rules.partner)) {
    return "each_for_self needs bidding none and no partner: there is no landlord";
  }
  // Both change a landlord's stake or hand: without a landlord they would be dealt and ignored.
  if (rules.each_for_self && (rules.wild != 0 || rules.start_bonus)) {
    return "each_for_self is played without wild cards and start bonuses (wild=0, start_bonus=False)";
  }
  // Cards pay without a landlord's multiplier: a cap would cap nothing.
  if (rules.each_for_self && rules.max_multiplier != 0) return "each_for_self scores by cards: it has no multiplier to cap (max_multiplier=0)";
  // Free kickers multiply the moves: a one-deck game's rule (two decks' 33-card hands would
  // list millions of airplanes).
  if ((rules.trio_takes_two || rules.four_with_three) && (rules.wild != 0 || rules.decks != 1)) {
    return "trio_takes_two and four_with_three are played with one deck and without wild cards";
  }
  if (rules.shortest_pair_chain < 2 || rules.shortest_pair_chain > 3) return "shortest_pair_chain must be 2 or 3";
  if (rules.ace_trio_bomb && !rules.deck_48) return "ace_trio_bomb needs deck_48: three aces must be all the aces";
  if (rules.bomb_pay && !rules.each_for_self) return "bomb_pay needs each_for_self: bombs pay between seats";
  return {};
}

}  // namespace

std::string max_multiplier_error(int cap) {
  if (cap >= 0 && cap <= kMostMaxMultiplier) return {};
  return "max_multiplier must be between 0 (no cap) and " + std::to_string(kMostMaxMultiplier);
}

std::string validate(const Rules& rules) {
  // Two decks go with four players; the masks hold their counts (8 a rank) as they are.
  if (rules.players != 3 && rules.players != 4) return "players must be 3 or 4";
  if (rules.decks != rules.players - 2) return "decks must be 1 with 3 players and 2 with 4";
  if (std::string why = run_fast_error(rules); !why.empty()) return why;
  if (rules.kitty_size < 0 || rules.kitty_size >= rules.deck_size() ||
      (rules.deck_size() - rules.kitty_size) % rules.players != 0) {
    return "kitty_size must leave the rest of the " + std::to_string(rules.deck_size()) +
           " cards in equal hands of at least one card for the " + std::to_string(rules.players) + " players";
  }
  if (rules.max_solo_kicker_copies < 1 || rules.max_solo_kicker_copies > 4) {
    return "max_solo_kicker_copies must be between 1 and 4";
  }
  if (rules.call_base < 1 || rules.call_base > 1000) return "call_base must be between 1 and 1000";
  if (std::string why = max_multiplier_error(rules.max_multiplier); !why.empty()) return why;
  if (rules.max_redeals < 0 || rules.max_redeals > 10'000) return "max_redeals must be between 0 and 10000";
  if (rules.wild < 0 || rules.wild > 2) return "wild must be 0, 1 or 2 (the number of wild ranks)";
  if (rules.wild && rules.decks != 1) return "wild cards are played with one deck";
  // Wild cards multiply a hand's moves (a 20-card hand under two wild ranks lists up to
  // 168,380; 52 cards 9.4 million): hands stay those of the wild presets.
  if (rules.wild && rules.max_hand() > kMostWildHand) {
    return "wild cards are played with hands of at most " + std::to_string(kMostWildHand) + " cards, not " +
           std::to_string(rules.max_hand()) + " (kitty_size " + std::to_string(rules.kitty_size) + ")";
  }
  if (rules.partner && rules.players != 4) return "partner needs players=4: the landlord names one of three other seats";
  return {};
}

namespace {

// The deck of `rules` as a refusal names it.
std::string deck_name(const Rules& rules) {
  if (rules.deck_48) return "Run Fast's 48-card deck (no jokers, three aces, one 2)";
  return rules.decks == 1 ? "one deck" : std::to_string(rules.decks) + " decks";
}

}  // namespace

std::string validate_cards(Mask cards, const Rules& rules) {
  if (deck_holds(cards, rules)) return {};
  if (cards & ~kRankBits) return "bits set outside the 15 ranks";
  for (int r = 0; r < kNumRanks; ++r) {
    const int limit = count(rules.deck(), r);
    if (const int n = count(cards, r); n > limit) {
      return std::to_string(n) + (n == 1 ? " card" : " cards") + " of rank " + rank_char(r) + ", at most " +
             std::to_string(limit) + " in " + deck_name(rules);
    }
  }
  return {};
}

std::string hand_error(Mask hand, const Rules& rules) {
  if (holds_hand(hand, rules)) return {};
  if (std::string why = validate_cards(hand, rules); !why.empty()) return why;
  return std::to_string(total(hand)) + " cards, more than a hand of these rules holds (" + std::to_string(rules.max_hand()) + ")";
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
  if (name == "sanren") {
    r.kitty_size = 0;
    return r;
  }
  if (name == "happy") {
    r.start_bonus = true;
    return r;
  }
  if (name == "four_player") {
    r.players = 4;
    r.decks = 2;
    r.kitty_size = 8;
    return r;
  }
  if (name == "four_partner") {
    r = *preset("four_player");
    r.partner = true;
    return r;
  }
  if (name == "run_fast") {
    r.deck_48 = true;
    r.each_for_self = true;
    r.bidding = Bidding::None;
    r.must_beat = true;
    r.single_card_warning = true;
    r.trio_takes_two = true;
    r.four_with_three = true;
    r.four_with_two = false;
    r.shortest_pair_chain = 2;
    r.ace_trio_bomb = true;
    r.bomb_pay = true;
    r.kitty_size = 3;
    return r;
  }
  if (name == "laizi") {
    r.wild = 1;
    return r;
  }
  if (name == "laizi2") {
    r.wild = 2;
    return r;
  }
  return std::nullopt;
}

const std::vector<std::string>& preset_names() {
  static const std::vector<std::string> names{
      "standard", "douzero", "rlcard", "openspiel", "sanren", "happy", "four_player", "laizi", "laizi2",
      "four_partner", "run_fast",
  };
  return names;
}

const RulesField* rules_field_named(std::string_view name) {
  for (const RulesField& f : kRulesFields) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

namespace {
constexpr const char* kBiddingNames[] = {"classic", "call_rob", "none"};
}  // namespace

const char* bidding_name(Bidding b) { return kBiddingNames[static_cast<int>(b)]; }

std::optional<Bidding> bidding_named(std::string_view name) {
  for (int i = 0; i < 3; ++i) {
    if (name == kBiddingNames[i]) return static_cast<Bidding>(i);
  }
  return std::nullopt;
}

}  // namespace ddz
