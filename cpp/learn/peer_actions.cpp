#include "learn/peer_actions.hpp"

#include "learn/action_space.hpp"
#include "learn/move_table.hpp"
#include "rules/notation.hpp"

namespace ddz {

namespace {

const Rules& rlcard_rules() {
  static const Rules rules = *preset("rlcard");
  return rules;
}

// ---- OpenSpiel's play actions, in id order (see the header) ----

constexpr int kLastChainRank = kAce;

// `n` cards of each rank below `ranks` (a bomb's length is its card count, else 1).
void add_single_ranks(MoveKind kind, int n, int ranks, std::vector<Move>& out) {
  const auto length = static_cast<std::uint8_t>(kind == MoveKind::Bomb ? n : 1);
  for (int r = 0; r < ranks; ++r) out.push_back({cards_of(r, n), kind, static_cast<std::uint8_t>(r), length});
}

// Chains of `unit` cards a rank, by length then lowest rank.
void add_chains(MoveKind kind, int unit, std::vector<Move>& out) {
  const auto [shortest, longest] = chain_limits(unit);
  for (int length = shortest; length <= longest; ++length) {
    for (int low = 0; low + length - 1 <= kLastChainRank; ++low) {
      out.push_back({run_of(low, length, unit), kind, static_cast<std::uint8_t>(low), static_cast<std::uint8_t>(length)});
    }
  }
}

// A trio of each rank 3..2 with one kicker of `kicker_size` cards of each other rank
// (solos: all 14 others; pairs: the other 12 ranks 3..2).
void add_trio_kickers(MoveKind kind, int kicker_size, std::vector<Move>& out) {
  const int kicker_ranks = kicker_size == 1 ? kNumRanks : kTwo + 1;
  for (int trio = 0; trio <= kTwo; ++trio) {
    for (int k = 0; k < kicker_ranks; ++k) {
      if (k != trio) out.push_back({cards_of(trio, 3) + cards_of(k, kicker_size), kind, static_cast<std::uint8_t>(trio), 1});
    }
  }
}

bool may_add_kicker(Mask chosen, RankSet body, int rank, int kicker_size) {
  if ((body >> rank) & 1) return false;
  if (rank >= kBlackJoker) return kicker_size == 1 && count(chosen, kBlackJoker) + count(chosen, kRedJoker) == 0;
  return kicker_size == 1 ? count(chosen, rank) < 3 : count(chosen, rank) == 0;
}

// Kicker multisets of `left` more kickers, as non-increasing rank sequences in
// lexicographic order: each next rank is at most `top`.
void add_airplane_kickers(const Move& body_move, RankSet body, int kicker_size, int left, int top, Mask chosen,
                          std::vector<Move>& out) {
  if (left == 0) {
    out.push_back({body_move.cards + chosen, body_move.kind, body_move.key, body_move.length});
    return;
  }
  for (int r = 0; r <= top; ++r) {
    if (!may_add_kicker(chosen, body, r, kicker_size)) continue;
    add_airplane_kickers(body_move, body, kicker_size, left - 1, r, chosen + cards_of(r, kicker_size), out);
  }
}

void add_airplanes_with_kickers(MoveKind kind, int kicker_size, int longest, std::vector<Move>& out) {
  for (int length = 2; length <= longest; ++length) {
    for (int low = 0; low + length - 1 <= kLastChainRank; ++low) {
      const Move body{run_of(low, length, 3), kind, static_cast<std::uint8_t>(low), static_cast<std::uint8_t>(length)};
      const RankSet body_ranks = ((RankSet{1} << length) - 1) << low;
      add_airplane_kickers(body, body_ranks, kicker_size, length, kNumRanks - 1, 0, out);
    }
  }
}

std::vector<Move> openspiel_plays() {
  std::vector<Move> out;
  add_single_ranks(MoveKind::Solo, 1, kNumRanks, out);
  add_chains(MoveKind::Straight, 1, out);
  add_single_ranks(MoveKind::Pair, 2, kTwo + 1, out);
  add_chains(MoveKind::PairStraight, 2, out);
  add_single_ranks(MoveKind::Trio, 3, kTwo + 1, out);
  add_trio_kickers(MoveKind::TrioSolo, 1, out);
  add_trio_kickers(MoveKind::TrioPair, 2, out);
  add_chains(MoveKind::Airplane, 3, out);
  add_airplanes_with_kickers(MoveKind::AirplaneSolos, 1, 5, out);  // 5 x 4 = 20 cards
  add_airplanes_with_kickers(MoveKind::AirplanePairs, 2, 4, out);  // 4 x 5 = 20 cards
  add_single_ranks(MoveKind::Bomb, 4, kTwo + 1, out);
  out.push_back({cards_of(kBlackJoker, 1) + cards_of(kRedJoker, 1), MoveKind::Rocket, kBlackJoker, 2});
  return out;
}

const MoveTable& openspiel_table() {
  static const MoveTable table(openspiel_plays());
  return table;
}

}  // namespace

std::optional<std::string> to_rlcard(const Action& a) {
  if (a.type == ActionType::Pass) return "pass";
  if (a.type != ActionType::Play || !is_valid_move(a.move, rlcard_rules()) || total(a.move.cards) > rlcard_rules().max_hand()) {
    return std::nullopt;
  }
  return to_text(a.move.cards);
}

std::optional<Action> from_rlcard(std::string_view text) {
  if (text == "pass") return Action::pass();
  const ParseResult parsed = parse_cards(text, 4, 1);
  // RLCard writes each card as one character, sorted: accept that form only.
  if (!parsed.ok() || to_text(parsed.cards) != text || total(parsed.cards) > rlcard_rules().max_hand()) {
    return std::nullopt;
  }
  const std::vector<Move> readings = classify(parsed.cards, rlcard_rules());
  if (readings.size() != 1) return std::nullopt;
  return Action::play(readings.front());
}

int to_openspiel(const Action& a) {
  switch (a.type) {
    case ActionType::Pass: return kOpenSpielPass;
    case ActionType::Bid: return a.value <= 3 ? kOpenSpielPass + a.value : -1;
    case ActionType::Play: {
      const int i = openspiel_table().find(a.move);
      return i < 0 ? -1 : kOpenSpielFirstPlay + i;
    }
    case ActionType::Call:
    case ActionType::Rob:
    case ActionType::Partner: break;  // OpenSpiel has none of these
  }
  return -1;
}

std::optional<Action> from_openspiel(int id, bool bidding) {
  if (id == kOpenSpielPass) return bidding ? Action::bid(0) : Action::pass();
  if (id > 0 && id < kOpenSpielFirstPlay) return Action::bid(id);
  const MoveTable& plays = openspiel_table();
  if (id < kOpenSpielFirstPlay || id - kOpenSpielFirstPlay >= plays.size()) return std::nullopt;
  return Action::play(plays[id - kOpenSpielFirstPlay]);
}

}  // namespace ddz
