// The game state machine driven by arbitrary bytes.
//
// Input: rules (a preset or every field), how to start (a seed; a given deal with or
// without a landlord; a position of 2 or 3 hands as the Python boundary accepts them;
// or any of the three with raw arguments: any ints, any masks, any Move, rules with a
// field out of range, which the constructors must refuse with std::invalid_argument
// or accept as a hand that keeps every invariant below), then one operation per byte: play a legal action chosen by index; offer an arbitrary
// or mutated Action; undo; copy. Checked at every step:
//   - check(a) is empty exactly when a is among legal_actions() (a Pass or Play compared
//     by what it does); a refused action leaves State, hash, history and deals unchanged,
//     and apply() refuses it too; an accepted one is applied;
//   - cards are conserved; a hand in progress always has a legal action, a finished hand
//     none; the base stake is the auction's (bid, call_base x 2^robs, or 1);
//   - undo restores the State and hash from before the step; a copy is independent;
//   - at the end: payouts sum to zero; replaying the history on a fresh Game built like
//     the first gives the same State and deals; undoing everything gives initial().
#include <optional>
#include <stdexcept>

#include "fuzz_common.hpp"
#include "game/game.hpp"
#include "rules/move_checks.hpp"

using namespace ddz;
using namespace ddz::fuzz;

namespace {

constexpr Mask kTwoDecks = (kOnePerRank * 4 - cards_of(kBlackJoker, 3) - cards_of(kRedJoker, 3)) * 2;

// How the game was built, so that a replay can build it again.
struct Start {
  int how = 0;  // 0 seed, 1 deal, 2 position
  bool raw = false;  // arguments drawn without regard to what is valid
  std::uint64_t seed = 0;
  int first_bidder = 0;
  int landlord = -1;
  Deal deal;
  std::vector<Mask> hands;
  int to_move = 0;
  Move last{};
  int last_by = -1;
  WildRanks wild;  // a position's wild ranks (rules with wild cards)
};

Game build(const Start& s, const Rules& r) {
  switch (s.how) {
    case 0: return Game(s.seed, r, s.first_bidder);
    case 1: return Game(s.deal, r, s.first_bidder, s.landlord, s.seed);
    default: return Game::from_position(s.hands, s.landlord, s.to_move, s.last, s.last_by, r, s.wild);
  }
}

// The rules' deck (one or two) shuffled by `seed`, as single cards.
std::vector<Mask> shuffled_deck(std::uint64_t seed, const Rules& rules) {
  std::vector<Mask> cards;
  for (int r = 0; r < kNumRanks; ++r) {
    for (int c = 0; c < count(rules.deck(), r); ++c) cards.push_back(cards_of(r, 1));
  }
  Rng rng(seed);
  for (std::size_t i = cards.size() - 1; i > 0; --i) std::swap(cards[i], cards[rng.below(static_cast<std::uint32_t>(i + 1))]);
  return cards;
}

// Single cards dealt in order: rules.hand_size() to each player, the rest to the kitty.
Deal deal_of(const std::vector<Mask>& deck, const Rules& rules) {
  Deal d;
  const auto hand = static_cast<std::size_t>(rules.hand_size()), dealt = hand * static_cast<std::size_t>(rules.players);
  for (std::size_t i = 0; i < deck.size(); ++i) (i < dealt ? d.hands[i / hand] : d.kitty) += deck[i];
  return d;
}

// A start as the Python boundary would accept it (Game.from_deal / Game.from_position
// check these), or nullopt-like `false` when the bytes describe none.
bool make_start(Input& in, Rules& r, Start& s) {
  const std::uint8_t how = in.byte();
  s.seed = in.u64();
  s.first_bidder = in.below(r.players);
  if (r.each_for_self && in.flag()) s.first_bidder = kThreeOfSpades;  // Run Fast: the 3 of spades leads
  s.how = how % 3;
  if (how >= 224) {  // raw arguments, including rules that do not validate
    s.raw = true;
    const auto any_int = [&] { return static_cast<int>(static_cast<std::int8_t>(in.byte())); };
    s.first_bidder = any_int();
    s.landlord = any_int();
    s.to_move = any_int();
    s.last_by = any_int();
    s.last = in.raw_move();
    if (r.wild) {
      s.last.stand_ins = static_cast<std::uint32_t>(in.u16()) << (in.flag() ? 16 : 0);
      s.wild = WildRanks{any_int(), any_int()};
      s.deal.wild = WildRanks{any_int(), r.wild == 2 ? any_int() : kNoWild};
    }
    for (int i = 0, n = in.byte() % 5; i < n; ++i) s.hands.push_back(in.u64());
    for (Mask& h : s.deal.hands) h = in.u64();
    s.deal.kitty = in.u64();
    switch (in.byte() % 8) {
      case 0: r.decks = any_int(); break;
      case 1: r.max_solo_kicker_copies = any_int(); break;
      case 2: r.call_base = any_int() * 100; break;
      case 3: r.max_multiplier = any_int(); break;
      case 4: r.bidding = static_cast<Bidding>(in.byte()); break;
      case 5: r.players = any_int(); break;
      case 6: r.kitty_size = any_int(); break;
      default: break;
    }
    if (in.flag() && s.how == 1) {  // a real deal with one card moved, or not
      s.deal = validate(r).empty() ? deal_of(shuffled_deck(s.seed, r), r) : Deal{};
      if (in.flag()) s.deal.hands[0] ^= cards_of(in.below(15), 1);
    }
    return true;
  }
  if (s.how == 0) return true;
  if (r.wild) {
    // The rules' number of distinct ranks (raw starts try the wrong numbers).
    Rng pick(in.u64());
    s.wild = draw_wilds(pick, r.wild);
    s.deal.wild = in.flag() ? WildRanks{} : draw_wilds(pick, r.wild);  // none: the seed's draw
  }
  const std::vector<Mask> deck = shuffled_deck(s.seed ^ 0x51ED, r);
  if (s.how == 1) {
    s.deal = deal_of(deck, r);
    s.landlord = r.each_for_self ? -1 : in.below(r.players + 1) - 1;  // -1: bid for it (or none: Run Fast)
    return true;
  }
  // A position: 2 hands, or one per player, from the deck; a peasant's of 1 card up to a dealt
  // share, the landlord's up to the share and the kitty. Every hand holds cards: a seat with
  // none has already won (Game.from_position accepts empty hands of the seats not to move
  // today, and such a position sticks: see tests/test_hostile_input.py).
  const int seats = in.byte() & 1 ? r.players : 2;
  s.landlord = r.each_for_self ? -1 : in.below(seats);  // Run Fast: no landlord
  std::size_t next = 0;
  for (int i = 0; i < seats; ++i) {
    Mask h = 0;
    const int most = i == s.landlord ? r.max_hand() : r.hand_size();
    for (int n = 1 + in.byte() % most; n > 0 && next < deck.size(); --n) h += deck[next++];
    s.hands.push_back(h);
  }
  s.to_move = in.below(seats);
  if (in.flag()) {
    // The move to beat: a reading of some cards not in the hands (the boundary refuses a
    // position holding more than the deck).
    Mask pool = 0;
    for (std::size_t i = next; i < deck.size(); ++i) pool += deck[i];
    const Mask cards = per_rank_min(pool, in.u64());
    std::vector<Move> readings = r.wild ? legal_moves(trim(cards, 1 + in.below(8)), nullptr, r, s.wild)
                                        : classify(trim(cards, 2 + in.below(19)), r);
    // Only readings a move to beat may be (a short airplane is a hand's last cards only).
    std::erase_if(readings, [&](const Move& m) { return !last_move_error(m, r, s.wild).empty(); });
    if (!readings.empty()) {
      s.last = readings[in.below(static_cast<int>(readings.size()))];
      s.last_by = in.below(seats);
      if (s.last_by == s.to_move) return false;
      // The move came out of last_by's hand: both fit in what it was dealt.
      const int share = s.last_by == s.landlord ? r.max_hand() : r.hand_size();
      if (total(s.hands[static_cast<std::size_t>(s.last_by)]) + total(spent(s.last)) > share) return false;
    }
  }
  return true;
}

Mask held(const State& s) {
  Mask all = 0;
  for (int i = 0; i < s.seats; ++i) all += s.hands[static_cast<std::size_t>(i)] + s.played[static_cast<std::size_t>(i)];
  if (s.phase == Phase::Bidding || s.landlord < 0) all += s.kitty;
  return all;
}

// Equal in what they do: a pass is a pass, a play is its move, the rest type and value.
bool same_action(const Action& a, const Action& b) {
  if (a.type != b.type) return false;
  if (a.type == ActionType::Pass) return true;
  if (a.type == ActionType::Play) return same_move(a.move, b.move);
  return a.value == b.value;
}

std::string text(const Action& a) {
  return "Action{type " + std::to_string(int(a.type)) + ", value " + std::to_string(a.value) + ", move " +
         dump(a.move) + "}";
}

std::string text(const State& s) {
  std::string t = "State{phase " + std::to_string(int(s.phase)) + ", to_move " + std::to_string(s.to_move) + ", landlord " +
                  std::to_string(s.landlord) + ", hands";
  for (int i = 0; i < s.seats; ++i) t += " '" + to_text(s.hands[static_cast<std::size_t>(i)]) + "'";
  return t + ", last '" + to_text(s.last.cards) + "' by " + std::to_string(s.last_by) + ", base " +
         std::to_string(s.base) + ", robs " + std::to_string(s.robs) + "}";
}

// An Action from the bytes: arbitrary fields, or a legal one with something changed.
Action junk_action(Input& in, const std::vector<Action>& legal) {
  const std::uint8_t how = in.byte();
  if (how < 96 || legal.empty()) {
    Action a;
    a.type = static_cast<ActionType>(in.byte() % 8);  // past Rob too
    a.value = in.byte();
    a.move = in.raw_move();
    return a;
  }
  Action a = legal[static_cast<std::size_t>(in.below(static_cast<int>(legal.size())))];
  switch (how % 8) {
    case 0: a.move.cards ^= cards_of(in.below(16), 1 + in.below(3)); break;
    case 1: a.move.key = static_cast<std::uint8_t>(a.move.key + 1 + in.below(2)); break;
    case 2: a.move.length = static_cast<std::uint8_t>(a.move.length + 1); break;
    case 3: a.move.kind = static_cast<MoveKind>((static_cast<int>(a.move.kind) + 1 + in.below(13)) % kNumMoveKinds); break;
    case 4: a.value = static_cast<std::uint8_t>(a.value + 1 + in.below(4)); break;
    case 5: a.type = static_cast<ActionType>((static_cast<int>(a.type) + 1 + in.below(4)) % 5); break;
    case 6:
      a.move.stand_ins = in.u16() | (in.flag() ? static_cast<std::uint32_t>(in.u16()) << 16 : 0);
      a.move.wild_rank = static_cast<std::uint8_t>(in.below(14) | (in.flag() ? in.below(15) << 4 : 0));
      break;
    default: a.move.cards = per_rank_min(a.move.cards | in.u64(), kTwoDecks); break;
  }
  return a;
}

// The base stake right after the auction: the winning bid, or call_base x 2^robs.
int expected_base(const Game& g) {
  const State& s = g.state();
  return g.rules().bidding == Bidding::Classic ? s.high_bid : g.rules().call_base << s.robs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  Rules r = rules_from(in);
  Start start;
  if (!make_start(in, r, start)) return 0;
  std::optional<Game> built;
  try {
    built.emplace(build(start, r));
  } catch (const std::invalid_argument& e) {
    FUZZ_CHECK(start.raw, std::string("a constructor refused arguments the boundary accepts: ") + e.what());
    FUZZ_CHECK(std::strlen(e.what()) > 0, "an empty refusal");
    return 0;
  }
  Game& g = *built;
  if (start.raw) {  // accepted: the arguments must have been valid after all
    FUZZ_CHECK(validate(r).empty(), "a game accepted rules that do not validate: " + validate(r));
    const State& s0 = g.state();
    for (int i = 0; i < s0.seats; ++i) {
      FUZZ_CHECK(validate_cards(s0.hands[static_cast<std::size_t>(i)], r).empty(), "a game accepted a hand beyond the deck");
    }
    FUZZ_CHECK(s0.to_move >= 0 && s0.to_move < s0.seats, "a game accepted a seat out of range");
    FUZZ_CHECK(s0.landlord >= -1 && s0.landlord < s0.seats, "a game accepted a landlord out of range");
    FUZZ_CHECK(s0.last.cards == 0 || is_valid_move(s0.last, r), "a game accepted a last move that is no move");
  }
  const State initial = g.state();
  const std::uint64_t initial_hash = hash(initial);
  const Mask cards = held(initial);
  FUZZ_CHECK(g.initial() == initial, "initial() is not the starting state");
  if (start.how != 2) FUZZ_CHECK(cards == r.deck(), "the deal does not hold the deck");
  if (start.how == 2) FUZZ_CHECK(contains(r.deck(), cards), "the position holds more than the deck: " + text(initial));

  std::vector<State> before;  // the state before each applied step
  while (!in.empty()) {
    const State& s = g.state();
    const std::vector<Action> legal = g.legal_actions();
    FUZZ_CHECK(held(s) == cards, "cards not conserved: " + text(s));
    if (s.phase == Phase::Over) {
      FUZZ_CHECK(legal.empty(), "legal actions after the hand is over");
    } else {
      FUZZ_CHECK(!legal.empty(), "no legal action in a hand in progress: " + text(s));
    }
    if (s.phase == Phase::Playing && before.empty()) {
      FUZZ_CHECK(s.base == 1, "a hand that starts in play has base 1");
    } else if (s.phase == Phase::Playing && before.back().phase == Phase::Bidding) {
      FUZZ_CHECK(s.base == expected_base(g), "base " + std::to_string(s.base) + " after the auction, expected " +
                                                 std::to_string(expected_base(g)) + ": " + text(s));
    }
    for (std::size_t i = 0; i < legal.size(); ++i) {
      for (std::size_t j = i + 1; j < legal.size() && j < i + 4; ++j) {
        FUZZ_CHECK(!same_action(legal[i], legal[j]), "a legal action listed twice: " + text(legal[j]));
      }
    }
    const std::uint8_t op = in.byte();
    if (op < 150) {  // a legal action by index
      if (legal.empty()) continue;
      const Action& a = legal[static_cast<std::size_t>(in.below(static_cast<int>(legal.size())))];
      const std::string why = g.check(a);
      FUZZ_CHECK(why.empty(), "check refuses a legal action " + text(a) + ": " + why);
      before.push_back(g.state());
      FUZZ_CHECK(g.apply(a), "apply refuses a legal action " + text(a));
    } else if (op < 215) {  // an arbitrary or mutated action
      const Action a = junk_action(in, legal);
      const std::string why = g.check(a);
      const bool listed = std::any_of(legal.begin(), legal.end(), [&](const Action& l) { return same_action(l, a); });
      FUZZ_CHECK(why.empty() == listed, (listed ? "check refuses a listed action " : "check accepts an unlisted action ") +
                                            text(a) + ": '" + why + "' in " + text(g.state()));
      const State snapshot = g.state();
      const std::uint64_t snapshot_hash = hash(snapshot);
      const std::size_t history_size = g.history().size();
      const std::vector<Deal> deals = g.deals();
      if (!why.empty()) {
        FUZZ_CHECK(!g.apply(a), "apply takes an action check refused: " + text(a));
        FUZZ_CHECK(g.state() == snapshot && hash(g.state()) == snapshot_hash, "a refused action changed the state");
        FUZZ_CHECK(g.history().size() == history_size && g.deals() == deals, "a refused action changed the record");
      } else {
        before.push_back(snapshot);
        FUZZ_CHECK(g.apply(a), "apply refuses an action check accepted: " + text(a));
        FUZZ_CHECK(g.history().size() == history_size + 1, "an applied action is not in the history");
      }
    } else if (op < 245) {  // undo
      if (before.empty()) {
        FUZZ_CHECK(!g.undo(), "undo with nothing to undo");
        continue;
      }
      FUZZ_CHECK(g.undo(), "undo refused");
      FUZZ_CHECK(g.state() == before.back(), "undo does not restore the state");
      FUZZ_CHECK(hash(g.state()) == hash(before.back()), "undo does not restore the hash");
      before.pop_back();
    } else {  // a copy is independent
      Game copy = g;
      FUZZ_CHECK(copy.state() == g.state() && copy.history().size() == g.history().size(), "a copy differs");
      const State mine = g.state();
      const std::vector<Action> copy_legal = copy.legal_actions();
      if (!copy_legal.empty()) copy.apply(copy_legal.front());
      copy.undo();
      copy.undo();
      FUZZ_CHECK(g.state() == mine, "acting on a copy changed the original");
    }
  }

  const State& end = g.state();
  FUZZ_CHECK(held(end) == cards, "cards not conserved at the end");
  if (end.phase == Phase::Over) {
    const Settlement st = g.result();
    long long sum = 0;
    for (const long long p : st.payouts) sum += p;
    FUZZ_CHECK(sum == 0 && st.seats == end.seats, "payouts do not sum to zero over the seats");
    if (end.landlord >= 0) FUZZ_CHECK(end.winner >= 0 && end.hands[static_cast<std::size_t>(end.winner)] == 0, "winner");
  }

  // Replay on a fresh game built like the first.
  const std::vector<SeatAction> history = g.history();
  FUZZ_CHECK(history.size() == before.size(), "history and applied steps differ in number");
  Game replay = build(start, r);
  for (const SeatAction& sa : history) {
    FUZZ_CHECK(sa.seat == replay.state().to_move, "replay: a recorded seat is not the one to move");
    FUZZ_CHECK(replay.apply(sa.action), "replay refuses a recorded action " + text(sa.action));
  }
  FUZZ_CHECK(replay.state() == end && hash(replay.state()) == hash(end), "replay ends elsewhere: " + text(replay.state()));
  FUZZ_CHECK(replay.deals() == g.deals(), "replay deals differ");

  // Undo everything.
  while (g.undo()) {
  }
  FUZZ_CHECK(g.state() == initial && hash(g.state()) == initial_hash, "undoing everything does not restore the start");
  FUZZ_CHECK(g.deals().size() == 1 && g.history().empty(), "undoing everything leaves deals or history");
  return 0;
}
