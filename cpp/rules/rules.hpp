// The rules configuration: every rule that differs between rule books or between the
// public engines is a field here (see docs/rules.md, "Kicker rules" and "Rule presets").
//
// Presets reproduce the public engines' move sets:
//   standard  - the seed rules (default)
//   douzero   - DouZero 1.1.0
//   rlcard    - RLCard 1.2.0
//   openspiel - OpenSpiel 2.x dou_dizhu
// and the variants of docs/rules.md ("Variants"):
//   sanren      - no kitty: 18 cards each
//   happy       - start bonuses (both jokers, or the 12-straight 3..A, in a dealt hand)
//   four_player - two decks, 25 cards each and 8 in the kitty, landlord against three
//   laizi       - the standard rules with wild cards of one rank (wild.hpp)
//   laizi2      - the standard rules with wild cards of two ranks
//   four_partner - four_player where the landlord may name a partner (two against two)
//   run_fast    - Run Fast (Paodekuai): 48 cards, 15 each, every seat for itself, must beat
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/cards.hpp"

namespace ddz {

enum class Bidding : std::uint8_t {
  Classic,  // bid 1-3 above the highest bid, or pass (standard)
  CallRob,  // call, then rob (each rob doubles), then the caller's rob-back
  None,     // no auction: the landlord is given (DouZero, RLCard)
};

// The largest cap max_multiplier takes (the rules and the settlement arithmetic alike).
inline constexpr int kMostMaxMultiplier = 1'000'000;

struct Rules {
  // Four of a rank with two solos / two pairs exists as a combination.
  bool four_with_two = true;
  // How many cards of one rank the solo kickers of one move may hold (1..4); 1 means the
  // solo kickers have pairwise different ranks.
  int max_solo_kicker_copies = 1;
  // With copies >= 3: may an airplane's solo kickers hold a trio at the rank just below or
  // just above the body (cards that would extend the chain)?
  bool kicker_trio_extends_airplane = false;
  // May a single joker be a solo kicker of four-with-two?
  bool joker_kicks_four_with_two = false;
  // May both jokers be solo kickers of one move (they are otherwise only the rocket)?
  bool both_jokers_as_kickers = false;
  // May two pair kickers of one move have the same rank?
  bool pair_kickers_share_rank = false;
  // Number of decks (1; 2 for the four-player variant). Bounds counts per rank.
  int decks = 1;
  // Number of players: 3, or 4 with two decks (the landlord against three peasants).
  int players = 3;
  // Cards of the kitty; each player is dealt the rest of the deck in equal shares
  // (3: 17 each; 0, sanren: 18 each; 8 with two decks and four players: 25 each).
  int kitty_size = 3;
  // Start bonuses (variant "happy"): a dealt hand (before the kitty) holding both jokers
  // (all of them: the rocket), or one card of each rank 3..A (the 12-straight), doubles
  // the stake; each bonus once per hand, whichever seat holds it.
  bool start_bonus = false;

  // How the landlord is chosen.
  Bidding bidding = Bidding::Classic;
  // Classic bidding: may a player who passed bid again later in the auction? (OpenSpiel:
  // yes; the auction then ends when a bid is followed by a pass from every other seat.)
  bool passed_may_bid_again = false;
  // When nobody bids: redeal (standard), or end the hand with no stakes (OpenSpiel).
  bool redeal_when_nobody_bids = true;
  // The most redeals of one hand (0..10000); when nobody bids after that many, the hand
  // ends with no stakes, as without redeals, so a table where nobody ever bids ends.
  int max_redeals = 100;
  // Call-and-rob: the stake of a call before any rob.
  int call_base = 1;
  // The cap on the multiplier (bombs, rocket, spring); 0 means no cap, at most kMostMaxMultiplier.
  int max_multiplier = 0;
  // Wild cards: after each deal `wild` distinct ranks 3..2 are drawn (0: none; 1: laizi;
  // 2: laizi2) whose cards stand for any rank.
  int wild = 0;
  // Four players: after taking the kitty the landlord plays alone or names one of the
  // other seats as partner, openly, and plays two against two (docs/rules.md, "Four
  // players with a partner").
  bool partner = false;

  // Run Fast (docs/rules.md, "Run Fast"). The 48-card deck: no jokers, three aces, one 2
  // (players=3, decks=1); with kitty_size 3 those cards are set aside unseen.
  bool deck_48 = false;
  // No auction and no landlord: every seat plays for itself; the first out wins and each
  // other seat pays a point per card it holds (nothing for one card, double if it never
  // played). The first lead is the 3 of spades' holder's (Game, kThreeOfSpades).
  bool each_for_self = false;
  // A pass is legal only when no legal play beats the last play.
  bool must_beat = false;
  // When the next seat holds one card, a solo played must be the player's highest card.
  bool single_card_warning = false;
  // A trio (and each trio of an airplane) takes two cards of any ranks (TrioTwo,
  // AirplaneTwos); fewer kickers only with the player's last cards (is_short); the
  // classic trio kinds are not combinations.
  bool trio_takes_two = false;
  // Four of a rank with three cards of any ranks (FourThree).
  bool four_with_three = false;
  // The fewest pairs of a pair straight (2..3).
  int shortest_pair_chain = 3;
  // Three aces (every ace of the 48-card deck) are a bomb, the highest.
  bool ace_trio_bomb = false;
  // Each bomb played collects 10 from each other seat at once, win or lose (each_for_self).
  bool bomb_pay = false;

  int max_per_rank() const { return 4 * decks; }
  int deck_size() const { return total(deck()); }
  int hand_size() const { return (deck_size() - kitty_size) / players; }
  // The most cards a seat holds: the landlord's hand with the kitty (a dealt hand when
  // each plays for itself: nobody takes the cards set aside).
  int max_hand() const { return hand_size() + (each_for_self ? 0 : kitty_size); }
  // The whole deck: 4 x decks of each rank 3..2, `decks` of each joker; deck_48: 4 of each
  // rank 3..K, three aces, one 2.
  Mask deck() const {
    if (deck_48) return kOnePerRank * 4 - cards_of(kAce, 1) - cards_of(kTwo, 3) - cards_of(kBlackJoker, 4) - cards_of(kRedJoker, 4);
    return (kOnePerRank * 4 - cards_of(kBlackJoker, 3) - cards_of(kRedJoker, 3)) * static_cast<Mask>(decks);
  }
  int max_per_joker() const { return decks; }
  // Both jokers, all copies: the rocket.
  Mask rocket() const { return cards_of(kBlackJoker, decks) | cards_of(kRedJoker, decks); }

  friend bool operator==(const Rules&, const Rules&) = default;
};

// Why a configuration is invalid, or empty when valid.
std::string validate(const Rules& rules);

// Whether the decks of `rules` can hold `cards`: the fast check of the hot paths.
inline bool deck_holds(Mask cards, const Rules& rules) {
  return (cards & ~kRankBits) == 0 && contains(rules.deck(), cards);
}

// Why `cards` cannot be held under `rules` (a count above what the decks hold, or bits
// outside the 15 ranks), or empty when it can.
std::string validate_cards(Mask cards, const Rules& rules);

// Whether `hand` can be a seat's hand under `rules`: cards the decks hold, at most
// max_hand() of them. Work on a hand grows with its size (the moves of 53 cards under
// laizi2 number millions), so every entry that takes a hand bounds it by this.
inline bool holds_hand(Mask hand, const Rules& rules) { return deck_holds(hand, rules) && total(hand) <= rules.max_hand(); }

// Why `hand` is no hand of a game under `rules` (holds_hand), or empty when it is one.
std::string hand_error(Mask hand, const Rules& rules);

// Why `cap` is no max_multiplier (0..kMostMaxMultiplier), or empty.
std::string max_multiplier_error(int cap);

std::optional<Rules> preset(std::string_view name);
const std::vector<std::string>& preset_names();

// The fields of Rules by name, once (docs/rules.md, "The fields of Rules"): what
// construction by keyword, replace, to_dict, repr, hashing, pickling and records read. A
// field is a flag, a number or a choice (bidding): one member pointer is set. A number
// that was a flag (`wild`) also reads True and False as 1 and 0, so that older records
// and callers keep their meaning.
struct RulesField {
  const char* name;
  bool Rules::* flag;
  int Rules::* number;
  Bidding Rules::* choice;
  bool was_flag = false;
};
inline constexpr RulesField kRulesFields[] = {
    {"four_with_two", &Rules::four_with_two, nullptr, nullptr},
    {"max_solo_kicker_copies", nullptr, &Rules::max_solo_kicker_copies, nullptr},
    {"kicker_trio_extends_airplane", &Rules::kicker_trio_extends_airplane, nullptr, nullptr},
    {"joker_kicks_four_with_two", &Rules::joker_kicks_four_with_two, nullptr, nullptr},
    {"both_jokers_as_kickers", &Rules::both_jokers_as_kickers, nullptr, nullptr},
    {"pair_kickers_share_rank", &Rules::pair_kickers_share_rank, nullptr, nullptr},
    {"decks", nullptr, &Rules::decks, nullptr},
    {"players", nullptr, &Rules::players, nullptr},
    {"kitty_size", nullptr, &Rules::kitty_size, nullptr},
    {"start_bonus", &Rules::start_bonus, nullptr, nullptr},
    {"bidding", nullptr, nullptr, &Rules::bidding},
    {"passed_may_bid_again", &Rules::passed_may_bid_again, nullptr, nullptr},
    {"redeal_when_nobody_bids", &Rules::redeal_when_nobody_bids, nullptr, nullptr},
    {"call_base", nullptr, &Rules::call_base, nullptr},
    {"max_multiplier", nullptr, &Rules::max_multiplier, nullptr},
    {"max_redeals", nullptr, &Rules::max_redeals, nullptr},
    {"wild", nullptr, &Rules::wild, nullptr, true},
    {"partner", &Rules::partner, nullptr, nullptr},
    {"deck_48", &Rules::deck_48, nullptr, nullptr},
    {"each_for_self", &Rules::each_for_self, nullptr, nullptr},
    {"must_beat", &Rules::must_beat, nullptr, nullptr},
    {"single_card_warning", &Rules::single_card_warning, nullptr, nullptr},
    {"trio_takes_two", &Rules::trio_takes_two, nullptr, nullptr},
    {"four_with_three", &Rules::four_with_three, nullptr, nullptr},
    {"shortest_pair_chain", nullptr, &Rules::shortest_pair_chain, nullptr},
    {"ace_trio_bomb", &Rules::ace_trio_bomb, nullptr, nullptr},
    {"bomb_pay", &Rules::bomb_pay, nullptr, nullptr},
};

const RulesField* rules_field_named(std::string_view name);

// "classic", "call_rob" and "none", and back.
const char* bidding_name(Bidding b);
std::optional<Bidding> bidding_named(std::string_view name);

}  // namespace ddz
