// Move generation from arbitrary masks and arbitrary `last` moves.
//
// Input: rules (a preset or every field), a mode byte, a hand mask, then a `last`: a raw
// Move (any bytes), one reading of another mask, or none (leading). Checked:
//   - append_legal_moves never fails and stays in bounds for any hand and any last (the
//     header's promise), and every move it lists lies within the hand;
//   - for a hand the rules allow and a valid last: every move classifies to itself
//     (is_valid_move and the shape oracle), beats last, is listed once; the follows are
//     exactly the leads that beat last; every reading of a sub-multiset of the hand is
//     among the leads (all sub-multisets when there are few, some drawn otherwise);
//   - appending keeps what the vector held before.
// Under rules with wild cards (laizi, laizi2) a wild rank byte follows, and a second
// under two wild ranks (any values; 0..12 is a rank), the move to beat may be a wild move
// of another hand (a soft bomb among them), and the checks are those above with a move's
// cards spent in place of its cards, plus: every move's wild fields are valid and of the
// wild ranks, no two moves are the same (cards spent, combination), and on small hands
// the leads are exactly what a brute-force substitution enumerator finds (oracle.hpp's
// definition: every sub-multiset spent, every choice of what each of its wild cards
// stands for, every natural reading; four wild cards of one rank never a soft bomb).
#include "../tests/cpp/oracle.hpp"
#include "fuzz_common.hpp"

using namespace ddz;
using namespace ddz::fuzz;

namespace {

long long submask_count(Mask hand) {
  long long n = 1;
  for (int r = 0; r < kNumRanks; ++r) n *= count(hand, r) + 1;
  return n;
}

// Multisets of `n` ranks out of 13: the brute force's choices for n wild cards.
long long multisets(int n) {
  long long m = 1;
  for (int k = 1; k <= n; ++k) m = m * (12 + k) / k;
  return m;
}

int check_wild(Input& in, Mask hand, const Move* last, const Rules& r) {
  // -1 (none), a rank 0..12, or out of range; a second under two wild ranks.
  const WildRanks wild{static_cast<int>(in.byte()) - 1, r.wild == 2 ? static_cast<int>(in.byte()) - 1 : kNoWild};
  Move last_value{};
  if (last == nullptr && in.flag()) {  // a wild move of another hand to beat
    const std::vector<Move> theirs = legal_moves(trim(legal_hand(in.u64(), r), 1 + in.below(8)), nullptr, r, wild);
    if (!theirs.empty()) {
      last_value = theirs[in.below(static_cast<int>(theirs.size()))];
      last = &last_value;
    }
  }
  std::vector<Move> moves(3, Move{1, MoveKind::Solo, 0, 1});
  append_legal_moves(hand, last, r, wild, moves);
  FUZZ_CHECK(moves.size() >= 3 && moves[0].cards == 1 && moves[2].cards == 1, "append_legal_moves disturbed the vector");
  moves.erase(moves.begin(), moves.begin() + 3);
  // The ranks that make cards wild: those within 3..2, once (the generator ignores others).
  const auto in_range = [](int rank) { return rank >= 0 && rank <= kTwo; };
  const WildRanks wild_cards{in_range(wild.low) ? wild.low : kNoWild,
                             in_range(wild.high) && wild.high != wild.low ? wild.high : kNoWild};
  const bool wild_ok = !wild_cards.none();
  const bool hand_ok = validate_cards(hand, r).empty();
  const bool last_ok = last == nullptr || (is_valid_move(*last, r) && uses_only(*last, wild_cards));
  const std::string where = " (hand " + to_text(hand) + ", wild " + std::to_string(wild.low) + "," + std::to_string(wild.high) +
                            (last ? ", last " + dump(*last) : std::string(", leading")) + ", " + describe(r) + ")";
  for (const Move& m : moves) {
    FUZZ_CHECK(contains(m.cards, stand_in_cards(m)), "stand-ins outside the combination: " + dump(m) + where);
    FUZZ_CHECK(m.stand_ins == 0 || (wild_ok && uses_only(m, wild_cards)), "a move with wild cards of another rank: " + dump(m) + where);
    FUZZ_CHECK(contains(hand & kRankBits, spent(m)), "a move spends cards outside the hand: " + dump(m) + where);
  }
  if (!hand_ok || !last_ok) return 0;
  for (const Move& m : moves) {
    FUZZ_CHECK(is_valid_move(m, r), "a generated move is not valid: " + dump(m) + where);
    FUZZ_CHECK(shape_error(m, r).empty(), "a generated combination fails the oracle: " + dump(m) + where);
    if (last) FUZZ_CHECK(beats(m, *last), "a generated move does not beat last: " + dump(m) + where);
  }
  std::vector<Move> sorted = moves;
  sort_moves(sorted);
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    FUZZ_CHECK(!same_move(sorted[i - 1], sorted[i]), "a move listed twice: " + dump(sorted[i]) + where);
  }
  std::vector<Move> leads = legal_moves(hand, nullptr, r, wild);
  sort_moves(leads);
  if (last) {
    std::vector<Move> want;
    for (const Move& m : leads) {
      if (beats(m, *last)) want.push_back(m);
    }
    FUZZ_CHECK(want.size() == sorted.size() && std::equal(want.begin(), want.end(), sorted.begin(), same_move),
               "follows differ from the leads that beat last" + where);
  }
  std::set<oracle::WildKey> pairs;
  for (const Move& m : leads) pairs.insert(oracle::wild_key(m));
  FUZZ_CHECK(pairs.size() == leads.size(), "one (cards spent, combination) listed as two moves" + where);
  const auto wilds_of = [&](int rank) { return rank != kNoWild ? count(hand, rank) : 0; };
  const long long choices = multisets(wilds_of(wild_cards.low)) * multisets(wilds_of(wild_cards.high));
  if (wild_ok && submask_count(hand) * choices <= 400'000) {
    const std::set<oracle::WildKey> expected = oracle::wild_lead_keys(hand, wild_cards, r);
    FUZZ_CHECK(expected == pairs, "the leads differ from the brute-force substitutions (" + std::to_string(pairs.size()) + " vs " +
                                      std::to_string(expected.size()) + ")" + where);
  }
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const Rules r = rules_from(in);
  const std::uint8_t mode = in.byte();
  Mask hand = in.u64();
  if (!(mode & 1)) hand = legal_hand(hand, r);
  // Big hands make long move lists: keep most inputs to a player's hand size, and all of
  // them with wild cards or free kickers, which multiply the moves (the whole deck has 1.9
  // million leads with a wild rank, and more airplanes with free kickers: minutes of
  // checks under the sanitizers).
  if (!(mode & 2) || r.wild || r.trio_takes_two || r.four_with_three) hand = trim(hand, 20);

  Move last_value{};
  const Move* last = nullptr;
  switch ((mode >> 2) & 3) {
    case 0: break;  // leading
    case 1: last_value = in.raw_move(); last = &last_value; break;
    default: {      // a reading of another mask, perhaps with a field nudged
      const Mask other = legal_hand(in.u64(), r);
      const std::vector<Move> readings = classify(trim(other, 4 + in.below(17)), r);
      if (readings.empty()) break;
      last_value = readings[in.below(static_cast<int>(readings.size()))];
      if (mode & 16) last_value.key = static_cast<std::uint8_t>(last_value.key + in.below(3));
      if (mode & 32) last_value.length = static_cast<std::uint8_t>(last_value.length + in.below(3));
      last = &last_value;
    }
  }

  if (r.wild) return check_wild(in, hand, last, r);

  std::vector<Move> moves(3, Move{1, MoveKind::Solo, 0, 1});  // appending keeps these
  append_legal_moves(hand, last, r, kNoWild, moves);
  FUZZ_CHECK(moves.size() >= 3 && moves[0].cards == 1 && moves[1].cards == 1 && moves[2].cards == 1,
             "append_legal_moves disturbed what the vector held");
  moves.erase(moves.begin(), moves.begin() + 3);
  for (const Move& m : moves) {
    FUZZ_CHECK(contains(hand & kRankBits, m.cards), "a move outside the hand: " + dump(m));
  }

  const bool hand_ok = validate_cards(hand, r).empty();
  const bool last_ok = last == nullptr || is_valid_move(*last, r);
  if (!hand_ok || !last_ok) return 0;
  const std::string where = " (hand " + to_text(hand) + (last ? ", last " + dump(*last) : std::string(", leading")) +
                            ", " + describe(r) + ")";

  for (const Move& m : moves) {
    FUZZ_CHECK(is_valid_move(m, r), "a generated move is not valid: " + dump(m) + where);
    FUZZ_CHECK(shape_error(m, r).empty(), "a generated move fails the oracle: " + dump(m) + ": " +
                                              shape_error(m, r) + where);
    if (last) FUZZ_CHECK(beats(m, *last), "a generated move does not beat last: " + dump(m) + where);
  }
  std::vector<Move> sorted = moves;
  sort_moves(sorted);
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    FUZZ_CHECK(!same_move(sorted[i - 1], sorted[i]), "a move listed twice: " + dump(sorted[i]) + where);
  }

  // Follows are exactly the leads that beat last.
  std::vector<Move> leads = last ? legal_moves(hand, nullptr, r) : moves;
  sort_moves(leads);
  if (last) {
    std::vector<Move> want;
    for (const Move& m : leads) {
      if (beats(m, *last)) want.push_back(m);
    }
    if (want.size() != sorted.size() || !std::equal(want.begin(), want.end(), sorted.begin(), same_move)) {
      std::vector<Move> missing, extra;
      std::set_difference(want.begin(), want.end(), sorted.begin(), sorted.end(), std::back_inserter(missing), move_less);
      std::set_difference(sorted.begin(), sorted.end(), want.begin(), want.end(), std::back_inserter(extra), move_less);
      fail("follows differ from the leads that beat last" + where + "\n  missing:" + list(missing) + "\n  extra:" +
           list(extra));
    }
  }

  // Completeness of the leads: the readings of sub-multisets of the hand.
  std::vector<Move> readings;
  const auto check_sub = [&](Mask sub) {
    if (sub == 0) return;
    readings.clear();
    classify(sub, r, readings);
    for (const Move& m : readings) {
      if (is_short(m) && m.cards != hand) continue;  // a short trio is a lead only of the last cards
      if (!std::binary_search(leads.begin(), leads.end(), m, move_less)) {
        fail("a reading of a sub-multiset of the hand is not a lead: " + dump(m) + where);
      }
    }
  };
  if (submask_count(hand) <= 500) {
    oracle::for_each_submask(hand, check_sub);
  } else {
    for (int i = 0; i < 8 && !in.empty(); ++i) check_sub(per_rank_min(hand, in.u64()));
  }
  return 0;
}
