// Run Fast (docs/rules.md, "Run Fast"): the preset's fields, its combinations checked by
// brute force against the generator on small hands, and the game's rules by scenario.
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "check.hpp"
#include "game/game.hpp"
#include "game/infoset.hpp"
#include "game/record.hpp"
#include "helpers.hpp"
#include "oracle.hpp"
#include "play/policy.hpp"
#include "search/worlds.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

using MoveKey = std::tuple<Mask, int, int, int>;
MoveKey key_of(const Move& m) { return {m.cards, static_cast<int>(m.kind), m.key, m.length}; }

// A hand of `n` cards drawn from the 48-card deck.
Mask random_hand(Rng& rng, int n, const Rules& r) {
  Mask left = r.deck(), hand = 0;
  for (int i = 0; i < n; ++i) {
    int pick = static_cast<int>(rng.below(static_cast<std::uint32_t>(total(left))));
    for (int rank = 0; rank < kNumRanks; ++rank) {
      if (pick < count(left, rank)) {
        hand += cards_of(rank, 1);
        left -= cards_of(rank, 1);
        break;
      }
      pick -= count(left, rank);
    }
  }
  return hand;
}

// The leads by definition: every reading of every sub-multiset, a short trio or airplane
// only when it is the whole hand (oracle.hpp).
std::set<MoveKey> oracle_leads(Mask hand, const Rules& r) {
  std::set<MoveKey> out;
  for (const Move& m : oracle::natural_leads(hand, r)) out.insert(key_of(m));
  return out;
}

// The generator's moves as a set, checking that none repeats.
std::set<MoveKey> generated(Mask hand, const Move* last, const Rules& r) {
  const std::vector<Move> moves = legal_moves(hand, last, r);
  std::set<MoveKey> out;
  for (const Move& m : moves) out.insert(key_of(m));
  CHECK_EQ(out.size(), moves.size());
  return out;
}

}  // namespace

TEST(run_fast_preset_and_fields) {
  const Rules r = rules("run_fast");
  CHECK(validate(r).empty());
  CHECK_EQ(r.deck_size(), 48);
  CHECK_EQ(r.hand_size(), 15);
  CHECK_EQ(r.max_hand(), 15);  // nobody takes the cards set aside
  CHECK_EQ(count(r.deck(), kAce), 3);
  CHECK_EQ(count(r.deck(), kTwo), 1);
  CHECK_EQ(count(r.deck(), kBlackJoker) + count(r.deck(), kRedJoker), 0);
  CHECK_EQ(count(r.deck(), 0), 4);
  // Bad combinations are refused by the field's name.
  Rules four = r;
  four.players = 4;
  four.decks = 2;
  four.kitty_size = 0;
  CHECK(validate(four).find("deck_48") == 0);
  Rules bid = r;
  bid.bidding = Bidding::Classic;
  CHECK(validate(bid).find("each_for_self") == 0);
  Rules aces;
  aces.ace_trio_bomb = true;
  CHECK(validate(aces).find("ace_trio_bomb") == 0);
  Rules pay;
  pay.bomb_pay = true;
  CHECK(validate(pay).find("bomb_pay") == 0);
  Rules chain;
  chain.shortest_pair_chain = 1;
  CHECK(validate(chain).find("shortest_pair_chain") == 0);
  Rules wild_trio;
  wild_trio.wild = 1;
  wild_trio.trio_takes_two = true;
  CHECK(validate(wild_trio).find("trio_takes_two") == 0);
  Rules two_decks_four = *preset("four_player");
  two_decks_four.four_with_three = true;
  CHECK(validate(two_decks_four).find("trio_takes_two and four_with_three") == 0);
  for (const char* name : {"deck_48", "each_for_self", "must_beat", "single_card_warning", "trio_takes_two", "four_with_three",
                           "shortest_pair_chain", "ace_trio_bomb", "bomb_pay"}) {
    CHECK(rules_field_named(name) != nullptr);
  }
}

TEST(run_fast_combinations) {
  const Rules r = rules("run_fast");
  // Trio with two of any ranks, a pair of them or not; the classic trio kinds are gone.
  CHECK(reads_as(cards("33345"), MoveKind::TrioTwo, 0, 1, r));
  CHECK(reads_as(cards("33344"), MoveKind::TrioTwo, 0, 1, r));
  CHECK(!reads_as(cards("3334"), MoveKind::TrioSolo, 0, 1, r));
  CHECK(!reads_as(cards("333"), MoveKind::Trio, 0, 1, r));
  CHECK(is_short(move("3334", MoveKind::TrioTwo, r)));
  CHECK(!is_short(move("33345", MoveKind::TrioTwo, r)));
  // Four with three; four with two is off.
  CHECK(reads_as(cards("4444567"), MoveKind::FourThree, 1, 1, r));
  CHECK(!reads_as(cards("444456"), MoveKind::FourTwoSolos, 1, 1, r));
  // Pair chains from two pairs.
  CHECK(reads_as(cards("3344"), MoveKind::PairStraight, 0, 2, r));
  CHECK(!reads_as(cards("3344"), MoveKind::PairStraight, 0, 2, Rules{}));
  // Three aces: the highest bomb.
  const Move aces = move("AAA", MoveKind::Bomb, r);
  CHECK(beats(aces, move("KKKK", MoveKind::Bomb, r)));
  CHECK(!beats(move("KKKK", MoveKind::Bomb, r), aces));
  CHECK(beats(aces, move("2", MoveKind::Solo, r)));
  CHECK(legal_moves(cards("KKKK3"), &aces, r).empty());
  // A short trio is listed only with the last cards.
  CHECK_EQ(static_cast<int>(legal_moves(cards("3334"), nullptr, r).size()), 4);  // 3, 4, 33, 3334
  for (const Move& m : legal_moves(cards("33345"), nullptr, r)) CHECK(!is_short(m));
  // Cards that are a bomb read only as the bomb, not also as a trio with kickers of its
  // own rank: the three aces and a four as the last cards are one play each.
  for (const char* bomb : {"AAA", "3333"}) {
    const std::vector<Move> readings = classify(cards(bomb), r);
    CHECK_EQ(static_cast<int>(readings.size()), 1);
    CHECK(readings.front().kind == MoveKind::Bomb);
    int listed = 0;
    for (const Move& m : legal_moves(cards(bomb), nullptr, r)) listed += m.cards == cards(bomb);
    CHECK_EQ(listed, 1);
  }
  CHECK(!reads_as(cards("3333"), MoveKind::TrioTwo, 0, 1, r));
}

// Brute force: every sub-multiset of a small hand classified, against the generator, for
// leads and for follows of every lead of another hand.
TEST(run_fast_movegen_oracle) {
  const Rules r = rules("run_fast");
  Rng rng(2026);
  for (int trial = 0; trial < 150; ++trial) {
    const Mask hand = random_hand(rng, 5 + trial % 8, r);
    const std::set<MoveKey> leads = oracle_leads(hand, r);
    const std::set<MoveKey> got = generated(hand, nullptr, r);
    CHECK(got == leads);
    const Mask other = random_hand(rng, 5 + trial % 9, r);
    for (const Move& last : legal_moves(other, nullptr, r)) {
      std::set<MoveKey> expected;
      for (const Move& m : oracle::natural_leads(hand, r)) {
        if (beats(m, last)) expected.insert(key_of(m));
      }
      CHECK(generated(hand, &last, r) == expected);
    }
  }
  // Hands rich in trios and quads, where the kinds with free kickers multiply.
  for (const char* h : {"333444555", "3334445556", "33334444A", "AAA3334", "4444555K", "3344556677", "333444AAA"}) {
    CHECK(generated(cards(h), nullptr, r) == oracle_leads(cards(h), r));
  }
}

namespace {

// A position of run_fast: three hands, `to_move` to play over `last` (text, a solo when
// one card) played by the seat before it, or leading.
Game position(std::vector<const char*> hands, int to_move, const char* last = nullptr) {
  const Rules r = rules("run_fast");
  std::vector<Mask> masks;
  for (const char* h : hands) masks.push_back(cards(h));
  Move m{};
  if (last) m = classify(cards(last), r).front();
  return Game::from_position(masks, -1, to_move, m, last ? (to_move + 2) % 3 : -1, r);
}

bool has(const std::vector<Action>& legal, const Action& a) { return std::find(legal.begin(), legal.end(), a) != legal.end(); }

bool play(Game& g, const char* text, MoveKind kind = MoveKind::Solo) {
  return g.apply(Action::play(move(text, kind, g.rules())));
}

}  // namespace

TEST(run_fast_must_beat) {
  Game g = position({"3", "6K", "789"}, 1, "5");
  std::vector<Action> legal = g.legal_actions();
  CHECK(!has(legal, Action::pass()));  // 6 and K beat the 5
  CHECK_EQ(static_cast<int>(legal.size()), 2);
  CHECK(g.check(Action::pass()).find("must_beat") == 0);
  CHECK(!g.apply(Action::pass()));
  // Nothing beats: the pass is the only action.
  Game h = position({"3", "46", "789"}, 1, "K");
  CHECK(h.legal_actions() == std::vector<Action>{Action::pass()});
  // Without must_beat a pass stays legal.
  Rules free = rules("run_fast");
  free.must_beat = false;
  Game f = Game::from_position({cards("3"), cards("6K"), cards("789")}, -1, 1, move("5", MoveKind::Solo, free), 0, free);
  CHECK(has(f.legal_actions(), Action::pass()));
}

TEST(run_fast_single_card_warning) {
  // Seat 2 holds one card: seat 1's solos must be its highest card, other plays are free.
  Game g = position({"3456", "5599K", "8"}, 1);
  const std::vector<Action> legal = g.legal_actions();
  int solos = 0;
  for (const Action& a : legal) solos += a.move.kind == MoveKind::Solo;
  CHECK_EQ(solos, 1);
  CHECK(has(legal, Action::play(move("K", MoveKind::Solo, g.rules()))));
  CHECK(has(legal, Action::play(move("55", MoveKind::Pair, g.rules()))));
  CHECK(g.check(Action::play(move("5", MoveKind::Solo, g.rules()))).find("single_card_warning") == 0);
  // Following, too; and must-beat then forces the highest card.
  Game f = position({"3456", "5K", "8"}, 1, "4");
  CHECK(f.legal_actions() == std::vector<Action>{Action::play(move("K", MoveKind::Solo, f.rules()))});
}

TEST(run_fast_settlement) {
  // A bomb pays at once and its owner wins; the others never played: closed, double.
  Game g = position({"33334", "56", "789"}, 0);
  CHECK(play(g, "3333", MoveKind::Bomb));
  CHECK(g.apply(Action::pass()));
  CHECK(g.apply(Action::pass()));
  CHECK(play(g, "4"));
  Settlement s = g.result();
  CHECK_EQ(s.winner, 0);
  CHECK_EQ(s.landlord, -1);
  CHECK(s.won(0) && !s.won(1) && !s.won(2));
  CHECK_EQ(s.payouts[0], 2 * 2 + 3 * 2 + 20);
  CHECK_EQ(s.payouts[1], -2 * 2 - 10);
  CHECK_EQ(s.payouts[2], -3 * 2 - 10);
  CHECK(restore_settlement(s).empty());
  // One card left pays nothing; a seat that played pays a point a card.
  Game h = position({"3K", "4Q", "789"}, 0);
  CHECK(play(h, "3"));
  CHECK(play(h, "4"));
  CHECK(!play(h, "7"));  // seat 0 holds one card: seat 2's solo must be its highest, the 9
  CHECK(play(h, "9"));
  CHECK(play(h, "K"));
  s = h.result();
  CHECK(s.payouts == (std::array<long long, kMaxSeats>{2, 0, -2, 0}));
  // A short trio only as the last cards.
  Game t = position({"3334", "56", "789"}, 0);
  CHECK(play(t, "3334", MoveKind::TrioTwo));
  CHECK(t.state().phase == Phase::Over);
  Game u = position({"33345", "56", "789"}, 0);
  CHECK(u.check(Action::play(move("3334", MoveKind::TrioTwo, u.rules()))).find("fewer than two kickers") != std::string::npos);
}

TEST(run_fast_first_lead) {
  const Rules r = rules("run_fast");
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    Game g(seed, r, kThreeOfSpades);
    const State& s = g.state();
    CHECK(s.phase == Phase::Playing && s.landlord == -1);
    CHECK_EQ(total(s.kitty), 3);
    for (int seat = 0; seat < 3; ++seat) CHECK_EQ(total(s.hands[static_cast<std::size_t>(seat)]), 15);
    // The lead's rank: a 3 when the leader holds one; else no 3 was dealt to a seat, or
    // the spade was set aside and the lead's rank is the lowest card dealt.
    const Mask leader = s.hands[static_cast<std::size_t>(s.to_move)];
    CHECK(count(leader, s.lead_rank) > 0);
    CHECK_EQ(int{s.lead_rank}, 0);  // three cards set aside leave a 3 dealt
    for (const Action& a : g.legal_actions()) CHECK(count(a.move.cards, s.lead_rank) > 0);
    // The same seed leads alike; a given seat leads freely.
    CHECK_EQ(int{Game(seed, r, kThreeOfSpades).state().to_move}, int{s.to_move});
    Game free(seed, r, 2);
    CHECK(free.state().to_move == 2 && free.state().lead_rank == -1);
  }
  // The spade set aside: the lowest card dealt leads. Three 3s aside leave the fourth's
  // holder to lead with it; all four (six cards aside) leave the 4s.
  Deal d;
  d.hands = {cards("444455556666777"), cards("88889999TTTTJJJ"), cards("3JQQQQKKKKAAA27")};
  d.kitty = cards("333");
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    const Game g(d, r, kThreeOfSpades, -1, seed);
    CHECK(g.state().to_move == 2 && g.state().lead_rank == 0);
  }
  Rules six = r;
  six.kitty_size = 6;
  Deal e;
  e.hands = {cards("44445555666677"), cards("78888999TTTTJJ"), cards("JJQQQQKKKKAAA2")};
  e.kitty = cards("333379");
  int leads[3] = {};
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const Game g(e, six, kThreeOfSpades, -1, seed);
    CHECK_EQ(int{g.state().lead_rank}, 1);
    ++leads[g.state().to_move];
  }
  CHECK(leads[0] == 40);  // seat 0 holds every 4 dealt
}

// first_lead_chance is first_lead's distribution: on deals of both kinds (the spade dealt
// or set aside, kitty_size 3 and 6), the frequencies of each (seat, rank) over 20,000
// draws are the chances it gives, within 5 standard errors, and the chances sum to 1.
TEST(run_fast_first_lead_chance_is_the_draws_frequency) {
  Rules six = rules("run_fast");
  six.kitty_size = 6;
  Deal aside;
  aside.hands = {cards("34445555666677"), cards("3788899TTTTJJJ"), cards("8JQQQQKKKKAAA2")};
  aside.kitty = cards("33799J");
  Rng dealer(7);
  for (const auto& [deal, r] : std::vector<std::pair<Deal, Rules>>{{aside, six}, {deal_cards(dealer, rules("run_fast")), rules("run_fast")}}) {
    constexpr int kDraws = 20'000;
    std::map<std::pair<int, int>, int> seen;
    Rng rng(11);
    for (int i = 0; i < kDraws; ++i) {
      const FirstLead lead = first_lead(deal, r, rng);
      ++seen[{lead.seat, lead.rank}];
    }
    double sum = 0;
    for (int seat = 0; seat < r.players; ++seat) {
      for (int rank = 0; rank < kTwo; ++rank) {
        const double p = first_lead_chance(deal, r, {seat, rank});
        sum += p;
        const double observed = static_cast<double>(seen[{seat, rank}]) / kDraws;
        CHECK(std::abs(observed - p) <= 5 * std::sqrt(p * (1 - p) / kDraws) + 1e-12);
      }
    }
    CHECK(std::abs(sum - 1) < 1e-9);
  }
}

// Random games: legal_actions and check agree on every play the hand holds and on the
// pass; payouts sum to zero; undo and replays restore the state.
TEST(run_fast_random_games) {
  const Rules r = rules("run_fast");
  Rng rng(7);
  for (std::uint64_t seed = 0; seed < 120; ++seed) {
    Game g(seed, r, kThreeOfSpades);
    while (g.state().phase != Phase::Over) {
      const State& s = g.state();
      const std::vector<Action> legal = g.legal_actions();
      CHECK(!legal.empty());
      std::vector<Action> candidates{Action::pass()};
      for (const Move& m : legal_moves(s.hands[static_cast<std::size_t>(s.to_move)], s.last.cards ? &s.last : nullptr, r)) {
        candidates.push_back(Action::play(m));
      }
      for (const Action& a : candidates) CHECK_EQ(g.check(a).empty(), has(legal, a));
      const std::uint64_t before = hash(s);
      const Action a = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
      CHECK(g.apply(a));
      CHECK(g.undo());
      CHECK_EQ(hash(g.state()), before);
      g.apply_legal(a);
    }
    const Settlement s = g.result();
    CHECK_EQ(s.payouts[0] + s.payouts[1] + s.payouts[2], 0LL);
    Deal d = g.deals().front();
    const Game again = g.replayed_on(d);
    CHECK(again.state() == g.state());
  }
}

// Sampled worlds under must-beat: every world keeps what the seat knows, and a world is
// drawn again until its recorded passes were forced (most are, with 256 draws a world).
TEST(run_fast_worlds_replay_the_passes) {
  const Rules r = rules("run_fast");
  int strict = 0, worlds = 0;
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    Game g(seed, r, kThreeOfSpades);
    Rng rng(seed);
    std::vector<Action> legal;
    for (int step = 0; step < 14 && g.state().phase != Phase::Over; ++step) {
      g.legal_actions(legal);
      g.apply_legal(legal[choose(PolicyKind::Random, g, legal, rng)]);
    }
    if (g.state().phase == Phase::Over) continue;
    const int seat = g.state().to_move;
    for (const Game& w : sample_worlds(g, seat, 4, seed)) {
      ++worlds;
      CHECK_EQ(infoset_key(w, seat), infoset_key(g, seat));
      Game again = w;
      strict += !g.strict_refusal(w.deals().back(), again);
    }
  }
  CHECK(worlds > 0 && strict == worlds);
}

// What a replay on another deal counts of an action Run Fast's rules of play refuse there:
// for a pass, the plays must-beat demands (distance) and, for the first refusal, each
// rank's cards in them (cause: what the mending walk of worlds.cpp gives away first); for a
// solo under the warning, the cards above it.
TEST(refusals_weigh_what_a_refused_action_reads) {
  Game passed = position({"3TJ", "33", "44"}, 0);
  CHECK(passed.apply(Action::play(classify(cards("3"), passed.rules()).front())));
  CHECK(passed.apply(Action::pass()));  // forced: 3s do not beat a 3
  Deal beaten = passed.deals().back();
  beaten.hands[1] = cards("4K");
  beaten.hands[2] = cards("33");
  Game out = passed;
  const Refusals pass = passed.refusals(beaten, out);
  CHECK(pass.held && pass.count == 1 && pass.first && pass.first->seat == 1 && pass.first->action == 1);
  CHECK_EQ(pass.distance, std::size_t{2});  // the 4 or the K
  for (int r = 0; r < kNumRanks; ++r) {
    const bool beats = r == rank_named("4") || r == rank_named("K");
    CHECK_EQ(pass.cause[static_cast<std::size_t>(r)], beats ? 1U : 0U);
  }

  Game warned = position({"355", "4", "66"}, 0);
  CHECK(warned.apply(Action::play(classify(cards("5"), warned.rules()).front())));
  Deal higher = warned.deals().back();
  higher.hands[0] = cards("5AA");
  higher.hands[2] = cards("35");
  const Refusals solo = warned.refusals(higher, out);
  CHECK(solo.held && solo.count == 1 && solo.first && solo.first->seat == 0);
  CHECK_EQ(solo.distance, std::size_t{2});  // the As it should have led
  CHECK_EQ(solo.cause[static_cast<std::size_t>(rank_named("A"))], 2U);
  CHECK_EQ(solo.cause[static_cast<std::size_t>(rank_named("5"))], 0U);
}

// The heuristic under Run Fast: with the next seat on its last card it leads no solo
// while it holds another combination; it sheds a long combination before single cards.
TEST(run_fast_heuristic_leads) {
  Rng rng(1);
  Game warned = position({"3456", "579QQK", "8"}, 1);
  std::vector<Action> legal = warned.legal_actions();
  const Action pick = legal[choose(PolicyKind::Heuristic, warned, legal, rng)];
  CHECK(pick.move.kind != MoveKind::Solo);
  Game shed = position({"34567899JQK", "3456", "789T"}, 0);
  legal = shed.legal_actions();
  const Action first = legal[choose(PolicyKind::Heuristic, shed, legal, rng)];
  CHECK(total(first.move.cards) >= 5);
}
