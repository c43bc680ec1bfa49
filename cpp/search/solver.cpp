#include "search/solver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>

#include "base/parallel.hpp"
#include "base/stop_request.hpp"

#include "rules/wild.hpp"
#include "search/dominance.hpp"
#include "search/rank_gaps.hpp"
#include "search/transposition_table.hpp"

namespace ddz {

namespace {

using Clock = std::chrono::steady_clock;

// A position as the search sees it: only what decides the rest of the hand.
struct Node {
  std::array<Mask, kMaxSeats> hands{};
  Move last{};  // cards == 0: the player to move leads
  std::int8_t last_by = -1;
  std::int8_t to_move = 0;
  std::int8_t landlord = 0;
  std::int8_t partner = -1;
  std::int8_t seats = 3;
  std::uint8_t budget = 0;  // plays left to the proving side (Search::value)
  std::array<std::uint8_t, kMaxSeats> turns{};  // each hand's fewest plays (Search::turns)
  WildRanks wild;  // the same in every node of a search
};

Node node_of(const State& s) {
  return {s.hands, s.last.cards ? s.last : Move{}, static_cast<std::int8_t>(s.last.cards ? s.last_by : -1), s.to_move,
          s.landlord, s.partner, s.seats, 0, {}, s.wild};
}

// What `hand` may play over `last` (nullptr: leading), wild cards included.
void generate(const Node& n, Mask hand, const Move* last, const Rules& rules, std::vector<Move>& out) {
  out.clear();
  append_legal_moves(hand, last, rules, n.wild, out);
}

// The node after the player to move plays `m` (nullptr: passes). The trick ends when
// play comes back round to the one who played last.
Node after(const Node& n, const Move* m) {
  Node c = n;
  const int p = n.to_move;
  c.to_move = static_cast<std::int8_t>((p + 1) % n.seats);
  if (m) {
    c.hands[static_cast<std::size_t>(p)] -= spent(*m);
    c.last = *m;
    c.last_by = static_cast<std::int8_t>(p);
  } else if (c.to_move == n.last_by) {
    c.last = Move{};
    c.last_by = -1;
  }
  return c;
}

bool same_side(const Node& n, int a, int b) { return ddz::same_side(n.landlord, n.partner, a, b); }

// The side of `seat`, as the table indexes it: 0 the landlord's, 1 the other.
int side_of(const Node& n, int seat) { return same_side(n, seat, n.landlord) ? 0 : 1; }

// The position's 64-bit hash, over the node's fields only (plays, bombs and the cards
// played before do not change who wins, so transpositions that differ in them meet),
// with the gaps between ranks closed where that changes nothing (rank_gaps.hpp; not when
// `close_gaps` is false), so that positions that play alike share it. One finalizer round per hand and two more:
// ddz::hash of the equivalent State mixes 27 words, and costs the search about a
// quarter of its speed. The wild rank is the same in every node of a search. Without
// wild cards the move to beat counts by its closed rank, kind and length (its kickers do
// not); with them, whole (a soft bomb loses to a natural one): its cards and its other
// fields hashed apart (packed into one word, a mask's 60 bits and the fields beside them
// collided, and solve_moves under laizi read one child's value for another's).
std::uint64_t key_of(const Node& n, bool close_gaps) {
  const Move& m = n.last;
  std::uint64_t h = 0x9E37'79B9'7F4A'7C15;
  if (n.wild.none()) {
    const ClosedRanks c = close_gaps ? close_rank_gaps(n.hands, n.seats, m) : ClosedRanks{n.hands, m.cards ? 2 * m.key : 0};
    for (int i = 0; i < n.seats; ++i) h = splitmix_finalize(h ^ c.hands[static_cast<std::size_t>(i)]);
    // Bit 0 whether there is a move to beat, 44-51 its length, 52-56 its closed rank (plus
    // one: -1 is below every rank), 57-63 its kind (at 60, FOUR_THREE's 16 fell off the word
    // and read as a solo).
    static_assert(kNumMoveKinds <= 128 && 2 * kNumRanks < 32);
    const std::uint64_t last_word = std::uint64_t{m.cards != 0} ^ (static_cast<std::uint64_t>(c.last_key + 1) << 52);
    h = splitmix_finalize(h ^ last_word ^ (std::uint64_t{static_cast<std::uint8_t>(m.kind)} << 57) ^ (std::uint64_t{m.length} << 44));
  } else {
    for (int i = 0; i < n.seats; ++i) h = splitmix_finalize(h ^ n.hands[static_cast<std::size_t>(i)]);
    h = splitmix_finalize(h ^ hash_of(m.cards, fields_word(m)));
  }
  return splitmix_finalize(h ^ static_cast<std::uint64_t>(n.last_by + 1) ^ (static_cast<std::uint64_t>(n.to_move) << 8) ^
                  (static_cast<std::uint64_t>(n.landlord) << 16) ^ (static_cast<std::uint64_t>(n.seats) << 24) ^
                  (static_cast<std::uint64_t>(n.partner + 1) << 32));
}

// A budget of plays that bounds nothing: the plain search. More than any hand's cards.
inline constexpr std::uint8_t kUnbounded = 0xFE;

// What the table knows of a position, for each side (0: the landlord's, 1: the
// peasants'): the side wins within `win` plays of its own (kNever: not known to;
// kUnbounded: wins, in how many plays not known), and does not within `fail` plays
// (0: nothing known; kNever: never wins). A proof that one side wins is a proof that
// the other never does, and the other way round.
struct Bounds {
  std::uint8_t win[2] = {kNever, kNever};
  std::uint8_t fail[2] = {0, 0};
  static constexpr std::uint8_t kNever = 0xFF;
  static constexpr bool kKeepsLatest = false;  // a bucket keeps its larger searches
};

// What the proof-number search knows of a position, for the side to move: the proof
// number (0: it wins) and the disproof number (0: it loses), each an estimate of how
// many positions remain to be searched to settle it one way or the other.
struct Proof {
  std::uint32_t phi = 1;
  std::uint32_t delta = 1;
  // The numbers of the node searched last always find room (df-pn's progress rests on
  // them), at the cost of the entry with the smallest search in the bucket.
  static constexpr bool kKeepsLatest = true;
};

// What the threads of one solve share: the tables, the nodes counted and the stop.
struct Shared {
  Shared(const SolveOptions& options, bool short_wins_after_dfpn)
      : table(options.tt_bytes / 2), proofs(options.tt_bytes / 2), short_wins_after_dfpn(short_wins_after_dfpn) {}
  TranspositionTable<Bounds> table;
  TranspositionTable<Proof> proofs;
  std::atomic<std::int64_t> nodes{0};  // every thread's, added 1024 at a time
  std::atomic<bool> stop{false};       // the root is settled, or a limit reached
  std::atomic<bool> limit_hit{false};  // a node or time limit stopped the search
  Clock::time_point start = Clock::now();
  // Whether short-win searches run after df-pn over these tables (solve_moves: the next
  // moves' children); only they read what df-pn settles into `table`.
  const bool short_wins_after_dfpn;
};

// Thrown through a search once a limit stops it in the middle of a position's work (its
// moves, the split of its hands): nothing half-computed may be stored. value() catches it.
struct Stopped {};

// A node count no search reaches: no slice end, no giving up.
inline constexpr std::int64_t kNoEnd = std::numeric_limits<std::int64_t>::max();

// The fewest plays of each hand met so far (Search::turns), by hand: open addressing on
// the hand's hash, linear probing, an empty hand marking a free slot (it is never
// stored). The search asks it for every move it scores; a std::unordered_map's
// division and pointer chase cost about a tenth of a node. It holds at most `most`
// hands and stores no more once full: a search of dealt hands meets thousands (80,000 in
// a long one of 20-card hands), but splitting a hand of 50 cards meets millions.
class PlaysMemo {
 public:
  explicit PlaysMemo(std::size_t most) : most_(most) {}

  // The plays stored for `hand`, or -1.
  int find(Mask hand) const {
    for (std::size_t i = index(hand);; i = (i + 1) & mask()) {
      if (slots_[i].hand == hand) return slots_[i].plays;
      if (slots_[i].hand == 0) return -1;
    }
  }

  // Starts loading `hand`'s first slot into the cache.
  void prefetch(Mask hand) const { __builtin_prefetch(&slots_[index(hand)]); }

  // Stores `plays` for `hand` (not stored yet, not empty) unless full; the slots double
  // at half full.
  void add(Mask hand, int plays) {
    if (used_ >= most_) return;
    if (2 * (used_ + 1) > slots_.size()) {
      std::vector<Slot> old(slots_.size() * 2);
      old.swap(slots_);
      for (const Slot& s : old) {
        if (s.hand) insert(s);
      }
    }
    insert({hand, plays});
    ++used_;
  }

 private:
  struct Slot {
    Mask hand = 0;
    int plays = 0;
  };
  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t index(Mask hand) const { return splitmix_finalize(hand) & mask(); }
  void insert(const Slot& s) {
    std::size_t i = index(s.hand);
    while (slots_[i].hand) i = (i + 1) & mask();
    slots_[i] = s;
  }

  std::vector<Slot> slots_ = std::vector<Slot>(1024);
  std::size_t used_ = 0;
  std::size_t most_;
};

// The hands each memo of a thread's search holds at most (PlaysMemo): the two memos of
// every thread together take at most the tables' bytes (32 bytes a hand at most: a
// 16-byte slot, the slots doubling at half full), and at least 4,096 hands each.
std::size_t memo_hands(const SolveOptions& options) {
  return std::max<std::size_t>(4096, options.tt_bytes / (64 * static_cast<std::size_t>(std::max(options.threads, 1))));
}

// A candidate action at a node: a move, or a pass (move.cards == 0), with its order and
// the fewest plays of the hand it leaves.
struct Candidate {
  Move move;
  int score;
  int rest_turns;
};

class Search {
 public:
  Search(const Rules& rules, const SolveOptions& options, Shared& shared)
      : rules_(rules),
        options_(options),
        shared_(shared),
        table_(shared.table),
        proofs_(shared.proofs),
        turns_(memo_hands(options)),
        lead_counts_(memo_hands(options)) {}

  // Whether the side to move at `n` wins; meaningless once aborted_. With `best`, a
  // winning candidate is written there.
  bool wins(const Node& n, int ply, Candidate* best = nullptr) {
    if (tick()) return false;
    const bool mover_proves = proves(n, n.to_move);
    const std::uint64_t key = key_of(n, closes_gaps_);
    if (!best) {
      if (const int k = known(n, key); k >= 0) return (k == 1) == mover_proves;
    }
    const std::int64_t before = nodes_;
    std::vector<Candidate>& list = candidates(n, ply);
    bool won = false;
    for (const Candidate& c : list) {
      won = c.score == kGoesOut || takes(n, c, ply);
      if (halted()) return false;
      if (won) {
        if (best) *best = c;
        break;
      }
    }
    remember(key, prover_side(), n.budget, won == mover_proves, nodes_ - before);
    // A win within the budget is a win: df-pn, which reads only its own table, learns it.
    if (won == mover_proves) proofs_.update(key, nodes_ - before, [&](Proof& p) { p = mover_proves ? kWon : kLost; });
    return won;
  }

  // The node after candidate `c`, the proving side's budget charged for a play.
  Node child_of(const Node& n, const Candidate& c) {
    Node child = play(n, c);
    if (c.move.cards && proves(n, n.to_move) && n.budget != kUnbounded) --child.budget;
    return child;
  }

  // The node after candidate `c`, and after the passes of the players who cannot beat
  // what is to beat (the only action they have: no node of their own).
  Node play(const Node& n, const Candidate& c) {
    Node child = after(n, c.move.cards ? &c.move : nullptr);
    if (c.move.cards) child.turns[static_cast<std::size_t>(n.to_move)] = static_cast<std::uint8_t>(c.rest_turns);
    while (child.last.cards && !beats(n, child.hands[static_cast<std::size_t>(child.to_move)], child.last)) child = after(child, nullptr);
    return child;
  }

  // Whether `hand` can beat `m` (at `n`, for its wild ranks). Under wild cards that lists
  // every answer, which may be thousands: spent as work.
  bool beats(const Node& n, Mask hand, const Move& m) {
    follows_.clear();  // ddz::can_beat's quick answers list nothing
    const bool yes = ddz::can_beat(hand, m, rules_, n.wild, follows_);
    spend(1 + static_cast<std::int64_t>(follows_.size()));
    return yes;
  }

  // What `hand` may play at `n` over `last` (nullptr: leading) into `out`, spent as work.
  void generate(const Node& n, Mask hand, const Move* last, std::vector<Move>& out) {
    ddz::generate(n, hand, last, rules_, out);
    spend(static_cast<std::int64_t>(out.size()));
  }

  // Adds to the table what a search of `nodes` nodes proved: `side` wins within `plays`
  // plays of its own, or does not.
  void remember(std::uint64_t key, int side, int plays, bool won, std::int64_t nodes) {
    const auto p = static_cast<std::uint8_t>(plays);
    table_.update(key, nodes, [&](Bounds& b) {
      if (won) {
        b.win[side] = std::min(b.win[side], p);
        b.fail[1 - side] = Bounds::kNever;
      } else {
        b.fail[side] = std::max(b.fail[side], p);
        if (p == kUnbounded) b.win[1 - side] = kUnbounded;
      }
    });
  }

  // What is known without a search of `n` (key `key`): 1 the proving side wins within
  // the budget, 0 it does not, -1 unknown.
  int known(const Node& n, std::uint64_t key) {
    if (n.budget != kUnbounded && need(n) > n.budget) return 0;
    const std::optional<Bounds> stored = table_.find(key);
    if (!stored) return -1;
    const Bounds& b = *stored;
    if (b.win[prover_side()] <= n.budget) return 1;
    if (b.fail[prover_side()] >= n.budget) return 0;
    return -1;
  }

  // Whether candidate `c` wins for the side to move at `n`.
  bool takes(const Node& n, const Candidate& c, int ply) {
    const Node child = child_of(n, c);
    const bool child_wins = wins(child, ply + 1);
    return same_side(n, n.to_move, child.to_move) ? child_wins : !child_wins;
  }

  // The legal actions at `n` in search order: a move that goes out first, with score
  // kGoesOut (then nothing else is needed).
  std::vector<Candidate>& candidates(const Node& n, int ply) {
    while (static_cast<std::size_t>(ply) >= plies_.size()) plies_.emplace_back();
    std::vector<Candidate>& list = plies_[static_cast<std::size_t>(ply)];
    list.clear();
    const Mask hand = n.hands[static_cast<std::size_t>(n.to_move)];
    const Move* last = n.last.cards ? &n.last : nullptr;
    generate(n, hand, last, moves_);
    for (const Move& m : moves_) {
      if (spent(m) == hand) {
        list.assign(1, {m, kGoesOut, 0});
        return list;
      }
    }
    const OtherHands others = other_hands(n);
    for (const Move& m : moves_) {
      if (n.wild.none() && better_twin(m, hand, last, others, rules_)) continue;  // a lower card does as well
      list.push_back(scored(n, m));
    }
    if (feeds_partner(n, list)) return list;
    if (!last && sure_lead(n, list)) return list;
    if (last && sure_follow(n, list)) return list;
    if (last) list.push_back({Move{}, same_side(n, n.to_move, n.last_by) ? kPartnerPass : 0, n.turns[static_cast<std::size_t>(n.to_move)]});
    by_score(list);
    return list;
  }

  // Sorts `list` by descending score, ties in their order: an insertion sort, as the lists
  // are short and std::stable_sort allocates a buffer each time; but not a long one (a
  // hand of wild cards may have 100,000 moves: the insertion sort took seconds, between
  // two checks of the limits).
  static void by_score(std::vector<Candidate>& list) {
    if (list.size() > kShortList) {
      std::stable_sort(list.begin(), list.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
      return;
    }
    for (std::size_t i = 1; i < list.size(); ++i) {
      const Candidate c = list[i];
      std::size_t j = i;
      for (; j > 0 && list[j - 1].score < c.score; --j) list[j] = list[j - 1];
      list[j] = c;
    }
  }

  // The cards of the other players than the one to move at `n`.
  static OtherHands other_hands(const Node& n) {
    OtherHands others;
    for (int s = 0; s < n.seats; ++s) {
      if (s == n.to_move) continue;
      const Mask cards = n.hands[static_cast<std::size_t>(s)];
      others.all += cards;
      if (same_side(n, s, n.to_move)) others.partners += cards;
    }
    return others;
  }

  // Whether the leader at `n` wins by leading moves that no opponent can beat, then its
  // last combination; if so `list` (the scored leads) becomes the first of them, with
  // score kGoesOut. A proving leader must do it within its budget. (Not with wild
  // cards, whose combinations classify() does not read.)
  bool sure_lead(const Node& n, std::vector<Candidate>& list) {
    if (!n.wild.none()) return false;
    sure_.clear();
    for (const Candidate& c : list) {
      if (c.score >= kKeepsLead) sure_.push_back(c.move);
    }
    if (sure_.empty()) return false;  // the hand is no one combination: its move would go out
    sure_steps_ = kSureBudget;
    const int plays = proves(n, n.to_move) ? n.budget : kMaxTurns;
    const int first = sure_win(n.hands[static_cast<std::size_t>(n.to_move)], 0, plays);
    if (first < 0 || first >= static_cast<int>(sure_.size())) return false;
    const Move& lead = sure_[static_cast<std::size_t>(first)];
    list.assign(1, {lead, kGoesOut, turns(n.hands[static_cast<std::size_t>(n.to_move)] - spent(lead))});
    return true;
  }

  // Whether the player to move at `n` wins by a move after which the next partner in
  // play, its hand one combination, goes out: the opponents seated before it cannot beat
  // the move (they pass) and the partner's hand can. If so `list` (the scored moves)
  // becomes that move, with score kGoesOut. A proving side spends two plays on it.
  // (Not with wild cards, where turns() does not tell one combination.)
  bool feeds_partner(const Node& n, std::vector<Candidate>& list) {
    if (!n.wild.none() || (proves(n, n.to_move) && n.budget < 2)) return false;
    int partner = -1;
    for (int k = 1; k < n.seats && partner < 0; ++k) {
      const int s = (n.to_move + k) % n.seats;
      if (same_side(n, s, n.to_move)) partner = s;
    }
    if (partner < 0) return false;
    const Mask partner_hand = n.hands[static_cast<std::size_t>(partner)];
    if (n.turns[static_cast<std::size_t>(partner)] != 1) return false;
    for (const Candidate& c : list) {
      if (!let_through(n, c.move, partner)) continue;
      generate(n, partner_hand, &c.move, follows_);
      if (std::any_of(follows_.begin(), follows_.end(), [&](const Move& f) { return spent(f) == partner_hand; })) {
        list.assign(1, {c.move, kGoesOut, c.rest_turns});
        return true;
      }
    }
    return false;
  }

  // Whether no opponent seated after the player to move at `n` and before `seat` can beat `m`.
  bool let_through(const Node& n, const Move& m, int seat) {
    for (int s = (n.to_move + 1) % n.seats; s != seat; s = (s + 1) % n.seats) {
      if (beats(n, n.hands[static_cast<std::size_t>(s)], m)) return false;
    }
    return true;
  }

  // Whether the follower at `n` wins by a move no opponent can beat (the opponents pass,
  // a partner may, and the lead comes back) that leaves a hand splitting as sure_lead's
  // does: unbeatable leads, then its last combination. If so `list` (the scored follows)
  // becomes that move, with score kGoesOut. A proving follower must do it all within its
  // budget, the follow included.
  bool sure_follow(const Node& n, std::vector<Candidate>& list) {
    const int plays = proves(n, n.to_move) ? n.budget - 1 : kMaxTurns;
    if (!n.wild.none() || plays < 1) return false;  // no play left for any rest: sure_win fails them all
    const Mask hand = n.hands[static_cast<std::size_t>(n.to_move)];
    for (const Candidate& c : list) {
      if (c.score < kKeepsLead) continue;
      if (c.rest_turns == 1) {  // one combination left: out next (what sure_win would find)
        list.assign(1, {c.move, kGoesOut, c.rest_turns});
        return true;
      }
      const Mask rest = hand - spent(c.move);
      generate(n, rest, nullptr, leads_);
      sure_.clear();
      for (const Move& m : leads_) {
        if (!beatable(n, m)) sure_.push_back(m);
      }
      sure_steps_ = kSureBudget;
      if (sure_win(rest, 0, plays) < 0) continue;
      list.assign(1, {c.move, kGoesOut, c.rest_turns});
      return true;
    }
    return false;
  }

  // Whether `hand` splits into moves of sure_[from..] (none of which an opponent can
  // beat) and at most one other combination: then its leader plays the sure moves (the
  // opponents can only pass, a partner may) and goes out with the last. Returns the
  // index in sure_ of a sure move to lead first (sure_.size() when the hand is one
  // combination), or -1 when no split is found within the step budget.
  int sure_win(Mask hand, std::size_t from, int plays) {
    if (hand == 0) return static_cast<int>(sure_.size());
    if (--sure_steps_ < 0 || plays < 1) return -1;
    if (turns(hand) == 1) return static_cast<int>(sure_.size());  // memoized, where classify() is not
    for (std::size_t i = from; i < sure_.size(); ++i) {
      if (contains(hand, sure_[i].cards) && sure_win(hand - sure_[i].cards, i + 1, plays - 1) >= 0) return static_cast<int>(i);
    }
    return -1;
  }

  // Order: moves no opponent can beat (they keep the lead), then those that leave the
  // hand fewest plays from going out, then the ones that shed more cards.
  Candidate scored(const Node& n, const Move& m) {
    const int rest_turns = turns(n.hands[static_cast<std::size_t>(n.to_move)] - spent(m));
    int s = 64 * (kMaxTurns - rest_turns) + total(m.cards);
    if (!beatable(n, m)) s += kKeepsLead;
    return {m, s, rest_turns};
  }

  // Whether a player of the other side can beat `m`.
  bool beatable(const Node& n, const Move& m) {
    for (int o = 0; o < n.seats; ++o) {
      if (same_side(n, o, n.to_move)) continue;
      if (beats(n, n.hands[static_cast<std::size_t>(o)], m)) return true;
    }
    return false;
  }

  // The fewest plays that empty `hand` when leading every time (each play covering the
  // lowest rank left), memoized: hands in a search are few.
  int turns(Mask hand) {
    if (hand == 0) return 0;
    if (const int known = turns_.find(hand); known >= 0) return known;
    std::vector<Move> leads;
    append_legal_moves(hand, nullptr, rules_, kNoWild, leads);
    spend(1 + static_cast<std::int64_t>(leads.size()));
    const Mask low = nibble(lowest_rank(ranks_with_at_least(hand, 1)));
    int best = kMaxTurns;
    for (const Move& m : leads) {
      if (m.cards & low) best = std::min(best, 1 + turns(hand - m.cards));
    }
    turns_.add(hand, best);
    return best;
  }

  bool proves(const Node& n, int seat) const { return (side_of(n, seat) == 0) == prover_landlord_; }

  // The proving side as side_of numbers it (0: the landlord's), the table's index.
  int prover_side() const { return prover_landlord_ ? 0 : 1; }

  // The fewest plays the proving side needs to go out: its smallest turns(). With wild
  // cards turns() is no bound (a wild card completes combinations), so 1.
  int need(const Node& n) {
    if (!n.wild.none()) return 1;
    int least = kMaxTurns;
    for (int i = 0; i < n.seats; ++i) {
      if (proves(n, i)) least = std::min<int>(least, n.turns[static_cast<std::size_t>(i)]);
    }
    return least;
  }

  // Whether the side to move at `root` wins (with `best`, a winning candidate is written
  // there): first the short-win searches (short_win; not for the root's children when
  // threads share them out: the root's have run, and 20 children at 16,384 nodes each
  // would cost more than they find), then df-pn until it settles the root (unbounded
  // alpha-beta taking turns with it cost 30% more nodes on the dealt positions once
  // df-pn's first numbers counted controls and leads). Nothing (and a stopped search)
  // when aborted; nothing as well once the search has counted `give_up` nodes.
  // `shared_root`: other threads search below this root (split_root).
  std::optional<bool> value(const Node& position, Candidate* best, std::int64_t give_up = kNoEnd, bool short_wins = true,
                            bool shared_root = false) {
    try {
      return decide(position, best, give_up, short_wins, shared_root);
    } catch (const Stopped&) {
      slice_end_ = kNoEnd;
      sliced_ = false;
      return std::nullopt;
    }
  }

  // value(), but for a limit reached in the middle of a position's work: Stopped.
  std::optional<bool> decide(const Node& position, Candidate* best, std::int64_t give_up, bool short_wins,
                             bool shared_root) {
    shared_root_ = shared_root;
    const Node root = with_turns(position);
    if (short_wins && root.wild.none()) {
      const int settled = short_win(root, best);
      if (aborted_) return std::nullopt;
      if (settled >= 0) return settled == 1;
      sliced_ = false;
    }
    prover_landlord_ = side_of(root, root.to_move) == 0;
    Node n = root;
    n.budget = kUnbounded;
    const std::uint64_t key = key_of(n, closes_gaps_);
    slice_end_ = give_up;
    prove(n, key, kInfinite, kInfinite, 0, best);
    slice_end_ = kNoEnd;
    sliced_ = false;
    if (aborted_) return std::nullopt;
    if (const Proof p = proof_of(n, key); p.phi == 0 || p.delta == 0) return p.phi == 0;
    return std::nullopt;
  }

  // The short-win searches: each side in turn tries to win within b plays of its own,
  // for b from the fewest plays either side needs to kDeepening more, all together for
  // at most kShortWinNodes nodes. A side that does wins (a bounded search's "no" only
  // says that no win is that short). With wild cards turns() bounds nothing, so the
  // caller does not ask. 1: the side to move wins, 0: it loses, -1: not settled.
  int short_win(const Node& root, Candidate* best) {
    const bool mover_landlord = side_of(root, root.to_move) == 0;
    int lo = kMaxTurns;
    for (const bool mover_side : {true, false}) {
      prover_landlord_ = mover_side == mover_landlord;
      lo = std::min(lo, need(root));
    }
    slice_end_ = nodes_ + kShortWinNodes;
    for (int b = lo; b <= lo + kDeepening; ++b) {
      for (const bool mover_side : {true, false}) {
        prover_landlord_ = mover_side == mover_landlord;
        Node n = root;
        n.budget = static_cast<std::uint8_t>(b);
        const bool w = wins(n, 0, mover_side ? best : nullptr);
        if (halted()) return -1;
        if (mover_side && w) return 1;
        if (!mover_side && !w) return 0;
      }
    }
    return -1;
  }

  // `n` with each hand's fewest plays filled in (the search carries them down from there).
  Node with_turns(Node n) {
    for (int i = 0; i < n.seats; ++i) n.turns[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(turns(n.hands[static_cast<std::size_t>(i)]));
    return n;
  }

  // Counts a node; true when the search must stop (a limit, or the end of a slice).
  bool tick() {
    if (options_.node_limit > 0 && nodes_ + others_ >= options_.node_limit) {
      reach_limit();  // the node is not searched, so not counted: at most node_limit (one thread)
      return true;
    }
    ++nodes_;
    // The limits every 64 nodes: a node that first writes to a page of a large table waits
    // for the kernel to clear it (2 MB with huge pages, half a millisecond), and 1,024 such
    // nodes ran a time limit over by seconds. The other threads' count every 1,024.
    if ((nodes_ & 1023) == 0) {
      sync();
    } else if ((nodes_ & 63) == 0) {
      check_limits();
    }
    if (nodes_ > slice_end_) sliced_ = true;
    return halted();
  }

  // Every 1024 nodes: adds them to the count of all threads, and checks the limits.
  void sync() {
    others_ = shared_.nodes.fetch_add(1024, std::memory_order_relaxed) + 1024 - nodes_;
    check_limits();
  }

  // Counts `units` of a position's work (moves generated, hands split); every 1024 of
  // them checks the limits, and a search they stop unwinds (Stopped): a position of
  // huge hands can spend seconds between two nodes.
  void spend(std::int64_t units) {
    work_ += units;
    if (work_ < next_check_) return;
    next_check_ = work_ + 1024;
    check_limits();
    if (aborted_) throw Stopped{};
  }

  // Stops at the time limit, at the node limit's bound on work (work_limit), when the
  // caller asks to (base/stop_request.hpp: Ctrl-C), or when another thread has stopped the
  // search. (Limits are read every 64 nodes and every 1,024 units of work: positions, but
  // also moves generated and hands split, which a position of huge hands spends without end.)
  void check_limits() {
    if (options_.time_limit > 0 && seconds() > options_.time_limit) reach_limit();
    if (work_ > work_limit_) reach_limit();
    if (stop_requested()) reach_limit();
    if (shared_.stop.load(std::memory_order_relaxed)) aborted_ = true;
  }

  // The work a node limit allows a thread: kWorkPerNode a node, at least kLeastWork (none
  // without a limit). Searches of dealt hands spend 7-110 units a node (a 20-card root a
  // hundred thousand before its first); splitting a hand of 50 cards, billions before it.
  static std::int64_t work_limit(std::int64_t node_limit) {
    if (node_limit <= 0) return kNoEnd;
    return node_limit > kNoEnd / kWorkPerNode ? kNoEnd : std::max(kLeastWork, node_limit * kWorkPerNode);
  }

  void reach_limit() {
    aborted_ = true;
    shared_.limit_hit = true;
    shared_.stop = true;
  }
  bool halted() const { return aborted_ || sliced_; }

  // The proof and disproof numbers of `n` (key `key`) for its side to move: what the proof
  // table holds (exact once settled, by df-pn or a short-win search), else a first estimate:
  // the square of the fewest plays the side needs to go out against the square of the
  // fewest its opponents need (squares: a side one play further from out is much
  // harder to prove a win for; they settled one more hard position than the plain
  // counts, and cubes one fewer), a hand's plays its turns() less its controls (at most
  // turns() - 1: a hand of t combinations, k of which no opponent beats, is about t - k
  // leads from out), and a leader's disproof number times its number of leads, a
  // follower's times its follows and the pass (each must be refuted). On the 100 dealt
  // positions at 6M nodes the controls took df-pn's nodes from 44.8M to 35.9M, the lead
  // counts to 34.5M; the follows (with kShortWinNodes 2^14) took all the nodes from
  // 33.7M to 30.6M and the 95th position's from 1.77M to 1.56M.
  Proof proof_of(const Node& n, std::uint64_t key) {
    if (const std::optional<Proof> p = proofs_.find(key)) return *p;
    const OtherHands others = other_hands(n);
    // Each side's cards, as the other side's hands' controls read them.
    const std::array<RankCounts, 2> side_counts = {rank_counts(others.partners + n.hands[static_cast<std::size_t>(n.to_move)]),
                                                   rank_counts(others.all - others.partners)};
    int mine = kMaxTurns, theirs = kMaxTurns;
    for (int i = 0; i < n.seats; ++i) {
      const bool own = same_side(n, i, n.to_move);
      const int t = n.turns[static_cast<std::size_t>(i)];
      const int k = t <= 1 || !n.wild.none() ? 0 : std::min(t - 1, controls(rank_counts(n.hands[static_cast<std::size_t>(i)]), side_counts[own ? 1 : 0]));
      int& least = own ? mine : theirs;
      least = std::min(least, t - k);
    }
    std::uint64_t delta = static_cast<std::uint64_t>(theirs * theirs);
    if (const Mask hand = n.hands[static_cast<std::size_t>(n.to_move)]; !n.last.cards && hand) {
      delta *= static_cast<std::uint64_t>(lead_count(hand));
    } else if (hand) {
      generate(n, hand, &n.last, follows_);
      delta *= follows_.size() + 1;  // its follows and the pass
    }
    return {static_cast<std::uint32_t>(mine * mine), static_cast<std::uint32_t>(std::clamp<std::uint64_t>(delta, 1, kInfinite - 1))};
  }

  // A rough count of the combinations of `hand` that no card of `others` (the other
  // side's cards) beats: its bombs above theirs and its rocket; without a bomb or rocket
  // against it, also each rank above all of theirs, each pair above their pairs and each
  // trio above their trios. Not a split of the hand: only an estimate for proof_of.
  static int controls(const RankCounts& hand, const RankCounts& others) {
    const auto& mine = hand.at_least;
    const auto& theirs = others.at_least;
    if ((theirs[0] & kJokers) == kJokers) return 0;
    const RankSet bombs = mine[3];
    const int rocket = (mine[0] & kJokers) == kJokers ? 1 : 0;
    // The ranks above all of `s` (every rank when `s` is empty).
    const auto above = [](RankSet s) { return s ? static_cast<RankSet>(kAllRanks & ~((2u << highest_rank(s)) - 1)) : kAllRanks; };
    if (theirs[3]) return rank_count(bombs & above(theirs[3])) + rocket;
    const RankSet rest = mine[0] & ~bombs & ~(rocket ? kJokers : 0);
    const RankSet over1 = above(theirs[0]), over2 = above(theirs[1]), over3 = above(theirs[2]);
    return rank_count(bombs) + rocket + rank_count(rest & over1) + rank_count(rest & mine[1] & ~over1 & over2) +
           rank_count(rest & mine[2] & ~over2 & over3);
  }

  // The number of leads of `hand` (wild cards aside), memoized.
  int lead_count(Mask hand) {
    if (const int known = lead_counts_.find(hand); known >= 0) return known;
    std::vector<Move> leads;
    append_legal_moves(hand, nullptr, rules_, kNoWild, leads);
    spend(static_cast<std::int64_t>(leads.size()));
    const int c = std::max(1, static_cast<int>(leads.size()));
    lead_counts_.add(hand, c);
    return c;
  }

  // Depth-first proof-number search (df-pn: Nagai 2002, with the 1 + epsilon trick of
  // Pawlewicz and Lew 2007) of `n` (key `key`, unbounded): searches until the side to
  // move's proof number reaches `th_phi`, its disproof number `th_delta`, or one of them
  // 0 (settled, in both tables), or a limit or the slice ends; then stores the numbers.
  // At the root a winning candidate, once proved, goes to `best`.
  void prove(const Node& n, std::uint64_t key, std::uint32_t th_phi, std::uint32_t th_delta, int ply, Candidate* best) {
    if (tick()) return;
    const std::int64_t before = nodes_;
    const std::vector<Candidate>& list = candidates(n, ply);
    if (list[0].score == kGoesOut) {
      if (best) *best = list[0];
      return settle(n, key, true, before);
    }
    std::vector<Node>& kids = children(ply);
    kids.clear();
    kid_keys_[static_cast<std::size_t>(ply)].clear();
    for (const Candidate& c : list) {
      kids.push_back(child_of(n, c));
      const std::uint64_t k = key_of(kids.back(), closes_gaps_);
      kid_keys_[static_cast<std::size_t>(ply)].push_back(k);
      proofs_.prefetch(k);  // the bucket loads while the next children are made
      if (!kids.back().last.cards) lead_counts_.prefetch(kids.back().hands[static_cast<std::size_t>(kids.back().to_move)]);
    }
    const std::vector<std::uint64_t>& keys = kid_keys_[static_cast<std::size_t>(ply)];
    // The children's numbers, read once, then only the searched child's again: the
    // others change only through transpositions, and a stale number only steers the
    // choice of child (a settled one never changes).
    std::vector<Proof>& numbers = kid_proofs_[static_cast<std::size_t>(ply)];
    numbers.clear();
    for (std::size_t i = 0; i < kids.size(); ++i) numbers.push_back(proof_of(kids[i], keys[i]));
    while (true) {
      // At a root other threads search below, their results: every child's numbers afresh.
      if (ply == 0 && shared_root_) {
        for (std::size_t i = 0; i < kids.size(); ++i) numbers[i] = proof_of(kids[i], keys[i]);
      }
      // The side to move wins through its easiest child, and loses only if every child
      // loses; a child where a partner moves counts as it stands, else reversed.
      Proof here{kInfinite, 0};
      std::uint32_t second = kInfinite, pick_delta = 0;
      std::size_t pick = 0;
      for (std::size_t i = 0; i < kids.size(); ++i) {
        Proof c = numbers[i];
        if (!same_side(n, n.to_move, kids[i].to_move)) std::swap(c.phi, c.delta);
        here.delta = sum(here.delta, c.delta);
        if (c.phi < here.phi) {
          second = here.phi;
          here.phi = c.phi;
          pick = i;
          pick_delta = c.delta;
        } else {
          second = std::min(second, c.phi);
        }
      }
      if (here.phi == 0 || here.delta == 0) {
        if (best && here.phi == 0) *best = list[pick];
        return settle(n, key, here.phi == 0, before);
      }
      if (here.phi >= th_phi || here.delta >= th_delta || halted()) {
        proofs_.update(key, nodes_ - before, [&](Proof& p) { p = here; });
        return;
      }
      const std::uint32_t child_phi = std::min(th_phi, second == kInfinite ? kInfinite : sum(second, second / 2 + 1));
      const std::uint32_t child_delta = th_delta - here.delta + pick_delta;
      const bool same = same_side(n, n.to_move, kids[pick].to_move);
      prove(kids[pick], keys[pick], same ? child_phi : child_delta, same ? child_delta : child_phi, ply + 1, nullptr);
      numbers[pick] = proof_of(kids[pick], keys[pick]);
    }
  }

  // Records that the side to move at `n` (key `key`) wins, or loses, as the search since
  // node count `before` proved: in df-pn's table, and in the bounds table when short-win
  // searches follow (they alone read it).
  void settle(const Node& n, std::uint64_t key, bool won, std::int64_t before) {
    proofs_.update(key, nodes_ - before, [&](Proof& p) { p = won ? kWon : kLost; });
    if (shared_.short_wins_after_dfpn) remember(key, side_of(n, n.to_move), kUnbounded, won, nodes_ - before);
  }

  static std::uint32_t sum(std::uint32_t a, std::uint32_t b) {
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(kInfinite, std::uint64_t{a} + b));
  }

  std::vector<Node>& children(int ply) {
    while (static_cast<std::size_t>(ply) >= kids_.size()) {
      kids_.emplace_back();
      kid_keys_.emplace_back();
      kid_proofs_.emplace_back();
    }
    return kids_[static_cast<std::size_t>(ply)];
  }


  double seconds() const { return std::chrono::duration<double>(Clock::now() - shared_.start).count(); }
  // play(), outside a search: nothing when a limit stops it (the passes it finds may list
  // thousands of answers under wild cards).
  std::optional<Node> played(const Node& n, const Candidate& c) {
    try {
      return play(n, c);
    } catch (const Stopped&) {
      return std::nullopt;
    }
  }

  // The candidates at `root`, in search order (as the search's first node lists them);
  // nothing when a limit stops their making.
  std::optional<std::vector<Candidate>> root_candidates(const Node& root) {
    try {
      return candidates(with_turns(root), 0);
    } catch (const Stopped&) {
      return std::nullopt;
    }
  }

  std::int64_t nodes() const { return nodes_; }

 private:
  static constexpr int kMaxTurns = 64;  // more than any hand needs
  static constexpr std::int64_t kWorkPerNode = 1024, kLeastWork = std::int64_t{1} << 20;  // work_limit()
  static constexpr int kKeepsLead = 1 << 14;
  static constexpr int kPartnerPass = 1 << 20;
  static constexpr int kGoesOut = 1 << 24;
  static constexpr int kSureBudget = 64;  // steps of one sure_win search
  static constexpr std::size_t kShortList = 64;  // candidates by_score sorts by insertion
  // Bounded searches past the least bound, per side. 0: on the 100 dealt positions of
  // bench/RESULTS.md, 1 settles easy ones in half the nodes (median 98k against 202k)
  // but costs the hard ones more (21 unsolved at 3M nodes against 19; 2 and 3 worse).
  static constexpr int kDeepening = 0;
  // Nodes of all the short-win searches: some hard positions spent 1-2M nodes there that
  // the unbounded search settled in 0.2-0.4M (on the 100 dealt positions at 6M nodes,
  // 2^16: 12 past 1.6M nodes against 14 uncapped, 6% fewer nodes; 2^18: 5% fewer).
  // Since df-pn's first numbers count controls, leads and follows, 2^14 does better.
  static constexpr std::int64_t kShortWinNodes = std::int64_t{1} << 14;
  static constexpr std::uint32_t kInfinite = 1u << 30;  // a proof or disproof number: settled the other way
  static constexpr Proof kWon{0, kInfinite}, kLost{kInfinite, 0};  // for the side to move

  const Rules& rules_;
  // Closing rank gaps moves ranks down; three aces are a bomb only as aces (ace_trio_bomb),
  // so there a closed key would take a hand's bomb for another's trio.
  const bool closes_gaps_ = !rules_.ace_trio_bomb;
  SolveOptions options_;
  Shared& shared_;
  TranspositionTable<Bounds>& table_;
  TranspositionTable<Proof>& proofs_;
  std::int64_t nodes_ = 0;
  std::int64_t others_ = 0;  // the other threads' nodes, as last counted
  std::int64_t work_ = 0, next_check_ = 1024;  // spend()'s count, and where it next checks the limits
  std::int64_t work_limit_ = work_limit(options_.node_limit);
  bool aborted_ = false;  // a limit was reached, or another thread stopped the search
  bool sliced_ = false;  // the current slice's nodes are spent
  std::int64_t slice_end_ = kNoEnd;
  PlaysMemo turns_;
  PlaysMemo lead_counts_;  // lead_count's memo
  std::deque<std::vector<Candidate>> plies_;  // one list per ply; a deque keeps them in place as it grows
  std::deque<std::vector<Node>> kids_;        // df-pn: the children of the node at each ply
  std::deque<std::vector<std::uint64_t>> kid_keys_;  // and their keys
  std::deque<std::vector<Proof>> kid_proofs_;        // and their proof numbers
  std::vector<Move> moves_, follows_, leads_, sure_;
  bool prover_landlord_ = false;
  bool shared_root_ = false;  // value's root is one other threads search below (split_root)
  int sure_steps_ = 0;  // left to the current sure_win search
};

Node checked_root(const State& s, const Rules& rules) {
  if (std::string why = solver_rules_error(rules); !why.empty()) throw std::invalid_argument(why);
  if (s.phase == Phase::Bidding) throw std::invalid_argument("the solver needs the play phase; the hand is still being bid");
  if (s.phase == Phase::Partner) throw std::invalid_argument("the solver needs the play phase; the landlord is still to choose a partner");
  if (s.phase == Phase::Over) throw std::invalid_argument("the hand is over");
  if (s.seats < 2 || s.seats > kMaxSeats || s.landlord < 0 || s.landlord >= s.seats || s.to_move < 0 ||
      s.to_move >= s.seats) {
    throw std::invalid_argument("not a position in play");
  }
  return node_of(s);
}

}  // namespace

std::string solver_rules_error(const Rules& rules) {
  // The solver plays two sides and the combinations alone: Run Fast's rules of play and
  // its seats each for itself are not in it.
  if (has_table_rules(rules)) {
    return "the solver plays a landlord's side against the other, without must_beat or single_card_warning";
  }
  return {};
}

namespace {

Action action_of(const Move& m) { return m.cards ? Action::play(m) : Action::pass(); }

// Runs work(search, i) on `threads` threads i = 0.. (the caller's among them), each with a
// Search of its own over the shared tables, and returns their nodes. An exception in one (memory)
// is rethrown once all have finished.
template <class Work>
std::int64_t on_threads(int threads, const Rules& rules, const SolveOptions& options, Shared& shared, Work&& work) {
  std::vector<std::unique_ptr<Search>> searches;
  for (int i = 0; i < threads; ++i) searches.push_back(std::make_unique<Search>(rules, options, shared));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  parallel_each(threads, [&](int i) {
    errors[static_cast<std::size_t>(i)] = thrown_by([&] { work(*searches[static_cast<std::size_t>(i)], i); });
    if (errors[static_cast<std::size_t>(i)]) shared.stop = true;
  });
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
  std::int64_t nodes = 0;
  for (const auto& search : searches) nodes += search->nodes();
  return nodes;
}

// Settles `root`, unsettled by one thread within options.alone_nodes, on options.threads
// threads over the same tables. The first goes on with df-pn from the root, so that no
// position takes much longer than on one thread (with every thread solving the root's
// children one by one, two threads ground through hard lost children where df-pn at the
// root turned to the winning one: 15 and 80 times one thread's time on two positions of
// 9-12 cards); it reads the root's children's numbers afresh at each step, to see what
// the others settle. The others solve the root's children one at a time in the search's
// order: a child where the side to move wins stops them all, and every child lost
// settles the root as lost. (The others taking the children from the last instead
// doubled the time of wins the first child settles.) Nothing when a limit stopped them.
std::optional<bool> split_root(const Node& root, std::vector<Candidate> list, const Rules& rules, const SolveOptions& options,
                               Shared& shared, Candidate& best, std::int64_t& nodes) {
  // The tables grow to their bound for the threads to share: a time limit or Ctrl-C met
  // meanwhile ends the solve there (settled nothing), as it would end a search.
  const auto stop = [&] {
    const double seconds = std::chrono::duration<double>(Clock::now() - shared.start).count();
    return (options.time_limit > 0 && seconds > options.time_limit) || stop_requested();
  };
  // (Only short-win searches write `table`: df-pn's threads leave it at its size.)
  if (!shared.table.fix(shared.short_wins_after_dfpn, stop) || !shared.proofs.fix(true, stop)) {
    shared.limit_hit = true;
    return std::nullopt;
  }
  std::atomic<std::size_t> next{0}, lost{0};
  std::atomic<std::size_t> winner{list.size()};
  std::optional<bool> at_root;
  Candidate root_best{};
  nodes += on_threads(options.threads, rules, options, shared, [&](Search& search, int index) {
    if (index == 0) {
      at_root = search.value(root, &root_best, kNoEnd, false, true);
      if (at_root) shared.stop = true;
      return;
    }
    for (std::size_t i; (i = next.fetch_add(1)) < list.size();) {
      const std::optional<Node> child = search.played(root, list[i]);
      if (!child) return;
      const std::optional<bool> child_wins = search.value(*child, nullptr, kNoEnd, false);
      if (!child_wins) return;
      if (same_side(root, root.to_move, child->to_move) == *child_wins) {
        winner = i;
        shared.stop = true;
        return;
      }
      if (lost.fetch_add(1) + 1 == list.size()) shared.stop = true;
    }
  });
  if (at_root) {
    if (*at_root) best = root_best;
    return at_root;
  }
  if (winner < list.size()) {
    best = list[winner];
    return true;
  }
  if (lost == list.size()) return false;
  return std::nullopt;
}

}  // namespace

SolveResult solve(const State& s, const Rules& rules, const SolveOptions& options) {
  const Node root = checked_root(s, rules);
  Shared shared(options, false);
  Search search(rules, options, shared);
  Candidate best{};
  std::optional<bool> won = search.value(root, &best, options.threads > 1 ? options.alone_nodes : kNoEnd);
  std::int64_t nodes = search.nodes();
  if (!won && !shared.limit_hit) {
    if (std::optional<std::vector<Candidate>> list = search.root_candidates(root)) {
      won = split_root(root, std::move(*list), rules, options, shared, best, nodes);
    }
  }
  SolveResult r;
  r.outcome = !won ? Outcome::Unknown : (*won ? Outcome::Win : Outcome::Loss);
  if (r.outcome == Outcome::Win) r.move = action_of(best.move);
  r.nodes = nodes;
  r.seconds = search.seconds();
  return r;
}

MovesResult solve_moves(const State& s, const Rules& rules, const SolveOptions& options) {
  const Node root = checked_root(s, rules);
  Shared shared(options, true);
  const Mask hand = root.hands[static_cast<std::size_t>(root.to_move)];
  std::vector<Move> moves;
  generate(root, hand, root.last.cards ? &root.last : nullptr, rules, moves);
  if (root.last.cards) moves.insert(moves.begin(), Move{});
  MovesResult r;
  for (const Move& m : moves) r.moves.push_back({action_of(m), m.cards && spent(m) == hand ? Outcome::Win : Outcome::Unknown});
  // Each move's child, one at a time a thread (the tables grown first when shared).
  if (options.threads > 1) {
    shared.table.fix(true);
    shared.proofs.fix(true);
  }
  std::atomic<std::size_t> next{0};
  r.nodes = on_threads(options.threads, rules, options, shared, [&](Search& search, int) {
    for (std::size_t i; (i = next.fetch_add(1)) < moves.size();) {
      const Move& m = moves[i];
      if (r.moves[i].outcome == Outcome::Win) continue;  // it goes out
      const Node child = after(root, m.cards ? &m : nullptr);
      const std::optional<bool> child_wins = search.value(child, nullptr);
      if (!child_wins) return;
      const bool won = same_side(root, root.to_move, child.to_move) == *child_wins;
      r.moves[i].outcome = won ? Outcome::Win : Outcome::Loss;
    }
  });
  r.seconds = std::chrono::duration<double>(Clock::now() - shared.start).count();
  return r;
}

}  // namespace ddz
