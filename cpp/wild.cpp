#include "wild.hpp"

#include <algorithm>

#include "movegen.hpp"

namespace ddz {

namespace {

constexpr RankSet kWildable = (RankSet{1} << (kTwo + 1)) - 1;  // 3..2: what a wild card may stand for
constexpr Mask kWildableOnes = spread(kWildable);

// Calls f(acc + e) for every sub-multiset e of `avail` of at most `budget` cards.
template <class F>
void for_each_within(Mask avail, int budget, Mask acc, F& f) {
  if (avail == 0 || budget == 0) return f(acc);
  const int r = std::countr_zero(avail) / 4;
  const Mask rest = avail & ~nibble(r);
  for (int c = 0; c <= std::min(count(avail, r), budget); ++c) for_each_within(rest, budget - c, acc + cards_of(r, c), f);
}

}  // namespace

std::uint16_t encode_subs(Mask stand_ins) {
  unsigned subs = 0;
  int shift = 0;
  for (int r = 0; r <= kTwo; ++r) {
    for (int c = count(stand_ins, r); c > 0 && shift < 4 * kMaxWilds; --c, shift += 4) subs |= static_cast<unsigned>(r + 1) << shift;
  }
  return static_cast<std::uint16_t>(subs);
}

std::string wilds_error(const Move& m, const Rules& rules) {
  if (m.subs == 0) return m.wild_rank == 0 ? std::string() : "a wild rank without wild cards standing in";
  if (!rules.wild) return "wild cards standing in, under rules without wild cards";
  if (m.wild_rank > kTwo) return "the wild rank must be one of 3..2";
  int previous = 0;
  for (unsigned s = m.subs; s; s >>= 4) {
    const int entry = static_cast<int>(s & 0xF);  // rank + 1
    if (entry == 0 || entry < previous || entry > kTwo + 1) return "the stood-in ranks must be ranks 3..2, ascending";
    if (entry - 1 == m.wild_rank) return "a wild card standing for its own rank is natural, not a stand-in";
    previous = entry;
  }
  const Mask stand_ins = stood_in(m);
  if (!contains(m.cards, stand_ins)) return "the stood-in ranks are not in the combination";
  if (!validate_cards(spent(m), rules).empty()) return "more wild cards than the deck holds";
  if (m.kind == MoveKind::Bomb && count(stand_ins, m.key) == kMaxWilds) {
    return "four wild cards are the bomb of their own rank, not of another";
  }
  return {};
}

bool with_spent(const Move& combination, Mask spent_cards, int wild, Move& out) {
  out = combination;
  out.subs = 0;
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
  out.subs = encode_subs(stand_ins);
  out.wild_rank = static_cast<std::uint8_t>(wild);
  return spent(out) == spent_cards;
}

void append_legal_moves(Mask hand, const Move* last, const Rules& rules, int wild, std::vector<Move>& out) {
  hand &= kRankBits;
  const int wilds = wild >= 0 && wild <= kTwo ? std::min(count(hand, wild), kMaxWilds) : 0;
  // Over a soft bomb every natural bomb beats too, where the natural generator offers only
  // higher bombs: ask it for what beats a red-joker solo (every bomb and the rocket) and
  // keep what beats `last`. Over any bomb, what beats is decided by beats() below.
  static constexpr Move kRedSolo{cards_of(kRedJoker, 1), MoveKind::Solo, kRedJoker, 1};
  const bool over_bomb = last && last->kind == MoveKind::Bomb;
  const Move* follow = last && is_soft_bomb(*last) ? &kRedSolo : last;
  const std::size_t first = out.size();
  if (wilds == 0) {
    append_legal_moves(hand, follow, rules, out);
    if (over_bomb) out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                                            [&](const Move& m) { return !beats(m, *last); }),
                             out.end());
    return;
  }
  // Every combination lies within the hand's capacity: for each rank 3..2 its natural
  // cards plus the wild cards (at most 4), the wild rank's own cards, the jokers.
  const Mask natural = per_rank_min(hand & ~nibble(wild), kOnePerRank * 4);  // no nibble overflows below
  const Mask stretch = (kWildableOnes & ~nibble(wild)) * static_cast<Mask>(wilds);
  const Mask capacity = per_rank_min(natural + stretch, kOnePerRank * 4) | cards_of(wild, wilds);
  thread_local std::vector<Move> combinations;
  combinations.clear();
  append_legal_moves(capacity, follow, rules, combinations);
  for (const Move& c : combinations) {
    // Wild cards needed at the least: those of the wild rank itself, and one for each card
    // beyond the hand's natural cards of a rank.
    const Mask own = per_rank_min(c.cards, natural);
    const Mask short_by = c.cards - own;
    const int budget = wilds - total(short_by);
    if (budget < 0) continue;
    // Any natural card of the combination (ranks 3..2) may instead be a wild card.
    const auto emit = [&](Mask stand_ins) {
      Move m = c;
      if (stand_ins) {
        if (m.kind == MoveKind::Bomb && count(stand_ins, m.key) == kMaxWilds) return;
        m.subs = encode_subs(stand_ins);
        m.wild_rank = static_cast<std::uint8_t>(wild);
      }
      if (!over_bomb || beats(m, *last)) out.push_back(m);
    };
    for_each_within(own & ~(spread(kJokers) * 0xF), budget, short_by & ~nibble(wild), emit);
  }
}

}  // namespace ddz
