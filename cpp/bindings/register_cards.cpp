// `Cards`: an immutable multiset of cards (up to two decks), shown in canonical text.
#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include "bindings/convert.hpp"

namespace ddz::py_bind {

namespace {

Cards from_counts(Hinted<"Sequence[int]"> obj) {
  if (!holds_items(obj)) {
    throw py::type_error("counts must be a sequence of 15 ints, not " + type_name(obj));
  }
  const auto counts = py::reinterpret_borrow<py::sequence>(obj);
  if (py::len(counts) != kNumRanks) raise(ErrorKind::Cards, "counts must have 15 entries (ranks 3..R)");
  Mask mask = 0;
  for (int r = 0; r < kNumRanks; ++r) {
    // An object, not a handle: the item may be made fresh by the sequence (a NumPy
    // scalar), and a handle would outlive it.
    const py::object c = counts[static_cast<std::size_t>(r)];
    mask = add_checked(mask, cards_of(r, count_arg(c, "counts", std::string("the count of rank ") + rank_char(r))), "counts");
  }
  return Cards{mask};
}

// An order of Cards by inclusion, `holds(a, b)` on masks; NotImplemented for anything but
// Cards, so that Python refuses the comparison in its own words.
template <class F>
auto ordering(F holds) {
  return [holds](const Cards& a, py::handle b) -> py::object {
    if (!py::isinstance<Cards>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    return py::bool_(holds(a.mask, value_of<Cards>(b).mask));
  };
}

}  // namespace

void register_cards(py::module_& m) {
  public_class<Cards>(m, "Cards", R"doc(An immutable multiset of cards; suits are ignored.

Built from card text ('33344456', 'BR', '10', '3s 3h', '3♠3♥'), another Cards, an iterable
of card tokens (['3', '3', 'K']), a mapping of rank to count ({'3': 3, '4': 2}), or an int
mask (4 bits per rank, rank r at bits 4r..4r+3, ranks 3..A 2 B R as 0..14). Up to two decks'
counts (8 of a rank, 2 of each joker). x in cards asks for a rank; a <= b is inclusion.)doc")
      .def(py::init([](CardsArg cards) { return Cards{to_mask(cards, "cards")}; }), py::arg("cards") = "")
      .def_static("from_mask", [](IntArg mask) {
            if (!is_int_like(mask)) throw py::type_error("mask must be an int, not " + type_name(mask));
            return Cards{to_mask(mask, "mask")};
          }, py::arg("mask"), "Cards from an int mask (4 bits per rank).")
      .def_static("from_counts", &from_counts, py::arg("counts"), "Cards from 15 per-rank counts (3..A, 2, B, R).")
      .def_property_readonly("mask", [](const Cards& c) { return c.mask; }, "The int mask, 4 bits per rank.")
      .def_property_readonly("counts", [](const Cards& c) {
            py::tuple t(kNumRanks);
            for (int r = 0; r < kNumRanks; ++r) t[static_cast<std::size_t>(r)] = count(c.mask, r);
            return t;
          }, "Per-rank counts, ranks 3..A, 2, B, R.")
      .def("count", [](const Cards& c, RankArg rank) { return count(c.mask, rank_arg(rank, "rank", kNumRanks - 1)); }, py::arg("rank"),
           "How many cards of a rank (index 0..14 or a character such as 'T').")
      .def("__contains__", [](const Cards& c, RankArg rank) { return count(c.mask, rank_arg(rank, "rank", kNumRanks - 1)) > 0; },
           py::arg("rank"),
           "Whether the cards hold a card of `rank` (index 0..14 or a character such as 'T' or '10'), as count reads "
           "it: TypeError or ValueError for anything else.")
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
            return py::bool_(a.mask == value_of<Cards>(b).mask);
          })
      .def("__le__", ordering([](Mask a, Mask b) { return contains(b, a); }))
      .def("__lt__", ordering([](Mask a, Mask b) { return a != b && contains(b, a); }))
      .def("__ge__", ordering([](Mask a, Mask b) { return contains(a, b); }))
      .def("__gt__", ordering([](Mask a, Mask b) { return a != b && contains(a, b); }))
      .def("__add__", [](const Cards& a, py::handle b) { return Cards{add_checked(a.mask, to_mask(b, "cards"), "cards")}; })
      .def("__sub__", [](const Cards& a, py::handle b) {
            const Mask other = to_mask(b, "cards");
            if (!contains(a.mask, other)) {
              raise(ErrorKind::Cards, "cannot remove '" + to_text(other) + "' from '" + to_text(a.mask) + "': not all held");
            }
            return Cards{a.mask - other};
          })
      .def(py::pickle([](const Cards& c) { return py::make_tuple(c.mask); },
                      [](py::handle state) { return Cards{to_mask(pickled_fields(state, "Cards", 1, ErrorKind::Cards)[0], "mask")}; }));
  m.def("rank_name", [](RankArg rank) { return std::string(1, rank_char(rank_arg(rank, "rank", kNumRanks - 1))); },
        py::arg("rank"), "The card character of a rank index: 0 -> '3', ..., 7 -> 'T', 12 -> '2', 13 -> 'B', 14 -> 'R'.");
  m.def("half_width", [](Hinted<"str"> text) {
          std::string storage;
          return std::string(half_width(text_arg(text, "text"), storage));
        }, py::arg("text"),
        "`text` as card text, move text and action words are read: full-width forms of ASCII and the ideographic space as ASCII.");
}

}  // namespace ddz::py_bind
