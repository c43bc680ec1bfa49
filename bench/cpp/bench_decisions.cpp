// Time per decision of a built-in policy, in C++: seeded games without bidding (the
// landlord rotating), every seat played by the policy; each play-phase decision (the
// policy's choice among the legal actions the game lists) is timed alone with the steady
// clock, and the median, mean, 90th and 99th percentiles are printed, with the decisions
// per game.
//
//     build/bench/ddz_bench_decisions [games] [preset] [policy]
//
// (default 20000 standard heuristic; the policy is a name, or a network file for the
// neural policy.)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "game/game.hpp"
#include "play/policy.hpp"
#include "rules/rules.hpp"

using namespace ddz;

int main(int argc, char** argv) try {
  char* end = nullptr;
  const long given = argc > 1 ? std::strtol(argv[1], &end, 10) : 20000;
  const int games = static_cast<int>(given);
  if ((argc > 1 && (end == argv[1] || *end != '\0')) || given < 1 || given > 10'000'000) {
    std::fprintf(stderr, "games must be a count of 1 to 10,000,000, not %s\n", argv[1]);
    return 2;
  }
  const std::string name = argc > 2 ? argv[2] : "standard";
  auto rules = preset(name);
  if (!rules) {
    std::fprintf(stderr, "unknown preset %s\n", name.c_str());
    return 2;
  }
  rules->bidding = Bidding::None;
  const std::string policy_name = argc > 3 ? argv[3] : "heuristic";
  const auto named = policy_named(policy_name);
  const Policy policy = named ? *named : Policy{PolicyKind::Neural, Network::read(policy_name)};
  check_policy(policy, *rules);
  Rng rng(1);
  std::vector<double> ns;
  ns.reserve(static_cast<std::size_t>(games) * 40);
  std::vector<Action> legal;
  using clock = std::chrono::steady_clock;
  for (int i = 0; i < games; ++i) {
    Game game(static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ULL + 1, *rules, i % rules->players);
    while (game.state().phase != Phase::Over) {
      game.legal_actions(legal);
      const auto t0 = clock::now();
      const std::size_t k = choose(policy, game, legal, rng);
      const auto t1 = clock::now();
      ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
      game.apply_legal(legal[k]);
    }
  }
  std::sort(ns.begin(), ns.end());
  double sum = 0;
  for (double x : ns) sum += x;
  const auto q = [&](double p) { return ns[static_cast<std::size_t>(p * static_cast<double>(ns.size() - 1))] / 1000; };
  std::printf("%s, %s rules, no bidding: %d games, %zu decisions (%.1f a game)\n", policy_name.c_str(), name.c_str(), games, ns.size(),
              static_cast<double>(ns.size()) / games);
  std::printf("us per decision: median %.2f  mean %.2f  p90 %.2f  p99 %.2f  max %.1f\n", q(0.5), sum / ns.size() / 1000,
              q(0.9), q(0.99), ns.back() / 1000);
  return 0;
} catch (const std::exception& error) {  // a policy that is no name nor network file, or one the rules refuse
  std::fprintf(stderr, "%s\n", error.what());
  return 2;
}
