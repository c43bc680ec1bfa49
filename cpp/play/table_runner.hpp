// The table runner: every game of a run (self-play, an evaluation) played to its end, the
// seats with a built-in policy in C++ on threads, the others ("outside" players: Python)
// handed out in batches. The one place a run's games are set up, played and summed up,
// whoever plays them.
//
// A run without outside seats plays every game in one call, on threads. With outside
// seats it keeps up to `tables` games in play: advance() plays their built-in seats until
// each waits on an outside player, and returns them; the caller decides each (all the
// tables an outside player waits on at once) and applies the actions; then advance()
// again. Game i plays the same whether its seats are built-in or outside, and results
// never depend on the thread count or the number of tables.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "game/game.hpp"
#include "game/record.hpp"
#include "play/playout.hpp"

namespace ddz {

// A game of a run, ready to play: who takes each seat and the built-in seats' stream.
struct TableSetup {
  Game game;
  SeatPolicies policies{};                   // none: an outside player's seat
  std::array<std::int8_t, kMaxSeats> outside{};  // the outside player of each seat without a policy
  std::uint64_t stream = 0;
};

// A game that ended, as a run reports it: the game, its plays and passes after the
// auction, and (when the run records) its actions as rows.
struct PlayedGame {
  std::int64_t index = 0;
  const Game* game = nullptr;
  std::int32_t moves = 0;
  const std::vector<ActionRow>* record = nullptr;
};

// What a run plays and what it keeps of each game. finish() is called once per game, from
// any thread, and writes only that game's slots.
class Schedule {
 public:
  virtual ~Schedule() = default;
  virtual std::int64_t games() const = 0;
  virtual TableSetup setup(std::int64_t index) const = 0;
  virtual void finish(const PlayedGame& played) = 0;
  virtual bool has_outside_seats() const = 0;
  virtual bool records() const { return false; }
};

// A table waiting on an outside player.
struct Waiting {
  std::int64_t table = 0;  // its slot, for view() and apply()
  int player = 0;          // the outside player to move
};

class TableRunner {
 public:
  static constexpr std::int64_t kTables = 256;

  TableRunner(std::unique_ptr<Schedule> schedule, int threads, std::int64_t tables = kTables);

  // Plays until every table in play waits on an outside player; those tables, in slot
  // order (empty when every game has ended). Without outside seats: the whole run. When
  // the calling thread is asked to stop (base/stop_request.hpp: Ctrl-C), the games in play
  // end or stop at their bots' own checks, and the rest are not played: the run is over()
  // never, and a later advance() throws std::logic_error.
  std::vector<Waiting> advance();

  // What the seat to move at `table` may know, as a game: its hand and everything public
  // as they are, the hidden cards re-dealt as sample_worlds deals them (on a stream of
  // the game's), so no outside player can read the other hands.
  Game view(std::int64_t table) const;

  // Applies each waiting player's choice, actions[i] at tables[i], all or none: every
  // table is checked first (std::invalid_argument when the lists differ in length, a
  // table is given twice or is not waiting on an outside player, or its action is not
  // legal there), so nothing changes when one is refused.
  void apply(const std::vector<std::int64_t>& tables, const std::vector<Action>& actions);

  std::int64_t finished() const { return finished_; }
  std::int64_t games() const { return schedule_->games(); }
  bool over() const { return finished_ == games(); }
  Schedule& schedule() { return *schedule_; }

 private:
  struct Table {
    std::int64_t index = -1;  // the game in this slot; -1: none
    bool started = false;     // false: its game is still to be set up
    std::optional<TableSetup> setup;  // none until started (a Game has no empty state)
    std::int32_t moves = 0;
    std::vector<ActionRow> record;
  };

  void start(Table& t) const;
  void play_builtin(Table& t) const;
  void record_action(Table& t, int seat, const Action& a) const;
  bool finish_if_over(Table& t);
  const Table& waiting_table(std::int64_t table) const;
  // std::invalid_argument when `table` is not waiting on an outside player or `action` is
  // not legal there.
  void check(std::int64_t table, const Action& action) const;

  std::unique_ptr<Schedule> schedule_;
  int threads_;
  std::vector<Table> tables_;
  std::int64_t next_ = 0;  // the next game to start
  std::int64_t finished_ = 0;
  bool interrupted_ = false;
};

}  // namespace ddz
