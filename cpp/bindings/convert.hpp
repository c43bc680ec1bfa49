// Conversions from Python arguments to core values, with the errors users see.
// Every public binding goes through these, so input is checked once, here.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include "../game.hpp"
#include "../move.hpp"
#include "../policy.hpp"
#include "../rules.hpp"
#include "../wild.hpp"

namespace ddz::py_bind {

namespace py = pybind11;

// The Python `Cards` value: a mask of up to two decks' counts.
struct Cards {
  Mask mask = 0;
};

// Whether `obj`'s type is exactly the bound type of T: a pointer compare, where
// py::isinstance asks the metaclass (the slow part of a per-position call).
template <class T>
bool is_exactly(py::handle obj) {
  static PyTypeObject* const type = reinterpret_cast<PyTypeObject*>(py::type::of<T>().ptr());
  return Py_TYPE(obj.ptr()) == type;
}

// The C++ value inside a bound object: directly when its type is exactly T (the
// instance holds the value first), else through pybind11's general cast.
template <class T>
const T& value_of(py::handle obj) {
  if (is_exactly<T>(obj)) {
    return *reinterpret_cast<py::detail::instance*>(obj.ptr())->get_value_and_holder().template value_ptr<T>();
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
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

// The widest deck a `Cards` may describe (two decks).
const Rules& widest_rules();

// A mask from Cards, card text, an int mask or an iterable of card tokens; `what` names
// the argument in errors. Counts are checked against `rules` (default: two decks).
Mask to_mask(py::handle obj, const char* what, const Rules& rules = widest_rules());

// a + b, with a ValueError naming `what` when a rank would exceed two decks.
Mask add_checked(Mask a, Mask b, const char* what);

// The UTF-8 text of a str, or TypeError (not a str) / ValueError (a lone surrogate, which
// has no UTF-8 form) naming `what`. pybind11's own cast raises RuntimeError for both.
std::string text_arg(py::handle obj, const char* what);

// An int (or an object with __index__, not a bool) in [lo, hi], or TypeError /
// ValueError naming `what`; pybind11's .cast<long>() raises RuntimeError instead.
long long int_arg(py::handle obj, const char* what, long long lo, long long hi);

// A seat in 0..seats-1 from any Python object, with the same errors.
int seat_from(py::handle obj, int seats, const char* what);

// The rules argument: None means the standard rules.
const Rules& to_rules(py::handle obj);

// The single reading of `cards` (of `kind` when given); ValueError if none or several.
Move single_reading(Mask cards, std::optional<MoveKind> kind, const Rules& rules);

// The wild rank argument: None (kNoWild: no rank is wild), a rank index 0..12 or a rank
// character 3..2; only rules with wild cards take a rank. TypeError / ValueError otherwise.
int wild_arg(py::handle obj, const Rules& rules);

// The text of a move: its cards, or "spent=cards" when wild cards stand in (the cards
// spent, then the combination they form).
std::string move_text(const Move& m);

// The readings of move text, "cards" or "spent=cards" (with `wild` the wild rank),
// narrowed to one by a "/KIND/key" suffix when it has one.
std::vector<Move> readings_of(const std::string& text, const Rules& rules, int wild);

// The Python object for a Move (or an Action), shared by every list that returns an
// equal one: they are immutable, and reusing one costs far less than a new pybind11
// instance. The table keeps one object per distinct value for the life of the process.
py::object interned(const Move& m);
py::object interned(const Action& a);

// A move to beat: None (leading), a Move, or move text with one reading. Checked under
// `rules`, with `wild` the wild rank of its wild cards.
std::optional<Move> to_last(py::handle obj, const Rules& rules, int wild = kNoWild);

// Human-readable description of a move, for error messages and repr.
std::string describe(const Move& m);

// The NumPy row format of moves: the Move struct itself (16 bytes), fields cards, kind,
// key and length; rows with cards == 0 stand for "no move" (leading).
py::dtype move_dtype();
// A 1-d NumPy array of `n` rows of `row_size` bytes, viewed through `dtype`.
py::array structured_rows(const py::dtype& dtype, const void* rows, std::size_t n, std::size_t row_size);
// The rows of a 1-d array of `dtype` (called `dtype_name` in errors) as C++ values, in
// `rows` (its buffer reused: a batch call's thread keeps one); TypeError naming `what`
// otherwise. A C-contiguous array is read as it is: NumPy's conversion would check, field
// by field, that a structured dtype casts to itself, which costs more than a small batch call.
template <class Row>
void rows_into(std::vector<Row>& rows, py::handle obj, const py::dtype& dtype, const char* dtype_name, const char* what) {
  const bool c_array = py::isinstance<py::array>(obj) &&
                       (py::detail::array_proxy(obj.ptr())->flags & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_);
  const auto arr = c_array ? py::reinterpret_borrow<py::array>(obj) : py::array::ensure(obj, py::array::c_style);
  if (!arr || (arr.dtype().ptr() != dtype.ptr() && !arr.dtype().equal(dtype)) || arr.ndim() != 1) {
    throw py::type_error(std::string(what) + " must be a 1-d array of doudizhu." + dtype_name);
  }
  rows.resize(static_cast<std::size_t>(arr.shape(0)));
  if (!rows.empty()) std::memcpy(rows.data(), arr.data(), rows.size() * sizeof(Row));
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
std::vector<Move> from_array(py::handle obj, const char* what);
// Why a MOVE_DTYPE row is no move under any rules, or empty (an empty row is no move: a lead).
std::string row_error(const Move& m);
std::string kind_name(MoveKind kind);

// One built-in policy name for every seat, or one per seat (`players`); ValueError otherwise.
std::array<PolicyKind, kMaxSeats> policies_arg(py::handle policy, int players);

void register_cards(py::module_& m);
void register_rules(py::module_& m);
void register_moves(py::module_& m);
void register_movegen(py::module_& m);
void register_game(py::module_& m);
void register_selfplay(py::module_& m);
void register_search(py::module_& m);
void register_actions(py::module_& m);
void register_encode(py::module_& m);

}  // namespace ddz::py_bind
