#include "bindings/errors.hpp"

#include <array>
#include <string_view>

namespace ddz::py_bind {

namespace {

// Made at registration and kept for the life of the process: set_error() uses them.
std::array<PyObject*, 8> types{};

}  // namespace

void Error::set_error() const {
  // A message may quote a file's name in the file system's bytes (no UTF-8 where its
  // name is not): undecodable bytes become surrogates, as os.fsdecode reads them.
  const std::string_view text = what();
  PyObject* message = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "surrogateescape");
  if (!message) return;  // the decoding's own error (out of memory) stands
  PyErr_SetObject(types[static_cast<std::size_t>(kind)], message);
  Py_DECREF(message);
}

void register_errors(py::module_& m) {
  const auto make = [&](const char* name, PyObject* base, const char* doc) {
    const std::string qualified = std::string("doudizhu.") + name;
    PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
    if (!type) throw py::error_already_set();
    m.add_object(name, py::reinterpret_borrow<py::object>(type));
    return type;
  };
  PyObject* base = make("DoudizhuError", PyExc_ValueError, "The base of the engine's errors (a ValueError).");
  types[static_cast<std::size_t>(ErrorKind::General)] = base;
  types[static_cast<std::size_t>(ErrorKind::Cards)] =
      make("CardsError", base, "Card text, a mask, a count or a mapping that names no cards the rules allow.");
  types[static_cast<std::size_t>(ErrorKind::Move)] =
      make("MoveError", base, "Cards that form no combination, or several where one is needed; invalid move data.");
  types[static_cast<std::size_t>(ErrorKind::IllegalAction)] =
      make("IllegalActionError", base, "An action the game refuses now (nothing changes).");
  types[static_cast<std::size_t>(ErrorKind::Record)] = make("RecordError", base, "A game record that is not valid.");
  types[static_cast<std::size_t>(ErrorKind::Network)] = make(
      "NetworkError", base, "A network file that cannot be read, or networks that cannot play under the rules given.");
  types[static_cast<std::size_t>(ErrorKind::Rules)] = make(
      "RulesError", base, "A rules field out of its range, fields that cannot go together, or no preset of that name.");
  // A count out of range as any other (a ValueError), which a caller may also catch as
  // the memory it would take (a MemoryError): no DoudizhuError, the game holds nothing wrong.
  const py::tuple too_large_bases = py::make_tuple(py::handle(PyExc_ValueError), py::handle(PyExc_MemoryError));
  types[static_cast<std::size_t>(ErrorKind::TooLarge)] =
      make("TooLargeError", too_large_bases.ptr(), "A count (games, hands, worlds, tables, megabytes) more than memory can hold.");
}

}  // namespace ddz::py_bind
