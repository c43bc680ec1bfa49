// Move generation against brute force: on random hands, leading lists exactly the
// readings of every sub-multiset, and following lists exactly those that beat `last`.
#include <algorithm>
#include <set>
#include <tuple>

#include "base/rng.hpp"
#include "check.hpp"
#include "helpers.hpp"
#include "oracle.hpp"
#include "rules/notation.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

using Key = std::tuple<Mask, int, int, int>;
Key key_of(const Move& m) { return {m.cards, static_cast<int>(m.kind), m.key, m.length}; }

// Every sub-multiset of `hand`, each classified.
std::set<Key> brute_force(Mask hand, const Rules& r) {
  std::set<Key> out;
  for (const Move& m : oracle::natural_leads(hand, r)) out.insert(key_of(m));
  return out;
}

std::string describe(const Key& k) {
  return to_text(std::get<0>(k)) + "/kind" + std::to_string(std::get<1>(k)) + "/key" + std::to_string(std::get<2>(k)) +
         "/len" + std::to_string(std::get<3>(k));
}

// `size` cards drawn from `decks` decks.
Mask random_hand(Rng& rng, int size, int decks = 1) {
  std::vector<int> deck;
  for (int r = 0; r < kNumRanks; ++r) deck.insert(deck.end(), (r >= kBlackJoker ? 1 : 4) * decks, r);
  Mask h = 0;
  for (int k = 0; k < size; ++k) {
    const auto i = rng.below(static_cast<std::uint32_t>(deck.size()));
    h += cards_of(deck[i], 1);
    deck.erase(deck.begin() + i);
  }
  return h;
}

// Hands rich in repeated ranks, where kickers and chains interact most.
Mask dense_hand(Rng& rng) {
  Mask h = 0;
  const int low = static_cast<int>(rng.below(9));
  for (int r = low; r < low + 4; ++r) h += cards_of(r, 2 + static_cast<int>(rng.below(3)));
  if (rng.below(2)) h += cards_of(kBlackJoker, 1);
  if (rng.below(2)) h += cards_of(kRedJoker, 1);
  return h;
}

// Two decks: three neighbouring ranks of 3..8 cards each (bombs of every size, long
// trios and quads for kickers) and up to two of each joker (joker pairs, the rocket).
Mask dense_two_deck_hand(Rng& rng) {
  Mask h = 0;
  const int low = static_cast<int>(rng.below(11));
  for (int r = low; r < low + 3; ++r) h += cards_of(r, 3 + static_cast<int>(rng.below(6)));
  h += cards_of(kBlackJoker, static_cast<int>(rng.below(3)));
  h += cards_of(kRedJoker, static_cast<int>(rng.below(3)));
  return h;
}

void check_hand(Mask dealt, const Rules& r, Rng& rng) {
  const Mask hand = per_rank_min(dealt, r.deck());  // run_fast's deck holds fewer aces and 2s, no joker
  const std::vector<Move> lead = legal_moves(hand, nullptr, r);
  std::set<Key> generated;
  for (const Move& m : lead) generated.insert(key_of(m));
  CHECK_EQ(generated.size(), lead.size());  // each (cards, combination) once
  const std::set<Key> expected = brute_force(hand, r);
  if (generated != expected) {
    check::fail(__FILE__, __LINE__, "lead set differs for hand " + to_text(hand) + ": " + oracle::difference(generated, expected, describe));
    return;
  }
  // Follow a few random moves of another hand: exactly the leads that beat them.
  const Mask other = per_rank_min(random_hand(rng, 1 + static_cast<int>(rng.below(14)), r.decks), r.deck());
  const std::vector<Move> theirs = legal_moves(other, nullptr, r);
  for (int t = 0; t < 4 && !theirs.empty(); ++t) {
    const Move& last = theirs[rng.below(static_cast<std::uint32_t>(theirs.size()))];
    std::set<Key> want, got;
    for (const Move& m : lead) {
      if (beats(m, last)) want.insert(key_of(m));
    }
    for (const Move& m : legal_moves(hand, &last, r)) got.insert(key_of(m));
    if (want != got) check::fail(__FILE__, __LINE__, "follow set differs for hand " + to_text(hand) + " over " + to_text(last.cards));
  }
}

// `r` with its kicker fields set from the six bits of `bits` (0..63: every combination).
Rules with_kicker_fields(Rules r, int bits) {
  r.four_with_two = bits & 1;
  r.kicker_trio_extends_airplane = bits & 2;
  r.joker_kicks_four_with_two = bits & 4;
  r.both_jokers_as_kickers = bits & 8;
  r.pair_kickers_share_rank = bits & 16;
  r.max_solo_kicker_copies = bits & 32 ? 4 : 2;
  return r;
}

}  // namespace

TEST(generation_equals_brute_force_under_every_preset) {
  Rng rng(2024);
  for (const auto& name : preset_names()) {
    const Rules r = rules(name.c_str());
    for (int i = 0; i < 1500; ++i) check_hand(random_hand(rng, 1 + static_cast<int>(rng.below(12))), r, rng);
    for (int i = 0; i < 1500; ++i) check_hand(dense_hand(rng), r, rng);
  }
}

TEST(generation_equals_brute_force_for_every_field) {
  Rng rng(99);
  for (int bits = 0; bits < 64; ++bits) {
    const Rules r = with_kicker_fields(Rules{}, bits);
    for (int i = 0; i < 150; ++i) check_hand(dense_hand(rng), r, rng);
  }
}

TEST(generation_equals_brute_force_with_two_decks) {
  Rng rng(108);
  const Rules r = rules("four_player");
  for (int i = 0; i < 1500; ++i) check_hand(random_hand(rng, 1 + static_cast<int>(rng.below(12)), 2), r, rng);
  for (int i = 0; i < 300; ++i) check_hand(dense_two_deck_hand(rng), r, rng);
  // Every combination of the kicker fields with two decks: repeated solo kickers (two red
  // jokers among them, which are not "both jokers"), jokers as kickers, pair kickers of
  // one rank.
  for (int bits = 0; bits < 64; ++bits) {
    const Rules fields = with_kicker_fields(r, bits);
    for (int i = 0; i < 25; ++i) check_hand(dense_two_deck_hand(rng), fields, rng);
  }
}
