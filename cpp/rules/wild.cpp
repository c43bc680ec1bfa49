#include "rules/wild.hpp"

#include <algorithm>

#include "rules/movegen.hpp"

namespace ddz {

namespace {

constexpr RankSet kWildable = (RankSet{1} << (kTwo + 1)) - 1;  // 3..2: what a wild card may stand for
constexpr Mask kWildableOnes = one_of_each(kWildable);

// Calls f(acc + e) for every sub-multiset e of `avail` of at most `budget` cards.
template <class F>
void for_each_within(Mask avail, int budget, Mask acc, F& f) {
  if (avail == 0 || budget == 0) return f(acc);
  const int r = std::countr_zero(avail) / 4;
  const Mask rest = avail & ~nibble(r);
  for (int c = 0; c <= std::min(count(avail, r), budget); ++c) for_each_within(rest, budget - c, acc + cards_of(r, c), f);
}

}  // namespace

WildRanks draw_wilds(Rng& rng, int count) {
  if (count <= 0) return {};
  const int first = draw_wild(rng);
  if (count == 1) return first;
  const int second = static_cast<int>(rng.below(kTwo));  // one of the 12 others, in order
  return {first, second < first ? second : second + 1};
}

namespace {

// The `n` lowest cards of `cards`.
Mask lowest_cards(Mask cards, int n) {
  Mask out = 0;
  for (Mask left = cards; n > 0 && left;) {
    const int r = std::countr_zero(left) / 4;
    const int c = std::min(count(left, r), n);
    out += cards_of(r, c);
    n -= c;
    left &= ~nibble(r);
  }
  return out;
}

}  // namespace

bool pay_with_wilds(const Move& c, Mask filled, WildRanks wild, int by_low, Move& out) {
  const int a = wild.low, b = wild.high;
  int left_a = by_low, left_b = total(filled) - by_low;
  if (a == kNoWild || left_a < 0 || left_b < 0 || (left_b && b == kNoWild)) return false;
  const int places_a = count(filled, a), places_b = b == kNoWild ? 0 : count(filled, b);
  // Each wild card as its own rank first; what is left of one rank's places, the other's cards fill.
  const int own_a = std::min(left_a, places_a), own_b = std::min(left_b, places_b);
  left_a -= own_a + (places_b - own_b);
  left_b -= own_b + (places_a - own_a);
  if (left_a < 0 || left_b < 0) return false;
  const Mask rest = filled & ~wild.nibbles();
  const Mask low_part = lowest_cards(rest, left_a);
  const Mask by_a = low_part + (b == kNoWild ? 0 : cards_of(b, places_b - own_b));
  const Mask by_b = rest - low_part + cards_of(a, places_a - own_a);
  out = with_stand_in_groups(c, a, by_a, b, by_b);
  return true;
}

bool played_with(const Move& combination, Mask spent_cards, WildRanks wild, Move& out) {
  out = combination;
  out.stand_ins = 0;
  out.wild_rank = 0;
  if (spent_cards == combination.cards) return true;
  if (wild.none() || wild.low < 0 || wild.low > kTwo || wild.high > kTwo) return false;
  // The stand-ins are what the combination has beyond the natural cards spent.
  const Mask natural = spent_cards & ~wild.nibbles();
  if (!contains(combination.cards, natural) || total(spent_cards) != total(combination.cards)) return false;
  const Mask filled = combination.cards - natural;
  if (filled & kJokerNibbles) return false;  // no wild card stands for a joker
  if (!pay_with_wilds(combination, filled, wild, count(spent_cards, wild.low), out)) return false;
  if (stand_in_count(out) > kMaxWilds * wild.size()) return false;
  return spent(out) == spent_cards;
}

namespace {

// The moves of a hand holding wild cards: combinations of the hand's capacity (each rank
// 3..2 with its natural cards plus the wild cards, at most 4, the wild ranks' own places
// counted as the wild cards'; the jokers), each kept with every way the wild cards can pay
// for it.
class WildGenerator {
 public:
  WildGenerator(Mask hand, WildRanks wild, const Rules& rules, std::vector<Move>& out)
      : natural_(per_rank_min(hand & ~wild.nibbles(), kOnePerRank * 4)),  // no nibble overflows below
        wild_(wild),
        low_(count(hand, wild.low)),
        high_(wild.high == kNoWild ? 0 : count(hand, wild.high)),
        wilds_(low_ + high_),
        rules_(rules),
        out_(out) {}

  // Leads kind by kind: a body with kickers is first found within the capacity and its
  // kickers then drawn from what the wild cards it leaves can pay for, which skips the
  // kicker sets of bodies the hand cannot make.
  void lead() {
    for (int k = 0; k < kNumMoveKinds; ++k) {
      const auto kind = static_cast<MoveKind>(k);
      if (!kind_allowed(kind, rules_)) continue;  // Run Fast's kinds are played without wild cards
      if (kind_shape(kind).kicker_size == 0) {
        expand_all(kind, capacity(wilds_, 4));
        continue;
      }
      thread_local std::vector<Move> bodies;
      bodies.clear();
      append_kind_moves(capacity(wilds_, 4), body_kind(kind), rules_, bodies);
      for (const Move& body : bodies) with_kickers(kind, body);
    }
  }

  // Follows: the natural follows of the capacity (`follow` stands for `last`), those that
  // beat `last` when it is a bomb.
  void follow(const Move* follow, const Move& last) {
    thread_local std::vector<Move> combinations;
    combinations.clear();
    append_natural_moves(capacity(wilds_, 4), follow, rules_, combinations);
    for (const Move& c : combinations) expand(c, last.kind == MoveKind::Bomb ? &last : nullptr);
  }

 private:
  static MoveKind body_kind(MoveKind kind) {
    if (kind == MoveKind::TrioSolo || kind == MoveKind::TrioPair) return MoveKind::Trio;
    if (kind == MoveKind::AirplaneSolos || kind == MoveKind::AirplanePairs) return MoveKind::Airplane;
    return MoveKind::Bomb;  // the four of four-with-two
  }

  // Each rank 3..2 with its natural cards plus `extra` wild cards (a wild rank with
  // `extra`), the jokers: at most `most` of each.
  Mask capacity(int extra, int most) const {
    return per_rank_min(natural_ + kWildableOnes * static_cast<Mask>(extra), kOnePerRank * static_cast<Mask>(most));
  }

  // Wild cards a combination needs at the least: its cards of the wild ranks, and one for
  // each card beyond the hand's natural cards of a rank.
  int shortfall(Mask cards) const { return total(cards - per_rank_min(cards, natural_)); }

  void expand_all(MoveKind kind, Mask hand) {
    thread_local std::vector<Move> combinations;
    combinations.clear();
    append_kind_moves(hand, kind, rules_, combinations);
    for (const Move& c : combinations) expand(c, nullptr);
  }

  // The moves of `kind` over `body`: kickers from the capacity the remaining wild cards
  // allow, no more of a rank than a kicker set may hold, none of the body's ranks.
  void with_kickers(MoveKind kind, const Move& body) {
    const int left = wilds_ - shortfall(body.cards);
    if (left < 0) return;
    const KindShape shape = kind_shape(kind);
    const int most = shape.kicker_size == 1 ? rules_.max_solo_kicker_copies : (rules_.pair_kickers_share_rank ? 4 : 2);
    const Mask kickers = capacity(left, most) & ~(one_of_each(ranks_with_at_least(body.cards, 1)) * 0xF);
    thread_local std::vector<Move> combinations;
    combinations.clear();
    append_kind_moves(body.cards + kickers, kind, rules_, combinations);
    const int length = body.kind == MoveKind::Airplane ? body.length : 1;  // a bomb's length counts cards
    for (const Move& c : combinations) {
      if (c.key == body.key && c.length == length) expand(c, nullptr);
    }
  }

  // Every way to pay for combination `c`: its shortfall in wild cards, and any of its
  // natural cards (ranks 3..2) replaced by a wild card while wild cards are left; with two
  // wild ranks, each split of those wild cards between the ranks.
  void expand(const Move& c, const Move* bomb_to_beat) {
    const Mask own = per_rank_min(c.cards, natural_);
    const Mask short_by = c.cards - own;
    const int budget = wilds_ - total(short_by);
    if (budget < 0) return;
    const auto keep = [&](const Move& m) {
      if (is_four_wilds_as_other_bomb(m)) return;
      if (!bomb_to_beat || beats(m, *bomb_to_beat)) out_.push_back(m);
    };
    const Mask replaceable = own & ~(one_of_each(kJokers) * 0xF);
    if (high_ == 0) {  // cards of one wild rank: they fill its own places, the rest they stand in for
      const Mask own_places = nibble(wild_.low);
      const auto emit = [&](Mask filled) { keep(with_stand_in_groups(c, wild_.low, filled & ~own_places, kNoWild, 0)); };
      return for_each_within(replaceable, budget, short_by, emit);
    }
    const auto emit = [&](Mask filled) {
      const int n = total(filled);
      Move m;
      for (int by_low = std::max(0, n - high_); by_low <= std::min(low_, n); ++by_low) {
        if (pay_with_wilds(c, filled, wild_, by_low, m)) keep(m);
      }
    };
    for_each_within(replaceable, budget, short_by, emit);
  }

  Mask natural_;
  WildRanks wild_;
  int low_;   // the hand's wild cards of the lower wild rank
  int high_;  // and of the higher
  int wilds_;
  const Rules& rules_;
  std::vector<Move>& out_;
};

}  // namespace

void append_wild_moves(Mask hand, const Move* last, const Rules& rules, WildRanks wild, std::vector<Move>& out) {
  // Wild ranks outside 3..2 make no card wild (the input need not be one the rules allow).
  if (wild.high != kNoWild && (wild.high < 0 || wild.high > kTwo || wild.high == wild.low)) wild.high = kNoWild;
  if (wild.low < 0 || wild.low > kTwo) wild = wild.high == kNoWild ? WildRanks{} : WildRanks{wild.high};
  hand &= kRankBits;
  const int wilds = wild.none() ? 0 : count(hand, wild.low) + (wild.high == kNoWild ? 0 : count(hand, wild.high));
  // Over a soft bomb every natural bomb beats too, where the natural generator offers only
  // higher bombs: ask it for what beats a red-joker solo (every bomb and the rocket) and
  // keep what beats `last`. Over any bomb, what beats is decided by beats().
  static constexpr Move kRedSolo{cards_of(kRedJoker, 1), MoveKind::Solo, kRedJoker, 1};
  const Move* follow = last && is_soft_bomb(*last) ? &kRedSolo : last;
  if (wilds == 0) {
    const std::size_t first = out.size();
    append_natural_moves(hand, follow, rules, out);
    if (last && last->kind == MoveKind::Bomb) {
      out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                               [&](const Move& m) { return !beats(m, *last); }),
                out.end());
    }
    return;
  }
  WildGenerator gen(per_rank_min(hand, kOnePerRank * kMaxWilds), wild, rules, out);
  if (last) {
    gen.follow(follow, *last);
  } else {
    gen.lead();
  }
}

}  // namespace ddz
