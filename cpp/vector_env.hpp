// The vectorized environment: many tables stepped together for a learner with a network
// in the loop (README, "Many tables at once").
//
// Every table always waits on one learner's decision: `reset` deals every table and
// `step` applies one choice per table, then plays the seats that are not learners with
// built-in policies until a learner must decide again. A hand that ends is summed up in
// `finished()` and the table is dealt its next hand at once (auto-reset).
//
// Deals: the hands of N tables are self-play's games in order (selfplay.hpp): table i's
// hand k is game i + k x N of the seed (`selfplay_deal`: its deal, its first bidder and
// its policies' stream, from which each opponent decision draws as in `play_seats`). With
// learners that choose as a built-in policy would, the tables replay `self_play`'s games.
//
// Tables share nothing, so `threads` never changes the games: work is split by table.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "action_space.hpp"
#include "encode.hpp"
#include "game.hpp"
#include "playout.hpp"
#include "selfplay.hpp"

namespace ddz {

// What a decision carries beyond its legal actions.
enum class Features : std::uint8_t {
  None,     // the legal actions alone
  Compact,  // encode_observation's vector, and ActionSpace ids of the actions (when the rules have them)
  DouZero,  // DouZero's x_no_action and z per decision, and each action's card plane
};

// Who the learners are: seats, or a role once the bidding has given one.
struct Learners {
  enum class By : std::uint8_t { Seats, Landlord, Peasants };
  By by = By::Seats;
  std::uint8_t seats = 0;  // By::Seats: bit i for seat i
};

struct VectorEnvOptions {
  int num_envs = 1;
  Rules rules{};
  Features features = Features::Compact;
  bool mask = false;  // Compact: a legal-action mask over the ActionSpace per decision
  Learners learners{};
  SeatPolicies opponents{};  // by seat, one for each (a role's seats change hands); learners' unused
  std::uint64_t seed = 0;
  int threads = 1;
};

// Where `write` puts a batch: caller-owned arrays of exactly the batch's rows (decisions
// B = num_envs, actions A = offsets().back()). The feature pointers of other features
// than the options' are unused.
struct BatchOut {
  std::int64_t* env = nullptr;       // B
  std::int8_t* seat = nullptr;       // B
  std::int64_t* offsets = nullptr;   // B + 1
  ActionRow* actions = nullptr;      // A
  float* observation = nullptr;      // Compact: B x observation_size()
  std::int64_t* action_ids = nullptr;  // Compact with an action space: A
  bool* mask = nullptr;              // Compact with mask: B x action_space()->size()
  std::int8_t* x_no_action = nullptr;  // DouZero: B x douzero_batch_width() (a landlord's row ends in zeros)
  std::int8_t* z = nullptr;          // DouZero: B x kDouZeroZRows x kDouZeroZCols
  std::int8_t* position = nullptr;   // DouZero: B, a DouZeroPosition
  std::int8_t* action_planes = nullptr;  // DouZero: A x kDouZeroCards
};

// The width of x_no_action rows in a batch: the widest, a peasant's.
inline int douzero_batch_width() { return douzero_x_width(DouZeroPosition::LandlordDown); }

// A hand that ended during the last reset or step.
struct FinishedHand {
  std::int64_t env = 0;
  std::int64_t hand = 0;  // the table's hand number, from 0
  GameSummary summary;
};

class VectorEnv {
 public:
  // Throws std::invalid_argument naming what the options lack: rules that validate(), a
  // table or more, a learner seat, ids or DouZero's features that the rules allow.
  explicit VectorEnv(const VectorEnvOptions& options);

  const VectorEnvOptions& options() const { return options_; }
  int num_envs() const { return options_.num_envs; }
  // The action ids of Compact features, when the rules have an action space.
  const std::optional<ActionSpace>& action_space() const { return space_; }
  int observation_size() const { return layout_.size; }

  // Deals every table its first hand (of `seed`) and plays to the learners' decisions.
  void reset(std::uint64_t seed);
  bool started() const { return started_; }
  // Why `choices` (one per table) cannot be applied, or empty; nothing changes either way.
  std::string choices_error(const std::int64_t* choices, std::size_t n) const;
  // Applies choices[i] (an index into table i's legal actions) on every table and plays to
  // the learners' next decisions. Throws std::invalid_argument where choices_error does.
  void step(const std::int64_t* choices, std::size_t n);

  const Game& game(int env) const { return tables_[static_cast<std::size_t>(env)].game; }
  // Table i's legal actions are at [offsets()[i], offsets()[i + 1]) of the batch.
  const std::vector<std::int64_t>& offsets() const { return offsets_; }
  const std::vector<FinishedHand>& finished() const { return finished_; }
  // Writes the pending decisions and their features into `out`.
  void write(const BatchOut& out) const;

 private:
  struct Table {
    Game game;
    std::uint64_t stream = 0;    // the built-in policies' draws (playout.hpp)
    std::int64_t hand = 0;       // the hand in play, from 0
    std::int32_t moves = 0;      // its plays and passes so far
    std::vector<Action> legal;   // the pending decision's
    std::vector<FinishedHand> finished;  // during the current reset or step
  };

  Table table(std::int64_t env, std::int64_t hand) const;
  bool learner_decides(const State& s) const;
  void apply(Table& t, const Action& a) const;
  void advance(std::int64_t env);
  void run(bool apply_choices, const std::int64_t* choices);
  void write_table(std::int64_t env, const BatchOut& out) const;

  VectorEnvOptions options_;
  bool learners_bid_;
  std::optional<ActionSpace> space_;
  ObservationLayout layout_;
  std::vector<Table> tables_;
  std::vector<std::int64_t> offsets_;
  std::vector<FinishedHand> finished_;
  bool started_ = false;
};

}  // namespace ddz
