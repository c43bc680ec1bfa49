#include "move.hpp"

#include <algorithm>

namespace ddz {

bool is_bomb(MoveKind kind) { return kind == MoveKind::Bomb; }

bool beats(const Move& a, const Move& b) {
  if (a.kind == MoveKind::Rocket) return b.kind != MoveKind::Rocket;
  if (b.kind == MoveKind::Rocket) return false;
  if (a.kind == MoveKind::Bomb) {
    if (b.kind != MoveKind::Bomb) return true;
    return a.length != b.length ? a.length > b.length : a.key > b.key;
  }
  return a.kind == b.kind && a.length == b.length && a.key > b.key;
}

namespace {

constexpr Mask kJokerNibbles = nibble(kBlackJoker) | nibble(kRedJoker);

Mask without_ranks(Mask m, RankSet ranks) { return m & ~(spread(ranks) * 0xF); }

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

// Readings with a body of `length` consecutive units of `unit` cards (length 1: any rank
// but the jokers) and `kicker_units` kickers of `kicker_size` cards (1 solo, 2 pair).
void classify_with_kickers(Mask cards, MoveKind kind, int unit, int length, int kicker_size,
                           const Rules& rules, std::vector<Move>& out) {
  RankSet starts = ranks_with_at_least(cards, unit) & (length > 1 ? kChainRanks : ~kJokers);
  for (int i = 1; i < length; ++i) starts &= starts >> 1;
  for (RankSet s = starts; s; s &= s - 1) {
    const int low = lowest_rank(s);
    const RankSet body = ((RankSet{1} << length) - 1) << low;
    const Mask kickers = cards - run_of(low, length, unit);
    bool ok;
    if (kicker_size == 1) {
      ok = contains(solo_kicker_caps(body, kind, rules), kickers) && jokers_allowed(kickers, rules);
    } else {
      const bool all_pairs = (kickers & kOnePerRank) == 0;
      ok = all_pairs && contains(pair_kicker_caps(body, rules), kickers >> 1);
    }
    if (ok) out.push_back({cards, kind, static_cast<std::uint8_t>(low), static_cast<std::uint8_t>(length)});
  }
}

}  // namespace

void classify(Mask cards, const Rules& rules, std::vector<Move>& out) {
  const auto first = out.size();
  if (cards == 0 || !validate_cards(cards, rules).empty()) return;
  const int n = total(cards);
  const RankSet present = ranks_with_at_least(cards, 1);
  const int low = lowest_rank(present);
  const auto key = static_cast<std::uint8_t>(low);

  if (cards == rules.rocket()) out.push_back({cards, MoveKind::Rocket, kBlackJoker, static_cast<std::uint8_t>(n)});
  if (size_of(present) == 1) {
    static constexpr MoveKind kByCount[] = {MoveKind::Solo, MoveKind::Pair, MoveKind::Trio};
    if (n <= 3) out.push_back({cards, kByCount[n - 1], key, 1});
    if (n >= 4) out.push_back({cards, MoveKind::Bomb, key, static_cast<std::uint8_t>(n)});
  }
  // Chains: every present rank holds the same count, consecutive, within 3..A.
  const int unit = count(cards, low);
  const int length = size_of(present);
  const bool consecutive = (present >> low) == (RankSet{1} << length) - 1;
  const bool same_counts = ranks_with_at_least(cards, unit) == present && ranks_with_at_least(cards, unit + 1) == 0;
  if (unit <= 3 && same_counts && consecutive && (present & ~kChainRanks) == 0) {
    static constexpr MoveKind kChains[] = {MoveKind::Straight, MoveKind::PairStraight, MoveKind::Airplane};
    const ChainLimits limits = chain_limits(unit);
    if (length >= limits.shortest && length <= limits.longest) {
      out.push_back({cards, kChains[unit - 1], key, static_cast<std::uint8_t>(length)});
    }
  }
  if (n == 4) classify_with_kickers(cards, MoveKind::TrioSolo, 3, 1, 1, rules, out);
  if (n == 5) classify_with_kickers(cards, MoveKind::TrioPair, 3, 1, 2, rules, out);
  const ChainLimits airplane = chain_limits(3);
  if (n % 4 == 0 && n / 4 >= airplane.shortest && n / 4 <= airplane.longest) {
    classify_with_kickers(cards, MoveKind::AirplaneSolos, 3, n / 4, 1, rules, out);
  }
  if (n % 5 == 0 && n / 5 >= airplane.shortest && n / 5 <= airplane.longest) {
    classify_with_kickers(cards, MoveKind::AirplanePairs, 3, n / 5, 2, rules, out);
  }
  if (rules.four_with_two && n == 6) classify_with_kickers(cards, MoveKind::FourTwoSolos, 4, 1, 1, rules, out);
  if (rules.four_with_two && n == 8) classify_with_kickers(cards, MoveKind::FourTwoPairs, 4, 1, 2, rules, out);
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(), [](const Move& a, const Move& b) {
    return a.kind != b.kind ? a.kind < b.kind : a.key < b.key;
  });
}

bool is_valid_move(const Move& m, const Rules& rules) {
  thread_local std::vector<Move> readings;  // reused: this check sits on every follow call
  readings.clear();
  classify(m.cards, rules, readings);
  return std::find(readings.begin(), readings.end(), m) != readings.end();
}

}  // namespace ddz
