// A hand of Dou Dizhu as a state machine: deal, bidding, play, scoring (docs/rules.md, "A hand
// of play", "Bidding", "Scoring").
//
// Seats 0, 1, 2 (and 3 with four players) play in that order (the direction of play).
// The landlord plays alone against the others (the peasants). Bidding is classic (bid 1-3
// above the highest bid; a player who passed never bids again; a 3 ends it, and so does a
// pass from every other player after the highest bid; all pass: redeal), call-and-rob (call, then one rob chance for each player after the caller who
// did not decline, then the caller's rob-back; each rob doubles), or none (the landlord
// is given, base stake 1). The landlord takes the kitty and, with rules.partner, plays
// alone or names a partner (phase Partner); then it leads. After every other
// player passes, the last player who played leads anything. The first to empty the hand
// ends it. With wild cards (laizi) a wild rank is drawn after each deal; a play takes its
// cards spent (wild.hpp) from the hand. With rules.each_for_self (Run Fast) there is no
// auction and no landlord: every seat plays for itself, the cards left after the deal are
// set aside unseen, and each_for_self.cpp adds its rules of play and its settlement.
//
// A `State` is a plain value: copying it is the cheap copy search wants. A `Game` adds
// the record (deals and actions), undo, and the random generator used for redeals.
// Illegal actions are reported, never applied: `check` says why, `apply` refuses.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/rng.hpp"
#include "rules/action.hpp"
#include "rules/move.hpp"
#include "rules/movegen.hpp"
#include "rules/rules.hpp"
#include "rules/wild.hpp"

namespace ddz {

inline constexpr int kMaxSeats = 4;  // the four-player variant
// The first bidder of a hand without a landlord (rules.each_for_self) that the holder of
// the 3 of spades leads (first_lead, below); a seat there leads freely.
inline constexpr int kThreeOfSpades = -1;

// Partner comes between Bidding and Playing (rules.partner); it is last in the enum so
// that the older phases keep their values.
enum class Phase : std::uint8_t { Bidding, Playing, Over, Partner };

// Start bonuses (variant "happy", docs/rules.md): the seats whose dealt hand held both jokers,
// and those whose dealt hand held the 12-straight 3..A (bit i: seat i). Each kind of
// bonus doubles the stake once when any seat holds it.
struct StartBonus {
  std::uint8_t jokers = 0;
  std::uint8_t straight = 0;
  int doublings() const { return (jokers ? 1 : 0) + (straight ? 1 : 0); }
  friend bool operator==(const StartBonus&, const StartBonus&) = default;
};

// The start bonuses of a dealt hand under `rules` (none unless rules.start_bonus).
StartBonus start_bonus_of(const std::array<Mask, kMaxSeats>& dealt, const Rules& rules);

// The sides (docs/rules.md, "Four players with a partner"): the landlord and its partner,
// if it named one, against the others; without a landlord (landlord < 0: rules.each_for_self)
// each seat is a side of its own. The one definition of "teammate" every layer reads.
// The search's own nodes, which keep only the landlord and the partner, read it too.
constexpr bool same_side(int landlord, int partner, int a, int b) {
  if (landlord < 0) return a == b;
  return (a == landlord || a == partner) == (b == landlord || b == partner);
}

// The stakes of a finished hand (docs/rules.md "Scoring").
struct Settlement {
  bool landlord_won = false;
  int base = 1;
  int multiplier = 1;
  int bombs = 0;
  int rockets = 0;
  bool spring = false;
  bool anti_spring = false;
  StartBonus start_bonus{};
  int seats = 3;
  int landlord = -1;  // -1: a void hand (nobody bid, no redeal), which settles to zero
  int partner = -1;   // the landlord's partner (rules.partner), or -1: the landlord played alone
  int winner = -1;    // without a landlord (rules.each_for_self): the first out; else -1
  std::array<long long, kMaxSeats> payouts{};  // by seat (the first `seats`); sums to zero
  bool on_landlord_side(int seat) const { return landlord >= 0 && same_side(landlord, partner, seat, landlord); }
  // Whether `seat`'s side won (false in a void hand).
  bool won(int seat) const {
    if (winner >= 0) return seat == winner;
    return landlord >= 0 && on_landlord_side(seat) == landlord_won;
  }
  friend bool operator==(const Settlement&, const Settlement&) = default;
};

// Settlement arithmetic alone (throws std::invalid_argument for what `score_error`
// refuses): multiplier 2^(bombs + rockets), doubled by spring, by anti-spring and by each
// start bonus, capped by max_multiplier (0: no cap); stake = base x multiplier. Alone, the
// landlord wins or pays the stake from or to each peasant (so with four players it wins
// or pays 3 x stake); with a partner (four seats, two against two) each seat of the
// winning side receives the stake and each seat of the losing side pays it. Every count
// a deck allows gives an exact multiplier.
Settlement settle(int base, int bombs, int rockets, bool spring, bool anti_spring, bool landlord_won, int landlord,
                  int seats, int max_multiplier, StartBonus bonus = {}, int partner = -1);

// The settlement of a void hand (nobody bid, no redeal) or of an unfinished one: no stakes.
Settlement void_settlement(int seats);

// Why settle() refuses its arguments, or empty: seats 2..4 (2: a two-hand position), a
// landlord among them, a base of 0 (a void hand) or more, at most the bombs and rockets
// the decks of that many seats hold (13 bombs and one rocket a deck of 54 cards), a
// spring only when the landlord wins and an anti-spring only when it loses, a cap the rules
// take (max_multiplier_error), a partner (-1: none) only with four seats and other than
// the landlord.
std::string score_error(int base, int bombs, int rockets, bool spring, bool anti_spring, bool landlord_won, int landlord,
                        int seats, int max_multiplier, int partner = -1);

enum class CallRobStage : std::uint8_t { Calling, Robbing, RobBack };

struct State {
  std::array<Mask, kMaxSeats> hands{};
  std::array<Mask, kMaxSeats> played{};  // cards each seat has played
  Mask kitty = 0;
  Move last{};          // the move to beat; cards == 0 when the player to move leads
  std::int8_t last_by = -1;
  std::int8_t to_move = 0;
  std::int8_t landlord = -1;
  std::int8_t partner = -1;  // the landlord's partner once named (rules.partner), or -1
  std::int8_t seats = 3;  // rules.players; 2 for endgame puzzles (landlord against one opponent)
  Phase phase = Phase::Bidding;
  std::uint8_t passes = 0;                 // consecutive passes in the trick
  std::array<std::uint8_t, kMaxSeats> plays{};  // number of plays by each seat
  std::uint8_t bombs = 0;
  std::uint8_t rockets = 0;
  std::array<std::uint8_t, kMaxSeats> seat_bombs{};  // bombs and rockets each seat played (bomb_pay)
  std::int8_t lead_rank = -1;  // each_for_self: the rank the first lead must contain, or -1
  std::int8_t winner = -1;
  // Bidding. Without a landlord: kThreeOfSpades, or the seat given to lead.
  std::int8_t first_bidder = 0;
  std::uint16_t base = 0;        // the base stake once in play: the winning bid, call_base x 2^robs, or 1
  std::uint8_t high_bid = 0;     // classic
  std::int8_t high_bidder = -1;  // classic; call-and-rob: provisional landlord
  std::uint8_t out_of_auction = 0;  // seats that passed (classic) or declined (call-and-rob)
  CallRobStage stage = CallRobStage::Calling;
  std::int8_t caller = -1;
  std::uint8_t robs = 0;
  std::uint8_t to_ask = 0;  // call-and-rob: seats still to be offered a rob
  std::uint32_t redeals = 0;    // at most rules.max_redeals
  StartBonus start_bonus{};  // of the current deal
  WildRanks wild;  // the wild ranks of this deal (laizi: one; laizi2: two), or none

  friend bool operator==(const State&, const State&) = default;
};

inline bool on_landlord_side(const State& s, int seat) { return same_side(s.landlord, s.partner, seat, s.landlord); }
inline bool same_side(const State& s, int a, int b) { return same_side(s.landlord, s.partner, a, b); }

// The stake so far (docs/rules.md, "Scoring"), the one definition every reading uses: the
// base is the highest bid (classic), the call doubled by each rob (call and rob), 0
// before anyone bids or calls, and once in play the base the hand is played for (1
// without bidding); the multiplier is 2 to the bombs and rockets played, capped by
// rules.max_multiplier (1 when each seat plays for itself: it scores by cards, as its
// Settlement does). Spring, anti-spring and start bonuses join it in the Settlement.
struct Stake {
  int base = 0;
  int multiplier = 1;
};
Stake stake_so_far(const State& s, const Rules& rules);

// A 64-bit hash of the state: the hands, the cards played, the kitty, the move to beat and
// the auction. Not the rules, nor the seed's generator (the deal a redeal draws next): a
// table keyed by it holds positions of one set of rules, and two games in the auction with
// one hash may redeal differently.
std::uint64_t hash(const State& s);

struct Deal {
  std::array<Mask, kMaxSeats> hands{};
  Mask kitty = 0;
  WildRanks wild;  // the wild ranks drawn after the deal (laizi, laizi2), or none
  friend bool operator==(const Deal&, const Deal&) = default;
};

// Why `wild` cannot be the wild ranks of a hand under `rules`, or empty when it can: none,
// or as many distinct ranks 3..2 as rules.wild says.
std::string wild_ranks_error(WildRanks wild, const Rules& rules);

// Why a position's `hands`, with `last` (cards == 0: none), hold more cards of a rank than
// the decks of `rules` ("the hands and last hold 5 cards of rank 3, the deck 4"), or empty;
// `holders` names the hands in it. Each hand alone holding no more than the deck is the
// caller's to check.
std::string position_cards_error(const std::vector<Mask>& hands, const Move& last, const Rules& rules,
                                 const std::string& holders = "the hands");

// Why `hand` may not play `m` over `last` (nullptr: leading) under `rules` with `wild`
// the wild ranks (none: no rank is wild), or empty when it may: the one check of a play,
// which Game::check and doudizhu.can_play share.
std::string play_error(Mask hand, const Move& m, const Move* last, const Rules& rules, WildRanks wild);

// The seeded deal: the deck in rank order (4 x decks of each rank 3..2, then `decks` B,
// then `decks` R: 54 or 108 cards) is shuffled by Fisher-Yates from the last position
// down, drawing with `rng.below`; with h = rules.hand_size(), cards [i*h, (i+1)*h) go to
// seat i and the rest to the kitty. Standard: 0-16 to seat 0, 17-33 to seat 1, 34-50 to
// seat 2, 51-53 the kitty; sanren: 18 each, no kitty; four players: 25 each, 100-107 the
// kitty. With wild cards the game then draws the wild ranks from the same generator
// (`draw_wilds`, wild.hpp), before any later deal.
Deal deal_cards(Rng& rng, const Rules& rules = Rules{});
// A seed's deal as a game draws it: deal_cards, then the wild ranks under wild-card rules.
Deal seeded_deal(Rng& rng, const Rules& rules);

// Run Fast's table (docs/rules.md, "Run Fast", each_for_self.cpp): with rules.each_for_self
// no seat is landlord and every seat plays for itself. The rules of play the game adds to
// the combinations: who leads first and what that lead holds, must-beat, the warning of a
// seat on its last card, and the settlement of the first out.

// Whether `rules` have rules of play beyond the combinations (the first lead's rank,
// must-beat, the warning): the hot paths skip them otherwise.
inline bool has_table_rules(const Rules& rules) { return rules.each_for_self || rules.must_beat || rules.single_card_warning; }

// A recorded action a replay on another deal refuses: its place among the current deal's
// actions, and the seat that took it.
struct Refusal {
  std::size_t action = 0;
  int seat = 0;
};

// What a replay on another deal refused: the first action, how many there were and how
// far the deal is from allowing them (Game::refusal_distance, summed); and whether the
// deal held every card played (else the replay stopped there). `cause` weighs each rank of
// the first refusal's seat by how much of what refuses it its cards make (a refused pass:
// the cards of that rank the plays that beat take from the hand, wild ones as themselves,
// summed over the plays; a refused solo: the cards above it): where a card must go from
// to allow it.
struct Refusals {
  std::optional<Refusal> first;
  int count = 0;
  std::size_t distance = 0;
  bool held = true;
  std::array<std::uint32_t, kNumRanks> cause{};
};

// The first lead of a hand: its seat, and the rank it must contain (-1: any lead).
struct FirstLead {
  int seat = 0;
  int rank = -1;
};

// The holder of the 3 of spades leads, with a 3. The deal is of ranks only, so which of
// the four 3s is the spade is drawn from `rng` (a seat holding k of them leads with chance
// k/4); when the spade was set aside, the seat holding the lowest card dealt leads with
// that rank (among seats holding that rank, a seat holding k of its n cards dealt leads
// with chance k/n).
FirstLead first_lead(const Deal& deal, const Rules& rules, Rng& rng);
// The chance that first_lead gives `lead` for `deal`: what a seat that saw who leads, and
// with what rank, learns of a deal (worlds.hpp weighs the deals it draws by it).
double first_lead_chance(const Deal& deal, const Rules& rules, const FirstLead& lead);
// A seed drawn from `rng` whose own draws give `lead` on `deal` (first_lead after the
// seed's own deal, as a game from a given deal draws it): a world of Run Fast, its seed
// drawn afresh, replays from its record with the first lead it holds. The last seed
// drawn when none of kLeadSeedDraws does.
std::uint64_t seed_drawing_lead(const Deal& deal, const Rules& rules, const FirstLead& lead, Rng& rng);

// Why the player to move may not play `m` (nullptr: pass) under Run Fast's rules of play,
// though the combination itself is legal, or empty: the first lead's rank, the warning,
// must-beat (which needs the moves the player holds, `moves`, already filtered).
std::string run_fast_error(const State& s, const Rules& rules, const Move* m, const std::vector<Move>& moves);

// Removes from `moves` (the player to move's combinations) those the first lead's rank or
// the warning forbid.
void keep_run_fast_moves(const State& s, const Rules& rules, std::vector<Move>& moves);

// Whether a pass is legal in `s`, given the moves left by keep_run_fast_moves.
bool may_pass(const State& s, const Rules& rules, const std::vector<Move>& moves);

// The settlement of a finished hand without a landlord (docs/rules.md, "Run Fast"): each
// other seat pays the first out a point per card it holds, nothing for one card, double if
// it never played; with bomb_pay each bomb's owner collected 10 from each other seat.
Settlement settle_each_for_self(const State& s, const Rules& rules);

// Why a settlement of a hand without a landlord is not one (pickles), or empty.
std::string each_for_self_settlement_error(const Settlement& s);

class Game {
 public:
  // The constructors check what they are given (rules that validate(), seats in range,
  // a deal of the whole deck, a position whose hands the deck holds and whose last move
  // is a move) and throw std::invalid_argument naming the problem otherwise.
  //
  // A seeded hand: shuffle, deal, bid from `first_bidder`. With bidding none, the first
  // bidder is the landlord; with each_for_self it leads, or with kThreeOfSpades the holder
  // of the 3 of spades leads (drawn from the seed after the deal).
  Game(std::uint64_t seed, const Rules& rules, int first_bidder);
  // A given deal in place of the seed's first deal; `landlord` >= 0 skips the bidding
  // (base stake 1). Redeals draw from the seed as they would after its own first deal.
  // With wild cards a deal whose wild is none takes the ranks the seed draws.
  Game(const Deal& deal, const Rules& rules, int first_bidder, int landlord, std::uint64_t seed);
  // A position in play (puzzles, search): 2 hands or rules.players, the landlord (-1, and
  // only then, with each_for_self), who
  // moves, and the move to beat with who played it (last.cards == 0: `to_move` leads),
  // with wild cards the wild ranks (none: no rank is wild), and with rules.partner and
  // four hands the landlord's partner (-1: alone).
  static Game from_position(const std::vector<Mask>& hands, int landlord, int to_move, const Move& last,
                            int last_by, const Rules& rules, WildRanks wild = {}, int partner = -1);

  const State& state() const { return state_; }
  // The state before the first action, and whether the game began from a position.
  const State& initial() const { return initial_; }
  bool started_from_position() const { return from_position_; }
  // The hand's first lead when it was drawn (Run Fast's 3 of spades: every seat saw who
  // led and with what rank), for the whole hand; none when the seat to lead was given.
  std::optional<FirstLead> drawn_first_lead() const;
  // Whether the first deal was given (Game(deal, ...)) rather than the seed's own.
  bool deal_given() const { return deal_given_; }
  const Rules& rules() const { return rules_; }
  const std::vector<Deal>& deals() const { return deals_; }
  // Every action since the first deal, or only those since the current deal began.
  std::vector<SeatAction> history(bool current_deal_only = false) const;
  // Calls f(seat, action) on the current deal's actions, newest first, while f returns
  // true: the recent actions without copying the whole history (the encoders' need).
  template <class F>
  void visit_recent(F&& f) const {
    for (auto it = taken_.rbegin(); it != taken_.rend() && !it->redealt; ++it) {
      if (!f(static_cast<int>(it->seat), it->action)) return;
    }
  }
  // Calls f(seat, action) on every action since the first deal, oldest first: the whole
  // history without copying it (an information set's key).
  template <class F>
  void visit_history(F&& f) const {
    for (const Taken& t : taken_) f(static_cast<int>(t.seat), t.action);
  }
  // How many of the actions taken came before the current deal (redealt hands).
  std::size_t deal_start() const;
  // The seat that made the current deal's first play (from its start or position), or -1.
  int first_player() const;
  std::uint64_t seed() const { return seed_; }
  // How many actions have been applied since the first deal (undo takes them back).
  std::size_t actions_taken() const { return taken_.size(); }

  // Why `a` is illegal now, or empty when legal.
  std::string check(const Action& a) const;
  // Applies a legal action and returns true; returns false (and changes nothing) otherwise.
  bool apply(const Action& a);
  // Applies an action known to be legal (one of legal_actions()), skipping the check.
  void apply_legal(const Action& a);
  bool undo();
  // The redeal that ends this deal, if one does, deals `deal`: the stream's own next deal
  // as a redeal draws it, any other (a world's, whose deals are no draws of its stream:
  // hide_from) leaving the stream as it is. A record from a given deal replays its redeals
  // so. Throws std::invalid_argument outside the auction or for no deal of the rules.
  void give_next_redeal(const Deal& deal);
  // This game with its current deal (a position game: its starting hands) replaced by
  // `deal`, and the current deal's actions replayed on it; search uses it to build the
  // worlds a player cannot tell apart. Throws std::invalid_argument when an action no
  // longer applies (the deal does not hold the cards that were played). A recorded pass or
  // play stands even where must-beat or the warning (Run Fast) would refuse it in the new
  // deal; strict_refusal says whether the deal replays without that.
  Game replayed_on(const Deal& deal) const;
  // replayed_on into `out`, reusing its storage: a search's worlds, one a simulation,
  // without allocating each.
  void replay_into(const Deal& deal, Game& out) const;
  // replay_into where every action, passes included, must be legal in `deal`: the first
  // that is not (`out` then unspecified), or nothing (`out` the replayed game).
  std::optional<Refusal> strict_refusal(const Deal& deal, Game& out) const;
  // replay_into, counting the actions Run Fast's rules of play refuse in `deal` (they
  // stand as recorded), with the first of them.
  Refusals refusals(const Deal& deal, Game& out) const;
  // Makes this game, replayed on a new current deal as a world of `seat`, hold nothing
  // the seat cannot know: the deals before the current one dealt afresh from `rng` but
  // for the seat's own hands (the states undo returns to as well), and a seed drawn from
  // `rng`, so that neither the seed nor a redeal (after undo too) shows a real deal. A
  // game from a position has no other deal and keeps its seed (0).
  void hide_from(int seat, Rng& rng);
  // For a world that leaves the search (hide_from done; sample_worlds, a Python bot's
  // view), whose record must replay it: under Run Fast, whose first leader a record draws
  // from the seed, the seed drawn afresh from `rng` among those that draw the world's
  // (seed_drawing_lead). A search's own worlds, never recorded, skip the draws.
  void seed_for_record(Rng& rng);
  std::vector<Action> legal_actions() const;
  void legal_actions(std::vector<Action>& out) const;  // into a reused buffer (cleared first)
  // The stakes once phase == Over; a void hand (nobody bid, no redeal) settles to zero.
  Settlement result() const;

 private:
  Game(const Rules& rules, std::uint64_t seed) : rules_(rules), rng_(seed), seed_(seed) {
    taken_.reserve(kTypicalSteps);
    saved_.reserve(kTypicalSteps);
  }
  static constexpr std::size_t kTypicalSteps = 96;  // a hand takes about 65 actions
  void start(const Deal& deal, int first_bidder, int landlord);
  void start_each_for_self(const Deal& deal, int first_bidder);
  // This game, a copy of `source`, with the current deal `deal` and source's actions of it
  // replayed, an action that only Run Fast's rules of play refuse standing as recorded
  // unless `strict` (then the replay stops at it): what was refused.
  Refusals replay(const Deal& deal, const Game& source, bool strict);
  // How far the hand to move is from allowing `a`, a pass or solo Run Fast's rules of play
  // refuse: the plays must-beat demands in place of the pass (with wild cards, whose plays
  // may be thousands, listed only for a cause: else 1), or the cards above the solo, which
  // the warning demands. With `cause`, adds each rank's cards in those plays (the cards
  // they take from the hand, wild ones as themselves) or above the solo to it
  // (Refusals::cause).
  std::size_t refusal_distance(const Action& a, std::array<std::uint32_t, kNumRanks>* cause = nullptr) const;
  void apply_unchecked(const Action& a);
  // In play: why `a` is no pass or play the combinations allow (the leader passing, a move
  // the hand cannot play or that does not beat), before Run Fast's rules of play.
  std::string combination_error(const Action& a) const;
  void start_play(int landlord, int base);
  void restart_stream(std::uint64_t seed);  // a world's seed: its stream, and every state undo returns to, from it
  void redeal();
  Deal next_deal();  // the seed's next deal, and its wild ranks when the rules have them
  Deal stream_redeal();  // the deal a redeal draws from the stream
  void nobody_bid();
  void apply_bid(const Action& a);
  void apply_call_rob(const Action& a);
  void apply_partner(const Action& a);
  void apply_play(const Action& a);
  int next_seat(int seat) const { return (seat + 1) % state_.seats; }

  // Each action applied, with who took it and whether it ended its deal (a redeal
  // followed); kept apart from the states undo restores, so that reading the recent
  // actions (every encoder, every step of a VectorEnv) touches a few cache lines rather
  // than a state's worth of memory per action.
  struct Taken {
    Action action;
    std::int8_t seat;
    bool redealt;
  };
  // What undo restores, one per action taken.
  struct Saved {
    State before;
    Rng rng_before;
  };

  Rules rules_;
  State state_;
  State initial_;
  bool from_position_ = false;
  bool deal_given_ = false;
  Rng rng_;
  std::uint64_t seed_;
  std::vector<Deal> deals_;
  std::vector<Taken> taken_;
  std::vector<Saved> saved_;
  // The deals undo took back, latest last, each with its place in deals_ and the stream
  // after it: the same redeal taken again deals it again. A game's own stream would deal
  // it anyway; a world's deal (hide_from) is no draw of its stream, and must come back.
  struct UndoneDeal {
    std::size_t index;
    Deal deal;
    Rng rng_after;
  };
  std::vector<UndoneDeal> undone_deals_;
};

}  // namespace ddz
