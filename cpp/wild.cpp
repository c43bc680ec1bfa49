#include "wild.hpp"

#include <algorithm>

#include "movegen.hpp"

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

std::uint16_t encode_stand_ins(Mask stand_ins) {
  unsigned packed = 0;
  int shift = 0;
  for (Mask left = stand_ins & (kWildableOnes * 0xF); left && shift < 4 * kMaxWilds; ) {
    const int r = std::countr_zero(left) / 4;  // the lowest rank left
    for (int c = count(left, r); c > 0 && shift < 4 * kMaxWilds; --c, shift += 4) packed |= static_cast<unsigned>(r + 1) << shift;
    left &= ~nibble(r);
  }
  return static_cast<std::uint16_t>(packed);
}

bool played_with(const Move& combination, Mask spent_cards, int wild, Move& out) {
  out = combination;
  out.stand_ins = 0;
  out.wild_rank = 0;
  if (spent_cards == combination.cards) return true;
  if (wild < 0 || wild > kTwo) return false;
  // The stand-ins are what the combination has beyond the natural cards spent.
  const Mask natural = spent_cards & ~nibble(wild);
  const Mask combo = combination.cards & ~nibble(wild);
  if (!contains(combo, natural)) return false;
  const Mask stand_ins = combo - natural;
  if (count(spent_cards, wild) != count(combination.cards, wild) + total(stand_ins) || total(stand_ins) > kMaxWilds) {
    return false;
  }
  out.stand_ins = encode_stand_ins(stand_ins);
  out.wild_rank = static_cast<std::uint8_t>(wild);
  return spent(out) == spent_cards;
}

namespace {

// The moves of a hand holding wild cards: combinations of the hand's capacity (each rank
// 3..2 with its natural cards plus the wild cards, at most 4; the wild rank's own cards;
// the jokers), each kept with every way the wild cards can pay for it.
class WildGenerator {
 public:
  WildGenerator(Mask hand, int wild, int wilds, const Rules& rules, std::vector<Move>& out)
      : natural_(per_rank_min(hand & ~nibble(wild), kOnePerRank * 4)),  // no nibble overflows below
        wild_(wild),
        wilds_(wilds),
        rules_(rules),
        out_(out) {}

  // Leads kind by kind: a body with kickers is first found within the capacity and its
  // kickers then drawn from what the wild cards it leaves can pay for, which skips the
  // kicker sets of bodies the hand cannot make.
  void lead() {
    for (int k = 0; k < kNumMoveKinds; ++k) {
      const auto kind = static_cast<MoveKind>(k);
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

  // Each rank 3..2 with its natural cards plus `extra` wild cards, the wild rank with
  // `extra`, the jokers: at most `most` of each.
  Mask capacity(int extra, int most) const {
    const Mask stretch = (kWildableOnes & ~nibble(wild_)) * static_cast<Mask>(extra);
    return per_rank_min(natural_ + stretch + cards_of(wild_, extra), kOnePerRank * static_cast<Mask>(most));
  }

  // Wild cards a combination needs at the least: its cards of the wild rank, and one for
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
  // natural cards (ranks 3..2) replaced by a wild card while wild cards are left.
  void expand(const Move& c, const Move* bomb_to_beat) {
    const Mask own = per_rank_min(c.cards, natural_);
    const Mask short_by = c.cards - own;
    const int budget = wilds_ - total(short_by);
    if (budget < 0) return;
    const auto emit = [&](Mask stand_ins) {
      Move m = c;
      if (stand_ins) {
        if (m.kind == MoveKind::Bomb && count(stand_ins, m.key) == kMaxWilds) return;
        m.stand_ins = encode_stand_ins(stand_ins);
        m.wild_rank = static_cast<std::uint8_t>(wild_);
      }
      if (!bomb_to_beat || beats(m, *bomb_to_beat)) out_.push_back(m);
    };
    for_each_within(own & ~(one_of_each(kJokers) * 0xF), budget, short_by & ~nibble(wild_), emit);
  }

  Mask natural_;
  int wild_;
  int wilds_;
  const Rules& rules_;
  std::vector<Move>& out_;
};

}  // namespace

void append_wild_moves(Mask hand, const Move* last, const Rules& rules, int wild, std::vector<Move>& out) {
  hand &= kRankBits;
  const int wilds = wild >= 0 && wild <= kTwo ? std::min(count(hand, wild), kMaxWilds) : 0;
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
  WildGenerator gen(hand, wild, wilds, rules, out);
  if (last) {
    gen.follow(follow, *last);
  } else {
    gen.lead();
  }
}

}  // namespace ddz
