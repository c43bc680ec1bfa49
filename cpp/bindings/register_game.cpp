// `Game`, `Action`, `Settlement`, `score` and `IllegalActionError`: a hand of play for
// Python. The rules of play live in game.cpp; this file converts and reports.
#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <random>

#include "../game.hpp"
#include "convert.hpp"

namespace ddz::py_bind {

namespace {

PyObject* illegal_action_type = nullptr;  // IllegalActionError, made at registration

// An action the game refuses: IllegalActionError (a ValueError) in Python, from pybind11's
// dispatch and from the fast entry points alike.
struct IllegalAction : py::builtin_exception {
  using py::builtin_exception::builtin_exception;
  void set_error() const override { PyErr_SetString(illegal_action_type, what()); }
};

constexpr const char* kPhaseNames[] = {"bidding", "playing", "over"};

// The phase as one shared str per phase (it is read on every turn of a game loop).
py::object phase_name(Phase phase) {
  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<std::array<py::object, 3>> storage;
  const auto& names = storage.call_once_and_store_result([] {
    return std::array<py::object, 3>{py::str(kPhaseNames[0]), py::str(kPhaseNames[1]), py::str(kPhaseNames[2])};
  }).get_stored();
  return names[static_cast<std::size_t>(phase)];
}

std::uint64_t seed_arg(py::handle seed) {
  if (seed.is_none()) return (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  if (!PyLong_Check(seed.ptr()) || py::isinstance<py::bool_>(seed)) throw py::type_error("seed must be an int or None");
  const unsigned long long value = PyLong_AsUnsignedLongLongMask(seed.ptr());
  if (PyErr_Occurred()) throw py::error_already_set();
  return value;
}

// Text of an action: "pass", "bid 2", "call", "decline", "rob", "no rob", or the move text
// of a play ("spent=cards" with wild cards standing in); with `rules`, a play whose cards
// read several ways adds "/KIND/key".
std::string action_text(const Action& a, const Rules* rules) {
  switch (a.type) {
    case ActionType::Pass: return "pass";
    case ActionType::Bid: return "bid " + std::to_string(a.value);
    case ActionType::Call: return a.value ? "call" : "decline";
    case ActionType::Rob: return a.value ? "rob" : "no rob";
    case ActionType::Play: break;
  }
  std::string text = move_text(a.move);
  if (rules && classify(a.move.cards, *rules).size() > 1) {
    text += "/" + kind_name(a.move.kind) + "/" + rank_char(a.move.key);
  }
  return text;
}

// The action that `obj` names in `game`: an Action, a Move, or text (see action_text).
// Card text with several readings takes the one that is legal now, if only one is.
Action to_action(py::handle obj, const Game& game) {
  if (is_exactly<Action>(obj) || py::isinstance<Action>(obj)) return value_of<Action>(obj);
  if (is_exactly<Move>(obj) || py::isinstance<Move>(obj)) return Action::play(value_of<Move>(obj));
  if (!py::isinstance<py::str>(obj)) {
    throw py::type_error("an action is an Action, a Move or text, not " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  }
  std::string text = text_arg(obj, "action");
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (text == "pass") return Action::pass();
  if (text.rfind("bid ", 0) == 0 && text.size() == 5 && text[4] >= '0' && text[4] <= '9') return Action::bid(text[4] - '0');
  if (text == "call" || text == "decline" || text == "no call") return Action::call(text == "call");
  if (text == "rob" || text == "no rob") return Action::rob(text == "rob");

  const std::string original = text_arg(obj, "action");
  std::vector<Move> readings = readings_of(original, game.rules(), game.state().wild);
  if (readings.size() > 1) {
    std::erase_if(readings, [&](const Move& m) { return !game.check(Action::play(m)).empty(); });
  }
  if (readings.size() == 1) return Action::play(readings.front());
  if (readings.empty()) throw IllegalAction("'" + original + "' is no legal combination here");
  std::string list;
  for (const Move& m : readings) list += (list.empty() ? "" : "; ") + describe(m);
  throw IllegalAction("'" + original + "' has several readings, pass a Move: " + list);
}

void act(Game& game, const Action& a) {
  if (auto why = game.check(a); !why.empty()) throw IllegalAction(why);
  game.apply(a);
}

// A Move from an optional argument: None, a Move or move text with one reading.
Move optional_move(py::handle obj, const Rules& rules, int wild) {
  const std::optional<Move> m = to_last(obj, rules, wild);
  return m ? *m : Move{};
}

// The deal's cards; the Game constructor checks that they are a deal of the deck.
Deal deal_arg(const py::sequence& hands, py::handle kitty, const Rules& rules, py::handle wild) {
  const auto players = static_cast<std::size_t>(rules.players);
  if (py::len(hands) != players) throw py::value_error("a deal has " + std::to_string(players) + " hands");
  Deal d;
  d.wild = static_cast<std::int8_t>(wild_arg(wild, rules));  // kNoWild: with wild cards, the seed's draw
  for (std::size_t seat = 0; seat < players; ++seat) d.hands[seat] = to_mask(hands[seat], "hands", rules);
  d.kitty = to_mask(kitty, "kitty", rules);
  return d;
}

// A position's cards and seats; Game::from_position checks how they fit together.
Game position_game(const py::sequence& hands, py::handle landlord, py::handle to_move, py::handle last,
                   py::handle last_by, const Rules& rules, py::handle wild) {
  const int w = wild_arg(wild, rules);
  const std::size_t seats = py::len(hands);  // TypeError for what has no length
  if (seats != 2 && seats != static_cast<std::size_t>(rules.players)) {
    throw py::value_error("a position has 2 or " + std::to_string(rules.players) + " hands");
  }
  std::vector<Mask> masks;
  for (std::size_t i = 0; i < seats; ++i) {
    const py::object h = hands[i];  // an object: a handle to a fresh item would dangle
    masks.push_back(to_mask(h, "hands", rules));
  }
  const Move l = optional_move(last, rules, w);
  if (l.cards && last_by.is_none()) throw py::value_error("last_by is needed with last");
  const auto n = static_cast<int>(seats);
  const int by = l.cards ? seat_from(last_by, n, "last_by") : -1;
  return Game::from_position(masks, seat_from(landlord, n, "landlord"), seat_from(to_move, n, "to_move"), l, by, rules, w);
}

py::tuple payouts_tuple(const Settlement& s) {
  py::tuple out(static_cast<std::size_t>(s.seats));
  for (int i = 0; i < s.seats; ++i) out[static_cast<std::size_t>(i)] = py::int_(s.payouts[static_cast<std::size_t>(i)]);
  return out;
}

py::tuple start_bonuses(const Settlement& s) {
  py::list out;
  for (const auto& [name, seats] : {std::pair{"jokers", s.start_bonus.jokers}, std::pair{"straight", s.start_bonus.straight}}) {
    for (int seat = 0; seat < s.seats; ++seat) {
      if ((seats >> seat) & 1) out.append(py::make_tuple(name, seat));
    }
  }
  return py::tuple(out);
}

py::object optional_seat(int seat) { return seat < 0 ? py::object(py::none()) : py::object(py::int_(seat)); }

py::object optional_move_obj(const Move& m) { return m.cards ? interned(m) : py::object(py::none()); }

py::object wild_obj(int wild) { return wild == kNoWild ? py::object(py::none()) : py::object(py::int_(wild)); }

// The multiplier so far: bombs and rockets played, capped.
int running_multiplier(const Game& g) {
  return settle(1, g.state().bombs, g.state().rockets, false, false, true, 0, 1, g.rules().max_multiplier).multiplier;
}

py::list history_list(const Game& g, bool current_deal_only) {
  py::list out;
  for (const SeatAction& sa : g.history(current_deal_only)) out.append(py::make_tuple(sa.seat, sa.action));
  return out;
}

py::dict observation(const Game& g, py::handle seat_obj) {
  const State& s = g.state();
  const int seat = seat_from(seat_obj, s.seats, "seat");
  py::dict o;
  o["seat"] = seat;
  o["phase"] = phase_name(s.phase);
  o["to_move"] = s.phase == Phase::Over ? py::object(py::none()) : py::object(py::int_(s.to_move));
  o["landlord"] = optional_seat(s.landlord);
  o["wild_rank"] = wild_obj(s.wild);
  o["hand"] = Cards{s.hands[static_cast<std::size_t>(seat)]};
  py::list sizes, played;
  for (int i = 0; i < s.seats; ++i) {
    sizes.append(total(s.hands[static_cast<std::size_t>(i)]));
    played.append(Cards{s.played[static_cast<std::size_t>(i)]});
  }
  o["hand_sizes"] = py::tuple(sizes);
  o["played"] = py::tuple(played);
  o["last"] = optional_move_obj(s.last);
  o["last_by"] = optional_seat(s.last_by);
  o["kitty"] = s.phase == Phase::Bidding || s.seats < g.rules().players ? py::object(py::none()) : py::cast(Cards{s.kitty});
  py::dict bidding;
  bidding["first_bidder"] = int{s.first_bidder};
  bidding["high_bid"] = int{s.high_bid};
  bidding["high_bidder"] = optional_seat(s.high_bidder);
  bidding["robs"] = int{s.robs};
  bidding["redeals"] = int{s.redeals};
  o["bidding"] = bidding;
  o["base"] = int{s.base};
  o["bombs"] = int{s.bombs};
  o["rockets"] = int{s.rockets};
  o["multiplier"] = running_multiplier(g);
  o["history"] = history_list(g, true);  // this deal's actions
  return o;
}

py::dict deal_dict(const Deal& d, int seats) {
  py::dict out;
  py::list hands;
  for (int i = 0; i < seats; ++i) hands.append(to_text(d.hands[static_cast<std::size_t>(i)]));
  out["hands"] = hands;
  out["kitty"] = to_text(d.kitty);
  if (d.wild != kNoWild) out["wild"] = std::string(1, rank_char(d.wild));
  return out;
}

// A game loop calls legal_actions, step and phase on every turn: those three use
// CPython's fast calling conventions directly, since pybind11's general dispatcher costs
// more than the work. Errors leave as the same typed exceptions.
Game& game_of(PyObject* self) { return const_cast<Game&>(value_of<Game>(self)); }

PyObject* fast_legal_actions(PyObject* self, PyObject* /*unused*/) {
  return guarded([&] {
    const auto actions = game_of(self).legal_actions();
    py::list out(actions.size());
    for (std::size_t i = 0; i < actions.size(); ++i) out[i] = interned(actions[i]);
    return py::object(std::move(out));
  });
}

PyObject* fast_step(PyObject* self, PyObject* action) {
  return guarded([&] {
    Game& game = game_of(self);
    act(game, to_action(action, game));
    return py::object(py::none());
  });
}

PyObject* fast_phase(PyObject* self, void* /*closure*/) {
  return guarded([&] { return phase_name(game_of(self).state().phase); });
}

void add_fast_members(py::class_<Game>& cls) {
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  static PyMethodDef legal{"legal_actions", &fast_legal_actions, METH_NOARGS,
                           "legal_actions($self, /)\n--\n\nThe legal actions: Actions of moves, plus pass when following."};
  static PyMethodDef step{"step", &fast_step, METH_O,
                          "step($self, action, /)\n--\n\nTakes an Action, a Move or action text (\"pass\", \"bid 2\", cards)."};
  static PyGetSetDef phase{"phase", &fast_phase, nullptr, "'bidding', 'playing' or 'over'.", nullptr};
  for (PyMethodDef* def : {&legal, &step}) {
    cls.attr(def->ml_name) = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, def));
  }
  cls.attr("phase") = py::reinterpret_steal<py::object>(PyDescr_NewGetSet(type, &phase));
}

}  // namespace

py::dict to_record(const Game& g) {
  const State& initial = g.initial();
  py::dict r;
  r["format"] = "doudizhu.record";
  r["version"] = 1;
  py::object rules = py::cast(g.rules());
  r["rules"] = rules.attr("to_dict")();
  r["seed"] = g.seed();
  if (g.from_a_position()) {
    py::dict position;
    py::list hands;
    for (int i = 0; i < initial.seats; ++i) hands.append(to_text(initial.hands[static_cast<std::size_t>(i)]));
    position["hands"] = hands;
    position["landlord"] = int{initial.landlord};
    position["to_move"] = int{initial.to_move};
    position["last"] = initial.last.cards ? py::object(py::str(action_text(Action::play(initial.last), &g.rules())))
                                          : py::object(py::none());
    position["last_by"] = optional_seat(initial.last_by);
    if (initial.wild != kNoWild) position["wild"] = std::string(1, rank_char(initial.wild));
    r["position"] = position;
  } else {
    r["first_bidder"] = int{initial.first_bidder};
    r["landlord"] = initial.phase == Phase::Playing ? py::object(py::int_(initial.landlord)) : py::object(py::none());
    py::list deals;
    for (const Deal& d : g.deals()) deals.append(deal_dict(d, g.rules().players));
    r["deals"] = deals;
  }
  py::list actions;
  for (const SeatAction& sa : g.history()) actions.append(action_text(sa.action, &g.rules()));
  r["actions"] = actions;
  return r;
}

// A record's field, or ValueError naming it ("position.last"); `Type` checks its type.
template <class Type = py::object>
Type record_field(const py::dict& d, const char* key, const char* where = "") {
  const std::string name = std::string(where) + key;
  if (!d.contains(key)) throw py::value_error("record lacks '" + name + "'");
  py::object value = d[key];
  if constexpr (!std::is_same_v<Type, py::object>) {
    if (!py::isinstance<Type>(value)) {
      throw py::type_error("record: '" + name + "' must be a " + (std::is_same_v<Type, py::dict> ? "dict" : "list") +
                           ", not " + std::string(py::str(py::type::of(value).attr("__name__"))));
    }
  }
  return py::reinterpret_borrow<Type>(value);
}

Game from_record(const py::dict& r) {
  if (!r.contains("format") || !py::isinstance<py::str>(r["format"]) || !py::object(r["format"]).equal(py::str("doudizhu.record"))) {
    throw py::value_error("not a doudizhu record (format must be 'doudizhu.record')");
  }
  const py::object version = record_field(r, "version");
  if (py::isinstance<py::bool_>(version) || !PyLong_Check(version.ptr()) || !version.equal(py::int_(1))) {
    throw py::value_error("unsupported record version");
  }
  const Rules rules = py::type::of<Rules>()(**record_field<py::dict>(r, "rules")).cast<Rules>();
  std::optional<Game> game;
  py::list deals;
  if (r.contains("position")) {
    const auto p = record_field<py::dict>(r, "position");
    py::object last = py::none();
    const py::object wild = p.contains("wild") ? py::object(p["wild"]) : py::object(py::none());
    if (!record_field(p, "last", "position.").is_none()) {
      const auto readings = readings_of(text_arg(p["last"], "record: position.last"), rules, wild_arg(wild, rules));
      if (readings.size() != 1) throw py::value_error("record: the position's last move must have one reading");
      last = py::cast(readings.front());
    }
    const py::object hands = record_field(p, "hands", "position.");
    if (!py::isinstance<py::sequence>(hands) || py::isinstance<py::str>(hands)) {
      throw py::type_error("record: 'position.hands' must be a list of hands");
    }
    game.emplace(position_game(py::reinterpret_borrow<py::sequence>(hands), record_field(p, "landlord", "position."),
                               record_field(p, "to_move", "position."), last, record_field(p, "last_by", "position."),
                               rules, wild));
  } else {
    deals = record_field<py::list>(r, "deals");
    if (deals.empty()) throw py::value_error("record: no deal");
    if (!py::isinstance<py::dict>(deals[0])) throw py::type_error("record: each deal must be a dict");
    const auto first = py::reinterpret_borrow<py::dict>(deals[0]);
    const py::object landlord = record_field(r, "landlord");
    const py::object hands = record_field(first, "hands", "deals[0].");
    if (!py::isinstance<py::sequence>(hands) || py::isinstance<py::str>(hands)) {
      throw py::type_error("record: 'deals[0].hands' must be a list of hands");
    }
    const py::object wild = first.contains("wild") ? py::object(first["wild"]) : py::object(py::none());
    game.emplace(deal_arg(py::reinterpret_borrow<py::sequence>(hands), record_field(first, "kitty", "deals[0]."), rules, wild), rules,
                 seat_from(record_field(r, "first_bidder"), rules.players, "record: first_bidder"),
                 landlord.is_none() ? -1 : seat_from(landlord, rules.players, "record: landlord"),
                 seed_arg(record_field(r, "seed")));
  }
  std::size_t index = 0;
  for (py::handle text : record_field<py::list>(r, "actions")) {
    try {
      act(*game, to_action(text, *game));
    } catch (const IllegalAction& e) {
      throw py::value_error("record action " + std::to_string(index) + " ('" + std::string(py::str(text)) + "'): " + e.what());
    }
    const std::size_t dealt = game->deals().size();
    if (!game->from_a_position() && (dealt > deals.size() || deal_dict(game->deals().back(), rules.players).not_equal(deals[dealt - 1]))) {
      throw py::value_error("record: deal " + std::to_string(dealt - 1) + " does not follow from the seed");
    }
    ++index;
  }
  if (!game->from_a_position() && game->deals().size() != deals.size()) {
    throw py::value_error("record: more deals than the actions lead to");
  }
  return *game;
}

void register_game(py::module_& m) {
  // Kept for the life of the process: set_error() uses it.
  illegal_action_type = py::exception<IllegalAction>(m, "IllegalActionError", PyExc_ValueError).inc_ref().ptr();

  py::native_enum<ActionType>(m, "ActionType", "enum.IntEnum", "What an Action does.")
      .value("PLAY", ActionType::Play)
      .value("PASS", ActionType::Pass)
      .value("BID", ActionType::Bid)
      .value("CALL", ActionType::Call)
      .value("ROB", ActionType::Rob)
      .finalize();

  py::class_<Action>(m, "Action", R"doc(One action of a hand: a play, a pass, a bid, a call or a rob (immutable).

str(action) is its text: "pass", "bid 2" ("bid 0" passes in the auction), "call",
"decline", "rob", "no rob", or the move text of a play ("spent=cards" with wild cards).)doc")
      .def_static("play", &Action::play, py::arg("move"))
      .def_static("pass_", &Action::pass)
      .def_static("bid", [](int v) {
            if (v < 0 || v > 3) throw py::value_error("bids are 0 (pass), 1, 2 or 3");
            return Action::bid(v);
          }, py::arg("value"))
      .def_static("call", &Action::call, py::arg("yes") = true)
      .def_static("rob", &Action::rob, py::arg("yes") = true)
      .def_property_readonly("type", [](const Action& a) { return a.type; })
      .def_property_readonly("value", [](const Action& a) { return a.value; }, "The bid, or 1/0 for call and rob.")
      .def_property_readonly("move", [](const Action& a) { return a.type == ActionType::Play ? interned(a.move) : py::object(py::none()); })
      .def("__str__", [](const Action& a) { return action_text(a, nullptr); })
      .def("__repr__", [](const Action& a) { return "Action('" + action_text(a, nullptr) + "')"; })
      .def("__eq__", [](const Action& a, py::handle b) -> py::object {
            if (!py::isinstance<Action>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(a == b.cast<const Action&>());
          })
      .def("__hash__", [](const Action& a) {
            return py::hash(py::make_tuple(static_cast<int>(a.type), a.value, a.move.cards, static_cast<int>(a.move.kind), a.move.key,
                                           a.move.subs));
          });

  py::class_<Settlement>(m, "Settlement", "The stakes of a finished hand; payouts by seat sum to zero.")
      .def_readonly("landlord_won", &Settlement::landlord_won)
      .def_readonly("base", &Settlement::base)
      .def_readonly("multiplier", &Settlement::multiplier)
      .def_readonly("bombs", &Settlement::bombs)
      .def_readonly("rockets", &Settlement::rockets)
      .def_readonly("spring", &Settlement::spring)
      .def_readonly("anti_spring", &Settlement::anti_spring)
      .def_property_readonly("payouts", &payouts_tuple, "Payouts by seat (one per seat of the hand).")
      .def_property_readonly("start_bonuses", &start_bonuses,
                             "The start bonuses that doubled the stake (variant happy), as (name, seat) pairs:\n"
                             "('jokers', seat) for a dealt hand with both jokers, ('straight', seat) for one with 3..A.")
      .def("__repr__", [](const Settlement& s) {
            std::string payouts = py::str(payouts_tuple(s));
            return "Settlement(landlord_won=" + std::string(s.landlord_won ? "True" : "False") + ", base=" + std::to_string(s.base) +
                   ", multiplier=" + std::to_string(s.multiplier) + ", payouts=" + payouts + ")";
          });

  m.def("score", [](int base, int bombs, int rockets, bool spring, bool anti_spring, bool landlord_won,
                    py::handle landlord, int max_multiplier, int players) {
          if (players != 3 && players != 4) throw py::value_error("players must be 3 or 4");
          if (base < 1) throw py::value_error("base must be at least 1");
          if (bombs < 0 || rockets < 0) throw py::value_error("bombs and rockets cannot be negative");
          if (rockets > players - 2) throw py::value_error(players == 3 ? "one deck holds one rocket" : "two decks hold one rocket of four jokers");
          if (spring && (anti_spring || !landlord_won)) throw py::value_error("a spring needs the landlord to win");
          if (anti_spring && landlord_won) throw py::value_error("an anti-spring needs the peasants to win");
          if (max_multiplier < 0) throw py::value_error("max_multiplier must be 0 (no cap) or positive");
          return settle(base, bombs, rockets, spring, anti_spring, landlord_won, seat_from(landlord, players, "landlord"),
                        players, max_multiplier);
        }, py::arg("base"), py::kw_only(), py::arg("bombs") = 0, py::arg("rockets") = 0, py::arg("spring") = false,
        py::arg("anti_spring") = false, py::arg("landlord_won") = true, py::arg("landlord") = 0,
        py::arg("max_multiplier") = 0, py::arg("players") = 3,
        "The settlement arithmetic alone (RULES.md \"Scoring\"), for tables run elsewhere.");

  py::class_<Game>(m, "Game", R"doc(A hand of Dou Dizhu: deal, bidding, play and scoring.

Game(seed=None, rules=None, first_bidder=0) shuffles and deals from the seed (the same
seed gives the same deal everywhere). Game.from_deal and Game.from_position start from
given cards. Illegal actions raise IllegalActionError and change nothing.)doc")
      .def(py::init([](py::handle seed, py::handle rules, py::handle first_bidder) {
             const Rules& r = to_rules(rules);
             return Game(seed_arg(seed), r, seat_from(first_bidder, r.players, "first_bidder"));
           }),
           py::arg("seed") = py::none(), py::arg("rules") = py::none(), py::arg("first_bidder") = 0)
      .def_static("from_deal", [](const py::sequence& hands, py::handle kitty, py::handle first_bidder, py::handle landlord,
                                  py::handle rules, py::handle seed, py::handle wild) {
            const Rules& r = to_rules(rules);
            return Game(deal_arg(hands, kitty, r, wild), r, seat_from(first_bidder, r.players, "first_bidder"),
                        landlord.is_none() ? -1 : seat_from(landlord, r.players, "landlord"), seed_arg(seed));
          }, py::arg("hands"), py::arg("kitty"), py::arg("first_bidder") = 0, py::arg("landlord") = py::none(),
          py::arg("rules") = py::none(), py::arg("seed") = py::none(), py::arg("wild") = py::none(),
          "A hand from one hand per player (17 cards each in the standard rules) and the kitty; landlord=seat skips\n"
          "the bidding (base 1). With wild cards, wild is the wild rank (None: the one the seed draws).")
      .def_static("from_position", [](const py::sequence& hands, py::handle landlord, py::handle to_move, py::handle last,
                                      py::handle last_by, py::handle rules, py::handle wild) {
            return position_game(hands, landlord, to_move, last, last_by, to_rules(rules), wild);
          }, py::arg("hands"), py::arg("landlord"), py::arg("to_move"), py::arg("last") = py::none(),
          py::arg("last_by") = py::none(), py::arg("rules") = py::none(), py::arg("wild") = py::none(),
          "A position in play: 2 hands (landlord against one opponent) or one per player, who moves, the move to\n"
          "beat; with wild cards, the wild rank.")
      .def_static("from_record", &from_record, py::arg("record"), "Replays a record from to_record(), checking every action.")
      .def_property_readonly("to_move", [](const Game& g) {
            return g.state().phase == Phase::Over ? py::object(py::none()) : py::object(py::int_(g.state().to_move));
          })
      .def_property_readonly("seats", [](const Game& g) { return g.state().seats; })
      .def_property_readonly("wild_rank", [](const Game& g) { return wild_obj(g.state().wild); },
                             "The rank index (0..12) of this deal's wild cards (laizi), or None.")
      .def("hand", [](const Game& g, py::handle seat) {
            return Cards{g.state().hands[static_cast<std::size_t>(seat_from(seat, g.state().seats, "seat"))]};
          }, py::arg("seat"))
      .def_property_readonly("kitty", [](const Game& g) { return Cards{g.state().kitty}; })
      .def_property_readonly("landlord", [](const Game& g) { return optional_seat(g.state().landlord); })
      .def_property_readonly("bid_value", [](const Game& g) {
            const State& s = g.state();
            if (s.phase != Phase::Bidding) return int{s.base};
            return g.rules().bidding == Bidding::Classic ? int{s.high_bid} : g.rules().call_base << std::min<int>(s.robs, 20);
          }, "The base stake: the winning bid (so far, while bidding).")
      .def_property_readonly("multiplier", &running_multiplier, "2 to the bombs and rockets played so far (capped).")
      .def_property_readonly("last", [](const Game& g) { return optional_move_obj(g.state().last); }, "The move to beat, or None.")
      .def_property_readonly("last_by", [](const Game& g) { return optional_seat(g.state().last_by); })
      .def_property_readonly("winner", [](const Game& g) { return optional_seat(g.state().winner); })
      .def_property_readonly("redeals", [](const Game& g) { return g.state().redeals; })
      .def_property_readonly("rules", &Game::rules)
      .def_property_readonly("seed", &Game::seed)
      .def_property_readonly("history", [](const Game& g) { return history_list(g, false); },
                             "Every action as (seat, Action), redeals included.")
      .def_property_readonly("hash", [](const Game& g) { return hash(g.state()); }, "A 64-bit hash of the position.")
      .def_property_readonly("result", [](const Game& g) {
            return g.state().phase == Phase::Over ? py::cast(g.result()) : py::object(py::none());
          }, "The Settlement once the hand is over, else None.")

      .def("bid", [](Game& g, int value) {
            if (value < 0 || value > 9) throw IllegalAction("bids are 1, 2 or 3 (0 passes)");
            act(g, Action::bid(value));
          }, py::arg("value"))
      .def("call", [](Game& g, bool yes) { act(g, Action::call(yes)); }, py::arg("yes") = true)
      .def("rob", [](Game& g, bool yes) { act(g, Action::rob(yes)); }, py::arg("yes") = true)
      .def("play", [](Game& g, py::handle move) {
            const Action a = to_action(move, g);
            if (a.type != ActionType::Play) throw IllegalAction("play takes a move; use pass_() to pass");
            act(g, a);
          }, py::arg("move"))
      .def("pass_", [](Game& g) { act(g, Action::pass()); })
      .def("undo", [](Game& g) {
            if (!g.undo()) throw IllegalAction("nothing to undo");
          })
      .def("copy", [](const Game& g) { return Game(g); })
      .def("__copy__", [](const Game& g) { return Game(g); })
      .def("__deepcopy__", [](const Game& g, py::handle) { return Game(g); }, py::arg("memo"))
      .def("observation", &observation, py::arg("seat"), "What `seat` knows, as a dict.")
      .def("to_record", &to_record, "A JSON-serialisable record: rules, seed, deals and every action.")
      .def("__repr__", [](const Game& g) {
            const State& s = g.state();
            std::string hands;
            for (int i = 0; i < s.seats; ++i) hands += (i ? " / " : "") + to_text(s.hands[static_cast<std::size_t>(i)]);
            return "<Game " + std::string(kPhaseNames[static_cast<int>(s.phase)]) + ", to move " + std::to_string(s.to_move) +
                   ", hands " + hands + ">";
          });
  auto game_class = m.attr("Game").cast<py::class_<Game>>();
  add_fast_members(game_class);
}

}  // namespace ddz::py_bind
