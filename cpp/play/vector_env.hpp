// The vectorized environment: many tables stepped together for a learner with a network
// in the loop (docs/guide/vector.md).
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
// Batches: the tables are split into groups of `batch_size` (all of them by default), and
// a batch is one group's decisions. `send` applies a batch's choices and plays its tables
// on a background thread; `recv` hands out the next group's batch (waiting for it if it is
// still being played). With two groups or more, a learner computing one group's choices
// overlaps the stepping of the other (EnvPool's send / recv); `step` is send then recv.
// Groups are stepped in turn, so which batch comes next never depends on timing.
//
// Tables share nothing, so `threads` and `batch_size` never change the games: work is
// split by table.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/worker.hpp"
#include "game/game.hpp"
#include "learn/action_space.hpp"
#include "learn/encode.hpp"
#include "play/playout.hpp"
#include "play/selfplay.hpp"

namespace ddz {

// What a decision carries beyond its legal actions.
enum class Features : std::uint8_t {
  None,     // the legal actions alone
  Compact,  // encode_observation's vector, and ActionSpace ids of the actions (and stand-in ids, with wild cards)
  DouZero,  // DouZero's x_no_action and z per decision, and each action's part (douzero_layout)
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
  bool mask = false;  // Compact: a legal-action mask over the ActionSpace per decision (of combinations, with wild cards)
  Learners learners{};
  SeatPolicies opponents{};  // by seat (a role's seats change hands); empty where a learner makes every decision
  std::uint64_t seed = 0;
  int threads = 1;
  int batch_size = 0;  // tables per batch, dividing num_envs; 0: every table
};

// Where a batch is written: arrays of exactly the batch's rows (decisions B = batch_size,
// actions A = offsets().back()). The feature pointers of other features than the
// options' are unused.
struct BatchOut {
  std::int64_t* env = nullptr;       // B
  std::int8_t* seat = nullptr;       // B
  std::int64_t* offsets = nullptr;   // B + 1
  ActionRow* actions = nullptr;      // A
  float* observation = nullptr;      // Compact: B x observation_size()
  std::int64_t* action_ids = nullptr;  // Compact: A
  std::int64_t* stand_in_ids = nullptr;  // Compact with wild cards: A
  bool* mask = nullptr;              // Compact with mask: B x action_space()->size()
  // DouZero, sized by douzero_layout(): B x batch_width (a narrower position's row ends in
  // zeros), B x z_rows x z_cols, B positions, A x action.width.
  std::int8_t* x_no_action = nullptr;
  std::int8_t* z = nullptr;
  std::int8_t* position = nullptr;
  std::int8_t* action_planes = nullptr;
};

// A hand that ended during the last reset or step.
struct FinishedHand {
  std::int64_t env = 0;
  std::int64_t hand = 0;  // the table's hand number, from 0
  GameSummary summary;
};

class VectorEnv {
 public:
  // Throws std::invalid_argument naming what the options lack: rules that validate(), a
  // table or more, a batch size dividing them, a learner seat, ids that the rules allow.
  explicit VectorEnv(const VectorEnvOptions& options);

  const VectorEnvOptions& options() const { return options_; }
  int num_envs() const { return options_.num_envs; }
  int batch_size() const { return options_.batch_size; }
  // The action ids of Compact features.
  const std::optional<ActionSpace>& action_space() const { return space_; }
  int observation_size() const { return layout_.size; }
  // The layout of DouZero features under the rules.
  const DouZeroLayout& douzero_layout() const { return douzero_; }

  // Deals every table its first hand (of `seed`) and plays to the learners' decisions;
  // the batch is the first group's. A batch sent and not received is dropped.
  //
  // Asked to stop (base/stop_request.hpp: Ctrl-C) during a reset, step or recv, the
  // tables stop part way (a bot's search at its next check, the tables between two) and
  // StopRequested is thrown: the environment is then not started until reset again.
  void reset(std::uint64_t seed);
  bool started() const { return started_; }
  // A batch was sent and the next is not yet received.
  bool sent() const { return sent_; }
  // Why `choices` (one per decision of the batch) cannot be sent, or empty; nothing
  // changes either way.
  std::string choices_error(const std::int64_t* choices, std::size_t n) const;
  // Applies choices[b] (an index into decision b's legal actions) at the batch's tables
  // and plays them to the learners' next decisions on the background thread. Throws
  // std::invalid_argument where choices_error does.
  void send(const std::int64_t* choices, std::size_t n);
  // Waits for the next group's decisions (after a send): they are the batch.
  void recv();
  // send, then recv; with one group, on the caller's threads alone.
  void step(const std::int64_t* choices, std::size_t n);

  // Table `env` (waiting while a sent batch is playing it).
  const Game& game(int env) const;
  // The batch: its tables are first_env() .. first_env() + batch_size() - 1, decision b's
  // legal actions at [offsets()[b], offsets()[b + 1]).
  std::int64_t first_env() const { return static_cast<std::int64_t>(received_) * batch_size(); }
  const std::vector<std::int64_t>& offsets() const { return groups_[received_].offsets; }
  // The hands that ended at the batch's tables since its previous batch.
  const std::vector<FinishedHand>& finished() const { return groups_[received_].finished; }
  // Copies the batch into `out`.
  void write(const BatchOut& out) const;

 private:
  struct Table {
    Game game;
    std::uint64_t stream = 0;    // the built-in policies' draws (playout.hpp)
    std::int64_t hand = 0;       // the hand in play, from 0
    std::int32_t moves = 0;      // its plays and passes so far
    std::int64_t choice = -1;    // the sent choice, an index into `legal`
    std::vector<Action> legal;   // the pending decision's
    std::vector<FinishedHand> finished;  // since the group's last batch
  };
  // A group's batch, written by the job that played it (so that the writing, too, runs
  // while the caller computes), and copied out by `write`.
  struct Group {
    std::vector<std::int64_t> offsets;
    std::vector<FinishedHand> finished;
    std::vector<std::int64_t> env;
    std::vector<std::int8_t> seat;
    std::vector<ActionRow> actions;
    std::vector<float> observation;
    std::vector<std::int64_t> action_ids, stand_in_ids;
    std::vector<std::uint8_t> mask;  // bool-sized
    std::vector<std::int8_t> x_no_action, z, position, action_planes;
    std::uint64_t ticket = 0;  // the worker's job that plays it, 0 for none yet
    BatchOut sized(const VectorEnvOptions& o, int observation_size, int space_size, const DouZeroLayout& douzero);
  };

  Table table(std::int64_t env, std::int64_t hand) const;
  int groups() const { return num_envs() / batch_size(); }
  bool learner_decides(const State& s) const;
  // Whether opponents[seat] ever decides: not at a seat whose every decision is a learner's.
  bool opponent_needed(int seat) const;
  void apply(Table& t, const Action& a) const;
  void advance(std::int64_t env);
  // Plays group g's tables (applying their choices, or dealing them afresh) and writes its batch.
  void play_group(std::size_t g, bool apply_choices);
  void take_choices(const std::int64_t* choices, std::size_t n);
  // Runs `work`; a StopRequested out of it leaves the environment stopped part way.
  template <class F>
  void stoppable(F&& work);
  void write_table(std::int64_t env, std::int64_t row, const std::vector<std::int64_t>& offsets, const BatchOut& out) const;

  VectorEnvOptions options_;
  bool learners_bid_;
  std::optional<ActionSpace> space_;
  ObservationLayout layout_;
  DouZeroLayout douzero_;
  std::vector<Table> tables_;
  std::vector<Group> groups_;
  std::size_t received_ = 0;  // the group of the batch
  bool started_ = false;
  bool sent_ = false;
  // Set when asked to stop part way: the background thread's job stops at its next check.
  std::atomic<bool> stopped_{false};
  mutable Worker worker_;  // last: its thread stops before the tables go
};

}  // namespace ddz
