#include "bindings/convert.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <random>

#include <unistd.h>  // sysconf

#include "rules/move_checks.hpp"

namespace ddz::py_bind {

const Rules& widest_rules() {
  static const Rules rules = [] {
    Rules r;
    r.decks = 2;
    return r;
  }();
  return rules;
}

std::string type_name(py::handle obj) { return py::str(py::type::of(obj).attr("__name__")); }

std::size_t physical_memory_bytes() {
  // Read once: the calls that ask (a batch of moves) may be a microsecond each.
  static const std::size_t bytes = [] {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGE_SIZE)
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0) return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
#endif
    return std::size_t{0};
  }();
  return bytes;
}

void check_fits_memory(const char* what, std::size_t bytes, const std::string& amount) {
  if (const std::size_t memory = physical_memory_bytes(); memory != 0 && bytes > memory) {
    raise(ErrorKind::TooLarge, std::string(what) + ": " + amount + " is more than this machine's " + std::to_string(memory >> 20) +
                                   " MB of memory");
  }
}

bool holds_items(py::handle obj) {
  if (!py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj) || py::isinstance<py::bytes>(obj) ||
      PyByteArray_Check(obj.ptr())) {
    return false;
  }
  return !py::isinstance<py::array>(obj) || py::reinterpret_borrow<py::array>(obj).ndim() > 0;
}

std::string shown(py::handle obj) {
  // A str (a subclass's own repr never run) as an excerpt, a lone surrogate written \udcff.
  if (py::isinstance<py::str>(obj)) {
    const auto bytes = py::reinterpret_steal<py::object>(PyUnicode_AsEncodedString(obj.ptr(), "utf-8", "surrogatepass"));
    if (bytes) return quoted(py::bytes(bytes).cast<std::string>());
    PyErr_Clear();
  }
  const auto unwritten = [&] {
    if (PyLong_Check(obj.ptr())) return "an int of " + py::str(obj.attr("bit_length")()).cast<std::string>() + " bits";
    return "a " + type_name(obj) + " that cannot be written out";
  };
  std::string text;
  try {
    text = py::repr(obj).cast<std::string>();
  } catch (py::error_already_set& error) {  // a repr that raises (an int's past 4,300 digits)
    if (!error.matches(PyExc_Exception)) throw;  // Ctrl-C, SystemExit: not the value's fault
    return unwritten();
  } catch (const py::cast_error&) {  // a repr that writes no UTF-8
    PyErr_Clear();
    return unwritten();
  }
  // Past 80 bytes, its first 60 (not inside a character) and its length, as quoted() does.
  if (text.size() <= 80) return text;
  std::size_t cut = 60;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "... (" + std::to_string(char_index(text, text.size())) + " characters)";
}

void not_constructed(py::handle obj) {
  const std::string name = type_name(obj);
  throw py::type_error(name + " object is not initialised: it was made by " + name + ".__new__ and its __init__ never ran");
}

namespace {

// Python types looked up once: enum.Enum, collections.abc.Mapping, numpy.bool_,
// numpy.integer, numpy.timedelta64 (one of NumPy's integers, but a duration in some unit)
// and numpy.floating.
struct PythonTypes {
  py::object enum_type, mapping_type, numpy_bool, numpy_integer, numpy_timedelta, numpy_floating;
};
const PythonTypes& python_types() {
  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<PythonTypes> storage;
  return storage
      .call_once_and_store_result([] {
        const py::module_ numpy = py::module_::import("numpy");
        return PythonTypes{py::module_::import("enum").attr("Enum"), py::module_::import("collections.abc").attr("Mapping"),
                           numpy.attr("bool_"), numpy.attr("integer"), numpy.attr("timedelta64"), numpy.attr("floating")};
      })
      .get_stored();
}

bool is_instance(py::handle obj, const py::object& type) {
  const int is = PyObject_IsInstance(obj.ptr(), type.ptr());
  if (is < 0) throw py::error_already_set();  // a __class__ that raises: its error, not a pending one
  return is == 1;
}

[[noreturn]] void cards_error(const char* what, const std::string& why) { raise(ErrorKind::Cards, std::string(what) + ": " + why); }

Mask checked(Mask mask, const char* what, const Rules& rules) {
  if (!deck_holds(mask, rules)) cards_error(what, validate_cards(mask, rules));
  return mask;
}

[[noreturn]] void not_cards(py::handle obj, const char* what) {
  throw py::type_error(std::string(what) + " must be Cards, card text, an int mask, a mapping rank -> count or an iterable of "
                       "card tokens, not " + type_name(obj));
}

Mask parse(const std::string& text, const char* what, const Rules& rules, bool list_element = false) {
  const ParseResult parsed = parse_cards_for(text, rules, list_element);
  if (!parsed.ok()) cards_error(what, parsed.error);
  return parsed.cards;
}

// The value of an int-like object (is_int_like), as a signed 64-bit value with overflow
// reported: -1 or +1 in `overflow` when it lies outside.
long long index_value(py::handle obj, int& overflow) {
  const py::object index = PyLong_CheckExact(obj.ptr()) ? py::reinterpret_borrow<py::object>(obj)
                                                        : py::reinterpret_steal<py::object>(PyNumber_Index(obj.ptr()));
  if (!index) throw py::error_already_set();
  const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (value == -1 && PyErr_Occurred()) throw py::error_already_set();
  return value;
}

[[noreturn]] void not_an_int(py::handle obj, const char* what) {
  throw py::type_error(std::string(what) + " must be an int, not " + type_name(obj));
}

// An int-like object as a mask, or CardsError.
Mask int_mask(py::handle obj, const char* what) {
  // The signed conversion: masks fit in 60 bits, and CPython converts to a signed 64-bit
  // value digit by digit, where the unsigned one goes through a byte array.
  int overflow = 0;
  const long long value = index_value(obj, overflow);
  if (overflow || value < 0 || static_cast<unsigned long long>(value) > kRankBits) {
    cards_error(what, "an int mask must lie in 0..2**60-1");
  }
  return static_cast<Mask>(value);
}

// A mapping rank -> count (a Counter of card tokens): each key names one card's rank.
Mask mapping_mask(py::handle obj, const char* what) {
  Mask sum = 0;
  const py::dict items(py::reinterpret_borrow<py::object>(obj));  // a copy: no user code runs while reading it
  for (auto [key, value] : items) {
    if (!py::isinstance<py::str>(key)) throw py::type_error(std::string(what) + ": mapping keys must be card text, not " + type_name(key));
    const std::string name = text_arg(key, what, ErrorKind::Cards);
    const int rank = rank_named(name);
    if (rank < 0) cards_error(what, "mapping key " + quoted(name) + " is not one card such as '3', 'T' or 'BJ'");
    sum = add_checked(sum, cards_of(rank, count_arg(value, what, "the count of " + quoted(name))), what);
  }
  return sum;
}

Mask tokens_mask(py::handle obj, const char* what) {
  // Not every object with __iter__ iterates (a 0-d NumPy array): refused in our words.
  const auto tokens = py::reinterpret_steal<py::object>(PyObject_GetIter(obj.ptr()));
  if (!tokens) {
    PyErr_Clear();
    not_cards(obj, what);
  }
  Mask sum = 0;
  for (py::handle token : tokens) {
    Mask cards = 0;
    if (py::isinstance<py::str>(token)) {
      cards = parse(text_arg(token, what, ErrorKind::Cards), what, widest_rules(), true);
    } else if (py::isinstance<Cards>(token)) {
      cards = value_of<Cards>(token).mask;
    } else {
      throw py::type_error(std::string(what) + ": tokens must be str or Cards, not " + type_name(token));
    }
    sum = add_checked(sum, cards, what);
  }
  return sum;
}

}  // namespace

bool is_int_like(py::handle obj) {
  if (PyLong_CheckExact(obj.ptr())) return true;
  if (PyBool_Check(obj.ptr())) return false;
  // Only NumPy's integer scalars of what else has __index__: an array has it too, and
  // means no one int. Not a timedelta64: a count of some unit (seconds were it read as
  // time), and it has no __index__.
  const PythonTypes& types = python_types();
  if (PyLong_Check(obj.ptr())) return !is_instance(obj, types.enum_type);
  return is_instance(obj, types.numpy_integer) && !is_instance(obj, types.numpy_timedelta);
}

std::optional<std::string> utf8_of(py::handle str) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(str.ptr(), &size);
  if (!data) {
    PyErr_Clear();
    return std::nullopt;
  }
  return std::string(data, static_cast<std::size_t>(size));
}

std::string text_arg(py::handle obj, const char* what, std::optional<ErrorKind> fault) {
  if (!py::isinstance<py::str>(obj)) throw py::type_error(std::string(what) + " must be a str, not " + type_name(obj));
  std::optional<std::string> text = utf8_of(obj);
  if (!text) {
    const std::string why = std::string(what) + ": the text is not valid Unicode (a lone surrogate, as bytes that are no "
                                                "UTF-8 read with surrogateescape give)";
    if (!fault) throw py::value_error(why);
    raise(*fault, why);
  }
  return *std::move(text);
}

int count_arg(py::handle obj, const char* what, const std::string& which) {
  if (!is_int_like(obj)) not_an_int(obj, (std::string(what) + ": " + which).c_str());
  int overflow = 0;
  const long long n = index_value(obj, overflow);
  if (overflow < 0 || (overflow == 0 && n < 0)) cards_error(what, which + " is negative");
  // Up to a nibble's 15 the deck check that follows names the count and the limit.
  if (overflow > 0 || n > 15) {
    cards_error(what, which + " is " + (overflow ? std::string("2**63 or more") : std::to_string(n)) + ", more than the decks hold");
  }
  return static_cast<int>(n);
}

long long int_arg(py::handle obj, const char* what, long long lo, long long hi) {
  if (!is_int_like(obj)) not_an_int(obj, what);
  int overflow = 0;
  const long long value = index_value(obj, overflow);
  if (overflow || value < lo || value > hi) {
    throw py::value_error(std::string(what) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi));
  }
  return value;
}

long long clamped_int_arg(py::handle obj, const char* what, long long lo, long long hi) {
  if (!is_int_like(obj)) not_an_int(obj, what);
  int overflow = 0;
  const long long value = index_value(obj, overflow);
  return overflow < 0 ? lo : overflow > 0 ? hi : std::clamp(value, lo, hi);
}

bool is_real_like(py::handle obj) {
  return PyFloat_Check(obj.ptr()) || is_int_like(obj) || is_instance(obj, python_types().numpy_floating);
}

double real_arg(py::handle obj, const char* what, double lo, double hi, const char* unit, bool above_lo) {
  const bool real = is_real_like(obj);
  const std::string range = "a number " + std::string(unit) + "in " + (above_lo ? "(" : "[") +
                            py::str(py::float_(lo)).cast<std::string>() + ", " + py::str(py::float_(hi)).cast<std::string>() + "]";
  if (!real) throw py::type_error(std::string(what) + " must be " + range + ", not " + type_name(obj));
  const double value = PyFloat_AsDouble(obj.ptr());
  if (value == -1.0 && PyErr_Occurred()) PyErr_Clear();  // an int past a double's range: refused as out of range
  else if ((above_lo ? value > lo : value >= lo) && value <= hi) return value;
  throw py::value_error(std::string(what) + " must be " + range);
}

std::uint64_t given_seed_arg(py::handle obj, const char* what) {
  if (!is_int_like(obj)) not_an_int(obj, what);
  return seed_arg(obj, what);
}

std::uint64_t seed_arg(py::handle obj, const char* what) {
  if (obj.is_none()) return (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  if (!is_int_like(obj)) throw py::type_error(std::string(what) + " must be an int or None, not " + type_name(obj));
  const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(obj.ptr()));
  if (!index) throw py::error_already_set();
  const unsigned long long value = PyLong_AsUnsignedLongLong(index.ptr());
  if (value == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    throw py::value_error(std::string(what) + " must be in 0..2**64-1, not " + shown(index));
  }
  return value;
}

int seat_from(py::handle obj, int seats, const char* what) { return static_cast<int>(int_arg(obj, what, 0, seats - 1)); }

bool is_bool(py::handle obj) { return PyBool_Check(obj.ptr()) || is_instance(obj, python_types().numpy_bool); }

bool is_item_sequence(py::handle obj) {
  PyObject* p = obj.ptr();  // an ndarray is told apart inline, by int_items
  const bool read_as_array = PyObject_CheckBuffer(p) || PyUnicode_Check(p) || py::hasattr(obj, "__array__") ||
                             py::hasattr(obj, "__array_interface__");
  return !read_as_array && PySequence_Check(p);
}

py::array_t<std::int64_t> sequence_int_items(py::handle obj, const std::string& what,
                                             const std::function<void(py::ssize_t, const std::string&)>& past_int64) {
  PyObject* p = obj.ptr();
  // A tuple of its own: an item's __index__ or another thread may change a list being read.
  const auto items = py::reinterpret_steal<py::tuple>(PySequence_Tuple(p));
  if (!items) throw py::error_already_set();
  const py::ssize_t n = PyTuple_GET_SIZE(items.ptr());
  py::array_t<std::int64_t> out(n);
  std::int64_t* data = out.mutable_data();
  for (py::ssize_t i = 0; i < n; ++i) {
    const auto item = py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(items.ptr(), i));
    if (!is_int_like(item)) {
      throw py::type_error(what + " must be a 1-d array (or sequence) of ints, not one holding a " + type_name(item) + " (at " +
                           std::to_string(i) + ")");
    }
    const auto value = py::reinterpret_steal<py::object>(PyNumber_Index(item.ptr()));  // a NumPy integer as an int
    if (!value) throw py::error_already_set();
    int overflow = 0;
    data[i] = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
    if (overflow != 0) past_int64(i, shown(value));
  }
  return out;
}

bool bool_arg(py::handle obj, const char* what) {
  if (is_bool(obj)) return PyObject_IsTrue(obj.ptr()) == 1;
  throw py::type_error(std::string(what) + " must be True or False, not " + type_name(obj));
}

Mask add_checked(Mask a, Mask b, const char* what) {
  Mask sum = 0;
  for (int r = 0; r < kNumRanks; ++r) {
    // Capped at 15 so the nibble cannot wrap; checked() then reports the excess.
    sum |= cards_of(r, std::min(count(a, r) + count(b, r), 15));
  }
  return checked(sum, what, widest_rules());
}

Mask to_mask(py::handle obj, const char* what, const Rules& rules) {
  // Most frequent first: the fast paths take int masks and Cards.
  if (PyLong_CheckExact(obj.ptr())) return checked(int_mask(obj, what), what, rules);
  if (is_exactly<Cards>(obj) || py::isinstance<Cards>(obj)) return checked(value_of<Cards>(obj).mask, what, rules);
  if (py::isinstance<py::str>(obj)) return parse(text_arg(obj, what, ErrorKind::Cards), what, rules);
  if (is_int_like(obj)) return checked(int_mask(obj, what), what, rules);  // NumPy integers
  if (PyBool_Check(obj.ptr()) || PyLong_Check(obj.ptr()) || PyFloat_Check(obj.ptr())) {
    throw py::type_error(std::string(what) + " must be Cards, card text or an int mask, not " + type_name(obj));
  }
  if (is_instance(obj, python_types().mapping_type)) return checked(mapping_mask(obj, what), what, rules);
  if (py::isinstance<py::iterable>(obj) && !py::isinstance<py::bytes>(obj)) return checked(tokens_mask(obj, what), what, rules);
  not_cards(obj, what);
}

Mask hand_arg(py::handle obj, const char* what, const Rules& rules) {
  const Mask hand = to_mask(obj, what, rules);
  if (!holds_hand(hand, rules)) cards_error(what, hand_error(hand, rules));
  return hand;
}

py::tuple pickled_fields(py::handle state, const char* cls, std::size_t size, ErrorKind fault) {
  if (!py::isinstance<py::tuple>(state)) throw py::type_error(std::string("a pickled ") + cls + " is a tuple, not " + type_name(state));
  auto fields = py::reinterpret_borrow<py::tuple>(state);
  if (fields.size() != size) {
    raise(fault, std::string("a pickled ") + cls + " has " + std::to_string(size) + " fields, not " + std::to_string(fields.size()));
  }
  return fields;
}

Game& game_arg(py::handle obj, const char* what) {
  if (!is_exactly<Game>(obj) && !py::isinstance<Game>(obj)) throw py::type_error(std::string(what) + " must be a Game, not " + type_name(obj));
  return const_cast<Game&>(value_of<Game>(obj));  // Python holds the Game itself: a method may step it
}

const Rules& to_rules(py::handle obj) {
  static const Rules standard;
  if (obj.is_none()) return standard;
  if (!is_exactly<Rules>(obj) && !py::isinstance<Rules>(obj)) {
    throw py::type_error("rules must be a Rules or None, not " + type_name(obj) +
                         (py::isinstance<py::str>(obj) ? " (Rules.preset(name) gives a preset)" : ""));
  }
  return value_of<Rules>(obj);
}

int rank_arg(py::handle obj, const char* what, int highest) {
  if (!py::isinstance<py::str>(obj)) return static_cast<int>(int_arg(obj, what, 0, highest));
  const int rank = rank_named(text_arg(obj, what));
  if (rank < 0 || rank > highest) {
    throw py::value_error(std::string(what) + " must name one rank of " + (highest == kTwo ? "3..2" : "3..R") +
                          " as card text does, such as '5' or '10', not " + quoted(text_arg(obj, what)));
  }
  return rank;
}

WildRanks any_wild_arg(py::handle obj, int most, const char* what) {
  if (obj.is_none()) return {};
  const std::string name = what;
  // A rank, or every item of a tuple or list, read (its type and range checked) before the
  // count is held against the rules: a wrong one is a TypeError under any rules and in any place.
  std::vector<int> ranks;
  if (!py::isinstance<py::tuple>(obj) && !py::isinstance<py::list>(obj)) {
    ranks.push_back(rank_arg(obj, what, kTwo));
  } else {
    for (py::handle item : py::reinterpret_borrow<py::sequence>(obj)) ranks.push_back(rank_arg(item, what, kTwo));
  }
  if (ranks.size() > 2) {
    throw py::value_error(name + ": " + std::to_string(ranks.size()) + " ranks, and no rules have more than two wild ranks");
  }
  if (!ranks.empty() && most == 0) throw py::value_error(name + ": a wild rank needs rules with wild cards (Rules.preset('laizi'))");
  if (ranks.size() > static_cast<std::size_t>(most)) {
    throw py::value_error(name + ": " + std::to_string(ranks.size()) + " ranks, and these rules have one wild rank");
  }
  if (ranks.empty()) return {};
  if (ranks.size() == 1) return ranks[0];
  if (ranks[0] == ranks[1]) throw py::value_error(name + ": the two wild ranks must differ");
  return {ranks[0], ranks[1]};
}

WildRanks wild_arg(py::handle obj, const Rules& rules) {
  const WildRanks wild = any_wild_arg(obj, rules.wild, "wild");
  // As many ranks as the rules draw (laizi2's one rank alone is no position of it), or none.
  if (std::string why = wild_ranks_error(wild, rules); !why.empty() && !wild.none()) throw py::value_error("wild: " + why);
  return wild;
}

py::object wild_obj(WildRanks wild) {
  if (wild.none()) return py::none();
  if (wild.high == kNoWild) return py::int_(wild.low);
  return py::make_tuple(wild.low, wild.high);
}

py::tuple wild_tuple(WildRanks wild) {
  if (wild.none()) return py::tuple();
  if (wild.high == kNoWild) return py::make_tuple(wild.low);
  return py::make_tuple(wild.low, wild.high);
}

Move reading_move(const Reading& r, const char* what) {
  if (r.fault == ReadingFault::Text) cards_error(what, r.error);
  if (!r.ok()) raise(ErrorKind::Move, std::string(what) + ": " + r.error);
  return r.move;
}

Move move_arg(py::handle obj, std::optional<MoveKind> kind, const Rules& rules, WildRanks wild, const char* what) {
  if (py::isinstance<py::str>(obj)) return reading_move(read_move(text_arg(obj, what, ErrorKind::Cards), rules, wild, kind), what);
  return reading_move(read_cards(to_mask(obj, what, rules), rules, kind), what);
}

namespace {

// A direct-mapped cache of Python objects keyed by a value's words: a slot holds the
// newest object that hashed to it. Never destroyed: its objects must not be released
// after the interpreter is gone.
template <class T>
py::object intern(Mask cards, std::uint64_t fields, const T& value) {
  struct Slot {
    Mask cards = 0;
    std::uint64_t fields = 0;
    PyObject* object = nullptr;
  };
  constexpr std::size_t kSlots = std::size_t{1} << 16;  // 1.5 MB of slots, at most 65,536 objects
  static auto* slots = new std::array<Slot, kSlots>();
  Slot& slot = (*slots)[hash_of(cards, fields) & (kSlots - 1)];
  if (slot.object && slot.cards == cards && slot.fields == fields) return py::reinterpret_borrow<py::object>(slot.object);
  py::object obj = py::cast(value);
  PyObject* evicted = slot.object;
  slot = {cards, fields, obj.inc_ref().ptr()};
  // Last: releasing the evicted object may run Python code (a weakref's callback) that
  // interns again, and must find the slot whole.
  Py_XDECREF(evicted);
  return obj;
}

}  // namespace

py::object interned(const Move& m) { return intern(m.cards, fields_word(m), m); }

py::object interned(const Action& a) { return intern(a.move.cards, fields_word(a), a); }

namespace {

constexpr double kMaxExploration = 1e6;

// A bot's `endgame` attribute (True when it has none): True or False, TypeError otherwise.
Endgame endgame_arg(py::handle bot) {
  return bool_arg(py::getattr(bot, "endgame", py::bool_(true)), "endgame") ? Endgame::Search : Endgame::Plan;
}

// The built-in policy `policy` names (its text, or its bot class's), or empty.
namespace {

// The library's bot class in `cls`'s bases that names its C++ policy (a class of
// doudizhu.bots with a __builtin_policy__ of its own), or None: a user's class that
// states the attribute again names nothing, or its own act would be played in C++.
py::object naming_class(py::handle cls) {
  for (const py::handle base : cls.attr("__mro__")) {
    if (!base.attr("__dict__").contains("__builtin_policy__")) continue;
    const py::object module = py::getattr(base, "__module__", py::none());
    if (py::isinstance<py::str>(module) && module.cast<std::string>() == "doudizhu.bots") {
      return py::reinterpret_borrow<py::object>(base);
    }
  }
  return py::none();
}

}  // namespace

std::string builtin_name(py::handle policy) {
  if (py::isinstance<py::str>(policy)) return text_arg(policy, "policy");
  const py::object base = naming_class(py::type::of(policy));
  if (base.is_none()) return std::string();
  const py::object named = base.attr("__dict__")["__builtin_policy__"];
  return py::isinstance<py::str>(named) ? text_arg(named, "policy") : std::string();
}

// An ISMCTS bot (doudizhu.bots.ISMCTS) as the policy it plays.
Policy ismcts_bot_arg(py::handle bot) {
  const auto attr = [&](const char* name) { return py::getattr(bot, name); };
  Policy p{PolicyKind::Ismcts};
  // No `seconds` attribute: no budget of time; no `leaf`: rollouts.
  p.search = search_params_arg(attr("simulations"), py::getattr(bot, "seconds", py::none()), attr("rollout"), attr("exploration"),
                               attr("threads"), py::getattr(bot, "leaf", py::str("rollout")), p.network);
  p.endgame = endgame_arg(bot);
  // Read by act alone (a runner seeds it from its own stream), but a bot holding a seed
  // act would refuse is refused wherever it plays, as its other parameters are. Only an
  // AttributeError means none (hasattr would take a seed property's own error for none).
  if (const py::object seed = py::reinterpret_steal<py::object>(PyObject_GetAttrString(bot.ptr(), "seed"))) {
    given_seed_arg(seed);
  } else if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
  } else {
    throw py::error_already_set();
  }
  return p;
}

}  // namespace

SearchParams search_params_arg(py::handle simulations, py::handle seconds, py::handle rollout, py::handle exploration,
                               py::handle threads, py::handle leaf, std::shared_ptr<const Network>& network) {
  SearchParams s;
  if (!seconds.is_none()) s.seconds = real_arg(seconds, "seconds", 0.0, kMaxSeconds, "of seconds ", true);
  if (!simulations.is_none()) {
    s.simulations = int_arg(simulations, "simulations", 1, kMostSimulations);
  } else if (s.seconds > 0) {
    s.simulations = kMostSimulations;  // the tree's memory bounds it still
  } else {
    throw py::value_error("simulations and seconds are both None: the search needs a budget");
  }
  s.exploration = real_arg(exploration, "exploration", 0.0, kMaxExploration);
  s.threads = static_cast<int>(int_arg(threads, "threads", 1, kMaxSearchThreads));
  // Before the rollout is read: an ISMCTS bot's rollout read as a policy reads its own
  // rollout, and a cycle of them (a bot its own rollout) would recurse without end.
  if (builtin_name(rollout) == "ismcts") throw py::value_error("rollout: ISMCTS cannot roll out by ISMCTS (every simulation would search again)");
  const Policy by = named_errors("rollout", [&] { return policy_arg(rollout); });
  s.rollout = by.kind;
  network = by.network;
  const std::string judged_by = text_arg(leaf, "leaf");
  if (judged_by != "rollout" && judged_by != "values") throw py::value_error("leaf must be 'rollout' or 'values', not " + quoted(judged_by));
  s.leaf_values = judged_by == "values";
  if (s.leaf_values && !network) network = shipped_network();
  return s;
}

bool plays_in_core(py::handle policy) {
  if (py::isinstance<py::str>(policy)) return true;
  const py::handle cls = py::type::of(policy);
  const py::object base = naming_class(cls);
  if (base.is_none()) return false;
  if (py::hasattr(policy, "__dict__")) {
    const py::dict own = policy.attr("__dict__");
    if (own.contains("act") || own.contains("act_many")) return false;
  }
  for (const char* method : {"act", "act_many"}) {
    if (!py::getattr(cls, method, py::none()).is(py::getattr(base, method, py::none()))) return false;
  }
  return true;
}

namespace {

// The built-in policy named `text`; ValueError listing the names otherwise.
Policy named_policy(const std::string& text) {
  const auto kind = policy_named(text);
  if (kind) return *kind;
  std::string names;
  for (const auto& named : kPolicyNames) {
    if (!names.empty()) names += ", ";
    names += named.first;
  }
  throw py::value_error("unknown policy " + quoted(text) + "; built-in policies: " + names);
}

}  // namespace

Policy bot_policy_arg(py::handle bot) {
  // A neural bot of its own networks holds them as `network`, an ISMCTS bot its parameters.
  const std::string text = py::isinstance<py::str>(bot) ? std::string() : builtin_name(bot);
  if (text.empty()) throw py::type_error("not a built-in bot: " + type_name(bot));
  if (text == "ismcts") return ismcts_bot_arg(bot);
  if (text == "neural") {
    const py::object network = py::getattr(bot, "network", py::none());
    const Endgame endgame = endgame_arg(bot);
    if (network.is_none()) return Policy{PolicyKind::Neural, shipped_network(), endgame};
    if (!py::isinstance<Network>(network)) throw py::type_error("a neural bot's network must be a Network, not " + type_name(network));
    network.cast<const Network&>();  // the construction check (an uninitialised Network is a TypeError)
    return Policy{PolicyKind::Neural, network.cast<std::shared_ptr<Network>>(), endgame};
  }
  return named_policy(text);
}

std::string named_message(const char* what, const std::string& message) {
  const std::string name(what);
  const bool named = message.compare(0, name.size(), name) == 0 && message.size() > name.size() &&
                     std::string_view(" :[").find(message[name.size()]) != std::string_view::npos;
  return named ? message : name + ": " + message;
}

Policy policy_arg(py::handle policy) {
  if (py::isinstance<py::str>(policy)) return named_policy(text_arg(policy, "policy"));
  if (!plays_in_core(policy)) throw py::type_error("policy must be a built-in policy name or built-in bot, not " + type_name(policy));
  return bot_policy_arg(policy);
}

std::optional<Move> to_last(py::handle obj, const Rules& rules, WildRanks wild) {
  if (obj.is_none()) return std::nullopt;
  if (!is_exactly<Move>(obj) && !py::isinstance<Move>(obj) && !py::isinstance<py::str>(obj) && !py::isinstance<Cards>(obj)) {
    throw py::type_error("last must be a Move, card text, Cards or None, not " + type_name(obj));
  }
  const Move m = py::isinstance<Move>(obj) ? value_of<Move>(obj) : move_arg(obj, std::nullopt, rules, wild, "last");
  if (std::string why = last_move_error(m, rules, wild); !why.empty()) raise(ErrorKind::Move, "last: " + why);
  return m;
}

}  // namespace ddz::py_bind
