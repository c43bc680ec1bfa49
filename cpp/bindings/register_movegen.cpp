// Legal move generation for Python: a list of Moves, a NumPy array, and a batch call that
// runs over many positions with the GIL released.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "../movegen.hpp"
#include "convert.hpp"

namespace ddz::py_bind {

namespace {

// Moves of one position into a buffer reused by the calling thread.
const std::vector<Move>& generate(py::handle hand, py::handle last, py::handle rules) {
  thread_local std::vector<Move> buffer;
  const Rules& r = to_rules(rules);
  const Mask h = to_mask(hand, "hand", r);
  const std::optional<Move> l = to_last(last, r);
  buffer.clear();
  append_legal_moves(h, l ? &*l : nullptr, r, buffer);
  return buffer;
}

py::tuple batch(const py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast>& hands, py::handle lasts,
                py::handle rules) {
  const Rules r = to_rules(rules);
  if (hands.ndim() != 1) throw py::value_error("hands must be a 1-d array of masks");
  const auto n = static_cast<std::size_t>(hands.shape(0));
  std::vector<Move> last_rows = lasts.is_none() ? std::vector<Move>(n) : from_array(lasts, "lasts");
  if (last_rows.size() != n) throw py::value_error("lasts must have one row per hand");
  const std::uint64_t* h = hands.data();

  std::vector<Move> moves;
  std::vector<std::int64_t> offsets(n + 1, 0);
  std::string error;
  {
    py::gil_scoped_release release;
    for (std::size_t i = 0; i < n && error.empty(); ++i) {
      const Move* last = last_rows[i].cards ? &last_rows[i] : nullptr;
      if (auto why = validate_cards(h[i], r); !why.empty()) {
        error = "hands[" + std::to_string(i) + "]: " + why;
      } else if (last && !is_valid_move(*last, r)) {
        error = "lasts[" + std::to_string(i) + "]: not a move under these rules";
      } else {
        append_legal_moves(h[i], last, r, moves);
        offsets[i + 1] = static_cast<std::int64_t>(moves.size());
      }
    }
  }
  if (!error.empty()) throw py::value_error(error);
  return py::make_tuple(to_array(moves.data(), moves.size()), py::array_t<std::int64_t>(offsets.size(), offsets.data()));
}

}  // namespace

void register_movegen(py::module_& m) {
  m.def("legal_moves", [](py::handle hand, py::handle last, py::handle rules) { return generate(hand, last, rules); },
        py::arg("hand"), py::arg("last") = py::none(), py::arg("rules") = py::none(),
        R"doc(The moves `hand` may play: every move when leading (last=None), else those that beat
`last` (a Move, or cards with exactly one reading). Pass is not listed.)doc");
  m.def("legal_moves_array", [](py::handle hand, py::handle last, py::handle rules) {
          const auto& moves = generate(hand, last, rules);
          return to_array(moves.data(), moves.size());
        }, py::arg("hand"), py::arg("last") = py::none(), py::arg("rules") = py::none(),
        "legal_moves as a NumPy array of MOVE_DTYPE rows (the fast path).");
  m.def("legal_moves_batch", &batch, py::arg("hands"), py::arg("lasts") = py::none(), py::arg("rules") = py::none(),
        R"doc(Legal moves of many positions at once, in C++ with the GIL released.

hands: uint64 masks; lasts: None (all lead) or MOVE_DTYPE rows, a row with cards == 0
leading. Returns (moves, offsets): position i's moves are moves[offsets[i]:offsets[i+1]].)doc");
}

}  // namespace ddz::py_bind
