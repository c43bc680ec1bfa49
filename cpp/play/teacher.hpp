// Teacher data: the warm start of a value network (docs/guide/learned_bot.md).
//
// Games are played by a built-in policy (the teacher); at a share of its decisions the
// position is kept and several of its legal actions are valued, each by playing the game
// on from that action with a built-in policy (the rollout policy) in every seat, on the
// real hands. A network fitted to these values learns the value of each action under the
// rollout policy's continuation from what the seat knows (the hidden hands are whatever
// the deal made them, so their distribution is the real one); playing the best of them is
// one step of policy improvement over the rollout policy. The actions valued at one
// position share its deal, so their values differ by the action alone.
//
// Features are DouZero's (encode.hpp): x_no_action and z per position, the action's
// part of x_batch per valued action. Game i is dealt as self-play's game i; a run's
// samples do not depend on the thread count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "play/playout.hpp"
#include "rules/rules.hpp"

namespace ddz {

// What both kinds of data share: which games, played where.
struct SampleRun {
  Rules rules{};
  std::int64_t games = 0;
  std::uint64_t seed = 0;
  std::uint64_t first = 0;  // index of the first game, so that runs in parts make one run
  int threads = 1;
  double explore = 0.0;  // the share of the teacher's (bidder's) decisions replaced by a uniform draw
};

// Why `run` cannot make data (rules that do not validate, a share outside [0, 1]), or empty.
std::string sample_run_error(const SampleRun& run);

struct TeacherOptions : SampleRun {
  Policy teacher = Policy{PolicyKind::FastHeuristic};  // plays the games (and bids)
  Policy rollout = Policy{PolicyKind::FastHeuristic};  // plays each valued action on
  double keep = 0.25;     // the share of decisions (with more than one legal action) valued
  int max_actions = 16;   // actions valued a position: the teacher's and the plan's, then others drawn uniformly
};

struct TeacherSamples {
  int x_width = 0;       // the layout's widest x_no_action (a landlord's is zero-padded)
  int z_size = 0;
  int action_width = 0;
  // Per position.
  std::vector<std::int8_t> x;         // positions x x_width
  std::vector<std::int8_t> z;         // positions x z_size
  std::vector<std::int8_t> position;  // DouZero's position of the seat to move
  std::vector<std::int64_t> game;     // the game it comes from
  // Per valued action.
  std::vector<std::int8_t> action;    // actions x action_width
  std::vector<std::int64_t> owner;    // its position's index
  std::vector<std::uint8_t> chosen;   // 1 for the teacher's own choice
  std::vector<std::uint8_t> planned;  // 1 for the fast heuristic's choice (the plan's)
  std::vector<float> win;             // +1 when the seat's side won the rollout, else -1
  std::vector<float> score;           // the side's payout a stake of one peasant, over the base

  std::size_t positions() const { return position.size(); }
  std::size_t actions() const { return owner.size(); }
};

// Auction data: the bid networks' Monte-Carlo samples. Each game's auction is bid by
// `bidder` (with a share of its bids replaced by uniform draws), and the hand is played
// by `player` in every seat; every bid is a sample of its seat's bidding features, the
// bid's output index (bid_output) and the payout the seat ended with (in stakes, bids and
// doublings included: the rule book's scoring). A void hand (every seat passed, no
// redeal left) pays 0.
struct BidSampleOptions : SampleRun {
  Policy bidder = Policy{PolicyKind::Heuristic};
  Policy player = Policy{PolicyKind::FastHeuristic};
};

struct BidSamples {
  int width = 0;                       // bid_feature_width(rules)
  std::vector<std::int8_t> features;   // bids x width
  std::vector<std::int8_t> output;     // the bid's output index
  std::vector<std::uint8_t> legal;     // bids x outputs: 1 for each output legal then
  std::vector<float> payout;           // the seat's payout of the hand
  std::vector<std::int64_t> game;
  std::size_t size() const { return output.size(); }
};

// Why `options` cannot make auction data (sample_run_error, rules without bidding, a policy
// that cannot play them), or empty.
std::string bid_sample_error(const BidSampleOptions& options);
BidSamples bid_samples(const BidSampleOptions& options);

// Why `options` cannot make teacher data (sample_run_error, rules DouZero's encoding does
// not cover, a share outside [0, 1], no actions, a policy that cannot play them), or empty.
std::string teacher_error(const TeacherOptions& options);

// The samples of `options.games` games; throws std::invalid_argument where teacher_error says.
TeacherSamples teacher_samples(const TeacherOptions& options);

}  // namespace ddz
