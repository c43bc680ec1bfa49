// `Game`, `Action`, `Settlement`, `Infoset` and `score`: a hand of play for Python. The
// rules of play live in game.cpp and the text forms in notation.cpp; this file converts
// and reports.
// Records are Python's (record.py), built on `Game.deals` and `Game.origin`.
#include <pybind11/native_enum.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <iterator>
#include <limits>

#include "bindings/convert.hpp"
#include "game/game.hpp"
#include "game/infoset.hpp"
#include "game/record.hpp"
#include "game/seat_view.hpp"
#include "rules/move_checks.hpp"
#include "rules/notation.hpp"

namespace ddz::py_bind {

namespace {

[[noreturn]] void illegal(const std::string& why) { raise(ErrorKind::IllegalAction, why); }

constexpr const char* kPhaseNames[] = {"bidding", "playing", "over", "partner"};  // by Phase's values

// The phase as one shared str per phase (it is read on every turn of a game loop).
py::object phase_name(Phase phase) {
  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<std::array<py::object, 4>> storage;
  const auto& names = storage.call_once_and_store_result([] {
    return std::array<py::object, 4>{py::str(kPhaseNames[0]), py::str(kPhaseNames[1]), py::str(kPhaseNames[2]),
                                     py::str(kPhaseNames[3])};
  }).get_stored();
  return names[static_cast<std::size_t>(phase)];
}

// The action that `obj` names in `game`: an Action, a Move, Cards (read as their text is),
// or action text (reading.hpp).
Action to_action(py::handle obj, const Game& game) {
  if (is_exactly<Action>(obj) || py::isinstance<Action>(obj)) return value_of<Action>(obj);
  if (is_exactly<Move>(obj) || py::isinstance<Move>(obj)) return Action::play(value_of<Move>(obj));
  const bool cards = is_exactly<Cards>(obj) || py::isinstance<Cards>(obj);
  if (!cards && !py::isinstance<py::str>(obj)) throw py::type_error("an action is an Action, a Move, Cards or text, not " + type_name(obj));
  const ActionReading r = read_action(cards ? to_text(value_of<Cards>(obj).mask) : text_arg(obj, "action", ErrorKind::Cards), game);
  if (r.fault == ReadingFault::Text) raise(ErrorKind::Cards, "action: " + r.error);
  if (r.fault != ReadingFault::None) illegal(r.error);
  return r.action;
}

void act(Game& game, const Action& a) {
  if (auto why = game.check(a); !why.empty()) illegal(why);
  game.apply(a);
}

// A list of hands: a sequence (not text), copied first, so that no user code runs while
// its items are read.
py::list hands_arg(py::handle hands) {
  if (!holds_items(hands)) {
    throw py::type_error("hands must be a list of hands, not " + type_name(hands));
  }
  PyObject* copy = PySequence_List(hands.ptr());
  if (!copy) {
    PyErr_Clear();
    throw py::type_error("hands must be a list of hands, not " + type_name(hands));
  }
  return py::reinterpret_steal<py::list>(copy);
}

// The deal's cards; the Game constructor checks that they are a deal of the deck.
Deal deal_arg(py::handle hands_obj, py::handle kitty, const Rules& rules, py::handle wild) {
  const py::list hands = hands_arg(hands_obj);
  const auto players = static_cast<std::size_t>(rules.players);
  if (hands.size() != players) throw py::value_error("hands: a deal has " + std::to_string(players) + " hands");
  Deal d;
  d.wild = wild_arg(wild, rules);  // none: with wild cards, the seed's draw
  if (d.wild.none() && !wild.is_none()) {  // [] names no rank: not the draw, which None asks for
    throw py::value_error("wild: an empty sequence names no rank, and a deal under these rules has " +
                          std::string(rules.wild == 1 ? "one wild rank" : "two") + " (None: the seed's draw)");
  }
  for (std::size_t seat = 0; seat < players; ++seat) d.hands[seat] = to_mask(hands[seat], "hands", rules);
  d.kitty = to_mask(kitty, "kitty", rules);
  // Each was checked as it was read; of the right sizes (the core names a wrong one), cards
  // of a rank past the deck's are a CardsError naming it, as from_position's hands (the
  // core's check of the whole deal says only that it is not the deck).
  std::vector<Mask> held(d.hands.begin(), d.hands.begin() + rules.players);
  const bool sized = total(d.kitty) == rules.kitty_size &&
                     std::all_of(held.begin(), held.end(), [&](Mask h) { return total(h) == rules.hand_size(); });
  held.push_back(d.kitty);
  if (std::string why = position_cards_error(held, Move{}, rules, "the hands and the kitty"); sized && !why.empty()) {
    raise(ErrorKind::Cards, "hands, kitty: " + why);
  }
  return d;
}

// A position's cards and seats; Game::from_position checks how they fit together.
Game position_game(py::handle hands_obj, py::handle landlord, py::handle to_move, py::handle last,
                   py::handle last_by, const Rules& rules, py::handle wild, py::handle partner) {
  const WildRanks w = wild_arg(wild, rules);
  const py::list hands = hands_arg(hands_obj);
  const std::size_t seats = hands.size();
  if (seats != 2 && seats != static_cast<std::size_t>(rules.players)) {
    throw py::value_error("hands: a position has 2 or " + std::to_string(rules.players) + " hands");
  }
  std::vector<Mask> masks;
  for (std::size_t i = 0; i < seats; ++i) masks.push_back(hand_arg(hands[i], "hands", rules));
  const Move l = to_last(last, rules, w).value_or(Move{});
  if (l.cards && last_by.is_none()) throw py::value_error("last_by is needed with last");
  // Each hand was checked as it was read; together, CardsError too.
  if (std::string why = position_cards_error(masks, l, rules); !why.empty()) raise(ErrorKind::Cards, "hands: " + why);
  const auto n = static_cast<int>(seats);
  const int by = last_by.is_none() ? -1 : seat_from(last_by, n, "last_by");  // the core refuses a last_by without last
  const int mate = partner.is_none() ? -1 : seat_from(partner, n, "partner");
  const int lord = landlord.is_none() ? -1 : seat_from(landlord, n, "landlord");
  if (lord < 0 && !rules.each_for_self) throw py::value_error("landlord is None only when each plays for itself (each_for_self)");
  return Game::from_position(masks, lord, seat_from(to_move, n, "to_move"), l, by, rules, w, mate);
}

// The first bidder: a seat, or None: the rules' opening, seat 0 bidding first, or where
// each plays for itself (no auction) the holder of the 3 of spades leading.
int first_bidder_from(py::handle obj, const Rules& rules) {
  if (!obj.is_none()) return seat_from(obj, rules.players, "first_bidder");
  return rules.each_for_self ? kThreeOfSpades : 0;
}

// The landlord's choice: a seat 0..3 as partner, or None: alone (the game checks the seat).
Action partner_action(py::handle seat) {
  return Action::partner(seat.is_none() ? -1 : static_cast<int>(int_arg(seat, "seat", 0, kMaxSeats - 1)));
}

py::tuple payouts_tuple(const Settlement& s) {
  py::tuple out(static_cast<std::size_t>(s.seats));
  for (int i = 0; i < s.seats; ++i) out[static_cast<std::size_t>(i)] = py::int_(s.payouts[static_cast<std::size_t>(i)]);
  return out;
}

// A pickled settlement's payouts, one a seat (restore_settlement checks them).
// A pickled field's int: TypeError for another type, RecordError outside lo..hi (a value
// no settlement holds, where a call's argument would be a plain ValueError).
long long pickled_int(py::handle obj, const char* what, long long lo, long long hi) {
  const long long value = clamped_int_arg(obj, what, lo - 1, hi + 1);
  if (value < lo || value > hi) raise(ErrorKind::Record, std::string(what) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi));
  return value;
}

void payouts_from(py::handle obj, Settlement& s) {
  if (!py::isinstance<py::tuple>(obj) || py::len(obj) != static_cast<std::size_t>(s.seats)) {
    raise(ErrorKind::Record, "pickled Settlement payouts: a tuple of one payout a seat");
  }
  const auto t = py::reinterpret_borrow<py::tuple>(obj);
  constexpr long long kMost = 1LL << 62;  // three stakes of 2^30 x 2^30 at most
  for (int i = 0; i < s.seats; ++i) {
    s.payouts[static_cast<std::size_t>(i)] = pickled_int(t[static_cast<std::size_t>(i)], "pickled Settlement payout", -kMost, kMost);
  }
}

// Every field of a settlement (its pickle, and what its hash is of: equal ones hash alike).
py::tuple settlement_state(const Settlement& s) {
  return py::make_tuple(s.base, s.bombs, s.rockets, s.spring, s.anti_spring, s.landlord_won, s.landlord, s.seats,
                        s.multiplier, s.start_bonus.jokers, s.start_bonus.straight, s.partner, s.winner,
                        payouts_tuple(s));
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

Stake stake_of(const Game& g) { return stake_so_far(g.state(), g.rules()); }

// history[from..] as (seat, Action) pairs, the Actions shared (a history is read often).
py::list seat_actions(const std::vector<SeatAction>& history, std::size_t from = 0) {
  py::list out;
  for (std::size_t i = from; i < history.size(); ++i) out.append(py::make_tuple(history[i].seat, interned(history[i].action)));
  return out;
}

py::tuple hands_tuple(const std::array<Mask, kMaxSeats>& hands, int seats) {
  py::tuple out(static_cast<std::size_t>(seats));
  for (int i = 0; i < seats; ++i) out[static_cast<std::size_t>(i)] = Cards{hands[static_cast<std::size_t>(i)]};
  return out;
}

// The hand size of seat `i` as the information set knows it: its known cards and its
// unknown ones.
int hand_size(const Infoset& v, int i) {
  const auto k = static_cast<std::size_t>(i);
  return total(v.known.hands[k]) + v.cards.unknown_slots[k];
}

py::dict bidding_dict(const Infoset& v) {
  const State& s = v.known;
  py::dict bidding;
  bidding["first_bidder"] = optional_seat(s.first_bidder);
  bidding["high_bid"] = int{s.high_bid};
  bidding["high_bidder"] = optional_seat(s.high_bidder);
  bidding["robs"] = int{s.robs};
  bidding["redeals"] = s.redeals;
  return bidding;
}

// The attributes of an Infoset, and the keys of its dict (Game.seat_view): one table.
struct InfosetField {
  const char* name;
  py::object (*get)(const Infoset&);
  const char* doc;
};

const InfosetField kInfosetFields[] = {
    {"seat", [](const Infoset& v) -> py::object { return py::int_(v.seat); }, "The seat whose knowledge this is."},
    {"phase", [](const Infoset& v) { return phase_name(v.known.phase); }, "'bidding', 'partner', 'playing' or 'over'."},
    {"to_move", [](const Infoset& v) { return v.known.phase == Phase::Over ? py::object(py::none()) : py::object(py::int_(v.known.to_move)); },
     "The seat to move, None once the hand is over."},
    {"landlord", [](const Infoset& v) { return optional_seat(v.known.landlord); }, "The landlord's seat, or None."},
    {"partner", [](const Infoset& v) { return optional_seat(v.known.partner); },
     "The landlord's partner (four_partner), or None: alone, or not chosen yet."},
    {"wild_rank", [](const Infoset& v) { return wild_obj(v.known.wild); }, "The wild rank, None, or the pair of them (laizi2)."},
    {"wild_ranks", [](const Infoset& v) -> py::object { return wild_tuple(v.known.wild); }, "The wild ranks, lowest first."},
    {"hand", [](const Infoset& v) { return py::cast(Cards{v.cards.hand}); }, "The seat's own cards."},
    {"hand_sizes", [](const Infoset& v) -> py::object {
       py::tuple out(static_cast<std::size_t>(v.known.seats));
       for (int i = 0; i < v.known.seats; ++i) out[static_cast<std::size_t>(i)] = py::int_(hand_size(v, i));
       return out;
     }, "How many cards each seat holds."},
    {"played", [](const Infoset& v) -> py::object { return hands_tuple(v.known.played, v.known.seats); }, "The cards each seat has played."},
    {"last", [](const Infoset& v) { return optional_move_obj(v.known.last); }, "The move to beat, or None."},
    {"last_by", [](const Infoset& v) { return optional_seat(v.known.last_by); }, "Who played it, or None."},
    {"kitty", [](const Infoset& v) { return v.cards.kitty_shown ? py::cast(Cards{v.known.kitty}) : py::object(py::none()); },
     "The kitty once the landlord has taken it, else None."},
    {"bidding", [](const Infoset& v) -> py::object { return bidding_dict(v); },
     "The auction: a dict of first_bidder, high_bid, high_bidder, robs and redeals."},
    {"base", [](const Infoset& v) -> py::object { return py::int_(stake_so_far(v.known, v.rules).base); }, "The base stake so far."},
    {"bombs", [](const Infoset& v) -> py::object { return py::int_(v.known.bombs); }, "Bombs played."},
    {"rockets", [](const Infoset& v) -> py::object { return py::int_(v.known.rockets); }, "Rockets played."},
    {"multiplier", [](const Infoset& v) -> py::object { return py::int_(stake_so_far(v.known, v.rules).multiplier); },
     "2 to the bombs and rockets played (capped by max_multiplier); 1 when each seat plays for itself."},
    {"history", [](const Infoset& v) -> py::object { return seat_actions(v.history, v.deal_start); }, "This deal's actions as (seat, Action) pairs."},
    {"unseen", [](const Infoset& v) { return py::cast(Cards{v.cards.unknown}); },
     "The cards the seat cannot place: in the other hands (less the kitty cards the landlord still holds) or face down."},
    {"thrown_in", [](const Infoset& v) -> py::object {
       py::tuple out(v.thrown_in.size());
       for (std::size_t i = 0; i < v.thrown_in.size(); ++i) {
         out[i] = py::make_tuple(Cards{v.thrown_in[i].hands[static_cast<std::size_t>(v.seat)]}, wild_tuple(v.thrown_in[i].wild));
       }
       return out;
     }, "Each deal thrown in before this one (nobody bid), as the seat saw it: (its hand, the wild ranks)."},
    {"start", [](const Infoset& v) -> py::object {
       if (!v.from_position) return py::none();
       py::dict start;
       start["last"] = optional_move_obj(v.start_last);
       start["last_by"] = optional_seat(v.start_last_by);
       start["to_move"] = py::int_(v.start_to_move);
       return start;
     }, "How a game from a position began (a dict of last, last_by and to_move); None for a dealt hand."},
    {"rules", [](const Infoset& v) { return py::cast(v.rules); }, "The rules of the game."},
};

constexpr std::size_t kNumInfosetFields = std::size(kInfosetFields);

// The dict's keys, made once: a dict built at every node of a search should not build
// its keys' strings again.
const std::array<py::object, kNumInfosetFields>& infoset_field_names() {
  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<std::array<py::object, kNumInfosetFields>> storage;
  return storage.call_once_and_store_result([] {
    std::array<py::object, kNumInfosetFields> names;
    for (std::size_t i = 0; i < kNumInfosetFields; ++i) names[i] = py::reinterpret_steal<py::object>(PyUnicode_InternFromString(kInfosetFields[i].name));
    return names;
  }).get_stored();
}

py::dict infoset_dict(const Infoset& v) {
  const auto& names = infoset_field_names();
  py::dict out;
  for (std::size_t i = 0; i < kNumInfosetFields; ++i) out[names[i]] = kInfosetFields[i].get(v);
  return out;
}

std::string infoset_repr(const Infoset& v) {
  char key[19];
  std::snprintf(key, sizeof key, "0x%016llx", static_cast<unsigned long long>(v.key));
  return "<Infoset of seat " + std::to_string(v.seat) + ", " + kPhaseNames[static_cast<int>(v.known.phase)] + ", hand " +
         to_text(v.cards.hand) + ", key " + key + ">";
}

// (hands, kitty, wild rank or None, or the pair of wild ranks) of each deal.
py::list deals_list(const Game& g) {
  py::list out;
  for (const Deal& d : g.deals()) out.append(py::make_tuple(hands_tuple(d.hands, g.initial().seats), Cards{d.kitty}, wild_obj(d.wild)));
  return out;
}

// How the hand began: from the seed's deal, a given deal, or a position.
py::dict origin(const Game& g) {
  const State& initial = g.initial();
  py::dict o;
  if (g.started_from_position()) {
    o["start"] = "position";
    o["hands"] = hands_tuple(initial.hands, initial.seats);
    o["landlord"] = optional_seat(initial.landlord);
    o["to_move"] = int{initial.to_move};
    o["last"] = optional_move_obj(initial.last);
    o["last_by"] = optional_seat(initial.last_by);
    o["wild"] = wild_obj(initial.wild);
    o["partner"] = optional_seat(initial.partner);
    return o;
  }
  o["start"] = g.deal_given() ? "deal" : "seed";
  o["first_bidder"] = optional_seat(initial.first_bidder);
  o["landlord"] = g.deal_given() && initial.landlord >= 0 ? py::object(py::int_(initial.landlord)) : py::object(py::none());
  return o;
}

// A game loop calls legal_actions, step and phase on every turn, and a search calls
// infoset_key or infoset at every node: those use CPython's fast calling conventions
// directly, since pybind11's general dispatcher costs more than the work. Errors leave
// as the same typed exceptions.
Game& game_of(PyObject* self) { return game_arg(self, "self"); }

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

// A search asks for a key or an information set at every node.
PyObject* fast_infoset_key(PyObject* self, PyObject* seat) {
  return guarded([&] {
    const Game& game = game_of(self);
    return py::object(py::int_(infoset_key(game, seat_from(seat, game.state().seats, "seat"))));
  });
}

PyObject* fast_infoset(PyObject* self, PyObject* seat) {
  return guarded([&] {
    const Game& game = game_of(self);
    return py::cast(infoset(game, seat_from(seat, game.state().seats, "seat")));
  });
}

void add_fast_members(py::class_<Game>& cls) {
  auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
  static PyMethodDef legal{"legal_actions", &fast_legal_actions, METH_NOARGS,
                           "legal_actions($self, /)\n--\n\nThe legal actions of the phase: bids, calls or robs in the auction, the "
                            "partner choice, or plays (plus pass when following)."};
  static PyMethodDef step{"step", &fast_step, METH_O,
                          "step($self, action, /)\n--\n\nTakes an Action, a Move, Cards or action text (\"pass\", \"bid 2\", cards)."};
  static PyGetSetDef phase{"phase", &fast_phase, nullptr, "'bidding', 'partner' (four_partner's landlord choosing), 'playing' or 'over'.", nullptr};
  static PyMethodDef key{"infoset_key", &fast_infoset_key, METH_O,
                         "infoset_key($self, seat, /)\n--\n\nA 64-bit key of what `seat` knows: the same for every world "
                         "sample_worlds draws for the seat, different (but for a 64-bit collision) when anything the seat "
                         "knows differs. Game.infoset(seat).key, without the object."};
  static PyMethodDef view{"infoset", &fast_infoset, METH_O,
                          "infoset($self, seat, /)\n--\n\nWhat `seat` knows, as an immutable, hashable Infoset; equal in "
                          "every world of the seat."};
  for (PyMethodDef* def : {&legal, &step, &key, &view}) {
    cls.attr(def->ml_name) = py::reinterpret_steal<py::object>(PyDescr_NewMethod(type, def));
  }
  cls.attr("phase") = py::reinterpret_steal<py::object>(PyDescr_NewGetSet(type, &phase));
}

}  // namespace

void register_game(py::module_& m) {
  py::native_enum<ActionType>(m, "ActionType", "enum.IntEnum", "What an Action does.")
      .value("PLAY", ActionType::Play)
      .value("PASS", ActionType::Pass)
      .value("BID", ActionType::Bid)
      .value("CALL", ActionType::Call)
      .value("ROB", ActionType::Rob)
      .value("PARTNER", ActionType::Partner)
      .finalize();
  m.attr("ActionType").attr("__module__") = kPackage;
  py::tuple words(kActionWords.size());
  for (std::size_t i = 0; i < kActionWords.size(); ++i) words[i] = py::str(kActionWords[i].data(), kActionWords[i].size());
  m.attr("ACTION_WORDS") = words;  // what an action that is no play begins with

  public_class<Action>(m, "Action", R"doc(One action of a hand: a play, a pass, a bid, a call, a rob or the landlord's partner (immutable).

str(action) is its text: "pass", "bid 2" ("bid 0" passes in the auction), "call",
"decline", "rob", "no rob", "alone", "partner 2", or the move text of a play
("spent=cards" with wild cards), as str(move) writes it.)doc")
      // Its repr reads as a call: that call says how actions are made (pybind's own words
      // were "No constructor defined!").
      .def(py::init([](const py::args&, const py::kwargs&) -> Action {
             throw py::type_error("Action takes no arguments to make one: Action.play(move), Action.pass_(), "
                                  "Action.bid(n), Action.call(), Action.rob(), Action.partner(seat), or game.step(text) "
                                  "with the action's text ('bid 2')");
           }))
      .def_static("play", [](Hinted<"Move"> move) {
            if (!is_exactly<Move>(move) && !py::isinstance<Move>(move)) throw py::type_error("move must be a Move, not " + type_name(move));
            return Action::play(value_of<Move>(move));
          }, py::arg("move"))
      .def_static("pass_", &Action::pass)
      .def_static("bid", [](IntArg v) { return Action::bid(static_cast<int>(int_arg(v, "bid", 0, 3))); }, py::arg("value"),
                  "A bid of 1, 2 or 3, or 0: a pass in the auction.")
      .def_static("call", [](BoolArg yes) { return Action::call(bool_arg(yes, "yes")); }, py::arg("yes") = true)
      .def_static("rob", [](BoolArg yes) { return Action::rob(bool_arg(yes, "yes")); }, py::arg("yes") = true)
      .def_static("partner", [](OptionalIntArg seat) { return partner_action(seat); }, py::arg("seat"),
                  "The landlord's choice (four_partner): the seat (0..3) it names as partner, or None to play alone.")
      .def_property_readonly("type", [](const Action& a) { return a.type; })
      .def_property_readonly("value", [](const Action& a) { return a.value; },
                             "The bid, 1/0 for call and rob, the partner's seat + 1 (0: alone).")
      .def_property_readonly("move", [](const Action& a) { return a.type == ActionType::Play ? interned(a.move) : py::object(py::none()); })
      .def("__str__", [](const Action& a) { return action_text(a); })
      .def("text", [](const Action& a, RulesArg rules) { return action_text(a, rules.is_none() ? nullptr : &to_rules(rules)); },
           py::arg("rules") = py::none(),
           "The action's text; with rules, a play whose cards read several ways under them adds /KIND/rank to name its reading (the rank "
           "its body starts from), and /length where that is not yet one reading; without, str(action).")
      .def("__repr__", [](const Action& a) { return "Action('" + action_text(a) + "')"; })
      .def("__eq__", [](const Action& a, py::handle b) -> py::object {
            if (!py::isinstance<Action>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(a == value_of<Action>(b));
          })
      .def("__hash__", [](const Action& a) { return static_cast<py::ssize_t>(action_hash(a) >> 1); })
      .def("__copy__", [](const Action& a) { return a; })
      .def("__deepcopy__", [](const Action& a, py::handle) { return a; }, py::arg("memo"))
      .def(py::pickle([](const Action& a) {
                        return py::make_tuple(static_cast<int>(a.type), a.value, a.type == ActionType::Play ? py::cast(a.move) : py::none());
                      },
                      [](py::handle state) {
                        const py::tuple t = pickled_fields(state, "Action", 3, ErrorKind::Move);
                        const py::object move = t[2];
                        if (!move.is_none() && !py::isinstance<Move>(move)) raise(ErrorKind::Move, "a pickled Action's move is a Move or None");
                        const Action a{static_cast<ActionType>(int_arg(t[0], "pickled Action type", 0, kNumActionTypes - 1)),
                                       static_cast<std::uint8_t>(int_arg(t[1], "pickled Action value", 0, kMostPartnerValue)),
                                       move.is_none() ? Move{} : value_of<Move>(move)};
                        if (auto why = action_error(a); !why.empty()) raise(ErrorKind::Move, "pickled Action: " + why);
                        return a;
                      }));

  public_class<Settlement>(m, "Settlement", "The stakes of a finished hand; payouts by seat sum to zero.")
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
      .def_readonly("landlord", &Settlement::landlord, "The landlord's seat, or -1: a void hand, or a hand without a landlord.")
      .def_property_readonly("winner", [](const Settlement& s) { return optional_seat(s.winner); },
                             "Without a landlord (each_for_self): the first out; else None.")
      .def_property_readonly("partner", [](const Settlement& s) { return optional_seat(s.partner); },
                             "The landlord's partner (four_partner), or None: the landlord played alone.")
      .def("__repr__", [](const Settlement& s) {
            const std::string payouts = ", payouts=" + py::str(payouts_tuple(s)).cast<std::string>() + ")";
            // What doubled the stake, where anything did: two settlements that differ there print apart.
            std::string why;
            if (s.bombs) why += ", bombs=" + std::to_string(s.bombs);
            if (s.rockets) why += ", rockets=" + std::to_string(s.rockets);
            if (s.spring) why += ", spring=True";
            if (s.anti_spring) why += ", anti_spring=True";
            if (const py::tuple bonuses = start_bonuses(s); !bonuses.empty()) why += ", start_bonuses=" + py::repr(bonuses).cast<std::string>();
            // Without a landlord the first out is the result; stake and multiplier stay 1.
            if (s.winner >= 0) return "Settlement(winner=" + std::to_string(s.winner) + why + payouts;
            const std::string partner = s.partner >= 0 ? ", partner=" + std::to_string(s.partner) : std::string();
            return "Settlement(landlord_won=" + std::string(s.landlord_won ? "True" : "False") + ", base=" + std::to_string(s.base) +
                   ", multiplier=" + std::to_string(s.multiplier) + partner + why + payouts;
          })
      .def("__eq__", [](const Settlement& a, py::handle b) -> py::object {
            if (!py::isinstance<Settlement>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(a == value_of<Settlement>(b));
          })
      .def("__hash__", [](const Settlement& s) { return py::hash(settlement_state(s)); })
      .def("__copy__", [](const Settlement& s) { return s; })
      .def("__deepcopy__", [](const Settlement& s, py::handle) { return s; }, py::arg("memo"))
      .def(py::pickle(&settlement_state,
                      [](py::handle state) {
                        // 12 fields before Run Fast (which adds the winner and the payouts, which
                        // without a landlord do not follow from the other fields).
                        const bool older = py::isinstance<py::tuple>(state) && py::len(state) == 12;
                        const py::tuple t = pickled_fields(state, "Settlement", older ? 12 : 14, ErrorKind::Record);
                        const auto number = [&](int i, const char* what, int lo, int hi) {
                          return static_cast<int>(pickled_int(t[static_cast<std::size_t>(i)], what, lo, hi));
                        };
                        const auto flag = [&](int i, const char* what) { return bool_arg(t[static_cast<std::size_t>(i)], what); };
                        Settlement s;
                        s.base = number(0, "pickled Settlement base", 0, 1 << 30);  // score()'s own bound
                        s.bombs = number(1, "pickled Settlement bombs", 0, 26);
                        s.rockets = number(2, "pickled Settlement rockets", 0, 1);
                        s.spring = flag(3, "pickled Settlement spring");
                        s.anti_spring = flag(4, "pickled Settlement anti_spring");
                        s.landlord_won = flag(5, "pickled Settlement landlord_won");
                        s.seats = number(7, "pickled Settlement seats", 2, kMaxSeats);
                        s.landlord = number(6, "pickled Settlement landlord", -1, s.seats - 1);
                        s.multiplier = number(8, "pickled Settlement multiplier", 1, 1 << 30);
                        s.start_bonus = {static_cast<std::uint8_t>(number(9, "pickled Settlement jokers", 0, 15)),
                                         static_cast<std::uint8_t>(number(10, "pickled Settlement straight", 0, 15))};
                        s.partner = number(11, "pickled Settlement partner", -1, s.seats - 1);
                        if (!older) {
                          s.winner = number(12, "pickled Settlement winner", -1, s.seats - 1);
                          payouts_from(t[13], s);
                        }
                        const auto pickled = s.payouts;
                        if (auto why = restore_settlement(s); !why.empty()) raise(ErrorKind::Record, "pickled Settlement: " + why);
                        // With a landlord the payouts follow from the other fields: they must agree.
                        if (!older && s.payouts != pickled) {
                          raise(ErrorKind::Record, "pickled Settlement payouts: not what its other fields settle to");
                        }
                        return s;
                      }));

  m.def("score", [](IntArg base, IntArg bombs, IntArg rockets, BoolArg spring, BoolArg anti_spring, BoolArg landlord_won,
                    IntArg landlord, IntArg max_multiplier, IntArg players, OptionalIntArg partner) {
          const int p = static_cast<int>(int_arg(players, "players", 3, kMaxSeats));
          const auto number = [](py::handle v, const char* what, int lo = 0) { return static_cast<int>(int_arg(v, what, lo, 1 << 30)); };
          // Counts and the cap only as ints here, clamped: score_error says the range each has
          // (a bomb count's the decks' 13 a deck, the cap's Rules' own), not an int's width.
          const auto count = [](py::handle v, const char* what) {
            return static_cast<int>(clamped_int_arg(v, what, -(1LL << 30), 1LL << 30));
          };
          const int b = number(base, "base", 1), n = count(bombs, "bombs"), r = count(rockets, "rockets");
          const int cap = count(max_multiplier, "max_multiplier"), lord = seat_from(landlord, p, "landlord");
          const bool sp = bool_arg(spring, "spring"), anti = bool_arg(anti_spring, "anti_spring"), won = bool_arg(landlord_won, "landlord_won");
          const int mate = partner.is_none() ? -1 : seat_from(partner, p, "partner");
          if (auto why = score_error(b, n, r, sp, anti, won, lord, p, cap, mate); !why.empty()) throw py::value_error(why);
          return settle(b, n, r, sp, anti, won, lord, p, cap, {}, mate);
        }, py::arg("base"), py::kw_only(), py::arg("bombs") = 0, py::arg("rockets") = 0, py::arg("spring") = false,
        py::arg("anti_spring") = false, py::arg("landlord_won") = true, py::arg("landlord") = 0,
        py::arg("max_multiplier") = 0, py::arg("players") = 3, py::arg("partner") = py::none(),
        "The settlement arithmetic alone (docs/rules.md \"Scoring\"), for tables run elsewhere. Exact: counts the decks\n"
        "cannot hold (more than 13 bombs a deck, more than one rocket) are refused. partner: the landlord's partner\n"
        "with players=4 (two against two), None when it plays alone.");

  auto infoset_class = public_class<Infoset>(m, "Infoset", R"doc(What one seat knows of a hand (immutable, hashable): Game.infoset(seat).

Its hand, what it knows of the other hands (their sizes, the cards played, the kitty once
shown), the public state, every action of the hand and the rules; nothing it cannot see.
Every world sample_worlds draws for the seat has an equal Infoset, with the same `key`
(Game.infoset_key); infosets that differ in anything the seat knows are unequal. The
attributes are those of the dict Game.seat_view gives (to_dict()), read when asked.)doc");
  for (const InfosetField& f : kInfosetFields) infoset_class.def_property_readonly(f.name, f.get, f.doc);
  infoset_class
      .def_property_readonly("key", [](const Infoset& v) { return v.key; }, "The 64-bit key: Game.infoset_key(seat).")
      .def("to_dict", &infoset_dict, "The attributes as a dict: what Game.seat_view(seat) gives.")
      .def("__eq__", [](const Infoset& a, py::handle b) -> py::object {
            if (!py::isinstance<Infoset>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(a == value_of<Infoset>(b));
          })
      .def("__hash__", [](const Infoset& v) { return static_cast<py::ssize_t>(v.key >> 1); })
      .def("__copy__", [](const Infoset& v) { return v; })
      .def("__deepcopy__", [](const Infoset& v, py::handle) { return v; }, py::arg("memo"))
      .def("__repr__", &infoset_repr);

  public_class<Game>(m, "Game", R"doc(A hand of Dou Dizhu: deal, bidding, play and scoring.

Game(seed=None, rules=None, first_bidder=None) shuffles and deals from the seed (the same
seed gives the same deal everywhere). first_bidder None opens as the rules do: seat 0
bids first, or where each plays for itself (run_fast) the holder of the 3 of spades
leads; a seat bids first, or leads freely. Game.from_deal and Game.from_position start from
given cards. Illegal actions raise IllegalActionError and change nothing.)doc")
      .def(py::init([](OptionalIntArg seed, RulesArg rules, OptionalIntArg first_bidder) {
             const Rules& r = to_rules(rules);
             return Game(seed_arg(seed), r, first_bidder_from(first_bidder, r));
           }),
           py::arg("seed") = py::none(), py::arg("rules") = py::none(), py::arg("first_bidder") = py::none())
      .def_static("from_deal", [](HandsArg hands, CardsArg kitty, OptionalIntArg first_bidder, OptionalIntArg landlord,
                                  RulesArg rules, OptionalIntArg seed, WildArg wild) {
            const Rules& r = to_rules(rules);
            if (!landlord.is_none() && !first_bidder.is_none()) {
              throw py::value_error("first_bidder: landlord=seat skips the bidding, so no seat bids first (give one of them)");
            }
            return Game(deal_arg(hands, kitty, r, wild), r, first_bidder_from(first_bidder, r),
                        landlord.is_none() ? -1 : seat_from(landlord, r.players, "landlord"), seed_arg(seed));
          }, py::arg("hands"), py::arg("kitty"), py::arg("first_bidder") = py::none(), py::arg("landlord") = py::none(),
          py::arg("rules") = py::none(), py::arg("seed") = py::none(), py::arg("wild") = py::none(),
          "A hand from one hand per player (17 cards each in the standard rules) and the kitty; landlord=seat skips\n"
          "the bidding (base 1; no first_bidder then). With wild cards, wild is the wild rank, or the pair of them under laizi2 (None: what the\n"
          "seed draws).")
      .def_static("from_position", [](HandsArg hands, OptionalIntArg landlord, IntArg to_move, LastArg last,
                                      OptionalIntArg last_by, RulesArg rules, WildArg wild, OptionalIntArg partner) {
            return position_game(hands, landlord, to_move, last, last_by, to_rules(rules), wild, partner);
          }, py::arg("hands"), py::arg("landlord"), py::arg("to_move"), py::arg("last") = py::none(),
          py::arg("last_by") = py::none(), py::arg("rules") = py::none(), py::arg("wild") = py::none(),
          py::arg("partner") = py::none(),
          "A position in play: 2 hands (landlord against one opponent) or one per player, who moves, the move to\n"
          "beat; with wild cards, the wild rank (a pair of ranks under laizi2); with four_partner and four hands, the\n"
          "landlord's partner (None: alone).")
      .def_property_readonly("to_move", [](const Game& g) {
            return g.state().phase == Phase::Over ? py::object(py::none()) : py::object(py::int_(g.state().to_move));
          })
      .def_property_readonly("seats", [](const Game& g) { return g.state().seats; })
      .def_property_readonly("wild_rank", [](const Game& g) {
            const WildRanks w = g.state().wild;
            if (w.high != kNoWild) raise(ErrorKind::General, "two ranks are wild in this hand: read Game.wild_ranks");
            return wild_obj(w);
          }, "The rank index (0..12) of this deal's wild cards (laizi), or None; DoudizhuError when two ranks are wild (laizi2: read wild_ranks).")
      .def_property_readonly("wild_ranks", [](const Game& g) { return wild_tuple(g.state().wild); },
                             "The rank indexes of this deal's wild cards, lowest first: () without wild cards, one under laizi, two under laizi2.")
      .def("hand", [](const Game& g, IntArg seat) {
            return Cards{g.state().hands[static_cast<std::size_t>(seat_from(seat, g.state().seats, "seat"))]};
          }, py::arg("seat"))
      .def_property_readonly("kitty", [](const Game& g) { return Cards{g.state().kitty}; })
      .def_property_readonly("landlord", [](const Game& g) { return optional_seat(g.state().landlord); })
      .def_property_readonly("partner", [](const Game& g) { return optional_seat(g.state().partner); },
                             "The landlord's partner (four_partner), or None: alone, or not chosen yet.")
      .def_property_readonly("bid_value", [](const Game& g) { return stake_of(g).base; },
                             "The base stake so far: the highest bid or the call doubled by each rob (0 before any),\n"
                             "and in play the base the hand is played for.")
      .def_property_readonly("multiplier", [](const Game& g) { return stake_of(g).multiplier; },
                             "2 to the bombs and rockets played so far (capped by max_multiplier); 1 when each seat\n"
                             "plays for itself (Run Fast scores by cards).")
      .def_property_readonly("deals", &deals_list, "Each deal of the hand (redeals included) as (hands, kitty, wild): the wild rank, the pair under laizi2, or None.")
      .def_property_readonly("origin", &origin,
                             "How the hand began: {'start': 'seed' | 'deal' | 'position', ...} with what it began from.")
      .def_property_readonly("last", [](const Game& g) { return optional_move_obj(g.state().last); }, "The move to beat, or None.")
      .def_property_readonly("last_by", [](const Game& g) { return optional_seat(g.state().last_by); })
      .def_property_readonly("winner", [](const Game& g) { return optional_seat(g.state().winner); })
      .def_property_readonly("lead_rank", [](const Game& g) { return optional_seat(g.state().lead_rank); },
                             "Run Fast: the rank index the first lead must contain (a 3, or the lowest card dealt), else None.")
      .def_property_readonly("redeals", [](const Game& g) { return g.state().redeals; })
      .def_property_readonly("deal_start", &Game::deal_start,
                             "Where the deal in play starts in history: after the auction that threw in the last\n"
                             "deal (nobody bid), 0 without a redeal among the actions.")
      .def_property_readonly("rules", &Game::rules)
      .def_property_readonly("seed", &Game::seed)
      .def_property_readonly("history", [](const Game& g) { return seat_actions(g.history()); },
                             "Every action as (seat, Action), redeals included.")
      .def_property_readonly("hash", [](const Game& g) { return hash(g.state()); },
                             "A 64-bit hash of the position: hands, cards played, kitty, move to beat, auction. "
                             "Not the rules nor the seed (the deal a redeal draws next): key tables of one set of "
                             "rules by it.")
      .def_property_readonly("result", [](const Game& g) {
            return g.state().phase == Phase::Over ? py::cast(g.result()) : py::object(py::none());
          }, "The Settlement once the hand is over, else None.")

      .def("bid", [](Game& g, IntArg value) {
            if (!is_int_like(value)) throw py::type_error("bid must be an int, not " + type_name(value));
            int bid = 255;  // past what an Action holds: the game's verdict on the highest it does (no such bid)
            try {
              bid = static_cast<int>(int_arg(value, "bid", 0, 255));
            } catch (const py::value_error&) {
            }
            act(g, Action::bid(bid));
          }, py::arg("value"))
      .def("call", [](Game& g, BoolArg yes) { act(g, Action::call(bool_arg(yes, "yes"))); }, py::arg("yes") = true)
      .def("rob", [](Game& g, BoolArg yes) { act(g, Action::rob(bool_arg(yes, "yes"))); }, py::arg("yes") = true)
      .def("choose_partner", [](Game& g, OptionalIntArg seat) {
            if (!seat.is_none() && !is_int_like(seat)) throw py::type_error("seat must be an int or None, not " + type_name(seat));
            int chosen = 254;  // past every seat: the game's verdict on a seat it does not have, as bid's
            try {
              chosen = seat.is_none() ? -1 : static_cast<int>(int_arg(seat, "seat", 0, kMaxSeats - 1));
            } catch (const py::value_error&) {
            }
            act(g, Action::partner(chosen));
          }, py::arg("seat"),
           "The landlord's choice (four_partner): name `seat` as partner, or None to play alone.")
      .def("play", [](Game& g, PlayArg move) {
            const Action a = to_action(move, g);
            if (a.type != ActionType::Play) illegal("play takes a move; use pass_() to pass");
            act(g, a);
          }, py::arg("move"))
      .def("pass_", [](Game& g) { act(g, Action::pass()); })
      .def("undo", [](Game& g) {
            if (!g.undo()) illegal("nothing to undo");
          })
      .def("_give_next_redeal", [](Game& g, HandsArg hands, CardsArg kitty, WildArg wild) {
            g.give_next_redeal(deal_arg(hands, kitty, g.rules(), wild));
          }, py::arg("hands"), py::arg("kitty"), py::arg("wild"),
          "For records: the redeal that ends this deal, if one does, deals these cards (Game::give_next_redeal).")
      .def("copy", [](const Game& g) { return Game(g); })
      .def("__copy__", [](const Game& g) { return Game(g); })
      .def("__deepcopy__", [](const Game& g, py::handle) { return Game(g); }, py::arg("memo"))
      .def("seat_view", [](const Game& g, IntArg seat) { return infoset_dict(infoset(g, seat_from(seat, g.state().seats, "seat"))); },
           py::arg("seat"),
           "What `seat` knows (docs/rules.md, \"What a seat knows\") with the public state of the hand, as a dict:\n"
           "infoset(seat).to_dict().")
      .def("__repr__", [](const Game& g) {
            const State& s = g.state();
            std::string hands;
            for (int i = 0; i < s.seats; ++i) hands += (i ? " / " : "") + to_text(s.hands[static_cast<std::size_t>(i)]);
            const std::string mover = s.phase == Phase::Over ? "" : ", to move " + std::to_string(s.to_move);
            return "<Game " + std::string(kPhaseNames[static_cast<int>(s.phase)]) + mover + ", hands " + hands + ">";
          });
  auto game_class = m.attr("Game").cast<py::class_<Game>>();
  add_fast_members(game_class);
}

}  // namespace ddz::py_bind
