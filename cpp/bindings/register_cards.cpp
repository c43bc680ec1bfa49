// `Cards`: an immutable multiset of cards (up to two decks), shown in canonical text.
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <climits>

#include "convert.hpp"

namespace ddz::py_bind {

namespace {

int rank_arg(py::handle rank) {
  if (py::isinstance<py::str>(rank)) {
    const ParseResult p = parse_cards(text_arg(rank, "rank"), 1, 1);
    if (!p.ok() || total(p.cards) != 1) throw py::value_error("rank must be one card character such as '3' or 'T'");
    return lowest_rank(ranks_with_at_least(p.cards, 1));
  }
  if (py::isinstance<py::int_>(rank) && !py::isinstance<py::bool_>(rank)) {
    int overflow = 0;
    const long long r = PyLong_AsLongLongAndOverflow(rank.ptr(), &overflow);
    if (overflow || r < 0 || r >= kNumRanks) throw py::value_error("rank index must be in 0..14");
    return static_cast<int>(r);
  }
  throw py::type_error("rank must be a rank index (int) or a rank character (str)");
}

Cards from_counts(const py::sequence& counts) {
  if (py::len(counts) != kNumRanks) throw py::value_error("counts must have 15 entries (ranks 3..R)");
  Mask mask = 0;
  for (int r = 0; r < kNumRanks; ++r) {
    // An object, not a handle: the item may be made fresh by the sequence (a NumPy
    // scalar), and a handle would outlive it.
    const py::object c = counts[static_cast<std::size_t>(r)];
    if (!py::isinstance<py::int_>(c) || py::isinstance<py::bool_>(c)) throw py::type_error("counts must be ints");
    int overflow = 0;
    long long n = PyLong_AsLongLongAndOverflow(c.ptr(), &overflow);
    if (overflow) n = overflow > 0 ? LLONG_MAX : LLONG_MIN;
    if (n < 0) throw py::value_error("counts: negative count for rank " + std::string(1, rank_char(r)));
    if (n > 15) throw py::value_error("counts: " + std::to_string(n) + " cards of rank " + rank_char(r));
    mask |= cards_of(r, static_cast<int>(n));
  }
  return Cards{to_mask(py::int_(mask), "counts")};
}

}  // namespace

void register_cards(py::module_& m) {
  py::class_<Cards>(m, "Cards", R"doc(An immutable multiset of cards; suits are ignored.

Built from card text ('33344456', 'BR', '10', '3s 3h', '3♠3♥'), another Cards, an iterable
of card tokens, or an int mask (4 bits per rank, rank r at bits 4r..4r+3, ranks 3..A 2 B R
as 0..14). Up to two decks' counts (8 of a rank, 2 of each joker).)doc")
      .def(py::init([](py::handle cards) { return Cards{to_mask(cards, "cards")}; }), py::arg("cards") = "")
      .def_static("from_mask", [](py::handle mask) {
            if (!py::isinstance<py::int_>(mask) || py::isinstance<py::bool_>(mask)) throw py::type_error("mask must be an int");
            return Cards{to_mask(mask, "mask")};
          }, py::arg("mask"), "Cards from an int mask (4 bits per rank).")
      .def_static("from_counts", &from_counts, py::arg("counts"), "Cards from 15 per-rank counts (3..A, 2, B, R).")
      .def_property_readonly("mask", [](const Cards& c) { return c.mask; }, "The int mask, 4 bits per rank.")
      .def_property_readonly("counts", [](const Cards& c) {
            py::tuple t(kNumRanks);
            for (int r = 0; r < kNumRanks; ++r) t[static_cast<std::size_t>(r)] = count(c.mask, r);
            return t;
          }, "Per-rank counts, ranks 3..A, 2, B, R.")
      .def("count", [](const Cards& c, py::handle rank) { return count(c.mask, rank_arg(rank)); }, py::arg("rank"),
           "How many cards of a rank (index 0..14 or a character such as 'T').")
      .def("__len__", [](const Cards& c) { return total(c.mask); })
      .def("__bool__", [](const Cards& c) { return c.mask != 0; })
      .def("__iter__", [](const Cards& c) {
            py::list cards;
            for (char ch : to_text(c.mask)) cards.append(py::str(std::string(1, ch)));
            return py::iter(cards);
          }, "One character per card, ascending.")
      .def("__str__", [](const Cards& c) { return to_text(c.mask); })
      .def("__repr__", [](const Cards& c) { return "Cards('" + to_text(c.mask) + "')"; })
      .def("__hash__", [](const Cards& c) { return py::hash(py::int_(c.mask)); })
      .def("__eq__", [](const Cards& a, py::handle b) -> py::object {
            if (!py::isinstance<Cards>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(a.mask == b.cast<const Cards&>().mask);
          })
      .def("__le__", [](const Cards& a, const Cards& b) { return contains(b.mask, a.mask); })
      .def("__lt__", [](const Cards& a, const Cards& b) { return a.mask != b.mask && contains(b.mask, a.mask); })
      .def("__ge__", [](const Cards& a, const Cards& b) { return contains(a.mask, b.mask); })
      .def("__gt__", [](const Cards& a, const Cards& b) { return a.mask != b.mask && contains(a.mask, b.mask); })
      .def("__add__", [](const Cards& a, py::handle b) { return Cards{add_checked(a.mask, to_mask(b, "cards"), "cards")}; })
      .def("__sub__", [](const Cards& a, py::handle b) {
            const Mask other = to_mask(b, "cards");
            if (!contains(a.mask, other)) {
              throw py::value_error("cannot remove '" + to_text(other) + "' from '" + to_text(a.mask) + "': not all held");
            }
            return Cards{a.mask - other};
          })
      .def(py::pickle([](const Cards& c) { return py::make_tuple(c.mask); },
                      [](const py::tuple& t) { return Cards{to_mask(t[0], "mask")}; }));
}

}  // namespace ddz::py_bind
