// What the bindings rely on beyond pybind11's and NumPy's documented interfaces, all of
// it here (tests/test_bindings_private.py checks that no other file reaches into
// pybind11::detail, and exercises each reliance). Each is kept for a measured cost or a
// guarantee the public interface does not give:
// - whether an instance's C++ value was constructed (the mark pybind11 reads to refuse a
//   second __init__): an instance made by `T.__new__(T)` alone holds none, and a method
//   handed it would read garbage;
// - a bound value read straight from its instance, a pointer away, where a cast costs
//   a type lookup per call (the per-position entries);
// - NumPy's flags of an array and an array made over memory of our own, by NumPy's C API
//   through pybind11's table of it (pybind11's array constructor allocates shape and
//   stride vectors, as costly as generating a follow);
// - the text a signature shows for an argument taken as a handle (Hinted): pybind11 names
//   a handle `object`, and its handle_type_name trait is the one way to say more.
// Verified against pybind11 3.0 and 3.1; a new major version fails the build below until
// this file is checked again.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/typing.h>

#include <cstddef>
#include <type_traits>
#include <utility>

static_assert(PYBIND11_VERSION_MAJOR == 3,
              "bindings/pybind_private.hpp relies on pybind11 3.x internals: check each reliance against this version");

namespace ddz::py_bind {

namespace py = pybind11;

// TypeError naming the class of `obj`, an instance whose C++ value was never constructed.
[[noreturn]] void not_constructed(py::handle obj);

// Whether the instance `obj` (of a bound class, `info` its type) holds a constructed value.
inline bool constructed(py::handle obj, const py::detail::type_info* info = nullptr) {
  return reinterpret_cast<py::detail::instance*>(obj.ptr())->get_value_and_holder(info).instance_registered();
}

// The T inside `obj`, an instance of exactly T's bound type holding a constructed value.
template <class T>
const T& stored_value(py::handle obj) {
  return *reinterpret_cast<py::detail::instance*>(obj.ptr())->get_value_and_holder().template value_ptr<T>();
}

// The caster of every bound class (DDZ_CONSTRUCTED_CASTER): pybind11's own, which for an
// instance made by `T.__new__(T)` alone would hand the method uninitialised memory (or
// null), refusing such an instance first with a TypeError naming its class.
template <class T>
class constructed_caster : public py::detail::type_caster_base<T> {
 public:
  bool load(py::handle src, bool convert) {
    static const py::detail::type_info* const info = py::detail::get_type_info(typeid(T));
    if (info && PyObject_TypeCheck(src.ptr(), info->type) && !constructed(src, info)) not_constructed(src);
    return py::detail::type_caster_base<T>::load(src, convert);
  }
};

// Whether T's caster is the checked one.
template <class T>
inline constexpr bool has_constructed_caster = std::is_base_of_v<constructed_caster<T>, py::detail::make_caster<T>>;

// Whether `obj` is a C-contiguous NumPy array (read from its flags, no conversion).
inline bool is_c_contiguous_array(py::handle obj) {
  return py::isinstance<py::array>(obj) && (py::detail::array_proxy(obj.ptr())->flags & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_);
}

// py::array::ensure, except that an error of the object's own code (its __array__'s: a
// RuntimeError, Ctrl-C's KeyboardInterrupt) propagates, where ensure cleared it; NumPy's
// refusals (TypeError, ValueError) give a null array, for an error naming the argument.
inline py::array array_or_null(py::handle obj, int flags = 0) {
  auto& api = py::detail::npy_api::get();
  PyObject* raw = api.PyArray_FromAny_(obj.ptr(), nullptr, 0, 0, py::detail::npy_api::NPY_ARRAY_ENSUREARRAY_ | flags, nullptr);
  if (!raw) {
    if (!PyErr_ExceptionMatches(PyExc_TypeError) && !PyErr_ExceptionMatches(PyExc_ValueError)) throw py::error_already_set();
    PyErr_Clear();
    return py::reinterpret_steal<py::array>(py::handle());  // null: py::array() is an empty array
  }
  return py::reinterpret_steal<py::array>(raw);
}

// A writable 1-d array of `n` rows of `dtype` over `data`, which the capsule `owner`
// frees (on failure too). NumPy allocates a structured dtype array by a slow path (it
// asks how to zero-fill it); memory of our own skips that.
inline py::array array_over(const py::dtype& dtype, void* data, std::size_t n, PyObject* owner) {
  if (!owner) throw py::error_already_set();
  const auto& api = py::detail::npy_api::get();
  const Py_intptr_t length = static_cast<Py_intptr_t>(n);
  PyObject* array = api.PyArray_NewFromDescr_(api.PyArray_Type_, dtype.inc_ref().ptr(), 1, &length, nullptr, data,
                                              py::detail::npy_api::NPY_ARRAY_WRITEABLE_, nullptr);
  if (!array || api.PyArray_SetBaseObject_(array, owner) != 0) {  // SetBaseObject steals `owner`
    if (!array) Py_DECREF(owner);
    Py_XDECREF(array);
    throw py::error_already_set();
  }
  return py::reinterpret_steal<py::array>(array);
}

// An argument the bindings take as a handle and convert by hand (convert.hpp, so that its
// errors name it), shown in the signature help() prints as `Hint`: its Python type as
// _core.pyi writes it (tests/test_signatures.py holds the two together). It accepts any
// object, as a handle does; as a result it shows what a py::object result holds.
template <py::typing::StringLiteral Hint>
class Hinted : public py::object {
 public:
  using py::object::object;
  Hinted(py::object obj) : py::object(std::move(obj)) {}  // NOLINT(google-explicit-constructor)
  static bool check_(py::handle h) { return h.ptr() != nullptr; }
};

}  // namespace ddz::py_bind

template <pybind11::typing::StringLiteral Hint>
struct pybind11::detail::handle_type_name<ddz::py_bind::Hinted<Hint>> {
  static constexpr auto name = const_name(Hint.name);
};

// Declares the checked caster of bound class T; at global scope, before any use of T's caster.
#define DDZ_CONSTRUCTED_CASTER(T) \
  template <>                     \
  class pybind11::detail::type_caster<T> : public ::ddz::py_bind::constructed_caster<T> {}
