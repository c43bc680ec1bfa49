#include "play/table_runner.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

#include "base/parallel.hpp"
#include "search/worlds.hpp"

namespace ddz {

namespace {

// The stream of the worlds an outside player is shown (apart from the policies' own).
constexpr std::uint64_t kViewStream = 0x0B5E'47ED'5EA7'F1E0ull;

}  // namespace

TableRunner::TableRunner(std::unique_ptr<Schedule> schedule, int threads, std::int64_t tables)
    : schedule_(std::move(schedule)), threads_(threads) {
  const std::int64_t in_play = schedule_->has_outside_seats() ? std::min(tables, schedule_->games()) : 0;
  tables_.resize(static_cast<std::size_t>(std::max<std::int64_t>(in_play, 0)));
}

void TableRunner::start(Table& t) const {
  t.started = true;
  t.setup = schedule_->setup(t.index);
  t.moves = 0;
  t.record.clear();
}

void TableRunner::record_action(Table& t, int seat, const Action& a) const {
  if (t.setup->game.state().phase == Phase::Playing) ++t.moves;
  if (schedule_->records()) t.record.push_back(to_row(seat, a));
}

void TableRunner::play_builtin(Table& t) const {
  play_seats(t.setup->game, t.setup->policies, t.setup->stream, [&](int seat, const Action& a) { record_action(t, seat, a); });
}

bool TableRunner::finish_if_over(Table& t) {
  if (t.setup->game.state().phase != Phase::Over) return false;
  schedule_->finish({t.index, &t.setup->game, t.moves, &t.record});
  t.index = -1;
  return true;
}

std::vector<Waiting> TableRunner::advance() {
  if (interrupted_) throw std::logic_error("the run was interrupted: its games were not all played");
  if (tables_.empty()) {  // no outside seat: every game to its end, each on whichever thread takes it
    std::atomic<std::int64_t> ended{0};
    try {
      parallel_for(schedule_->games() - next_, threads_, [&](std::int64_t i) {
        Table t;
        t.index = next_ + i;
        start(t);
        play_builtin(t);
        finish_if_over(t);  // over: every seat is built-in
        ended.fetch_add(1, std::memory_order_relaxed);
      });
    } catch (const StopRequested&) {  // the games under way are left unfinished, uncounted
      interrupted_ = true;
    }
    finished_ += ended;
    next_ = schedule_->games();
    return {};
  }
  std::vector<Waiting> waiting;
  while (waiting.empty()) {
    std::vector<std::size_t> moving;  // the tables whose built-in seats are to play
    for (std::size_t k = 0; k < tables_.size(); ++k) {
      Table& t = tables_[k];
      if (t.index < 0 && next_ < schedule_->games()) {
        t.index = next_++;
        t.started = false;  // set up on a worker thread
      }
      if (t.index >= 0) moving.push_back(k);
    }
    if (moving.empty()) break;
    std::vector<char> ended(moving.size(), 0);
    try {
      parallel_for(static_cast<std::int64_t>(moving.size()), threads_, [&](std::int64_t i) {
        Table& t = tables_[moving[static_cast<std::size_t>(i)]];
        if (!t.started) start(t);
        play_builtin(t);
        ended[static_cast<std::size_t>(i)] = finish_if_over(t);
      });
    } catch (const StopRequested&) {  // Ctrl-C in a batch (a bot's long search): tables left half-way, the run over
      interrupted_ = true;
      finished_ += std::count(ended.begin(), ended.end(), 1);
      return {};
    }
    for (std::size_t i = 0; i < moving.size(); ++i) {
      const Table& t = tables_[moving[i]];
      if (ended[i]) {
        ++finished_;
      } else {
        const auto seat = static_cast<std::size_t>(t.setup->game.state().to_move);
        waiting.push_back({static_cast<std::int64_t>(moving[i]), t.setup->outside[seat]});
      }
    }
  }
  return waiting;
}

const TableRunner::Table& TableRunner::waiting_table(std::int64_t table) const {
  if (table < 0 || table >= static_cast<std::int64_t>(tables_.size()) || tables_[static_cast<std::size_t>(table)].index < 0) {
    throw std::invalid_argument("table " + std::to_string(table) + " is not waiting on an outside player");
  }
  const Table& t = tables_[static_cast<std::size_t>(table)];
  const Game& game = t.setup->game;
  if (game.state().phase == Phase::Over || t.setup->policies[static_cast<std::size_t>(game.state().to_move)]) {
    throw std::invalid_argument("table " + std::to_string(table) + " is not waiting on an outside player");
  }
  return t;
}

Game TableRunner::view(std::int64_t table) const {
  const Table& t = waiting_table(table);
  const Game& game = t.setup->game;
  Rng rng(splitmix_finalize((t.setup->stream ^ kViewStream) + game.actions_taken()));
  return handed_world(game, game.state().to_move, rng);
}

void TableRunner::check(std::int64_t table, const Action& action) const {
  const std::vector<Action> legal = waiting_table(table).setup->game.legal_actions();
  if (std::find(legal.begin(), legal.end(), action) == legal.end()) {
    throw std::invalid_argument("the action is not legal at table " + std::to_string(table));
  }
}

void TableRunner::apply(const std::vector<std::int64_t>& tables, const std::vector<Action>& actions) {
  if (actions.size() != tables.size()) throw std::invalid_argument("give one action for each table");
  std::vector<std::int64_t> sorted = tables;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) throw std::invalid_argument("tables: a table given twice");
  for (std::size_t i = 0; i < tables.size(); ++i) check(tables[i], actions[i]);
  for (std::size_t i = 0; i < tables.size(); ++i) {
    Table& t = tables_[static_cast<std::size_t>(tables[i])];
    record_action(t, t.setup->game.state().to_move, actions[i]);
    t.setup->game.apply_legal(actions[i]);
  }
}

}  // namespace ddz
