// Conversions from Python arguments to core values, with the errors users see.
// Every public binding goes through these, so input is checked once, here.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bindings/errors.hpp"
#include "bindings/arg_types.hpp"
#include "bindings/pybind_private.hpp"
#include "game/game.hpp"
#include "game/infoset.hpp"
#include "game/reading.hpp"
#include "learn/action_space.hpp"
#include "play/ismcts.hpp"
#include "play/playout.hpp"
#include "rules/move.hpp"
#include "rules/notation.hpp"
#include "rules/rules.hpp"
#include "rules/wild.hpp"
#include "search/solver.hpp"

namespace ddz::py_bind {

namespace py = pybind11;

// The Python `Cards` value: a mask of up to two decks' counts.
struct Cards {
  Mask mask = 0;
};

// The name of obj's type, for messages.
std::string type_name(py::handle obj);

// A value as an error quotes it, never running a str subclass's repr: a str as quoted()
// writes it (a short excerpt with its length past 40 characters, a lone surrogate \udcff),
// anything else its repr, cut past 80 bytes; for an int past Python's limit on the digits
// it writes out (4,300 by default) its size in bits, for a repr that raises the type.
std::string shown(py::handle obj);

// The machine's physical memory in bytes, 0 where the system does not say.
std::size_t physical_memory_bytes();
// Refuses `bytes` (`amount` in words) past the machine's memory with a TooLargeError naming
// `what`: there the kernel would end the process when the memory is first written rather
// than refuse the allocation.
void check_fits_memory(const char* what, std::size_t bytes, const std::string& amount);

// Whether obj holds items to read one by one: a sequence other than text and bytes (a
// sequence of characters or ints, never of the items meant), and other than a 0-d array,
// which passes for a sequence but has no items to iterate.
bool holds_items(py::handle obj);

// The package that re-exports the public classes and enums of this extension.
inline constexpr const char* kPackage = "doudizhu";

// py::class_ for a class whose caster checks construction: the compiler refuses a class
// bound without DDZ_CONSTRUCTED_CASTER.
template <class T, class... Options, class... Extra>
py::class_<T, Options...> bound_class(py::handle scope, const char* name, const Extra&... extra) {
  static_assert(has_constructed_caster<T>, "a bound class needs DDZ_CONSTRUCTED_CASTER (bindings/pybind_private.hpp)");
  return py::class_<T, Options...>(scope, name, extra...);
}

// A bound class of the public API: the `doudizhu` package re-exports it, so it is named
// there (help(), signatures, pickle), not in the extension that defines it.
template <class T, class... Options, class... Extra>
py::class_<T, Options...> public_class(py::handle scope, const char* name, const Extra&... extra) {
  auto cls = bound_class<T, Options...>(scope, name, extra...);
  cls.attr("__module__") = kPackage;
  return cls;
}

}  // namespace ddz::py_bind

DDZ_CONSTRUCTED_CASTER(ddz::py_bind::Cards);
DDZ_CONSTRUCTED_CASTER(ddz::Rules);
DDZ_CONSTRUCTED_CASTER(ddz::Move);
DDZ_CONSTRUCTED_CASTER(ddz::Action);
DDZ_CONSTRUCTED_CASTER(ddz::Settlement);
DDZ_CONSTRUCTED_CASTER(ddz::Game);
DDZ_CONSTRUCTED_CASTER(ddz::Infoset);
DDZ_CONSTRUCTED_CASTER(ddz::ActionSpace);
DDZ_CONSTRUCTED_CASTER(ddz::SolveResult);
DDZ_CONSTRUCTED_CASTER(ddz::IsmctsResult);
DDZ_CONSTRUCTED_CASTER(ddz::Network);

namespace ddz::py_bind {

// Whether `obj`'s type is exactly the bound type of T: a pointer compare, where
// py::isinstance asks the metaclass (the slow part of a per-position call).
template <class T>
bool is_exactly(py::handle obj) {
  static PyTypeObject* const type = reinterpret_cast<PyTypeObject*>(py::type::of<T>().ptr());
  return Py_TYPE(obj.ptr()) == type;
}

// The C++ value inside a bound object: directly when its type is exactly T (the
// instance holds the value first, once constructed), else through the checked caster.
template <class T>
const T& value_of(py::handle obj) {
  if (is_exactly<T>(obj)) {
    if (!constructed(obj)) not_constructed(obj);
    return stored_value<T>(obj);
  }
  return obj.cast<const T&>();
}

// Runs `body` (returning a py::object) for a raw CPython entry point, turning C++
// exceptions into the Python ones pybind11's own dispatch raises; on failure returns
// nullptr with the Python error set.
template <class F>
PyObject* guarded(F&& body) {
  try {
    return body().release().ptr();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const py::cast_error& e) {  // a pybind11 cast of an argument failed: a TypeError
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (py::builtin_exception& e) {
    e.set_error();
  } catch (const std::invalid_argument& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

// The widest deck a `Cards` may describe (two decks).
const Rules& widest_rules();

// Whether `obj` is an int as the engine reads ints: a Python int or a NumPy integer, but
// never a bool, an enum member (IntEnum, IntFlag) or a float.
bool is_int_like(py::handle obj);

// An int-like `obj` in [lo, hi], or TypeError / ValueError naming `what`.
long long int_arg(py::handle obj, const char* what, long long lo, long long hi);
// An int (as int_arg takes it, TypeError otherwise) brought into lo..hi: for a count whose
// own check names its range, where an int's width is no range of the game's.
long long clamped_int_arg(py::handle obj, const char* what, long long lo, long long hi);

// Whether `obj` is a real number as the engine reads them: a Python float, an int-like
// value or a NumPy floating scalar (never a bool, an enum member, a timedelta64, a Fraction
// or a Decimal).
bool is_real_like(py::handle obj);

// A real number (is_real_like) in [lo, hi], or (lo, hi] when `above_lo` (NaN never is);
// TypeError / ValueError naming `what`, `unit` and the range.
double real_arg(py::handle obj, const char* what, double lo, double hi, const char* unit = "", bool above_lo = false);

// What `make()` returns, an allocation past memory (a count too large) refused as a
// TooLargeError: "`what`: `count` `things` are more than memory can hold".
template <class Make>
auto within_memory(const char* what, long long count, const char* things, Make&& make) -> decltype(make()) {
  try {
    return make();
  } catch (const std::length_error&) {
  } catch (const std::bad_alloc&) {
  }
  raise(ErrorKind::TooLarge, std::string(what) + ": " + std::to_string(count) + " " + things + " are more than memory can hold");
}

// within_memory for work that makes NumPy arrays and runs no code of the caller's (an
// answer's arrays): there NumPy's MemoryError is the allocation's. Elsewhere a MemoryError
// may be the caller's own (a sequence's __getitem__), and passes as it is.
template <class Make>
auto arrays_within_memory(const char* what, long long count, const char* things, Make&& make) -> decltype(make()) {
  return within_memory(what, count, things, [&]() -> decltype(make()) {
    try {
      return make();
    } catch (py::error_already_set& error) {
      if (error.matches(PyExc_MemoryError)) throw std::bad_alloc();
      throw;
    }
  });
}

// A seed: an int-like value in 0..2**64-1 (ValueError outside, TypeError for other types);
// None draws one from the system's entropy.
std::uint64_t seed_arg(py::handle obj, const char* what = "seed");
// seed_arg where None is refused (TypeError): a seed that names what it derives (a run's
// deal, a game's index), where a drawn one would name nothing.
std::uint64_t given_seed_arg(py::handle obj, const char* what = "seed");

// A seat in 0..seats-1 from any Python object, with the same errors.
int seat_from(py::handle obj, int seats, const char* what);

// A strict bool: True or False (a NumPy bool too), TypeError for anything else.
bool bool_arg(py::handle obj, const char* what);
// Whether `obj` is a bool or a NumPy bool (what bool_arg takes).
bool is_bool(py::handle obj);

// A mask from Cards, card text, an int mask, a mapping rank -> count (a Counter) or an
// iterable of card tokens; `what` names the argument in errors. Counts are checked
// against `rules` (default: two decks). CardsError for what names no cards.
Mask to_mask(py::handle obj, const char* what, const Rules& rules = widest_rules());

// A hand: to_mask, and at most the cards a seat holds under `rules` (holds_hand);
// CardsError otherwise.
Mask hand_arg(py::handle obj, const char* what, const Rules& rules);

// The count of one rank in cards given by counts (`which` names it in the errors of
// `what`): an int (TypeError) in 0..15 (CardsError; a mask checks the rest).
int count_arg(py::handle obj, const char* what, const std::string& which);

// The fields of a pickled `cls` (the argument of its __setstate__): a tuple of `size`
// items; TypeError for another type, the error `fault` for another length.
py::tuple pickled_fields(py::handle state, const char* cls, std::size_t size, ErrorKind fault);

// The Game `obj` holds, or TypeError naming `what`.
Game& game_arg(py::handle obj, const char* what = "game");

// a + b, with a CardsError naming `what` when a rank would exceed two decks.
Mask add_checked(Mask a, Mask b, const char* what);

// The UTF-8 text of a str, or nothing for one with a lone surrogate (no UTF-8 form).
std::optional<std::string> utf8_of(py::handle str);

// The UTF-8 text of a str, or TypeError (not a str) / the error `fault` (a lone surrogate)
// naming `what`: CardsError for card and action text, RulesError for rules fields, and
// without one a plain ValueError, as an unknown name raises. pybind11's own cast raises
// RuntimeError for both.
std::string text_arg(py::handle obj, const char* what, std::optional<ErrorKind> fault = std::nullopt);

// The rules argument: None means the standard rules.
const Rules& to_rules(py::handle obj);

// The move of a reading (reading.hpp), or its fault raised naming `what`: CardsError for
// text that is not well formed, MoveError for none or several readings.
Move reading_move(const Reading& r, const char* what);

// The one move of move text or Cards (narrowed to `kind` when given), MoveError otherwise.
Move move_arg(py::handle obj, std::optional<MoveKind> kind, const Rules& rules, WildRanks wild, const char* what);

// A rank: an index 0..highest (int-like) or one card character ("5", "t", "10", "BJ");
// TypeError / ValueError naming `what` otherwise.
int rank_arg(py::handle obj, const char* what, int highest);

// The wild ranks argument: None (no rank is wild), or as many ranks as the rules have
// wild ranks: a rank (an index 0..12 or a rank character 3..2), or a tuple or list of
// different ranks (an empty one: none); only rules with wild cards take a rank. TypeError /
// ValueError otherwise, a value of the wrong type a TypeError under any rules.
WildRanks wild_arg(py::handle obj, const Rules& rules);
// The same, whatever the rules: None, or up to `most` (0..2) different ranks; errors name `what`.
WildRanks any_wild_arg(py::handle obj, int most, const char* what);

// Wild ranks as Python values the other way: None, the rank, or the pair (low, high).
py::object wild_obj(WildRanks wild);
// The tuple of the wild ranks, lowest first (empty, one or two).
py::tuple wild_tuple(WildRanks wild);

// The Python object for a Move (or an Action), shared by lists that return an equal one:
// they are immutable, and reusing one costs far less than a new pybind11 instance. A
// bounded cache (one object per slot, the newest wins), so memory stays bounded however
// many distinct moves pass through.
py::object interned(const Move& m);
py::object interned(const Action& a);

// A move to beat: None (leading), a Move, or move text with one reading. Checked under
// `rules`, with `wild` the wild rank of its wild cards.
std::optional<Move> to_last(py::handle obj, const Rules& rules, WildRanks wild = {});

// The NumPy row format of moves: the Move struct itself (16 bytes), fields cards, kind,
// key, length, wild_rank and stand_ins; rows with cards == 0 stand for "no move" (leading).
py::dtype move_dtype();
// ACTION_DTYPE, the rows of ActionRow (selfplay.hpp): a recorded action with its seat.
py::dtype action_dtype();
// A structured dtype of `names` and `formats` at `offsets` in rows of `itemsize` bytes.
py::dtype structured_dtype(std::initializer_list<const char*> names, std::initializer_list<const char*> formats,
                           std::initializer_list<std::size_t> offsets, std::size_t itemsize);
// A 1-d NumPy array of `n` rows of `row_size` bytes, viewed through `dtype`.
py::array structured_rows(const py::dtype& dtype, const void* rows, std::size_t n, std::size_t row_size);
// The rows of a 1-d array of `dtype` (called `dtype_name` in errors) as C++ values, in
// `rows` (its buffer reused: a batch call's thread keeps one); TypeError naming `what`
// otherwise. A C-contiguous array is read as it is: NumPy's conversion would check, field
// by field, that a structured dtype casts to itself, which costs more than a small batch call.
template <class Row>
void rows_into(std::vector<Row>& rows, py::handle obj, const py::dtype& dtype, const char* dtype_name, const char* what) {
  const bool c_array = is_c_contiguous_array(obj);
  const auto arr = c_array ? py::reinterpret_borrow<py::array>(obj) : array_or_null(obj, py::array::c_style);
  if (!arr || (arr.dtype().ptr() != dtype.ptr() && !arr.dtype().equal(dtype)) || arr.ndim() != 1) {
    throw py::type_error(std::string(what) + " must be a 1-d array of doudizhu." + dtype_name + ", not " + type_name(obj));
  }
  rows.resize(static_cast<std::size_t>(arr.shape(0)));
  if (!rows.empty()) std::memcpy(rows.data(), arr.data(), rows.size() * sizeof(Row));
  if constexpr (requires(Row r) { r.zero; }) {
    for (Row& row : rows) std::memset(&row.zero, 0, sizeof row.zero);  // the bytes no field names: whatever the caller's array held
  }
}

template <class Row>
std::vector<Row> rows_from(py::handle obj, const py::dtype& dtype, const char* dtype_name, const char* what) {
  std::vector<Row> rows;
  rows_into(rows, obj, dtype, dtype_name, what);
  return rows;
}
py::array to_array(const Move* moves, std::size_t n);
// The moves as an array over the vector's own buffer, taken from it (no copy), when the
// buffer is about their size; else a copy, and `moves` keeps its buffer.
py::array take_array(std::vector<Move>& moves);
// The moves of MOVE_DTYPE rows, each checked as the Move constructor checks (under
// `rules`, or under some rules when null); MoveError naming the row otherwise.
std::vector<Move> from_array(py::handle obj, const char* what, const Rules* rules = nullptr);

// A sequence that is no array (a list, a tuple, a deque, a range) read item by item as ints
// are read one at a time (is_int_like), as int64: TypeError naming `what` and the index for
// an item that is none (NumPy would take a bool or an enum member for its value, a 0-d array
// for its item, and a mix of uint64 and other ints for floats); an int past int64 goes to
// past_int64(index, its text), which throws. nullopt for an array, a buffer, text or an
// object NumPy reads by its own dtype (__array__): those are read as arrays. An array is
// told apart inline, before any argument is built: it is the batch calls' common case.
py::array_t<std::int64_t> sequence_int_items(py::handle obj, const std::string& what,
                                             const std::function<void(py::ssize_t, const std::string&)>& past_int64);
bool is_item_sequence(py::handle obj);  // of what is no ndarray
template <class Past>
std::optional<py::array_t<std::int64_t>> int_items(py::handle obj, const char* what, Past&& past_int64) {
  if (py::isinstance<py::array>(obj) || !is_item_sequence(obj)) return std::nullopt;
  return sequence_int_items(obj, what, past_int64);
}

// A 1-d array (or sequence) of ints as int64 (TypeError naming `what` otherwise); a value
// past int64, which the cast would wrap, goes to past_int64(index, its text), which throws.
template <class Past>
py::array_t<std::int64_t> int64_array_arg(py::handle obj, const char* what, Past&& past_int64) {
  if (auto items = int_items(obj, what, past_int64)) return *items;
  const auto given = array_or_null(obj);
  if (!given || given.ndim() != 1 || (given.size() > 0 && given.dtype().kind() != 'i' && given.dtype().kind() != 'u')) {
    throw py::type_error(std::string(what) + " must be a 1-d array (or sequence) of ints, not " + type_name(obj));
  }
  if (given.size() == 0) return py::array_t<std::int64_t>(0);  // no ints, whatever the dtype: none to cast
  if (given.dtype().kind() == 'u' && given.itemsize() == 8) {
    const auto wide = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(given);
    for (py::ssize_t i = 0; i < wide.size(); ++i) {
      if (wide.data()[i] > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) past_int64(i, std::to_string(wide.data()[i]));
    }
  }
  return py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(given);
}

// A 1-d NumPy array of field(row) for each row.
template <class T, class Rows, class F>
py::array_t<T> column(const Rows& rows, F field) {
  py::array_t<T> out(static_cast<py::ssize_t>(rows.size()));
  T* data = out.mutable_data();
  for (std::size_t i = 0; i < rows.size(); ++i) data[i] = static_cast<T>(field(rows[i]));
  return out;
}

// A built-in policy by name ("random", "heuristic", "neural", "ismcts") or built-in bot
// (bots.Random, bots.Heuristic: their class's __builtin_policy__; bots.Neural: its
// `network`, a Network; bots.ISMCTS: its search parameters and rollout); ValueError naming
// the others.
Policy policy_arg(py::handle name);

// Whether the engine plays `policy` in C++: a name, or a bot of a library class that names
// its C++ policy (__builtin_policy__, on a class of doudizhu.bots), keeping that class's
// act and act_many (a subclass with its own, or a bot given its own, is a Python bot: its
// methods are what it plays, whatever __builtin_policy__ it states).
bool plays_in_core(py::handle policy);

// The built-in policy that `bot`'s class names (__builtin_policy__), read as policy_arg
// reads a built-in bot, whatever act it has: what the built-in bots' own act plays,
// called from a subclass's too. TypeError for an object whose class names none.
Policy bot_policy_arg(py::handle bot);

// The most threads one search call may ask for.
inline constexpr long long kMaxSearchThreads = 256;
// The longest budget or limit of time a search takes: about 31 years, beyond any search,
// inside any clock.
inline constexpr double kMaxSeconds = 1e9;

// An ISMCTS search's parameters, checked (TypeError, ValueError naming the one refused; a
// rollout that is itself ISMCTS is a ValueError); the rollout's network in `network`, or
// with `leaf` "values" the networks valuing the leaves (the rollout's if it is neural, else
// the shipped ones). `simulations` None: as many as `seconds` allow (a budget of time then
// needed).
SearchParams search_params_arg(py::handle simulations, py::handle seconds, py::handle rollout, py::handle exploration,
                               py::handle threads, py::handle leaf, std::shared_ptr<const Network>& network);


// `message` named by `what` ("`what`: " before it), unless it opens with that name already
// ("policy must be ...", "policy: give one ...", "policy[1] ...").
std::string named_message(const char* what, const std::string& message);

// What `read()` returns; its TypeError or ValueError named by `what` (named_message), for
// an argument read by a helper whose messages name what it reads (as a bot's "seed").
template <class Read>
auto named_errors(const char* what, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const py::type_error& e) {
    throw py::type_error(named_message(what, e.what()));
  } catch (const py::value_error& e) {
    throw py::value_error(named_message(what, e.what()));
  }
}

// One built-in policy (policy_arg) for every seat, or one per seat (`players`), None for a
// seat that no built-in policy plays (Python's, a learner's) when `empty_seats`; ValueError otherwise.
SeatPolicies policies_arg(py::handle policy, int players, bool empty_seats = false);

void register_cards(py::module_& m);
void register_rules(py::module_& m);
void register_moves(py::module_& m);
void register_movegen(py::module_& m);
void register_game(py::module_& m);
void register_selfplay(py::module_& m);
void register_search(py::module_& m);
void register_actions(py::module_& m);
void register_encode(py::module_& m);
void register_evaluate(py::module_& m);
void register_network(py::module_& m);
void register_teacher(py::module_& m);
void register_vector_env(py::module_& m);

}  // namespace ddz::py_bind
