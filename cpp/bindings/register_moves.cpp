// `MoveKind`, `Move`, `classify` and the NumPy row format of moves (`MOVE_DTYPE`).
#include <pybind11/native_enum.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "bindings/convert.hpp"
#include "rules/move_checks.hpp"

namespace ddz::py_bind {

namespace {

// A Move from its pickled fields: (cards, kind, key, length, stand_ins, wild_rank), checked
// as a row is.
Move unpickle(py::handle state) {
  const py::tuple t = pickled_fields(state, "Move", 6, ErrorKind::Move);
  Move m{to_mask(t[0], "pickled Move cards"),
         static_cast<MoveKind>(int_arg(t[1], "pickled Move kind", 0, kNumMoveKinds - 1)),
         static_cast<std::uint8_t>(int_arg(t[2], "pickled Move key", 0, kNumRanks - 1)),
         static_cast<std::uint8_t>(int_arg(t[3], "pickled Move length", 1, 255)),
         static_cast<std::uint8_t>(int_arg(t[5], "pickled Move wild_rank", 0, 0xFF)),
         static_cast<std::uint32_t>(int_arg(t[4], "pickled Move stand_ins", 0, 0xFFFF'FFFF))};
  if (m.cards == 0) raise(ErrorKind::Move, "pickled Move: a Move holds cards");
  if (auto why = move_error(m); !why.empty()) raise(ErrorKind::Move, "pickled Move: " + why);
  return m;
}

// The kind argument: None or a MoveKind; TypeError otherwise (pybind11's enum cast would
// answer with its own list of signatures).
std::optional<MoveKind> kind_arg(py::handle obj) {
  if (obj.is_none()) return std::nullopt;
  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<py::object> storage;
  const py::object& kinds =
      storage.call_once_and_store_result([] { return py::module_::import("doudizhu._core").attr("MoveKind"); }).get_stored();
  if (!py::isinstance(obj, kinds)) throw py::type_error("kind must be a MoveKind or None, not " + type_name(obj));
  return obj.cast<MoveKind>();
}

// The Move `obj` holds, or TypeError naming `what`.
const Move& move_of(py::handle obj, const char* what) {
  if (!is_exactly<Move>(obj) && !py::isinstance<Move>(obj)) throw py::type_error(std::string(what) + " must be a Move, not " + type_name(obj));
  return value_of<Move>(obj);
}

// ", wild='5'" or ", wild=('5', '9')": the wild ranks whose cards stand in, as Move() takes them.
std::string wild_repr(const Move& mv) {
  const StandInGroups g = stand_in_groups(mv);
  if (g.first.wild == kNoWild) return {};
  const std::string low = std::string("'") + rank_char(g.first.wild) + "'";
  if (g.second.wild == kNoWild) return ", wild=" + low;
  return ", wild=(" + low + ", '" + rank_char(g.second.wild) + "')";
}

}  // namespace

py::dtype structured_dtype(std::initializer_list<const char*> names, std::initializer_list<const char*> formats,
                           std::initializer_list<std::size_t> offsets, std::size_t itemsize) {
  py::list n, f, o;
  for (const char* name : names) n.append(name);
  for (const char* format : formats) f.append(format);
  for (const std::size_t offset : offsets) o.append(offset);
  py::dict spec;
  spec["names"] = n;
  spec["formats"] = f;
  spec["offsets"] = o;
  spec["itemsize"] = itemsize;
  return py::dtype::from_args(spec);
}

py::dtype move_dtype() {
  // Built once and kept for the life of the process: a static py::object would be
  // released after the interpreter is gone.
  PYBIND11_CONSTINIT static py::gil_safe_call_once_and_store<py::dtype> storage;
  return storage
      .call_once_and_store_result([] {
        return structured_dtype({"cards", "kind", "key", "length", "wild_rank", "stand_ins"},
                                {"<u8", "u1", "u1", "u1", "u1", "<u4"},
                                {offsetof(Move, cards), offsetof(Move, kind), offsetof(Move, key), offsetof(Move, length),
                                 offsetof(Move, wild_rank), offsetof(Move, stand_ins)},
                                sizeof(Move));
      })
      .get_stored();
}

py::array structured_rows(const py::dtype& dtype, const void* rows, std::size_t n, std::size_t row_size) {
  void* data = std::malloc(std::max<std::size_t>(n * row_size, 1));
  if (!data) throw std::bad_alloc();
  if (n) std::memcpy(data, rows, n * row_size);
  PyObject* owner = PyCapsule_New(data, nullptr, [](PyObject* capsule) { std::free(PyCapsule_GetPointer(capsule, nullptr)); });
  if (!owner) std::free(data);
  return array_over(dtype, data, n, owner);
}

py::array to_array(const Move* moves, std::size_t n) { return structured_rows(move_dtype(), moves, n, sizeof(Move)); }

py::array take_array(std::vector<Move>& moves) {
  // An array keeps its whole buffer alive: a buffer much larger than its moves is copied.
  const std::size_t slack = moves.capacity() - moves.size();
  if (moves.empty() || slack > moves.size() / 8 + 64) return to_array(moves.data(), moves.size());
  auto* owned = new std::vector<Move>(std::move(moves));
  Move* data = owned->data();
  const std::size_t n = owned->size();
  PyObject* owner = PyCapsule_New(owned, nullptr, [](PyObject* capsule) {
    delete static_cast<std::vector<Move>*>(PyCapsule_GetPointer(capsule, nullptr));
  });
  if (!owner) delete owned;
  return array_over(move_dtype(), data, n, owner);
}

std::vector<Move> from_array(py::handle obj, const char* what, const Rules* rules) {
  std::vector<Move> moves = rows_from<Move>(obj, move_dtype(), "MOVE_DTYPE", what);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (auto why = move_error(moves[i], rules); !why.empty()) raise(ErrorKind::Move, std::string(what) + "[" + std::to_string(i) + "]: " + why);
  }
  return moves;
}

void register_moves(py::module_& m) {
  py::native_enum<MoveKind> kinds(m, "MoveKind", "enum.IntEnum", "The 17 kinds of combination (the last three: Run Fast's).");
  for (int k = 0; k < kNumMoveKinds; ++k) kinds.value(kind_name(static_cast<MoveKind>(k)), static_cast<MoveKind>(k));
  kinds.finalize();
  m.attr("MoveKind").attr("__module__") = kPackage;

  public_class<Move>(m, "Move", R"doc(One reading of a set of cards as a combination (immutable).

cards: the Cards played; kind: a MoveKind; key: rank index (0..14) of the lowest body
rank (kickers never count); length: chain units for chains, cards for bombs and the
rocket, else 1. str(move) is its card text, with /KIND/rank/length where the cards read
several ways under some preset (docs/rules.md, "Records"). Move(cards, kind=None,
rules=None, wild=None) picks the only reading of the cards (of `kind` when given; move
text may name one: Move("333444555666/AIRPLANE_SOLOS/4", rules=Rules.preset("douzero")),
cards that read three ways there) and raises ValueError otherwise.

With wild cards (laizi) `cards` is the combination as it stands and `spent` the cards it
takes from the hand; `wilds` wild cards of rank `wild_rank` stand in for the ranks of
`stand_ins`. str(move) is then "spent=cards", and Move("34556=34567", wild="5",
rules=Rules.preset("laizi")) builds one. With two wild ranks (laizi2) the cards of both
may stand in: `wild_ranks` and `stand_in_groups` say which stand for what, and
Move("5779=7777", wild=("5", "9"), rules=Rules.preset("laizi2")) builds one.)doc")
      .def(py::init([](CardsArg cards, Hinted<"MoveKind | None"> kind, RulesArg rules, WildArg wild) {
             const Rules& r = to_rules(rules);
             return move_arg(cards, kind_arg(kind), r, wild_arg(wild, r), "cards");
           }),
           py::arg("cards"), py::arg("kind") = py::none(), py::arg("rules") = py::none(), py::arg("wild") = py::none())
      .def_property_readonly("cards", [](const Move& mv) { return Cards{mv.cards}; })
      .def_property_readonly("kind", [](const Move& mv) { return mv.kind; })
      .def_property_readonly("key", [](const Move& mv) { return mv.key; })
      .def_property_readonly("length", [](const Move& mv) { return mv.length; })
      .def_property_readonly("is_short", [](const Move& mv) { return is_short(mv); },
                             "Run Fast: a trio or airplane with fewer than two kickers a trio, legal only as the last cards.")
      .def_property_readonly("spent", [](const Move& mv) { return Cards{spent(mv)}; }, "The cards the move takes from the hand.")
      .def_property_readonly("kickers", [](const Move& mv) { return Cards{kickers_of(mv)}; },
                             "The kickers among `cards` (3 of 6663; none for a kind without them), as the combination stands.")
      .def_property_readonly("wilds", [](const Move& mv) { return stand_in_count(mv); },
                             "How many wild cards stand in for other ranks (0: a natural move).")
      .def_property_readonly("stand_ins", [](const Move& mv) { return Cards{stand_in_cards(mv)}; },
                             "The ranks the wild cards stand in for, one card each.")
      .def_property_readonly("wild_rank", [](const Move& mv) {
            const StandInGroups g = stand_in_groups(mv);
            if (g.second.wild != kNoWild) raise(ErrorKind::General, "wild cards of two ranks stand in: read Move.wild_ranks");
            return wild_obj(g.first.wild);
          }, "The rank index of the wild cards standing in, or None for a natural move; DoudizhuError when cards of two wild ranks stand in (read wild_ranks).")
      .def_property_readonly("wild_ranks", [](const Move& mv) {
            const StandInGroups g = stand_in_groups(mv);
            return wild_tuple({g.first.wild, g.second.wild});
          }, "The rank indexes of the wild cards standing in, lowest first: () for a natural move.")
      .def_property_readonly("stand_in_groups", [](const Move& mv) {
            const StandInGroups g = stand_in_groups(mv);
            py::list out;
            for (const StandInGroup& group : {g.first, g.second}) {
              if (group.wild != kNoWild) out.append(py::make_tuple(group.wild, Cards{group.ranks}));
            }
            return py::tuple(out);
          }, "(wild rank, Cards of the ranks its cards stand for) for each wild rank whose cards stand in, lowest first.")
      .def_property_readonly("soft", [](const Move& mv) { return is_soft_bomb(mv); }, "Whether this is a soft bomb (with wild cards).")
      .def(
          "beats",
          [](const Move& a, Hinted<"Move"> b) {
            const Move other = move_of(b, "other");
            if (std::string why = short_move_error(other); !why.empty()) raise(ErrorKind::Move, "other: " + why);
            return beats(a, other);
          },
          py::arg("other"), "Whether this move may be played over `other` (MoveError when nothing is: Run Fast's short moves).")
      .def("__str__", [](const Move& mv) { return unmistakable_text(mv); })
      .def("__repr__", [](const Move& mv) {
            return "Move('" + move_text(mv) + "', MoveKind." + kind_name(mv.kind) + ", key=" + std::to_string(mv.key) +
                   ", length=" + std::to_string(mv.length) +
                   wild_repr(mv) + ")";
          })
      .def("__eq__", [](const Move& a, py::handle b) -> py::object {
            if (!py::isinstance<Move>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(a == value_of<Move>(b));
          })
      .def("__hash__", [](const Move& mv) { return static_cast<py::ssize_t>(move_hash(mv) >> 1); })
      .def(py::pickle([](const Move& mv) {
                        return py::make_tuple(mv.cards, static_cast<int>(mv.kind), mv.key, mv.length, mv.stand_ins, mv.wild_rank);
                      },
                      &unpickle));

  m.def("classify", [](CardsArg cards, RulesArg rules) {
          const Rules& r = to_rules(rules);
          return classify(to_mask(cards, "cards", r), r);
        }, py::arg("cards"), py::arg("rules") = py::none(),
        "Every reading of the cards as a combination under the rules; [] if none.");

  m.attr("MOVE_DTYPE") = move_dtype();
  m.def("moves_to_array", [](Hinted<"Iterable[Move | None]"> moves) {
          std::vector<Move> rows;
          for (py::handle mv : moves) {
            if (!mv.is_none() && !py::isinstance<Move>(mv)) throw py::type_error("moves must hold Move or None, not " + type_name(mv));
            rows.push_back(mv.is_none() ? Move{} : value_of<Move>(mv));
          }
          return to_array(rows.data(), rows.size());
        }, py::arg("moves"), "Rows of MOVE_DTYPE for Moves; None becomes an empty row (cards 0: lead).");
  m.def("moves_from_array", [](Hinted<"npt.NDArray[Any]"> arr, RulesArg rules) {
          const std::vector<Move> moves = rules.is_none() ? from_array(arr, "moves") : from_array(arr, "moves", &to_rules(rules));
          py::list out;
          for (const Move& mv : moves) out.append(mv.cards ? py::cast(mv) : py::none());
          return Hinted<"list[Move | None]">(std::move(out));
        }, py::arg("moves"), py::arg("rules") = py::none(),
        "Moves for rows of MOVE_DTYPE, each checked as Move() checks it: under `rules`, or under some rules when None; "
        "an empty row (moves_to_array's None) is None.");
}

}  // namespace ddz::py_bind
