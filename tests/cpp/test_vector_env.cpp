// The vectorized environment's core: its tables are self-play's games, threads change
// nothing, and choices it refuses leave every table as it was. Run under ASan by CI.
#include <vector>

#include "check.hpp"
#include "helpers.hpp"
#include "play/playout.hpp"
#include "play/vector_env.hpp"

using namespace ddz;
using namespace ddz::testing;

namespace {

VectorEnvOptions options(int tables, Features features, int threads) {
  VectorEnvOptions o;
  o.num_envs = tables;
  o.features = features;
  o.learners.seats = 0b111;
  o.opponents.fill(PolicyKind::Random);
  o.seed = 21;
  o.threads = threads;
  return o;
}

// Choices drawn from `rng`, one per table.
std::vector<std::int64_t> random_choices(const VectorEnv& env, Rng& rng) {
  std::vector<std::int64_t> out;
  for (int i = 0; i < env.num_envs(); ++i) {
    const auto n = env.offsets()[static_cast<std::size_t>(i) + 1] - env.offsets()[static_cast<std::size_t>(i)];
    out.push_back(rng.below(static_cast<std::uint32_t>(n)));
  }
  return out;
}

std::vector<std::uint64_t> hashes(const VectorEnv& env) {
  std::vector<std::uint64_t> out;
  for (int i = 0; i < env.num_envs(); ++i) out.push_back(hash(env.game(i).state()));
  return out;
}

}  // namespace

TEST(vector_env_threads_change_nothing) {
  VectorEnv one(options(150, Features::DouZero, 1)), two(options(150, Features::DouZero, 2));
  one.reset(5);
  two.reset(5);
  Rng rng(1);
  for (int step = 0; step < 60; ++step) {
    const auto choices = random_choices(one, rng);
    one.step(choices.data(), choices.size());
    two.step(choices.data(), choices.size());
    CHECK(hashes(one) == hashes(two));
    CHECK(one.offsets() == two.offsets());
    CHECK_EQ(one.finished().size(), two.finished().size());
  }
}

// Choices that are a function of each table's state: the same wherever the table is batched.
std::vector<std::int64_t> state_choices(const VectorEnv& env) {
  std::vector<std::int64_t> out;
  for (int b = 0; b < env.batch_size(); ++b) {
    const auto n = env.offsets()[static_cast<std::size_t>(b) + 1] - env.offsets()[static_cast<std::size_t>(b)];
    out.push_back(static_cast<std::int64_t>(hash(env.game(static_cast<int>(env.first_env()) + b).state()) % static_cast<std::uint64_t>(n)));
  }
  return out;
}

TEST(vector_env_batch_sizes_and_send_recv_change_nothing) {
  // The same state-driven choices through one batch of 12 tables, and through batches of
  // 4 sent and received in turn on the background thread: the same games, table by table.
  VectorEnv whole(options(12, Features::DouZero, 2));
  VectorEnvOptions o = options(12, Features::DouZero, 2);
  o.batch_size = 4;
  VectorEnv parts(o);
  whole.reset(8);
  parts.reset(8);
  CHECK_EQ(parts.first_env(), 0);
  int finished_whole = 0, finished_parts = 0;
  for (int step = 0; step < 150; ++step) {
    const auto choices = state_choices(whole);
    whole.step(choices.data(), choices.size());
    finished_whole += static_cast<int>(whole.finished().size());
    for (int g = 0; g < 3; ++g) {
      const auto part = state_choices(parts);
      CHECK_EQ(parts.first_env(), 4 * g);
      parts.send(part.data(), part.size());
      CHECK(parts.sent());
      CHECK(!parts.choices_error(part.data(), part.size()).empty());  // sent: recv first
      parts.recv();
      finished_parts += static_cast<int>(parts.finished().size());
    }
    CHECK_EQ(parts.first_env(), 0);
    CHECK(hashes(whole) == hashes(parts));
  }
  CHECK_EQ(finished_whole, finished_parts);
  CHECK(finished_whole > 0);
  o.batch_size = 5;  // must divide the tables
  bool refused = false;
  try {
    VectorEnv bad(o);
  } catch (const std::invalid_argument&) {
    refused = true;
  }
  CHECK(refused);
}

TEST(vector_env_with_heuristic_learners_replays_selfplay) {
  VectorEnvOptions o = options(3, Features::None, 1);
  o.opponents.fill(PolicyKind::Heuristic);
  VectorEnv env(o);
  env.reset(o.seed);
  SelfPlayOptions sp;
  sp.games = 9;
  sp.seed = o.seed;
  sp.policies.fill(PolicyKind::Heuristic);
  const SelfPlayResult games = self_play(sp);
  int seen = 0;
  std::vector<Action> legal;
  Rng unused(0);  // the heuristic draws nothing
  while (seen < 9) {
    std::vector<std::int64_t> choices;
    for (int i = 0; i < env.num_envs(); ++i) {
      env.game(i).legal_actions(legal);
      choices.push_back(static_cast<std::int64_t>(choose(Policy{PolicyKind::Heuristic}, env.game(i), legal, unused)));
    }
    env.step(choices.data(), choices.size());
    for (const FinishedHand& f : env.finished()) {
      const auto g = static_cast<std::size_t>(f.env + f.hand * env.num_envs());
      if (g >= games.games.size()) continue;
      CHECK(f.summary.payouts == games.games[g].payouts);
      CHECK(f.summary.deal == games.games[g].deal);
      CHECK_EQ(f.summary.moves, games.games[g].moves);
      ++seen;
    }
  }
}

TEST(vector_env_refused_choices_change_nothing) {
  VectorEnv env(options(4, Features::Compact, 1));
  std::vector<std::int64_t> choices(4, 0);
  CHECK(!env.choices_error(choices.data(), choices.size()).empty());  // before reset
  env.reset(3);
  const auto before = hashes(env);
  CHECK(!env.choices_error(choices.data(), 3).empty());
  choices[3] = env.offsets()[4] - env.offsets()[3];
  CHECK(!env.choices_error(choices.data(), choices.size()).empty());
  choices[3] = -1;
  CHECK(!env.choices_error(choices.data(), choices.size()).empty());
  bool threw = false;
  try {
    env.step(choices.data(), choices.size());
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw);
  CHECK(hashes(env) == before);
}

TEST(vector_env_refuses_what_the_rules_lack) {
  const auto refused = [](VectorEnvOptions o) {
    try {
      VectorEnv env(o);
    } catch (const std::invalid_argument&) {
      return true;
    }
    return false;
  };
  VectorEnvOptions o = options(2, Features::DouZero, 1);
  for (const char* name : {"sanren", "laizi", "four_player"}) {  // DouZero's features cover every preset
    o.rules = rules(name);
    CHECK(!refused(o));
  }
  o = options(2, Features::Compact, 1);
  o.learners.seats = 0;
  CHECK(refused(o));
  o = options(0, Features::Compact, 1);
  CHECK(refused(o));
  o = options(2, Features::Compact, 1);
  o.rules = rules("laizi");
  o.mask = true;  // a mask of the combinations
  CHECK(!refused(o));
  o.features = Features::None;
  CHECK(refused(o));
}
