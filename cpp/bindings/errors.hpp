// The engine's exceptions in Python: DoudizhuError (a ValueError) and its kinds, and
// TooLargeError, raised from pybind11's dispatch and from the fast entry points alike.
// Wrong Python types stay TypeError.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace ddz::py_bind {

namespace py = pybind11;

enum class ErrorKind {
  General,        // DoudizhuError itself: a question with no one answer (Game.wild_rank under two wild ranks)
  Cards,          // CardsError: card text, masks, counts, mappings
  Move,           // MoveError: no combination, several readings, invalid move data
  IllegalAction,  // IllegalActionError: an action the game refuses now
  Record,         // RecordError: a record that is not valid
  Network,        // NetworkError: a network file that cannot be read, or networks that do not fit the rules
  Rules,          // RulesError: a rules field out of its range, fields that cannot go together, no such preset
  TooLarge,       // TooLargeError (a ValueError and a MemoryError, no DoudizhuError): a count past memory
};

struct Error : py::builtin_exception {
  Error(ErrorKind kind, const std::string& what) : py::builtin_exception(what), kind(kind) {}
  void set_error() const override;
  ErrorKind kind;
};

[[noreturn]] inline void raise(ErrorKind kind, const std::string& what) { throw Error(kind, what); }

void register_errors(py::module_& m);

}  // namespace ddz::py_bind
