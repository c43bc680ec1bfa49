#include "rules/move.hpp"

#include <algorithm>


namespace ddz {


bool beats(const Move& a, const Move& b) {
  if (a.kind == MoveKind::Rocket) return b.kind != MoveKind::Rocket;
  if (b.kind == MoveKind::Rocket) return false;
  if (a.kind == MoveKind::Bomb) {
    if (b.kind != MoveKind::Bomb) return true;
    if (is_ace_trio_bomb(a) != is_ace_trio_bomb(b)) return is_ace_trio_bomb(a);  // the highest bomb
    if ((a.stand_ins == 0) != (b.stand_ins == 0)) return a.stand_ins == 0;  // natural over soft
    return a.length != b.length ? a.length > b.length : a.key > b.key;
  }
  return a.kind == b.kind && a.length == b.length && a.key > b.key;
}

namespace {

Mask without_ranks(Mask m, RankSet ranks) { return m & ~(one_of_each(ranks) * 0xF); }

// Caps one rank's nibble at `most`.
Mask cap_rank(Mask caps, int rank, int most) {
  const int capped = std::min(count(caps, rank), most);
  return (caps & ~nibble(rank)) | cards_of(rank, capped);
}

}  // namespace

Mask solo_kicker_caps(RankSet body, MoveKind kind, const Rules& rules) {
  Mask caps = without_ranks(kOnePerRank * static_cast<Mask>(rules.max_solo_kicker_copies), body);
  if (kind == MoveKind::FourTwoSolos && !rules.joker_kicks_four_with_two) caps &= ~kJokerNibbles;
  if (kind == MoveKind::AirplaneSolos && !rules.kicker_trio_extends_airplane && body) {
    const int below = lowest_rank(body) - 1, above = highest_rank(body) + 1;
    if (below >= 0) caps = cap_rank(caps, below, 2);
    if (above <= kAce) caps = cap_rank(caps, above, 2);
  }
  return caps;
}

Mask pair_kicker_caps(RankSet body, const Rules& rules) {
  const int per_rank = rules.pair_kickers_share_rank ? 2 * rules.decks : 1;
  return without_ranks(kOnePerRank * static_cast<Mask>(per_rank), body) & ~kJokerNibbles;
}

bool jokers_allowed(Mask kickers, const Rules& rules) {
  return rules.both_jokers_as_kickers || count(kickers, kBlackJoker) == 0 ||
         count(kickers, kRedJoker) == 0;
}

namespace {

// reads_as for one kind, its shape a constant.
template <MoveKind K>
bool reads_as_kind(Mask cards, int key, int length, const Rules& rules) {
  if constexpr (K == MoveKind::Rocket) {
    return cards == rules.rocket() && key == kBlackJoker && length == total(cards);
  } else if constexpr (K == MoveKind::Bomb) {
    const bool ace_trio = rules.ace_trio_bomb && key == kAce && length == 3;
    return key < kBlackJoker && (length >= 4 || ace_trio) && length <= rules.max_per_rank() && cards == cards_of(key, length);
  } else {
    if (!kind_allowed(K, rules)) return false;
    constexpr KindShape s = kind_shape(K);
    if constexpr (s.chain) {
      const ChainLimits limits = chain_limits(s.unit, rules);
      if (length < limits.shortest || length > limits.longest || key + length > kAce + 1) return false;
    } else if (length != 1) {
      return false;
    }
    const RankSet body_ranks = ((RankSet{1} << length) - 1) << key;
    const Mask body = run_of(key, length, s.unit);
    if (!contains(cards, body)) return false;
    const Mask kickers = cards - body;
    const int wanted = length * s.kickers_per_unit;
    if constexpr (has_free_kickers(K)) {
      // Any cards (never both jokers: Kickers rule 5); fewer than the full count only for a
      // trio kind (a move of last cards).
      if (is_bomb_cards(cards, rules) || !jokers_allowed(kickers, rules)) return false;
      return total(kickers) == wanted || (K != MoveKind::FourThree && total(kickers) < wanted);
    } else if constexpr (s.kicker_size == 0) {
      return kickers == 0;
    } else if constexpr (s.kicker_size == 1) {
      return total(kickers) == wanted && contains(solo_kicker_caps(body_ranks, K, rules), kickers) &&
             jokers_allowed(kickers, rules);
    } else {
      return (kickers & kOnePerRank) == 0 && total(kickers) == 2 * wanted &&
             contains(pair_kicker_caps(body_ranks, rules), kickers >> 1);
    }
  }
}

}  // namespace

bool reads_as(Mask cards, MoveKind kind, int key, int length, const Rules& rules) {
  // No cards is no move, and visit_kind calls nothing for a kind past FourThree.
  if (cards == 0 || key < 0 || key >= kNumRanks) return false;
  bool reads = false;
  visit_kind(kind, [&]<MoveKind K>() { reads = reads_as_kind<K>(cards, key, length, rules); });
  return reads;
}

void classify(Mask cards, const Rules& rules, std::vector<Move>& out) {
  if (cards == 0 || !deck_holds(cards, rules)) return;
  const int n = total(cards);
  const int low = lowest_rank(ranks_with_at_least(cards, 1));
  const auto add = [&](MoveKind kind, int key, int length) {
    if (reads_as(cards, kind, key, length, rules)) {
      out.push_back({cards, kind, static_cast<std::uint8_t>(key), static_cast<std::uint8_t>(length)});
    }
  };
  // Candidates in kind order, keys ascending; reads_as decides.
  for (int k = 0; k < kNumMoveKinds; ++k) {
    const auto kind = static_cast<MoveKind>(k);
    if (kind == MoveKind::Rocket) {
      add(kind, kBlackJoker, n);
      continue;
    }
    if (kind == MoveKind::Bomb) {
      add(kind, low, n);
      continue;
    }
    const KindShape s = kind_shape(kind);
    const int per_unit = s.unit + s.kickers_per_unit * s.kicker_size;
    if (has_free_kickers(kind)) {
      // Short trios and airplanes (fewer kickers) too: every length the count allows,
      // keys ascending, then lengths.
      const ChainLimits limits = s.chain ? chain_limits(s.unit, rules) : ChainLimits{1, 1};
      for (RankSet keys = ranks_with_at_least(cards, s.unit); keys; keys &= keys - 1) {
        for (int length = limits.shortest; length <= limits.longest && s.unit * length <= n; ++length) {
          if (n <= per_unit * length) add(kind, lowest_rank(keys), length);
        }
      }
      continue;
    }
    if (n % per_unit != 0 || (!s.chain && n != per_unit)) continue;
    if (s.kicker_size == 0) {
      add(kind, low, n / per_unit);  // no kickers: the body starts at the lowest card
      continue;
    }
    for (RankSet keys = ranks_with_at_least(cards, s.unit); keys; keys &= keys - 1) add(kind, lowest_rank(keys), n / per_unit);
  }
}

namespace {

// Ranks 3..2, every card of them: what a wild card may stand for.
constexpr Mask kStandInRanks = one_of_each((RankSet{1} << (kTwo + 1)) - 1) * 0xF;

// Appends the ranks of `ranks` (a count per rank) ascending to `packed` from nibble
// `shift`, at most kMaxWilds of them; the next free shift.
int pack_group(Mask ranks, unsigned& packed, int shift) {
  const int end = shift + 4 * kMaxWilds;
  for (Mask left = ranks & (kStandInRanks); left && shift < end;) {
    const int r = std::countr_zero(left) / 4;  // the lowest rank left
    for (int c = count(left, r); c > 0 && shift < end; --c, shift += 4) packed |= static_cast<unsigned>(r + 1) << shift;
    left &= ~nibble(r);
  }
  return shift;
}

}  // namespace

std::uint32_t encode_stand_ins(Mask first, Mask second) {
  unsigned packed = 0;
  const int shift = pack_group(first, packed, 0);
  if (second) pack_group(second, packed, shift < 4 * kMaxWilds ? shift + 4 : shift);  // past the terminator
  return packed;
}

bool is_valid_move(const Move& m, const Rules& rules) {
  const bool natural = m.stand_ins == 0 && m.wild_rank == 0;  // the hot path: no wild card to check
  // A natural solo, pair or trio (most moves to beat in play) is `unit` cards of its key,
  // which the decks hold if they have that many of the rank.
  if (natural && m.kind <= MoveKind::Trio && kind_allowed(m.kind, rules)) {
    const int unit = static_cast<int>(m.kind) + 1;
    return m.length == 1 && m.key < kNumRanks && m.cards == cards_of(m.key, unit) && unit <= count(rules.deck(), m.key);
  }
  return deck_holds(m.cards, rules) && reads_as(m.cards, m.kind, m.key, m.length, rules) &&
         (natural || wilds_error(m, rules).empty());
}

namespace {

// Why a group of stand-ins is not one: a wild card standing for its own rank is natural.
std::string group_error(const StandInGroup& g) {
  if (g.wild > kTwo) return "the wild rank must be one of 3..2";
  if (count(g.ranks, g.wild) != 0) return "a wild card standing for its own rank is natural, not a stand-in";
  return {};
}

// Why two groups are not the canonical assignment of their wild cards (wild.hpp,
// pay_with_wilds): swapped cards, or the lower wild rank not standing for the lowest ranks.
std::string groups_error(const StandInGroups& g, const Rules& rules) {
  if (g.second.wild == kNoWild) return g.second.ranks ? "stand-ins of a second group without its wild rank" : "";
  if (rules.wild < 2) return "wild cards of two ranks standing in, under rules with one wild rank";
  if (g.second.wild <= g.first.wild) return "the second group's wild rank must be above the first's";
  if (!g.second.ranks) return "a second wild rank without stand-ins";
  if (count(g.first.ranks, g.second.wild) || count(g.second.ranks, g.first.wild)) {
    return "wild cards of each rank standing for the other are natural, not stand-ins";
  }
  if (highest_rank(ranks_with_at_least(g.first.ranks, 1)) > lowest_rank(ranks_with_at_least(g.second.ranks, 1))) {
    return "the lower wild rank's cards stand for the lower ranks (one move, one form)";
  }
  return {};
}

}  // namespace

std::string wilds_error(const Move& m, const Rules& rules) {
  if (m.stand_ins == 0) return m.wild_rank == 0 ? std::string() : "a wild rank without wild cards standing in";
  if (!rules.wild) return "wild cards standing in, under rules without wild cards";
  const StandInGroups g = stand_in_groups(m);
  if (!g.first.ranks || encode_stand_ins(g.first.ranks, g.second.ranks) != m.stand_ins) {
    return "the stood-in ranks must be ranks 3..2, ascending, in the layout of Move";
  }
  for (const StandInGroup& group : {g.first, g.second}) {
    if (std::string why = group.wild == kNoWild ? "" : group_error(group); !why.empty()) return why;
  }
  if (std::string why = groups_error(g, rules); !why.empty()) return why;
  if (!contains(m.cards, g.first.ranks + g.second.ranks)) return "the stood-in ranks are not in the combination";
  if (!deck_holds(m.cards, rules) || !validate_cards(spent(m), rules).empty()) return "more wild cards than the deck holds";
  if (is_four_wilds_as_other_bomb(m)) return "four wild cards of one rank are the bomb of their own rank, not of another";
  return {};
}

}  // namespace ddz
