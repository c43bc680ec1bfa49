// `ActionSpace` (action ids and legal-action masks) and the conversions to and from the
// action encodings of RLCard and OpenSpiel. The enumeration lives in action_space.cpp,
// the peers' encodings in peer_actions.cpp; this file converts and reports.
#include <pybind11/numpy.h>

#include <cstring>

#include "bindings/convert.hpp"
#include "learn/action_space.hpp"
#include "learn/peer_actions.hpp"

namespace ddz::py_bind {

namespace {


// An Action, or a Move as its play; TypeError naming `what` otherwise.
Action action_arg(py::handle obj, const char* what) {
  if (is_exactly<Action>(obj) || py::isinstance<Action>(obj)) return value_of<Action>(obj);
  if (is_exactly<Move>(obj) || py::isinstance<Move>(obj)) return Action::play(value_of<Move>(obj));
  throw py::type_error(std::string(what) + " must be an Action or a Move, not " + type_name(obj));
}

std::string action_repr(const Action& a) { return py::str(py::repr(py::cast(a))); }

int id_arg(const ActionSpace& space, py::handle obj) {
  return static_cast<int>(int_arg(obj, "action id", 0, space.size() - 1));
}

const Game& space_game(const ActionSpace& space, py::handle obj) {
  const Game& game = game_arg(obj);
  if (!(game.rules() == space.rules())) {
    throw py::value_error("the game's rules differ from the action space's: build ActionSpace(game.rules)");
  }
  return game;
}

// The ids of the legal actions of the player to move, in legal_actions() order.
const std::vector<int>& legal_ids(const ActionSpace& space, const Game& game) {
  thread_local std::vector<Action> legal;
  thread_local std::vector<int> ids;
  game.legal_actions(legal);
  if (const int missing = space.ids(legal, ids); missing >= 0) {
    throw py::value_error("the legal action " + action_repr(legal[static_cast<std::size_t>(missing)]) +
                          " is not in the action space (more cards than a hand of these rules holds)");
  }
  return ids;
}

py::array_t<bool> mask(const ActionSpace& space, GameArg game_obj) {
  const auto& ids = legal_ids(space, space_game(space, game_obj));
  py::array_t<bool> out(space.size());
  bool* data = out.mutable_data();
  std::memset(data, 0, static_cast<std::size_t>(space.size()));
  for (const int id : ids) data[id] = true;
  return out;
}

// The stand-in ids of the legal actions of the player to move, in legal_actions() order.
py::array_t<std::int64_t> legal_stand_in_id_array(const ActionSpace& space, GameArg game_obj) {
  const Game& game = space_game(space, game_obj);
  thread_local std::vector<Action> legal;
  game.legal_actions(legal);
  py::array_t<std::int64_t> out(static_cast<py::ssize_t>(legal.size()));
  auto* data = out.mutable_data();
  for (std::size_t i = 0; i < legal.size(); ++i) {
    data[i] = legal[i].type == ActionType::Play ? ActionSpace::stand_in_id(legal[i].move, game.state().wild) : 0;
  }
  return out;
}

py::array_t<std::int64_t> legal_id_array(const ActionSpace& space, GameArg game_obj) {
  const auto& ids = legal_ids(space, space_game(space, game_obj));
  py::array_t<std::int64_t> out(static_cast<py::ssize_t>(ids.size()));
  std::copy(ids.begin(), ids.end(), out.mutable_data());
  return out;
}

// Applies the legal action that the ids name (legal_action_of) and returns it.
ActionResult step_by_id(const ActionSpace& space, GameArg game_obj, IntArg id_obj, IntArg stand_in_obj) {
  Game& game = game_arg(game_obj);
  space_game(space, game_obj);  // the space's rules
  const int id = id_arg(space, id_obj);
  const int stand_ins = space.rules().wild > 1 ? ActionSpace::kStandInIds * ActionSpace::kStandInIds : ActionSpace::kStandInIds;
  const auto stand_in = static_cast<int>(int_arg(stand_in_obj, "stand_in_id", 0, stand_ins - 1));
  const std::optional<Action> a = legal_action_of(space, game, id, stand_in);
  if (!a) {
    std::string why = "id " + std::to_string(id) + " (" + action_repr(space.action(id)) + ")";
    if (stand_in) why += " with stand-in id " + std::to_string(stand_in);
    const std::string check = space.rules().wild ? "" : game.check(space.action(id));
    raise(ErrorKind::IllegalAction, why + " is not legal now" + (check.empty() ? "" : ": " + check));
  }
  game.apply_legal(*a);
  return interned(*a);
}

// Ids of MOVE_DTYPE rows; an empty row (cards 0) is a pass.
py::array_t<std::int64_t> ids_of_rows(const ActionSpace& space, RowsArg rows) {
  const std::vector<Move> moves = from_array(rows, "moves");
  py::array_t<std::int64_t> out(static_cast<py::ssize_t>(moves.size()));
  std::int64_t* data = out.mutable_data();
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const int id = moves[i].cards == 0 ? ActionSpace::kPassId : space.id(moves[i]);
    if (id < 0) {
      throw py::value_error("moves[" + std::to_string(i) + "]: " + describe(moves[i]) + " is not in the action space");
    }
    data[i] = id;
  }
  return out;
}

// MOVE_DTYPE rows of ids of moves or pass (an empty row).
py::array rows_of_ids(const ActionSpace& space, ArrayLikeArg ids_obj) {
  const auto outside = [&](auto i, const std::string& id) {
    throw py::value_error("ids[" + std::to_string(i) + "]: " + id + " is outside 0.." + std::to_string(space.size() - 1));
  };
  const auto ids = int64_array_arg(ids_obj, "ids", outside);
  std::vector<Move> rows(static_cast<std::size_t>(ids.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::int64_t id = ids.data()[i];
    const std::string where = "ids[" + std::to_string(i) + "]: ";
    if (id < 0 || id >= space.size()) outside(i, std::to_string(id));
    if (space.is_move(static_cast<int>(id))) {
      rows[i] = space.move(static_cast<int>(id));
    } else if (id != ActionSpace::kPassId) {
      throw py::value_error(where + std::to_string(id) + " is " + action_repr(space.action(static_cast<int>(id))) + ", not a move");
    }
  }
  return to_array(rows.data(), rows.size());
}

std::string space_repr(const ActionSpace& space) {
  return "ActionSpace(" + std::string(py::str(py::repr(py::cast(space.rules())))) + ", size=" + std::to_string(space.size()) + ")";
}

void register_conversions(py::module_& m) {
  m.def("to_rlcard", [](ActionOrMoveArg action) {
          const Action a = action_arg(action, "action");
          const auto text = to_rlcard(a);
          if (!text) {
            throw py::value_error(action_repr(a) + " is not in RLCard's action space (" +
                                  (a.type == ActionType::Play ? "not a move of the rlcard preset" : "RLCard has no bidding") + ")");
          }
          return *text;
        }, py::arg("action"), "RLCard 1.2.0's action string of an Action or Move ('33344456', 'pass').");
  m.def("from_rlcard", [](Hinted<"str"> text_obj) {
          const std::string text = text_arg(text_obj, "action");
          const auto a = from_rlcard(text);
          if (!a) throw py::value_error(quoted(text) + " is not an RLCard action string (sorted cards 3-9TJQKA2BR of one move, or 'pass')");
          return *a;
        }, py::arg("action"), "The Action of an RLCard 1.2.0 action string; its move is the rlcard preset's reading.");
  m.def("to_openspiel", [](ActionOrMoveArg action) {
          const Action a = action_arg(action, "action");
          const int id = to_openspiel(a);
          if (id < 0) throw py::value_error(action_repr(a) + " is not in OpenSpiel's dou_dizhu action space");
          return id;
        }, py::arg("action"), "OpenSpiel dou_dizhu's player action id of an Action or Move.");
  m.def("from_openspiel", [](IntArg id_obj, BoolArg bidding) {
          const auto id = static_cast<int>(int_arg(id_obj, "action id", 0, kOpenSpielNumActions - 1));
          return *from_openspiel(id, bool_arg(bidding, "bidding"));
        }, py::arg("action_id"), py::kw_only(), py::arg("bidding") = false,
        "The Action of an OpenSpiel dou_dizhu player action id; id 0 is a pass, in the auction when bidding=True.");
  m.attr("OPENSPIEL_NUM_ACTIONS") = kOpenSpielNumActions;
}

}  // namespace

void register_actions(py::module_& m) {
  public_class<ActionSpace>(m, "ActionSpace", R"doc(Action ids: a fixed enumeration of every action of one rules' game.

ActionSpace(rules=None). Id 0 is pass; ids 1..num_moves are every move a hand of these
rules can hold (the landlord's hand at most), ordered by kind, length, key, then cards mask; the
last ids are the bidding actions (classic: bid 0..3; call_rob: decline, call, no rob,
rob; none: nothing). len(space) is the number of ids. Under wild-card rules an id names a
combination, and stand-in ids (0..STAND_IN_IDS-1) what its wild cards stand in for.)doc")
      .def(py::init([](RulesArg rules) { return ActionSpace(to_rules(rules)); }), py::arg("rules") = py::none())
      .def_property_readonly("rules", &ActionSpace::rules)
      .def_property_readonly("size", &ActionSpace::size)
      .def_property_readonly("num_moves", &ActionSpace::num_moves)
      .def_property_readonly("pass_id", [](const ActionSpace&) { return ActionSpace::kPassId; })
      .def_property_readonly("first_bid_id", &ActionSpace::first_bid_id, "The first bidding id (== size without bidding).")
      .def("__len__", &ActionSpace::size)
      .def_property_readonly_static("STAND_IN_IDS", [](py::handle) { return ActionSpace::kStandInIds; })
      .def_static("stand_in_id", [](ActionOrMoveArg action, WildArg wild) {
            const Action a = action_arg(action, "action");
            if (a.type != ActionType::Play) return 0;
            const int id = ActionSpace::stand_in_id(a.move, any_wild_arg(wild, 2, "wild_ranks"));
            if (id < 0) throw py::value_error(action_repr(a) + " has wild cards of a rank that is not wild");
            return id;
          }, py::arg("action"), py::arg("wild_ranks") = py::none(),
          "What a move's wild cards stand in for, as an id (0: none, and for every other action). With two wild\n"
          "ranks, low + STAND_IN_IDS x high: the ids of what the lower and the higher of `wild_ranks` (the hand's;\n"
          "None: the move's own) stand in for.")
      .def("with_stand_ins", [](const ActionSpace& space, IntArg id_obj, IntArg stand_in_obj, WildArg wild) -> ActionResult {
            const int id = id_arg(space, id_obj);
            if (!space.is_move(id)) throw py::value_error("id " + std::to_string(id) + " is " + action_repr(space.action(id)) + ", not a move");
            // As many ranks as the space's rules have wild ranks: none (None), the rank, or the pair.
            const int wilds = space.rules().wild;
            const WildRanks wild_ranks = any_wild_arg(wild, wilds, "wild_rank");
            if (wilds && wild_ranks.none()) throw py::value_error(wilds == 1 ? "wild_rank: the wild rank is needed" : "wild_rank: the pair of wild ranks is needed");
            if (wilds == 2 && wild_ranks.high == kNoWild) throw py::value_error("wild_rank: one rank, and these rules have two wild ranks");
            const int ids = wilds == 0 ? 1 : wilds == 1 ? ActionSpace::kStandInIds : ActionSpace::kStandInIds * ActionSpace::kStandInIds;
            const auto stand_in = static_cast<int>(int_arg(stand_in_obj, "stand-in id", 0, ids - 1));
            if (wilds == 0) return interned(space.action(id));  // no wild card stands in for anything
            try {
              return interned(Action::play(space.with_stand_ins(id, stand_in, wild_ranks)));
            } catch (const std::invalid_argument& e) {
              raise(ErrorKind::Move, "stand-in id " + std::to_string(stand_in) + " on " +
                                         action_repr(space.action(id)) + ": " + e.what());
            }
          }, py::arg("id"), py::arg("stand_in_id"), py::arg("wild_rank"),
          "The play of move id `id` whose wild cards (of `wild_rank`, or of the pair of wild ranks under laizi2)\n"
          "stand in for the ranks of `stand_in_id`; under rules without wild cards, wild_rank None and stand-in id 0:\n"
          "the move itself.")
      .def("id", [](const ActionSpace& space, ActionOrMoveArg action) {
            const Action a = action_arg(action, "action");
            const int id = space.id(a);
            if (id < 0) throw py::value_error(action_repr(a) + " is not in this action space");
            return id;
          }, py::arg("action"), "The id of an Action or a Move; ValueError when the space lacks it.")
      .def("action", [](const ActionSpace& space, IntArg id) -> ActionResult { return interned(space.action(id_arg(space, id))); },
           py::arg("id"), "The Action of an id.")
      .def("move", [](const ActionSpace& space, IntArg id_obj) -> MoveResult {
            const int id = id_arg(space, id_obj);
            if (!space.is_move(id)) throw py::value_error("id " + std::to_string(id) + " is " + action_repr(space.action(id)) + ", not a move");
            return interned(space.move(id));
          }, py::arg("id"), "The Move of an id of a play.")
      .def("mask", &mask, py::arg("game"),
           "The legal actions of the player to move as a bool array of len(space) (all False once the hand is over).")
      .def("legal_ids", &legal_id_array, py::arg("game"),
           "The ids of game.legal_actions(), in that order (int64; under wild-card rules, of their combinations).")
      .def("legal_stand_in_ids", &legal_stand_in_id_array, py::arg("game"),
           "The stand-in ids of game.legal_actions(), in that order (int64; 0 for natural moves and other actions).")
      .def("step", &step_by_id, py::arg("game"), py::arg("id"), py::arg("stand_in_id") = 0,
           "Takes the legal action of `game` that `id` names (under wild-card rules with `stand_in_id`: the pairs of\n"
           "legal_ids and legal_stand_in_ids) and returns it; IllegalActionError, the game unchanged, when no legal\n"
           "action has those ids now.")
      .def("ids", &ids_of_rows, py::arg("moves"), "The ids (int64) of MOVE_DTYPE rows; an empty row (cards 0) is pass.")
      .def("moves", &rows_of_ids, py::arg("ids"), "MOVE_DTYPE rows of ids of moves; pass gives an empty row.")
      .def("__repr__", &space_repr)
      .def(py::pickle([](const ActionSpace& space) { return py::make_tuple(py::cast(space.rules())); },
                      [](py::handle state) {
                        return ActionSpace(to_rules(pickled_fields(state, "ActionSpace", 1, ErrorKind::General)[0]));
                      }));
  register_conversions(m);
}

}  // namespace ddz::py_bind
