#include "convert.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <unordered_map>

namespace ddz::py_bind {

const Rules& widest_rules() {
  static const Rules rules = [] {
    Rules r;
    r.decks = 2;
    return r;
  }();
  return rules;
}

namespace {

[[noreturn]] void value_error(const char* what, const std::string& why) {
  throw py::value_error(std::string(what) + ": " + why);
}

Mask checked(Mask mask, const char* what, const Rules& rules) {
  if (!deck_holds(mask, rules)) value_error(what, validate_cards(mask, rules));
  return mask;
}

std::string type_name(py::handle obj) { return py::str(py::type::of(obj).attr("__name__")); }

Mask parse(const std::string& text, const char* what, const Rules& rules) {
  // Parse against the widest deck so that counts get the same message as other inputs.
  const ParseResult parsed = parse_cards(text, widest_rules().max_per_rank(), widest_rules().max_per_joker());
  if (!parsed.ok()) value_error(what, parsed.error + " in '" + text + "'");
  return checked(parsed.cards, what, rules);
}

// An int-like object (int, numpy.uint64, ...) as a mask, or ValueError.
Mask int_mask(py::handle obj, const char* what) {
  const py::object index = PyLong_CheckExact(obj.ptr()) ? py::reinterpret_borrow<py::object>(obj)
                                                        : py::reinterpret_steal<py::object>(PyNumber_Index(obj.ptr()));
  if (!index) throw py::error_already_set();
  // The signed conversion: masks fit in 60 bits, and CPython converts to a signed 64-bit
  // value digit by digit, where the unsigned one goes through a byte array.
  int overflow = 0;
  const long long signed_value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (signed_value == -1 && PyErr_Occurred()) throw py::error_already_set();
  const unsigned long long value = overflow || signed_value < 0 ? ~0ull : static_cast<unsigned long long>(signed_value);
  if (value > kRankBits) value_error(what, "an int mask must lie in 0..2**60-1");
  return value;
}

}  // namespace

std::string text_arg(py::handle obj, const char* what) {
  if (!py::isinstance<py::str>(obj)) throw py::type_error(std::string(what) + " must be a str, not " + type_name(obj));
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(obj.ptr(), &size);
  if (!data) {
    PyErr_Clear();
    throw py::value_error(std::string(what) + ": the text holds a lone surrogate (not valid Unicode)");
  }
  return std::string(data, static_cast<std::size_t>(size));
}

long long int_arg(py::handle obj, const char* what, long long lo, long long hi) {
  const auto range = [&] {
    return py::value_error(std::string(what) + " must be in " + std::to_string(lo) + ".." + std::to_string(hi));
  };
  if (py::isinstance<py::bool_>(obj) || !PyIndex_Check(obj.ptr())) {
    throw py::type_error(std::string(what) + " must be an int, not " + type_name(obj));
  }
  const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(obj.ptr()));
  if (!index) throw py::error_already_set();
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (value == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (overflow || value < lo || value > hi) throw range();
  return value;
}

int seat_from(py::handle obj, int seats, const char* what) {
  return static_cast<int>(int_arg(obj, what, 0, seats - 1));
}

Mask add_checked(Mask a, Mask b, const char* what) {
  Mask sum = 0;
  for (int r = 0; r < kNumRanks; ++r) {
    // Capped at 15 so the nibble cannot wrap; checked() then reports the excess.
    sum |= cards_of(r, std::min(count(a, r) + count(b, r), 15));
  }
  return checked(sum, what, widest_rules());
}

Mask to_mask(py::handle obj, const char* what, const Rules& rules) {
  // Most frequent first: the fast paths take int masks and Cards.
  if (PyLong_CheckExact(obj.ptr())) return checked(int_mask(obj, what), what, rules);
  if (is_exactly<Cards>(obj) || py::isinstance<Cards>(obj)) return checked(value_of<Cards>(obj).mask, what, rules);
  if (py::isinstance<py::str>(obj)) return parse(text_arg(obj, what), what, rules);
  if (py::isinstance<py::bool_>(obj)) {
    throw py::type_error(std::string(what) + " must be Cards, str or an int mask, not bool");
  }
  if (PyIndex_Check(obj.ptr())) return checked(int_mask(obj, what), what, rules);  // NumPy ints
  if (py::isinstance<py::iterable>(obj) && !py::isinstance<py::bytes>(obj)) {
    Mask sum = 0;
    for (py::handle token : obj) {
      if (!py::isinstance<py::str>(token) && !py::isinstance<Cards>(token)) {
        throw py::type_error(std::string(what) + ": tokens must be str or Cards, not " +
                             std::string(py::str(py::type::of(token).attr("__name__"))));
      }
      sum = add_checked(sum, to_mask(token, what, widest_rules()), what);
    }
    return checked(sum, what, rules);
  }
  throw py::type_error(std::string(what) + " must be Cards, str, an int mask or an iterable of card tokens, not " +
                       std::string(py::str(py::type::of(obj).attr("__name__"))));
}

const Rules& to_rules(py::handle obj) {
  static const Rules standard;
  if (obj.is_none()) return standard;
  if (!is_exactly<Rules>(obj) && !py::isinstance<Rules>(obj)) {
    throw py::type_error("rules must be a Rules or None, not " +
                         std::string(py::str(py::type::of(obj).attr("__name__"))));
  }
  return value_of<Rules>(obj);
}

std::string move_text(const Move& m) { return m.subs ? to_text(spent(m)) + "=" + to_text(m.cards) : to_text(m.cards); }

std::string describe(const Move& m) {
  return move_text(m) + " as " + kind_name(m.kind) + " (key " + std::string(1, rank_char(m.key)) + ", length " +
         std::to_string(m.length) + ")";
}

int wild_arg(py::handle obj, const Rules& rules) {
  if (obj.is_none()) return kNoWild;
  if (!rules.wild) throw py::value_error("wild: a wild rank needs rules with wild cards (Rules.preset('laizi'))");
  if (py::isinstance<py::str>(obj)) {
    const ParseResult p = parse_cards(text_arg(obj, "wild"), 1, 1);
    const int rank = p.ok() && total(p.cards) == 1 ? lowest_rank(ranks_with_at_least(p.cards, 1)) : -1;
    if (rank < 0 || rank > kTwo) throw py::value_error("wild must be one rank character 3..2, such as '5'");
    return rank;
  }
  return static_cast<int>(int_arg(obj, "wild", 0, kTwo));
}

std::vector<Move> readings_of(const std::string& text, const Rules& rules, int wild) {
  const auto slash = text.find('/');
  const std::string cards_text = text.substr(0, slash);
  const auto equals = cards_text.find('=');
  std::vector<Move> readings = classify(to_mask(py::str(cards_text.substr(equals == std::string::npos ? 0 : equals + 1)), "cards", rules), rules);
  if (slash != std::string::npos) {
    const std::string spec = text.substr(slash + 1);
    std::erase_if(readings, [&](const Move& m) { return kind_name(m.kind) + "/" + rank_char(m.key) != spec; });
  }
  if (equals != std::string::npos) {
    const Mask spent_cards = to_mask(py::str(cards_text.substr(0, equals)), "cards spent", rules);
    std::vector<Move> played;
    for (const Move& reading : readings) {
      Move m;
      if (with_spent(reading, spent_cards, wild, m) && wilds_error(m, rules).empty()) played.push_back(m);
    }
    readings = std::move(played);
  }
  return readings;
}

Move single_reading(Mask cards, std::optional<MoveKind> kind, const Rules& rules) {
  std::vector<Move> readings;
  for (const Move& m : classify(cards, rules)) {
    if (!kind || m.kind == *kind) readings.push_back(m);
  }
  if (readings.size() == 1) return readings.front();
  if (readings.empty()) throw py::value_error("'" + to_text(cards) + "' is no combination under these rules" +
                                              (kind ? std::string(" of that kind") : std::string()));
  std::string list;
  for (const Move& m : readings) list += (list.empty() ? "" : "; ") + describe(m);
  throw py::value_error("'" + to_text(cards) + "' has several readings, pass a Move: " + list);
}

namespace {

// One Python object per distinct value, keyed by (cards, packed fields). Never destroyed:
// its objects must not be released after the interpreter is gone.
template <class T>
py::object intern(Mask cards, std::uint64_t fields, const T& value) {
  struct Hash {
    std::size_t operator()(const std::pair<Mask, std::uint64_t>& k) const {
      return std::hash<Mask>{}(k.first ^ (k.second * 0x9E37'79B9'7F4A'7C15ull));
    }
  };
  static auto* table = new std::unordered_map<std::pair<Mask, std::uint64_t>, PyObject*, Hash>();
  const std::pair<Mask, std::uint64_t> key{cards, fields};
  if (const auto it = table->find(key); it != table->end()) return py::reinterpret_borrow<py::object>(it->second);
  py::object obj = py::cast(value);
  table->emplace(key, obj.inc_ref().ptr());
  return obj;
}

std::uint64_t move_fields(const Move& m) {
  return static_cast<std::uint64_t>(m.kind) | std::uint64_t{m.key} << 4 | std::uint64_t{m.length} << 8 |
         std::uint64_t{m.subs} << 16 | std::uint64_t{m.wild_rank} << 32;
}

}  // namespace

py::object interned(const Move& m) { return intern(m.cards, move_fields(m), m); }

py::object interned(const Action& a) {
  return intern(a.move.cards, move_fields(a.move) << 11 | static_cast<std::uint64_t>(a.type) | std::uint64_t{a.value} << 3, a);
}

std::optional<Move> to_last(py::handle obj, const Rules& rules, int wild) {
  if (obj.is_none()) return std::nullopt;
  if (is_exactly<Move>(obj) || py::isinstance<Move>(obj)) {
    const Move& m = value_of<Move>(obj);
    if (!is_valid_move(m, rules)) throw py::value_error("last: " + describe(m) + " is not a move under these rules");
    if (m.subs && m.wild_rank != wild) throw py::value_error("last: " + describe(m) + " has wild cards of another rank");
    return m;
  }
  if (py::isinstance<py::str>(obj) && text_arg(obj, "last").find('=') != std::string::npos) {
    const std::vector<Move> readings = readings_of(text_arg(obj, "last"), rules, wild);
    if (readings.size() != 1) throw py::value_error("last: '" + text_arg(obj, "last") + "' is not one move with these wild cards");
    return readings.front();
  }
  if (py::isinstance<py::str>(obj) || py::isinstance<Cards>(obj)) {
    return single_reading(to_mask(obj, "last", rules), std::nullopt, rules);
  }
  throw py::type_error("last must be a Move, card text, Cards or None, not " +
                       std::string(py::str(py::type::of(obj).attr("__name__"))));
}

}  // namespace ddz::py_bind
