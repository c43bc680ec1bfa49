// Observation encoders for Python: our own float vector, and DouZero's features, one game
// or many. Batches read every game under the GIL (a GameView copy each), then fill the
// NumPy arrays with the GIL released.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/convert.hpp"
#include "bindings/gil_released.hpp"
#include "learn/encode.hpp"

namespace ddz::py_bind {

namespace {

// Calls f(i, game) for each Game of a batch argument (a sequence of Game), with errors
// naming the bad item. Each item is held while f runs.
template <class F>
void for_each_game(py::handle games, F f) {
  if (!holds_items(games)) {
    throw py::type_error("games must be a sequence of Game");
  }
  const auto seq = py::reinterpret_borrow<py::sequence>(games);
  const std::size_t n = py::len(seq);
  for (std::size_t i = 0; i < n; ++i) {
    const py::object item = seq[i];
    if (!is_exactly<Game>(item) && !py::isinstance<Game>(item)) {
      throw py::type_error("games[" + std::to_string(i) + "] must be a Game, not " +
                           type_name(item));
    }
    f(i, value_of<Game>(item));
  }
}

std::vector<GameView> views_of(py::handle games) {
  std::vector<GameView> views;
  within_memory("games", holds_items(games) ? static_cast<long long>(py::len(games)) : 0, "games", [&] {
    for_each_game(games, [&](std::size_t, const Game& g) { views.push_back(view_of(g)); });
  });
  return views;
}

// The observer of a view: `seat`, or the player to move when None.
int observer(const GameView& v, py::handle seat, const char* what) {
  if (!seat.is_none()) return seat_from(seat, v.state.seats, what);
  if (v.state.phase == Phase::Over) throw py::value_error(std::string(what) + ": the hand is over, give the seat");
  return v.state.to_move;
}

py::list layout_list(const ObservationLayout& layout) {
  py::list out;
  for (const Block& b : layout.blocks) out.append(py::make_tuple(b.name, b.offset, b.size));
  return out;
}

py::array_t<float> observation(GameArg game, OptionalIntArg seat) {
  const GameView v = view_of(game_arg(game));
  const int who = observer(v, seat, "seat");
  const ObservationLayout layout = observation_layout_for(v);
  py::array_t<float> out(layout.size);
  encode_observation(v, who, layout, out.mutable_data());
  return out;
}

// seats: None (each game's player to move), one int for all, or one per game.
std::vector<int> observers(const std::vector<GameView>& views, py::handle seats) {
  std::vector<int> out(views.size());
  // Anything else is one seat (seat_from refuses a str and a 0-d array, as every int argument).
  const bool each = holds_items(seats);
  const auto seq = each ? py::reinterpret_borrow<py::sequence>(seats) : py::sequence();
  if (each && py::isinstance<py::array>(seats) && py::reinterpret_borrow<py::array>(seats).ndim() != 1) {
    throw py::value_error("seats must be one-dimensional, not of shape " + std::string(py::str(seats.attr("shape"))));
  }
  if (each && py::len(seq) != views.size()) {
    throw py::value_error("seats must have one entry per game: " + std::to_string(py::len(seq)) + " for " +
                          std::to_string(views.size()) + " games");
  }
  for (std::size_t i = 0; i < views.size(); ++i) {
    const std::string what = each ? "seats[" + std::to_string(i) + "]" : std::string("seats");
    out[i] = observer(views[i], each ? py::object(seq[i]) : py::reinterpret_borrow<py::object>(seats), what.c_str());
  }
  return out;
}

py::array_t<float> observation_batch(GamesArg games, Hinted<"int | Sequence[int] | npt.NDArray[np.integer] | None"> seats) {
  const std::vector<GameView> views = views_of(games);
  const std::vector<int> who = observers(views, seats);
  const ObservationLayout layout = views.empty() ? observation_layout(3, 1) : observation_layout_for(views[0]);
  for (std::size_t i = 0; i < views.size(); ++i) {
    const ObservationLayout own = observation_layout_for(views[i]);
    if (own.seats != layout.seats || own.decks != layout.decks) {
      throw py::value_error("games[" + std::to_string(i) + "] has another observation layout than games[0]");
    }
  }
  auto out = arrays_within_memory("games", static_cast<long long>(views.size()), "games' observations", [&] {
    return py::array_t<float>({static_cast<py::ssize_t>(views.size()), static_cast<py::ssize_t>(layout.size)});
  });
  float* data = out.mutable_data();
  {
    GilReleased release;
    for (std::size_t i = 0; i < views.size(); ++i) {
      encode_observation(views[i], who[i], layout, data + i * static_cast<std::size_t>(layout.size));
    }
  }
  return out;
}

// One game's DouZero arrays, allocated under the GIL and filled without it.
struct DouZeroArrays {
  DouZeroLayout layout;
  int position = 0;
  std::vector<Action> legal;
  py::array_t<std::int8_t> x_no_action, z;
  py::array_t<float> x_batch, z_batch;
  // Their buffers, taken under the GIL for the fill without it.
  std::int8_t *x_data = nullptr, *z_data = nullptr;
  float *x_batch_data = nullptr, *z_batch_data = nullptr;
};

// The view and legal actions are read together, so they describe one state.
DouZeroArrays allocate(const Game& game, GameView& v, const std::string& where) {
  v = view_of(game);
  if (auto why = douzero_error(v); !why.empty()) throw py::value_error(where + why);
  DouZeroArrays a;
  a.layout = douzero_layout(v.rules);
  a.position = douzero_position_of(v.state);
  game.legal_actions(a.legal);
  const auto rows = static_cast<py::ssize_t>(a.legal.size());
  const int width = a.layout.x[static_cast<std::size_t>(a.position)].width;
  const py::ssize_t z_rows = a.layout.z_rows, z_cols = a.layout.z_cols;
  a.x_no_action = py::array_t<std::int8_t>(width);
  a.z = py::array_t<std::int8_t>({z_rows, z_cols});
  a.x_batch = py::array_t<float>({rows, static_cast<py::ssize_t>(width + a.layout.action.width)});
  a.z_batch = py::array_t<float>({rows, z_rows, z_cols});
  a.x_data = a.x_no_action.mutable_data();
  a.z_data = a.z.mutable_data();
  a.x_batch_data = a.x_batch.mutable_data();
  a.z_batch_data = a.z_batch.mutable_data();
  return a;
}

void fill(const GameView& v, const DouZeroArrays& a) {
  douzero_x_no_action(v, a.layout, a.x_data);
  douzero_z(v, a.layout, a.z_data);
  douzero_batches(a.layout, a.x_data, a.layout.x[static_cast<std::size_t>(a.position)].width, a.z_data, a.legal,
                  a.x_batch_data, a.z_batch_data);
}

py::dict douzero_dict(const GameView& v, const DouZeroArrays& a) {
  py::dict d;
  d["position"] = douzero_position_name(a.position, a.layout.seats);
  d["seat"] = int{v.state.to_move};
  d["x_batch"] = a.x_batch;
  d["z_batch"] = a.z_batch;
  py::list legal(a.legal.size());
  for (std::size_t i = 0; i < a.legal.size(); ++i) legal[i] = interned(a.legal[i]);
  d["legal_actions"] = legal;
  d["x_no_action"] = a.x_no_action;
  d["z"] = a.z;
  return d;
}

py::list douzero_batch(GamesArg games) {
  std::vector<GameView> views;
  std::vector<DouZeroArrays> arrays;
  for_each_game(games, [&](std::size_t i, const Game& g) {
    views.emplace_back();
    arrays.push_back(allocate(g, views.back(), "games[" + std::to_string(i) + "]: "));
  });
  {
    GilReleased release;
    for (std::size_t i = 0; i < views.size(); ++i) fill(views[i], arrays[i]);
  }
  py::list out;
  for (std::size_t i = 0; i < views.size(); ++i) out.append(douzero_dict(views[i], arrays[i]));
  return out;
}

py::dict douzero_one(GameArg game_obj) {
  const Game& game = game_arg(game_obj);
  GameView v;
  DouZeroArrays a = allocate(game, v, "");
  fill(v, a);
  return douzero_dict(v, a);
}

py::list douzero_blocks(const DouZeroBlocks& blocks, int seats) {
  py::list out;
  for (const DouZeroBlock& b : blocks) out.append(py::make_tuple(douzero_block_name(b, seats), b.offset, b.size));
  return out;
}

// The layout of DouZero features under `rules`, for encode.douzero_layout.
py::dict douzero_layout_dict(RulesArg rules) {
  const DouZeroLayout l = douzero_layout(to_rules(rules));
  py::list positions, x;
  for (int p = 0; p < l.seats; ++p) {
    positions.append(douzero_position_name(p, l.seats));
    x.append(douzero_blocks(l.x[static_cast<std::size_t>(p)], l.seats));
  }
  py::dict d;
  d["douzero"] = l.exact;
  d["positions"] = py::tuple(positions);
  d["x_no_action"] = x;
  d["action"] = douzero_blocks(l.action, l.seats);
  d["z"] = py::make_tuple(l.z_rows, l.z_cols);
  return d;
}

}  // namespace

void register_encode(py::module_& m) {
  m.attr("HISTORY_LENGTH") = kHistoryLength;
  m.def("encode_observation_layout", [](IntArg seats, IntArg decks) {
          return layout_list(observation_layout(static_cast<int>(int_arg(seats, "seats", 2, 8)), static_cast<int>(int_arg(decks, "decks", 1, 2))));
        }, py::arg("seats") = 3, py::arg("decks") = 1,
        "The blocks of the observation vector as (name, offset, size), in order.");
  m.def("encode_observation", &observation, py::arg("game"), py::arg("seat") = py::none(),
        "What `seat` (default: the player to move) knows, as a float32 vector.");
  m.def("encode_observation_batch", &observation_batch, py::arg("games"), py::arg("seats") = py::none(),
        "Observations of many games, one row each, filled without the GIL.");
  m.def("encode_douzero", &douzero_one, py::arg("game"), "DouZero 1.1.0's get_obs features of the player to move.");
  m.def("encode_douzero_layout", &douzero_layout_dict, py::arg("rules") = py::none(),
        "The blocks of DouZero's features under `rules` (default: standard).");
  m.def("encode_douzero_batch", &douzero_batch, py::arg("games"),
        "encode_douzero of each game, filled by one call without the GIL.");
}

}  // namespace ddz::py_bind
