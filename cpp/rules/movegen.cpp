#include "rules/movegen.hpp"

#include <algorithm>
#include <cassert>
#include <array>
#include <utility>

namespace ddz {

namespace {

constexpr int kMaxChain = 12;  // 3..A

// Calls emit(acc + subset) for every n-subset of the ranks in `s`, one card each. A sum,
// not a union: with two decks `acc` may already hold a card of a rank in `s` (the red
// joker that for_each_kicker_set puts first).
template <class Emit>
void for_each_subset(RankSet s, int n, Mask acc, Emit& emit) {
  if (n == 1) {
    for (; s; s &= s - 1) emit(acc + cards_of(lowest_rank(s), 1));
    return;
  }
  for (int left = rank_count(s); left >= n; --left) {
    const int r = lowest_rank(s);
    s &= s - 1;
    for_each_subset(s, n - 1, acc + cards_of(r, 1), emit);
  }
}

// Calls emit(acc + kickers) for every multiset of `n` units drawn from `avail` (nibble r:
// units available at rank r).
template <class Emit>
void for_each_multiset(Mask avail, int n, Mask acc, Emit& emit) {
  if (n == 0) return emit(acc);
  // One unit, or at most one per rank: a subset of the ranks (in the same order).
  if (n == 1 || (avail & ~kOnePerRank) == 0) return for_each_subset(ranks_with_at_least(avail, 1), n, acc, emit);
  if (total(avail) < n) return;
  const int r = std::countr_zero(avail) / 4;
  const Mask rest = avail & ~nibble(r);
  for (int c = std::min(count(avail, r), n); c >= 0; --c) for_each_multiset(rest, n - c, acc + cards_of(r, c), emit);
}

// As for_each_multiset from nothing, but never both jokers unless `both_jokers`: the
// sets without a red joker, then those with one and no black joker.
template <class Emit>
void for_each_kicker_set(Mask avail, int n, bool both_jokers, Emit& emit) {
  if (both_jokers || count(avail, kBlackJoker) == 0 || count(avail, kRedJoker) == 0) {
    return for_each_multiset(avail, n, 0, emit);
  }
  const Mask red = cards_of(kRedJoker, 1);
  for_each_multiset(avail & ~nibble(kRedJoker), n, 0, emit);
  for_each_multiset((avail & ~nibble(kBlackJoker)) - red, n - 1, red, emit);
}

// kRuns[low][length]: one card of each rank of the run [low, low + length) within 3..A.
constexpr auto kRuns = [] {
  std::array<std::array<Mask, kMaxChain + 1>, kMaxChain> runs{};
  for (int low = 0; low < kMaxChain; ++low) {
    for (int length = 1; low + length <= kMaxChain; ++length) runs[low][length] = run_of(low, length, 1);
  }
  return runs;
}();

// visit_kind with solos, pairs and trios, most moves to beat in play, tested for first, so
// that their code is inlined into the caller: the switch's jump table cost more than their work.
template <class F>
void visit_kind_usual_first(MoveKind kind, F&& f) {
  using enum MoveKind;
  if (kind == Solo) return f.template operator()<Solo>();
  if (kind == Pair) return f.template operator()<Pair>();
  if (kind == Trio) return f.template operator()<Trio>();
  visit_kind(kind, f);
}

// What a follow asks for: the kind's moves of one length (0: all) with key >= min_key.
struct Want {
  int length = 0;
  int min_key = 0;
};

class Generator {
 public:
  Generator(Mask hand, const Rules& rules, std::vector<Move>& out) : hand_(hand & kRankBits), rules_(rules), out_(out) {}

  // The moves of one kind. The kind is a template argument so that each kind's shape is a
  // constant and compiles to a loop of its own.
  template <MoveKind K>
  void kind_of(Want want) {
    if constexpr (K == MoveKind::Bomb) {
      bombs(want);
    } else if constexpr (K == MoveKind::Rocket) {
      rocket();
    } else if constexpr (has_free_kickers(K)) {
      if (kind_allowed(K, rules_)) with_free_kickers<K>(want);
    } else if constexpr (kind_shape(K).kicker_size != 0) {
      if (kind_allowed(K, rules_)) with_kickers<K>(want);
    } else if (kind_allowed(K, rules_)) {
      plain<K>(want);
    }
  }

  template <MoveKind... K>
  void kinds() {
    (kind_of<K>({}), ...);
  }

  void kind(MoveKind kind, Want want) {
    visit_kind(kind, [&]<MoveKind K>() { kind_of<K>(want); });
  }

  // Every kind, for a lead, in kind order. The kinds built on a trio or a quad are skipped
  // together when no rank holds three cards: most hands late in a game.
  void all_kinds() {
    using enum MoveKind;
    kinds<Solo, Pair>();
    const bool trio = at_least(3) != 0;
    if (trio) kinds<Trio, TrioSolo, TrioPair>();
    kinds<Straight, PairStraight>();
    if (trio) kinds<Airplane, AirplaneSolos, AirplanePairs, FourTwoSolos, FourTwoPairs, Bomb>();
    kinds<Rocket>();
    if (trio) kinds<TrioTwo, AirplaneTwos, FourThree>();
  }

 private:
  void emit(Mask cards, MoveKind kind, int key, int length) {
    // Invariants (checked in the debug and sanitizer builds, so the soak and the fuzzers
    // test them from inside): a move the hand holds, keyed within the ranks, that reads
    // as the kind it is listed as.
    assert(contains(hand_, cards) && key >= 0 && key < kNumRanks && length >= 1);
    assert(reads_as(cards, kind, key, length, rules_));
    out_.push_back({cards, kind, static_cast<std::uint8_t>(key), static_cast<std::uint8_t>(length)});
  }

  // The ranks >= min_key (0 <= min_key <= 256: a key + 1).
  static RankSet from_key(int min_key) { return kAllRanks & static_cast<RankSet>(~std::uint64_t{0} << std::min(min_key, 63)); }

  // The ranks holding at least k cards (1 <= k <= 8), computed on first use: a follow
  // needs one or two of these sets, a lead all of them many times.
  RankSet at_least(int k) {
    constexpr RankSet kKnown = 1u << 15;
    if (!at_least_[k]) at_least_[k] = ranks_with_at_least(hand_, k) | kKnown;
    return at_least_[k] & kAllRanks;
  }

  // Calls f(low, length) for each body the hand holds with the wanted length and key: a
  // chain of `unit` cards per rank within 3..A when `chain`, else `unit` cards of one rank
  // among `ranks`.
  template <class F>
  void for_each_body(int unit, bool chain, RankSet ranks, Want want, F&& f) {
    int lo = 1, hi = 1;
    if (chain ? !lengths(unit, want, lo, hi) : want.length > 1) return;
    const RankSet base = at_least(unit) & (chain ? kChainRanks : ranks);
    const RankSet keys = from_key(want.min_key);
    RankSet starts = base;  // the lowest ranks of the runs of `length` ranks in base
    for (int length = 2; length <= lo; ++length) starts &= base >> (length - 1);
    for (int length = lo; length <= hi && starts; ++length) {
      for (RankSet s = starts & keys; s; s &= s - 1) f(lowest_rank(s), length);
      starts &= base >> length;
    }
  }

  static Mask body_cards(int unit, bool chain, int low, int length) {
    return chain ? kRuns[low][length] * static_cast<Mask>(unit) : cards_of(low, unit);
  }

  // Solo, pair, trio (a joker pair only exists with two decks), and chains of them.
  // Always inline, as bombs(): GCC called both out of line from a follow, and the call
  // cost about as much as following a solo.
  template <MoveKind K>
  [[gnu::always_inline]] void plain(Want want) {
    constexpr KindShape shape = kind_shape(K);
    for_each_body(shape.unit, shape.chain, kAllRanks, want, [&](int low, int length) {
      emit(body_cards(shape.unit, shape.chain, low, length), K, low, length);
    });
  }

  // Chain lengths to generate, [lo, hi]: the one asked for, or all the unit allows.
  bool lengths(int unit, Want want, int& lo, int& hi) const {
    const ChainLimits limits = chain_limits(unit, rules_);
    lo = want.length ? want.length : limits.shortest;
    hi = want.length ? want.length : limits.longest;
    return lo >= limits.shortest && hi <= limits.longest;
  }

  // A body of `unit` cards per rank (one rank, or an airplane chain) with kickers.
  template <MoveKind K>
  void with_kickers(Want want) {
    constexpr KindShape shape = kind_shape(K);
    constexpr int kicker_size = shape.kicker_size;
    for_each_body(shape.unit, shape.chain, ~kJokers, want, [&](int low, int length) {
      const RankSet body_ranks = ((RankSet{1} << length) - 1) << low;
      const Mask body = body_cards(shape.unit, shape.chain, low, length);
      const auto add = [&](Mask kickers) { emit(body + kickers * static_cast<Mask>(kicker_size), K, low, length); };
      const Mask avail = kicker_size == 1 ? per_rank_min(hand_, solo_kicker_caps(body_ranks, K, rules_))
                                          : per_rank_min(pairs_in(hand_), pair_kicker_caps(body_ranks, rules_));
      for_each_kicker_set(avail, length * shape.kickers_per_unit, kicker_size == 2 || rules_.both_jokers_as_kickers, add);
    });
  }

  // A body (trio, airplane, quad) with kickers of any ranks (Run Fast): every multiset of
  // the rest of the hand of the full count, and, when the rest holds fewer, a trio kind
  // with all of it (a short move: the last cards); both jokers only where rules allow.
  template <MoveKind K>
  void with_free_kickers(Want want) {
    constexpr KindShape shape = kind_shape(K);
    for_each_body(shape.unit, shape.chain, ~kJokers, want, [&](int low, int length) {
      const Mask body = body_cards(shape.unit, shape.chain, low, length);
      const Mask rest = hand_ - body;
      const int wanted = length * shape.kickers_per_unit;
      if (total(rest) < wanted) {
        if (K != MoveKind::FourThree && !is_bomb_cards(hand_, rules_) && jokers_allowed(rest, rules_)) emit(hand_, K, low, length);
        return;
      }
      const auto add = [&](Mask kickers) {
        if (!is_bomb_cards(body + kickers, rules_)) emit(body + kickers, K, low, length);
      };
      for_each_kicker_set(rest, wanted, rules_.both_jokers_as_kickers, add);
    });
  }

  // Bombs of 4..8 cards of one rank; following a bomb: more cards, or as many and higher;
  // last, the bomb of three aces (rules.ace_trio_bomb), which nothing but the rocket beats.
  [[gnu::always_inline]] void bombs(Want want) {
    if (want.length == 3) return;  // following the three aces
    if (rules_.ace_trio_bomb && count(hand_, kAce) >= 3) {
      four_card_bombs(want);
      emit(cards_of(kAce, 3), MoveKind::Bomb, kAce, 3);
      return;
    }
    four_card_bombs(want);
  }

  [[gnu::always_inline]] void four_card_bombs(Want want) {
    constexpr Mask kFourOrMore = kOnePerRank * 0xC;  // a count of 4..15 sets bit 2 or 3
    if ((hand_ & kFourOrMore & ~kJokerNibbles) == 0) return;  // most hands: no bomb
    for (int size = std::max(4, want.length); size <= std::min(rules_.max_per_rank(), 8); ++size) {
      const RankSet keys = size == want.length ? from_key(want.min_key) : kAllRanks;
      for (RankSet s = at_least(size) & ~kJokers & keys; s; s &= s - 1) {
        const int r = lowest_rank(s);
        emit(cards_of(r, size), MoveKind::Bomb, r, size);
      }
    }
  }

  void rocket() {
    // One branch, not one per joker: a hand holds a joker more often than the rocket.
    const int copies = rules_.max_per_joker();
    if (std::min(count(hand_, kBlackJoker), count(hand_, kRedJoker)) >= copies) {
      emit(rules_.rocket(), MoveKind::Rocket, kBlackJoker, 2 * copies);
    }
  }

  Mask hand_;
  const Rules& rules_;
  std::vector<Move>& out_;
  RankSet at_least_[9] = {};  // index k: at_least(k), with bit 15 set once computed
};

}  // namespace

void append_kind_moves(Mask hand, MoveKind kind, const Rules& rules, std::vector<Move>& out) {
  if (static_cast<int>(kind) < kNumMoveKinds) Generator(hand, rules, out).kind(kind, {});
}

void append_natural_moves(Mask hand, const Move* last, const Rules& rules, std::vector<Move>& out) {
  Generator gen(hand, rules, out);
  if (last == nullptr) {
    gen.all_kinds();
    return;
  }
  switch (last->kind) {
    case MoveKind::Rocket: return;
    case MoveKind::Bomb: gen.kind_of<MoveKind::Bomb>({last->length, last->key + 1}); break;
    default:
      if (static_cast<int>(last->kind) >= kNumMoveKinds) return;
      visit_kind_usual_first(last->kind, [&, want = Want{std::max<int>(last->length, 1), last->key + 1}]<MoveKind K>() {
        gen.kind_of<K>(want);
      });
      gen.kind_of<MoveKind::Bomb>({});
  }
  gen.kind_of<MoveKind::Rocket>({});
}

bool can_beat(Mask hand, const Move& last, const Rules& rules, WildRanks wild, std::vector<Move>& scratch) {
  using enum MoveKind;
  const int size = last.kind == Solo ? 1 : last.kind == Pair ? 2 : last.kind == Trio ? 3 : 0;
  if (size && wild.none() && last.stand_ins == 0) {
    // A pair or a trio is of one rank 3..2; a solo may be a joker.
    const RankSet higher = ranks_with_at_least(hand, size) & ~((RankSet{2} << last.key) - 1) & (size == 1 ? kAllRanks : ~kJokers);
    if (higher) return true;
  }
  scratch.clear();
  append_legal_moves(hand, &last, rules, wild, scratch);
  return !scratch.empty();
}

}  // namespace ddz
