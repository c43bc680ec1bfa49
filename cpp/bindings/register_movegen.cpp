// Legal move generation for Python: a list of Moves, a NumPy array, and a batch call that
// runs over many positions with the GIL released.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <limits>

#include "bindings/convert.hpp"
#include "bindings/gil_released.hpp"
#include "bindings/signals.hpp"
#include "rules/movegen.hpp"
#include "rules/movegen_batch.hpp"

namespace ddz::py_bind {

namespace {

// Moves of one position into a buffer reused by the calling thread.
const std::vector<Move>& generate(py::handle hand, py::handle last, py::handle rules, py::handle wild) {
  thread_local std::vector<Move> buffer;
  const Rules& r = to_rules(rules);
  const Mask h = hand_arg(hand, "hand", r);
  const WildRanks w = wild_arg(wild, r);
  const std::optional<Move> l = to_last(last, r, w);
  buffer.clear();
  append_legal_moves(h, l ? &*l : nullptr, r, w, buffer);
  return buffer;
}

py::object moves_list(py::handle hand, py::handle last, py::handle rules, py::handle wild) {
  // A copy: interning may release an old Move, whose weakref callbacks may generate
  // moves again on this thread, into the buffer.
  const std::vector<Move> moves = generate(hand, last, rules, wild);
  py::list out(moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) out[i] = interned(moves[i]);
  return out;
}

// One shared read-only empty array: most follows have no move but pass, and a fresh
// NumPy array costs more than generating them.
py::object no_moves() {
  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<py::array> storage;
  return storage
      .call_once_and_store_result([] {
        py::array empty = to_array(nullptr, 0);
        empty.attr("flags").attr("writeable") = false;
        return empty;
      })
      .get_stored();
}

py::object moves_array(py::handle hand, py::handle last, py::handle rules, py::handle wild) {
  const auto& moves = generate(hand, last, rules, wild);
  return moves.empty() ? no_moves() : to_array(moves.data(), moves.size());
}

// The per-position calls use CPython's vectorcall convention directly: pybind11's
// general dispatcher costs more than generating a follow. Arguments: (hand, last=None,
// rules=None, wild=None), positional or by keyword; errors leave as the same typed exceptions.
using PositionCall = py::object (*)(py::handle hand, py::handle last, py::handle rules, py::handle wild);

template <PositionCall call>
PyObject* vectorcall(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  static constexpr const char* kNames[] = {"hand", "last", "rules", "wild"};
  constexpr Py_ssize_t kSlots = 4;
  PyObject* slots[] = {nullptr, Py_None, Py_None, Py_None};
  return guarded([&] {
    if (nargs > kSlots) throw py::type_error("takes at most 4 arguments (hand, last, rules, wild)");
    for (Py_ssize_t i = 0; i < nargs; ++i) slots[i] = args[i];
    const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; ++k) {
      PyObject* name = PyTuple_GET_ITEM(kwnames, k);
      Py_ssize_t slot = 0;
      while (slot < kSlots && PyUnicode_CompareWithASCIIString(name, kNames[slot]) != 0) ++slot;
      if (slot == kSlots) throw py::type_error("unexpected keyword argument '" + py::str(name).cast<std::string>() + "'");
      if (slot < nargs) throw py::type_error(std::string("got multiple values for argument '") + kNames[slot] + "'");
      slots[slot] = args[nargs + k];
    }
    if (!slots[0]) throw py::type_error("missing required argument 'hand'");
    return call(slots[0], slots[1], slots[2], slots[3]);
  });
}

template <PositionCall call>
void def_position_call(py::module_& m, const char* name, const char* doc) {
  // PyMethodDef must outlive the function objects made from it.
  auto* def = new PyMethodDef{name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&vectorcall<call>)),
                              METH_FASTCALL | METH_KEYWORDS, doc};
  m.add_object(name, py::reinterpret_steal<py::object>(PyCFunction_NewEx(def, m.ptr(), m.attr("__name__").ptr())));
}

// A batch's positions and results, reused by the calling thread. The moves' buffer,
// reserved at the size of the thread's previous batch, usually becomes the returned
// array's (take_array).
struct Batch {
  std::vector<Mask> hands;  // copied: another thread may write to the caller's array while the GIL is released
  std::vector<Move> lasts;  // a row with no cards leads
  std::vector<Move> moves;
  std::size_t previous_size = 0;  // moves in the thread's previous batch
  // In a batch's run: a call made meanwhile on this thread (a signal handler run by the
  // Ctrl-C check, with the GIL) takes a batch of its own.
  bool busy = false;

  BatchError run(const Rules& r, WildRanks w, std::int64_t* offsets);
  // Kept for the next call when small (a loop of small batches allocates nothing); a large
  // batch's copies are freed, or the thread would hold its largest batch for its lifetime.
  void release_inputs() {
    constexpr std::size_t kKept = 4096;
    if (hands.capacity() > kKept) hands = std::vector<Mask>();
    if (lasts.capacity() > kKept) lasts = std::vector<Move>();
  }
  // After a batch refused for memory or stopped by Ctrl-C: nothing of it kept.
  void release_all() {
    release_inputs();
    moves = std::vector<Move>();
    previous_size = 0;
  }
};

// The calling thread's batch, out of line so that its address is a value to the caller.
// Each access to a thread_local is a call (__tls_get_addr) from a shared library; where
// the address was known, GCC specialised Batch::run for it and made three such calls per
// position.
[[gnu::noinline]] Batch& thread_batch() {
  thread_local Batch b;
  return b;
}

// Generates every position's moves and their offsets (append_batch_moves), at most as
// many as a quarter of the machine's memory holds: the buffer grows by doubling, and
// while it moves the old and the new take three times what it holds.
BatchError Batch::run(const Rules& r, WildRanks w, std::int64_t* offsets) {
  const std::size_t memory = physical_memory_bytes();
  const std::size_t most_moves = memory ? memory / 4 / sizeof(Move) : std::numeric_limits<std::size_t>::max();
  moves.clear();
  if (moves.capacity() != previous_size) {  // taken by the previous array, or grown past its size
    moves = std::vector<Move>();
    moves.reserve(previous_size);
  }
  BatchError error = append_batch_moves(hands, lasts, r, w, moves, offsets, most_moves);
  previous_size = moves.size();
  return error;
}

py::tuple batch(ArrayLikeArg hands_arg, Hinted<"npt.NDArray[np.void] | None"> lasts, RulesArg rules, WildArg wild) {
  const Rules r = to_rules(rules);
  const WildRanks w = wild_arg(wild, r);
  // Integer masks only: forcecast would turn 1.5 into 1, True into 1 and '33' into 33. A
  // sequence's items are read as ints one by one; no mask reaches past int64.
  const auto items = int_items(hands_arg, "hands", [](py::ssize_t i, const std::string&) {
    raise(ErrorKind::Cards, "hands[" + std::to_string(i) + "]: bits set outside the 15 ranks");
  });
  const auto given = items ? py::array(*items) : array_or_null(hands_arg);
  if (!given) throw py::type_error("hands must be a 1-d array (or sequence) of int masks");
  const char dtype_kind = given.dtype().kind();  // the type before the shape: text is no masks, whatever its shape
  if (given.size() > 0 && dtype_kind != 'i' && dtype_kind != 'u') {
    throw py::type_error("hands must hold int masks, not " + std::string(py::str(given.dtype())));
  }
  if (given.ndim() != 1) throw py::value_error("hands must be a 1-d array of masks");
  const auto hands = py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>::ensure(
      given.size() > 0 ? py::object(given) : py::object(py::array_t<std::uint64_t>(0)));
  if (!hands) throw py::type_error("hands must hold int masks");
  const auto n = static_cast<std::size_t>(hands.shape(0));
  // `lasts` is read before the thread's batch is touched: reading it may run Python code
  // (an __array__) that makes a batch call of its own on this thread.
  std::vector<Move> last_rows;
  if (!lasts.is_none()) {
    rows_into(last_rows, lasts, move_dtype(), "MOVE_DTYPE", "lasts");
    if (last_rows.size() != n) throw py::value_error("lasts must have one row per hand");
  }
  py::array_t<std::int64_t> offsets(static_cast<py::ssize_t>(n + 1));
  Batch& shared = thread_batch();
  Batch own;
  Batch& b = shared.busy ? own : shared;
  b.hands.assign(hands.data(), hands.data() + n);
  if (lasts.is_none()) {
    b.lasts.assign(n, Move{});
  } else {
    b.lasts.swap(last_rows);
  }
  BatchError error;
  b.busy = true;
  try {
    // A batch shorter than the stops' interval never asks to stop: no Ctrl-C check to
    // install, which is most of a one-position call's fixed cost.
    const auto run = [&] { return b.run(r, w, offsets.mutable_data()); };
    error = within_memory("hands", static_cast<long long>(n), "hands' moves", [&] {
      if (n < kPositionsBetweenStops) {
        GilReleased released;
        return run();
      }
      return interruptible(run);
    });
  } catch (...) {
    b.busy = false;
    b.release_all();
    throw;
  }
  b.busy = false;
  b.release_inputs();
  if (error) {
    raise(error.part == BatchError::Part::Hand ? ErrorKind::Cards : ErrorKind::Move, error.why);
  }
  return py::make_tuple(take_array(b.moves), offsets);
}

}  // namespace

void register_movegen(py::module_& m) {
  def_position_call<&moves_list>(m, "legal_moves", R"doc(legal_moves($module, /, hand, last=None, rules=None, wild=None)
--

The moves `hand` may play: every move when leading (last=None), else those that beat
`last` (a Move, or move text with exactly one reading). Pass is not listed. Under rules
with wild cards `wild` is the wild rank (laizi: index 0..12 or a character such as '5';
laizi2: two of them, as a tuple or list; None: no rank is wild), and every distinct
(cards spent, combination) is listed once.)doc");
  def_position_call<&moves_array>(m, "legal_moves_array", R"doc(legal_moves_array($module, /, hand, last=None, rules=None, wild=None)
--

legal_moves as a NumPy array of MOVE_DTYPE rows (the fast path).)doc");
  m.def("legal_moves_batch", &batch, py::arg("hands"), py::arg("lasts") = py::none(), py::arg("rules") = py::none(),
        py::arg("wild") = py::none(),
        R"doc(Legal moves of many positions at once, in C++ with the GIL released.

hands: uint64 masks; lasts: None (all lead) or MOVE_DTYPE rows, a row with cards == 0
leading; wild: the wild rank of every position (rules with wild cards). Returns (moves, offsets): position i's moves are moves[offsets[i]:offsets[i+1]].)doc");
}

}  // namespace ddz::py_bind
