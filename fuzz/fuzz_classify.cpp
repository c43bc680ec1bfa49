// Classification: classify() and is_valid_move() against the shape oracle of
// fuzz_common.hpp, on arbitrary 64-bit masks and arbitrary Move values.
//
// Input: rules (a preset or every field), two masks, then a raw Move. Checked:
//   - classify(mask) lists exactly the oracle's readings, each once, in (kind, key)
//     order, every one with cards == mask; nothing for a mask outside the deck;
//   - is_valid_move(m) holds exactly when the oracle accepts m (any kind/key/length byte);
//   - beats() is irreflexive and antisymmetric on the readings of two masks; the rocket
//     beats every other move, a bomb every non-bomb; nothing beats the rocket;
//   - the text of a valid mask parses back to it.
#include "fuzz_common.hpp"

using namespace ddz;
using namespace ddz::fuzz;

namespace {

void check_readings(Mask cards, const Rules& r, std::vector<Move>& got) {
  got.clear();
  classify(cards, r, got);
  std::vector<Move> want = oracle_readings(cards, r);
  for (std::size_t i = 0; i < got.size(); ++i) {
    FUZZ_CHECK(got[i].cards == cards, "a reading with other cards: " + dump(got[i]));
    if (i > 0) {
      const Move& a = got[i - 1];
      const Move& b = got[i];
      FUZZ_CHECK(a.kind < b.kind || (a.kind == b.kind && a.key <= b.key), "readings out of order" + list(got));
      FUZZ_CHECK(!same_move(a, b), "a reading listed twice: " + dump(b));
    }
  }
  std::vector<Move> sorted = got;
  sort_moves(sorted);
  sort_moves(want);
  if (sorted.size() != want.size() || !std::equal(sorted.begin(), sorted.end(), want.begin(), same_move)) {
    fail("classify(" + to_text(cards) + ") under " + describe(r) + "\n  classify:" + list(sorted) + "\n  oracle:" +
         list(want));
  }
  if (validate_cards(cards, r).empty()) {
    const ParseResult back = parse_cards(to_text(cards), 15, 15);
    FUZZ_CHECK(back.ok() && back.cards == cards, "the text of a valid mask does not parse back");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const Rules r = rules_from(in);
  const std::uint8_t mode = in.byte();
  Mask a = in.u64(), b = in.u64();
  // Mostly hands the deck can hold, so that combinations are common; sometimes raw.
  if (mode & 1) a = legal_hand(a, r);
  if (mode & 2) b = legal_hand(b, r);
  if (mode & 4) a = trim(a, 4 + (mode >> 4));
  if (mode & 8) b = trim(b, 4 + (mode >> 4));

  std::vector<Move> ra, rb;
  check_readings(a, r, ra);
  check_readings(b, r, rb);

  // is_valid_move on an arbitrary Move, and on readings with one field changed.
  const Move raw = in.raw_move();
  FUZZ_CHECK(is_valid_move(raw, r) == shape_error(raw, r).empty(),
             "is_valid_move disagrees with the oracle on " + dump(raw) + ": " + shape_error(raw, r));
  for (const Move& m : ra) {
    FUZZ_CHECK(is_valid_move(m, r), "a reading is not valid: " + dump(m));
    Move k = m, l = m, c = m;
    k.key = static_cast<std::uint8_t>(k.key + 1 + in.below(3));
    l.length = static_cast<std::uint8_t>(l.length + 1);
    c.kind = static_cast<MoveKind>((static_cast<int>(c.kind) + 1 + in.below(13)) % kNumMoveKinds);
    for (const Move& x : {k, l, c}) {
      FUZZ_CHECK(is_valid_move(x, r) == shape_error(x, r).empty(), "is_valid_move disagrees with the oracle on " + dump(x));
    }
  }

  // Comparison.
  for (const Move& x : ra) {
    FUZZ_CHECK(!beats(x, x), "a move beats itself: " + dump(x));
    for (const Move& y : rb) {
      FUZZ_CHECK(!(beats(x, y) && beats(y, x)), "each beats the other: " + dump(x) + " / " + dump(y));
      if (x.kind == MoveKind::Rocket) FUZZ_CHECK(beats(x, y) == (y.kind != MoveKind::Rocket), "the rocket");
      if (y.kind == MoveKind::Rocket) FUZZ_CHECK(!beats(x, y), "something beats the rocket: " + dump(x));
      if (x.kind == MoveKind::Bomb && y.kind != MoveKind::Bomb && y.kind != MoveKind::Rocket) {
        FUZZ_CHECK(beats(x, y), "a bomb does not beat a non-bomb");
      }
      if (x.kind != MoveKind::Bomb && x.kind != MoveKind::Rocket && beats(x, y)) {
        // A short trio or airplane (Run Fast's last cards) holds fewer kickers than the one it beats.
        FUZZ_CHECK(x.kind == y.kind && x.length == y.length && x.key > y.key &&
                       (total(x.cards) == total(y.cards) || is_short(x) || is_short(y)),
                   "a non-bomb beats a different shape: " + dump(x) + " over " + dump(y));
      }
    }
  }
  return 0;
}
