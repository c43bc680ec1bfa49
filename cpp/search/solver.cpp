#include "search/solver.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <new>
#include <stdexcept>
#include <unordered_map>

#include "rules/wild.hpp"

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
  WildRanks wild;  // the same in every node of a search
};

Node node_of(const State& s) {
  return {s.hands, s.last.cards ? s.last : Move{}, static_cast<std::int8_t>(s.last.cards ? s.last_by : -1), s.to_move,
          s.landlord, s.partner, s.seats, s.wild};
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

// The position's 64-bit hash, over the node's fields only (plays, bombs and the cards
// played before do not change who wins, so transpositions that differ in them meet).
// One finalizer round per hand and two more: ddz::hash of the equivalent State mixes 27
// words, and costs the search about a quarter of its speed. The wild rank is the same in
// every node of a search; the move to beat's stand-ins count (a soft bomb loses to a
// natural one).
std::uint64_t key_of(const Node& n) {
  std::uint64_t h = 0x9E37'79B9'7F4A'7C15;
  for (int i = 0; i < n.seats; ++i) h = splitmix_finalize(h ^ n.hands[static_cast<std::size_t>(i)]);
  const Move& m = n.last;
  h = splitmix_finalize(h ^ m.cards ^ (std::uint64_t{static_cast<std::uint8_t>(m.kind)} << 60) ^ (std::uint64_t{m.key} << 52) ^
               (std::uint64_t{m.length} << 44) ^ (std::uint64_t{m.stand_ins} << 28));
  return splitmix_finalize(h ^ static_cast<std::uint64_t>(n.last_by + 1) ^ (static_cast<std::uint64_t>(n.to_move) << 8) ^
                  (static_cast<std::uint64_t>(n.landlord) << 16) ^ (static_cast<std::uint64_t>(n.seats) << 24) ^
                  (static_cast<std::uint64_t>(n.partner + 1) << 32));
}

// The transposition table: buckets of four words. A word holds the key's top 56 bits,
// then (low byte) the size class of the search behind it (bits 2-7), the value (bit 1)
// and a used flag (bit 0). The bucket index takes the key's low bits (at least 8 of
// them, so a word and its bucket give back the whole key).
//
// The table starts at 1 MB and doubles, up to its bound, whenever it is half full: a
// small search then stays in cache and touches few pages (a large table costs a page
// fault per page and a cache miss per probe, which slowed small searches several-fold).
class Table {
 public:
  explicit Table(std::size_t max_bytes) {
    while (max_buckets_ * 2 * sizeof(Bucket) <= max_bytes) max_buckets_ *= 2;
    allocate(std::min(max_buckets_, kFirstBuckets));
  }
  ~Table() { std::free(buckets_); }
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  // 1 win, 0 loss for the side to move, -1 not stored.
  int probe(std::uint64_t key) const {
    for (const std::uint64_t w : bucket(key).words) {
      if ((w & kUsed) && ((w ^ key) & kTag) == 0) return static_cast<int>((w >> 1) & 1);
    }
    return -1;
  }

  void store(std::uint64_t key, bool win, std::int64_t nodes) {
    int size = 0;
    while (size < 63 && (std::int64_t{1} << size) < nodes) ++size;
    place(key, (key & kTag) | (static_cast<std::uint64_t>(size) << 2) | (win ? 2u : 0u) | kUsed);
    if (used_ * 2 > (mask_ + 1) * 4 && mask_ + 1 < max_buckets_) grow();
  }

 private:
  static constexpr std::uint64_t kTag = ~std::uint64_t{0xFF};
  static constexpr std::uint64_t kUsed = 1;
  static constexpr std::uint64_t kEffort = 0xFC;
  struct Bucket {
    std::uint64_t words[4];
  };
  static constexpr std::size_t kMinBuckets = 256;  // 8 index bits
  static constexpr std::size_t kFirstBuckets = (std::size_t{1} << 20) / sizeof(Bucket);

  Bucket& bucket(std::uint64_t key) const { return buckets_[key & mask_]; }

  void allocate(std::size_t buckets) {
    // calloc: large blocks come zeroed from the system page by page as they are touched.
    buckets_ = static_cast<Bucket*>(std::calloc(buckets, sizeof(Bucket)));
    if (!buckets_) throw std::bad_alloc();
    mask_ = buckets - 1;
    used_ = 0;
  }

  // Into the key's bucket: over the same key or an empty word, else over the word
  // with the smallest search behind it if that is no larger than this one's.
  void place(std::uint64_t key, std::uint64_t word) {
    std::uint64_t* victim = nullptr;
    for (std::uint64_t& w : bucket(key).words) {
      if (!(w & kUsed) || ((w ^ key) & kTag) == 0) {
        used_ += !(w & kUsed);
        w = word;
        return;
      }
      if (!victim || (w & kEffort) < (*victim & kEffort)) victim = &w;
    }
    if ((*victim & kEffort) <= (word & kEffort)) *victim = word;
  }

  void grow() {
    Bucket* old = buckets_;
    const std::size_t old_buckets = mask_ + 1;
    allocate(old_buckets * 2);
    for (std::size_t i = 0; i < old_buckets; ++i) {
      for (const std::uint64_t w : old[i].words) {
        if (w & kUsed) place((w & kTag) | (i & 0xFF), w);
      }
    }
    std::free(old);
  }

  Bucket* buckets_ = nullptr;
  std::size_t mask_ = 0;
  std::size_t max_buckets_ = kMinBuckets;
  std::size_t used_ = 0;
};

// A candidate action at a node: a move, or a pass (move.cards == 0), with its order.
struct Candidate {
  Move move;
  int score;
};

class Search {
 public:
  Search(const Rules& rules, const SolveOptions& options)
      : rules_(rules), options_(options), table_(options.tt_bytes), start_(Clock::now()) {}

  // Whether the side to move at `n` wins; meaningless once aborted(). With `best`, a
  // winning candidate is written there.
  bool wins(const Node& n, int ply, Candidate* best = nullptr) {
    if (++nodes_ > options_.node_limit && options_.node_limit > 0) aborted_ = true;
    if ((nodes_ & 1023) == 0 && options_.time_limit > 0 && seconds() > options_.time_limit) aborted_ = true;
    if (aborted_) return false;
    const std::uint64_t key = key_of(n);
    if (!best) {
      if (const int stored = table_.probe(key); stored >= 0) return stored == 1;
    }
    const std::int64_t before = nodes_;
    std::vector<Candidate>& list = candidates(n, ply);
    bool won = false;
    for (const Candidate& c : list) {
      won = c.score == kGoesOut || takes(n, c, ply);
      if (aborted_) return false;
      if (won) {
        if (best) *best = c;
        break;
      }
    }
    table_.store(key, won, nodes_ - before);
    return won;
  }

  // Whether candidate `c` wins for the side to move at `n`.
  bool takes(const Node& n, const Candidate& c, int ply) {
    const Node child = after(n, c.move.cards ? &c.move : nullptr);
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
    generate(n, hand, last, rules_, moves_);
    for (const Move& m : moves_) {
      if (spent(m) == hand) {
        list.assign(1, {m, kGoesOut});
        return list;
      }
    }
    for (const Move& m : moves_) list.push_back({m, score(n, m)});
    if (last) list.push_back({Move{}, same_side(n, n.to_move, n.last_by) ? kPartnerPass : 0});
    std::stable_sort(list.begin(), list.end(), [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    return list;
  }

  // Order: moves no opponent can beat (they keep the lead), then those that leave the
  // hand fewest plays from going out, then the ones that shed more cards.
  int score(const Node& n, const Move& m) {
    const Mask rest = n.hands[static_cast<std::size_t>(n.to_move)] - spent(m);
    int s = 64 * (kMaxTurns - turns(rest)) + total(m.cards);
    if (!beatable(n, m)) s += kKeepsLead;
    return s;
  }

  // Whether a player of the other side can beat `m`.
  bool beatable(const Node& n, const Move& m) {
    for (int o = 0; o < n.seats; ++o) {
      if (same_side(n, o, n.to_move)) continue;
      const Mask opp = n.hands[static_cast<std::size_t>(o)];
      generate(n, opp, &m, rules_, follows_);
      if (!follows_.empty()) return true;
    }
    return false;
  }

  // The fewest plays that empty `hand` when leading every time (each play covering the
  // lowest rank left), memoized: hands in a search are few.
  int turns(Mask hand) {
    if (hand == 0) return 0;
    if (const auto it = turns_.find(hand); it != turns_.end()) return it->second;
    std::vector<Move> leads;
    append_legal_moves(hand, nullptr, rules_, kNoWild, leads);
    const Mask low = nibble(lowest_rank(ranks_with_at_least(hand, 1)));
    int best = kMaxTurns;
    for (const Move& m : leads) {
      if (m.cards & low) best = std::min(best, 1 + turns(hand - m.cards));
    }
    turns_.emplace(hand, best);
    return best;
  }

  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  bool aborted() const { return aborted_; }
  std::int64_t nodes() const { return nodes_; }

 private:
  static constexpr int kMaxTurns = 64;  // more than any hand needs
  static constexpr int kKeepsLead = 1 << 14;
  static constexpr int kPartnerPass = 1 << 20;
  static constexpr int kGoesOut = 1 << 24;

  const Rules& rules_;
  SolveOptions options_;
  Table table_;
  Clock::time_point start_;
  std::int64_t nodes_ = 0;
  bool aborted_ = false;
  std::unordered_map<Mask, int> turns_;
  std::deque<std::vector<Candidate>> plies_;  // one list per ply; a deque keeps them in place as it grows
  std::vector<Move> moves_, follows_;
};

Node checked_root(const State& s) {
  if (s.phase == Phase::Bidding) throw std::invalid_argument("the solver needs the play phase; the hand is still being bid");
  if (s.phase == Phase::Partner) throw std::invalid_argument("the solver needs the play phase; the landlord is still to choose a partner");
  if (s.phase == Phase::Over) throw std::invalid_argument("the hand is over");
  if (s.seats < 2 || s.seats > kMaxSeats || s.landlord < 0 || s.landlord >= s.seats || s.to_move < 0 ||
      s.to_move >= s.seats) {
    throw std::invalid_argument("not a position in play");
  }
  return node_of(s);
}

Action action_of(const Move& m) { return m.cards ? Action::play(m) : Action::pass(); }

}  // namespace

SolveResult solve(const State& s, const Rules& rules, const SolveOptions& options) {
  const Node root = checked_root(s);
  Search search(rules, options);
  Candidate best{};
  const bool won = search.wins(root, 0, &best);
  SolveResult r;
  r.outcome = search.aborted() ? Outcome::Unknown : (won ? Outcome::Win : Outcome::Loss);
  if (r.outcome == Outcome::Win) r.move = action_of(best.move);
  r.nodes = search.nodes();
  r.seconds = search.seconds();
  return r;
}

MovesResult solve_moves(const State& s, const Rules& rules, const SolveOptions& options) {
  const Node root = checked_root(s);
  Search search(rules, options);
  MovesResult r;
  const Mask hand = root.hands[static_cast<std::size_t>(root.to_move)];
  std::vector<Move> moves;
  generate(root, hand, root.last.cards ? &root.last : nullptr, rules, moves);
  if (root.last.cards) moves.insert(moves.begin(), Move{});
  for (const Move& m : moves) {
    MoveOutcome mo{action_of(m), Outcome::Unknown};
    if (m.cards && spent(m) == hand) {
      mo.outcome = Outcome::Win;
    } else if (!search.aborted()) {
      const bool won = search.takes(root, {m, 0}, 0);
      if (!search.aborted()) mo.outcome = won ? Outcome::Win : Outcome::Loss;
    }
    r.moves.push_back(mo);
  }
  r.nodes = search.nodes();
  r.seconds = search.seconds();
  return r;
}

}  // namespace ddz
