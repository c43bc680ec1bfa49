// ddz_soak GAMES [SEED] [THREADS]: plays GAMES random hands (each action drawn uniformly
// from Game::legal_actions with ddz::Rng) under every preset and the variants (call and
// rob, capped multiplier), and checks after each:
//   - the deck (54 cards, 108 with four players) is conserved at every step (hands +
//     played + the kitty until taken);
//   - with wild cards (laizi, laizi2), every deal has as many distinct wild ranks 3..2 as
//     the rules say, and every move is valid and of those ranks;
//   - the game never sticks (a hand in progress always has a legal action) and ends;
//   - check() agrees with apply() on every chosen action;
//   - the settlement matches the scoring rules worked out independently here (start
//     bonuses from the dealt hands, the landlord against two or three peasants, or with
//     the partner it named two against two), and the
//     payouts sum to zero;
//   - undoing every step restores the initial State exactly (operator==) and its hash;
//   - replaying the history on a fresh Game built like the first (from the seed, and from
//     the recorded first deal) gives an identical State and the same deals.
// Exits 1 with a message on the first violation; ends with "soak: N passed, 0 failed".
// Games are spread over THREADS threads (default: the machine's cores); the outcome does
// not depend on the thread count.
#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "game/game.hpp"
#include "rules/notation.hpp"

using namespace ddz;

namespace {

constexpr int kMaxSteps = 20000;  // far above any hand (a redeal costs three passes)

struct Config {
  const char* name;
  Rules rules;
};

std::vector<Config> configs() {
  std::vector<Config> out;
  for (const auto& name : preset_names()) out.push_back({name.c_str(), *preset(name)});
  Rules call_rob;
  call_rob.bidding = Bidding::CallRob;
  out.push_back({"call_rob", call_rob});
  Rules call_rob_capped = call_rob;
  call_rob_capped.call_base = 3;
  call_rob_capped.max_multiplier = 16;
  out.push_back({"call_rob+base3+cap16", call_rob_capped});
  Rules capped;
  capped.max_multiplier = 4;
  out.push_back({"standard+cap4", capped});
  Rules laizi_call_rob = *preset("laizi");
  laizi_call_rob.bidding = Bidding::CallRob;
  out.push_back({"laizi+call_rob", laizi_call_rob});
  Rules laizi2_sanren = *preset("laizi2");
  laizi2_sanren.kitty_size = 0;
  out.push_back({"laizi2+sanren", laizi2_sanren});
  Rules douzero_capped = *preset("douzero");
  douzero_capped.max_multiplier = 2;
  out.push_back({"douzero+cap2", douzero_capped});
  Rules openspiel_call_rob = *preset("openspiel");
  openspiel_call_rob.bidding = Bidding::CallRob;
  out.push_back({"openspiel+call_rob", openspiel_call_rob});
  Rules sanren_happy = *preset("sanren");
  sanren_happy.start_bonus = true;
  out.push_back({"sanren+happy", sanren_happy});
  Rules four_call_rob = *preset("four_player");
  four_call_rob.bidding = Bidding::CallRob;
  four_call_rob.start_bonus = true;
  out.push_back({"four_player+call_rob+happy", four_call_rob});
  Rules four_openspiel = *preset("four_player");
  four_openspiel.passed_may_bid_again = true;
  four_openspiel.redeal_when_nobody_bids = false;
  out.push_back({"four_player+bid_again+void", four_openspiel});
  Rules four_partner_call_rob = *preset("four_partner");
  four_partner_call_rob.bidding = Bidding::CallRob;
  out.push_back({"four_partner+call_rob", four_partner_call_rob});
  // Run Fast's rules of play with a landlord, and Run Fast without the bombs' payment.
  Rules standard_must_beat;
  standard_must_beat.must_beat = true;
  standard_must_beat.single_card_warning = true;
  out.push_back({"standard+must_beat+warning", standard_must_beat});
  Rules run_fast_no_pay = *preset("run_fast");
  run_fast_no_pay.bomb_pay = false;
  out.push_back({"run_fast-bomb_pay", run_fast_no_pay});
  return out;
}

std::uint64_t splitmix(std::uint64_t x) { return splitmix_finalize(x + 0x9E37'79B9'7F4A'7C15); }

std::mutex print_mutex;

[[noreturn]] void fail(const Config& cfg, std::uint64_t seed, int first_bidder, const std::string& what) {
  std::lock_guard<std::mutex> lock(print_mutex);
  std::fprintf(stderr, "soak: FAILED (%s, seed %" PRIu64 ", first_bidder %d): %s\n", cfg.name, seed, first_bidder,
               what.c_str());
  std::fprintf(stdout, "soak: 0 passed, 1 failed\n");
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(1);
}

std::string state_text(const State& s) {
  std::string t = "phase " + std::to_string(int(s.phase)) + ", to_move " + std::to_string(s.to_move) +
                  ", landlord " + std::to_string(s.landlord) + ", hands";
  for (int i = 0; i < s.seats; ++i) t += " " + to_text(s.hands[static_cast<std::size_t>(i)]);
  return t + ", kitty " + to_text(s.kitty);
}

Mask held(const State& s) {
  Mask all = 0;
  for (int i = 0; i < s.seats; ++i) all += s.hands[static_cast<std::size_t>(i)] + s.played[static_cast<std::size_t>(i)];
  // The kitty is apart until the landlord takes it (never, in a void hand).
  if (s.phase == Phase::Bidding || s.landlord < 0) all += s.kitty;
  return all;
}

struct Totals {
  long long games = 0, actions = 0, redeals = 0, void_hands = 0, landlord_wins = 0, bombs = 0, springs = 0;
  void add(const Totals& o) {
    games += o.games;
    actions += o.actions;
    redeals += o.redeals;
    void_hands += o.void_hands;
    landlord_wins += o.landlord_wins;
    bombs += o.bombs;
    springs += o.springs;
  }
};

// The base stake the auction should have produced, worked out from the history alone.
int expected_base(const Rules& rules, const std::vector<SeatAction>& history, std::size_t from) {
  if (rules.bidding == Bidding::None) return 1;
  int base = 0, robs = 0;
  for (std::size_t i = from; i < history.size(); ++i) {
    const Action& a = history[i].action;
    if (a.type == ActionType::Bid && a.value > base) base = a.value;
    if (a.type == ActionType::Rob && a.value) ++robs;
  }
  return rules.bidding == Bidding::Classic ? base : rules.call_base << robs;
}

// Run Fast (each_for_self): the first out is paid a point a card left by each other seat,
// nothing for one card, double by a seat that never played; each bomb's owner collects 10
// from each other seat (bomb_pay). Worked out from the final hands and the history alone.
template <class Say>
void check_each_for_self(const Rules& rules, const Game& g, const Settlement& r, Say& say) {
  const State& s = g.state();
  if (r.winner != s.winner || s.winner < 0 || s.hands[static_cast<std::size_t>(s.winner)] != 0) say("the first out is not the winner");
  std::array<int, kMaxSeats> plays{}, bombs{};
  for (const SeatAction& sa : g.history()) {
    if (sa.action.type != ActionType::Play) continue;
    ++plays[static_cast<std::size_t>(sa.seat)];
    bombs[static_cast<std::size_t>(sa.seat)] += sa.action.move.kind == MoveKind::Bomb;
  }
  std::array<long long, kMaxSeats> want{};
  for (int seat = 0; seat < s.seats; ++seat) {
    const auto i = static_cast<std::size_t>(seat);
    const int left = total(s.hands[i]);
    const long long owed = seat == s.winner || left == 1 ? 0 : left * (plays[i] ? 1 : 2);
    want[i] -= owed;
    want[static_cast<std::size_t>(s.winner)] += owed;
    if (!rules.bomb_pay) continue;
    want[i] += 10LL * bombs[i] * (s.seats - 1);
    for (int other = 0; other < s.seats; ++other) {
      if (other != seat) want[static_cast<std::size_t>(other)] -= 10LL * bombs[i];
    }
  }
  if (r.payouts != want) say("a Run Fast payout is wrong");
}

void check_settlement(const Config& cfg, std::uint64_t seed, int fb, const Game& g, Totals& totals) {
  const State& s = g.state();
  const Settlement r = g.result();
  const auto say = [&](const std::string& what) { fail(cfg, seed, fb, what + " (" + state_text(s) + ")"); };
  long long sum = 0;
  for (long long p : r.payouts) sum += p;
  if (sum != 0) say("payouts do not sum to zero");
  if (cfg.rules.each_for_self) {
    check_each_for_self(cfg.rules, g, r, say);
    totals.bombs += s.bombs;
    return;
  }
  if (s.landlord < 0) {  // a void hand (nobody bid, no redeal)
    if (cfg.rules.redeal_when_nobody_bids) say("a void hand although the rules redeal");
    for (long long p : r.payouts) {
      if (p != 0) say("a void hand pays");
    }
    ++totals.void_hands;
    return;
  }
  if (s.winner < 0 || s.hands[static_cast<std::size_t>(s.winner)] != 0) say("the winner holds cards");
  // Bombs and rockets as played, spring and anti-spring from the plays of each seat.
  const auto history = g.history();
  int bombs = 0, rockets = 0;
  std::array<int, kMaxSeats> plays{};
  std::size_t last_redeal = 0;
  for (std::size_t i = 0; i < history.size(); ++i) {
    const Action& a = history[i].action;
    if (a.type == ActionType::Play) {
      ++plays[static_cast<std::size_t>(history[i].seat)];
      bombs += a.move.kind == MoveKind::Bomb;
      rockets += a.move.kind == MoveKind::Rocket;
    }
  }
  // The auction that counts is the one after the last redeal: replay to find where it began.
  {
    Game replay(seed, cfg.rules, fb);
    for (std::size_t i = 0; i < history.size(); ++i) {
      const auto redeals = replay.state().redeals;
      replay.apply(history[i].action);
      if (replay.state().redeals != redeals) last_redeal = i + 1;
    }
  }
  // The landlord's side: the landlord, and under four_partner the seat its choice named.
  int partner = -1;
  for (std::size_t i = last_redeal; i < history.size(); ++i) {
    if (history[i].action.type == ActionType::Partner) partner = history[i].action.value - 1;
  }
  if (partner != s.partner || r.partner != partner) say("the partner differs from the landlord's choice");
  const auto allied = [&](int seat) { return seat == s.landlord || seat == partner; };
  const bool landlord_won = allied(s.winner);
  bool spring = landlord_won, anti_spring = false;
  for (int seat = 0; seat < s.seats; ++seat) {
    if (!allied(seat) && plays[static_cast<std::size_t>(seat)] > 0) spring = false;
  }
  if (!landlord_won) {
    anti_spring = plays[static_cast<std::size_t>(s.landlord)] == 1 && (partner < 0 || plays[static_cast<std::size_t>(partner)] == 0);
  }
  // Start bonuses: any dealt hand of the deal played with all the jokers / with 3..A.
  int bonuses = 0;
  if (cfg.rules.start_bonus) {
    const Deal& dealt = g.deals().back();
    bool jokers = false, straight = false;
    for (int seat = 0; seat < s.seats; ++seat) {
      const Mask h = dealt.hands[static_cast<std::size_t>(seat)];
      jokers |= count(h, kBlackJoker) == cfg.rules.decks && count(h, kRedJoker) == cfg.rules.decks;
      bool all = true;
      for (int rank = 0; rank <= kAce; ++rank) all &= count(h, rank) > 0;
      straight |= all;
    }
    bonuses = jokers + straight;
  }
  if (r.start_bonus.doublings() != bonuses) say("start bonuses differ from the dealt hands");
  long long multiplier = 1LL << (bombs + rockets + spring + anti_spring + bonuses);
  if (cfg.rules.max_multiplier > 0) multiplier = std::min<long long>(multiplier, cfg.rules.max_multiplier);
  const int base = expected_base(cfg.rules, history, last_redeal);
  if (r.base != base) say("base " + std::to_string(r.base) + ", expected " + std::to_string(base));
  if (r.bombs != bombs || r.rockets != rockets) say("bomb or rocket count differs from the plays");
  if (r.spring != spring || r.anti_spring != anti_spring) say("spring or anti-spring wrong");
  if (r.multiplier != multiplier) say("multiplier " + std::to_string(r.multiplier) + ", expected " + std::to_string(multiplier));
  if (r.landlord_won != landlord_won) say("landlord_won wrong");
  const long long stake = static_cast<long long>(base) * multiplier;
  for (int seat = 0; seat < s.seats; ++seat) {
    // Alone the landlord balances every peasant; two against two every seat moves one stake.
    const long long landlord_stakes = partner < 0 ? s.seats - 1 : 1;
    const long long own = seat == s.landlord ? landlord_stakes * stake : stake;
    const long long want = allied(seat) == landlord_won ? own : -own;
    if (r.payouts[static_cast<std::size_t>(seat)] != want) say("payout of seat " + std::to_string(seat) + " wrong");
  }
  totals.landlord_wins += landlord_won;
  totals.bombs += bombs + rockets;
  totals.springs += spring || anti_spring;
}

void play_one(const Config& cfg, std::uint64_t seed, int fb, Totals& totals) {
  const auto say = [&](const std::string& what) { fail(cfg, seed, fb, what); };
  Game g(seed, cfg.rules, fb);
  const State start = g.state();
  const std::uint64_t start_hash = hash(start);
  if (!(g.initial() == start)) say("initial() differs from the state before the first action");
  const Mask deck = cfg.rules.deck();
  if (held(start) != deck) say("the deal does not hold the deck");

  Rng choose(splitmix(seed ^ 0xC0FFEE));
  int steps = 0;
  while (g.state().phase != Phase::Over) {
    if (++steps > kMaxSteps) say("the hand does not end");
    const std::vector<Action> actions = g.legal_actions();
    if (actions.empty()) say("no legal action in a hand in progress (" + state_text(g.state()) + ")");
    const Action& a = actions[choose.below(static_cast<std::uint32_t>(actions.size()))];
    if (const std::string why = g.check(a); !why.empty()) say("check refuses a legal action: " + why);
    if (!g.apply(a)) say("apply refuses a legal action");
    if (held(g.state()) != deck) say("cards not conserved (" + state_text(g.state()) + ")");
    const WildRanks w = g.state().wild;
    if (w.size() != cfg.rules.wild || !wild_ranks_error(w, cfg.rules).empty()) say("wild ranks out of place");
    if (a.type == ActionType::Play && (!is_valid_move(a.move, cfg.rules) || !uses_only(a.move, w))) {
      say("an invalid move among the legal ones");
    }
  }
  if (!g.legal_actions().empty()) say("legal actions after the hand is over");
  check_settlement(cfg, seed, fb, g, totals);

  const State final_state = g.state();
  const std::vector<Deal> deals = g.deals();
  const std::vector<SeatAction> history = g.history();
  totals.actions += static_cast<long long>(history.size());
  totals.redeals += final_state.redeals;

  // Replays: from the seed, and from the recorded first deal.
  Game from_seed(seed, cfg.rules, fb);
  Game from_deal(deals.front(), cfg.rules, fb, -1, seed);
  for (Game* replay : {&from_seed, &from_deal}) {
    for (const SeatAction& sa : history) {
      if (sa.seat != replay->state().to_move) say("replay: the recorded seat is not the one to move");
      if (!replay->apply(sa.action)) say("replay refuses a recorded action");
    }
    if (!(replay->state() == final_state)) say("replay ends in a different state");
    if (hash(replay->state()) != hash(final_state)) say("replay ends with a different hash");
    if (!(replay->deals() == deals)) say("replay deals differ");
  }

  // Undo everything.
  std::size_t undone = 0;
  while (g.undo()) ++undone;
  if (undone != history.size()) say("undo count differs from the history");
  if (!(g.state() == start)) say("undoing every step does not restore the initial state");
  if (hash(g.state()) != start_hash) say("undoing every step does not restore the hash");
  if (g.deals().size() != 1 || !(g.deals().front() == deals.front())) say("undo leaves redealt deals");
  if (!g.history().empty()) say("undo leaves history");
  ++totals.games;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: ddz_soak GAMES [SEED] [THREADS]\n");
    return 2;
  }
  const long long games = std::atoll(argv[1]);
  const std::uint64_t base_seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  unsigned threads = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : std::thread::hardware_concurrency();
  if (games < 0 || threads == 0) threads = 1;
  threads = std::min<unsigned>(threads, 64);

  const std::vector<Config> cfgs = configs();
  std::vector<std::vector<Totals>> per_thread(threads, std::vector<Totals>(cfgs.size()));
  std::atomic<long long> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (long long i; (i = next.fetch_add(1)) < games;) {
        const std::size_t c = static_cast<std::size_t>(i) % cfgs.size();
        const std::uint64_t seed = splitmix(base_seed * 0x1000'0000ULL + static_cast<std::uint64_t>(i));
        // Without a landlord every other hand is led by the 3 of spades (kThreeOfSpades).
        const int fb = static_cast<int>(i % cfgs[c].rules.players);
        play_one(cfgs[c], seed, cfgs[c].rules.each_for_self && i % 2 ? kThreeOfSpades : fb, per_thread[t][c]);
      }
    });
  }
  for (auto& th : pool) th.join();

  Totals all;
  for (std::size_t c = 0; c < cfgs.size(); ++c) {
    Totals sum;
    for (const auto& pt : per_thread) sum.add(pt[c]);
    std::printf("  %-22s games %7lld  actions %9lld  redeals %6lld  void %5lld  landlord wins %6lld  bombs %6lld  springs %5lld\n",
                cfgs[c].name, sum.games, sum.actions, sum.redeals, sum.void_hands, sum.landlord_wins, sum.bombs,
                sum.springs);
    all.add(sum);
  }
  std::printf("soak: %lld passed, 0 failed\n", all.games);
  return 0;
}
