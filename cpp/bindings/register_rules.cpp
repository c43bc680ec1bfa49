// `Rules`: the immutable rules configuration, built from keyword fields or a preset name.
#include <pybind11/stl.h>

#include "convert.hpp"

namespace ddz::py_bind {

namespace {

// Every field, once: name and member drive construction, replace, repr, equality,
// hashing and pickling alike. A field is a flag, a number or a choice (bidding).
struct Field {
  const char* name;
  bool Rules::* flag;
  int Rules::* number;
  Bidding Rules::* choice;
};
constexpr Field kFields[] = {
    {"four_with_two", &Rules::four_with_two, nullptr, nullptr},
    {"max_solo_kicker_copies", nullptr, &Rules::max_solo_kicker_copies, nullptr},
    {"kicker_trio_extends_airplane", &Rules::kicker_trio_extends_airplane, nullptr, nullptr},
    {"joker_kicks_four_with_two", &Rules::joker_kicks_four_with_two, nullptr, nullptr},
    {"both_jokers_as_kickers", &Rules::both_jokers_as_kickers, nullptr, nullptr},
    {"pair_kickers_share_rank", &Rules::pair_kickers_share_rank, nullptr, nullptr},
    {"decks", nullptr, &Rules::decks, nullptr},
    {"players", nullptr, &Rules::players, nullptr},
    {"kitty_size", nullptr, &Rules::kitty_size, nullptr},
    {"start_bonus", &Rules::start_bonus, nullptr, nullptr},
    {"bidding", nullptr, nullptr, &Rules::bidding},
    {"passed_may_bid_again", &Rules::passed_may_bid_again, nullptr, nullptr},
    {"redeal_when_nobody_bids", &Rules::redeal_when_nobody_bids, nullptr, nullptr},
    {"call_base", nullptr, &Rules::call_base, nullptr},
    {"max_multiplier", nullptr, &Rules::max_multiplier, nullptr},
    {"max_redeals", nullptr, &Rules::max_redeals, nullptr},
    {"wild", &Rules::wild, nullptr, nullptr},
};
constexpr const char* kBiddingNames[] = {"classic", "call_rob", "none"};

const Field& field_named(py::handle key) {
  if (py::isinstance<py::str>(key)) {
    Py_ssize_t size = 0;
    const char* name = PyUnicode_AsUTF8AndSize(key.ptr(), &size);
    if (!name) PyErr_Clear();
    for (const Field& f : kFields) {
      if (name && std::string_view(name, static_cast<std::size_t>(size)) == f.name) return f;
    }
  }
  throw py::type_error("unknown rules field " + std::string(py::repr(key)));
}

py::object field_value(const Rules& r, const Field& f) {
  if (f.flag) return py::bool_(r.*(f.flag));
  if (f.number) return py::int_(r.*(f.number));
  return py::str(kBiddingNames[static_cast<int>(r.*(f.choice))]);
}

Bidding bidding_named(py::handle value) {
  if (!py::isinstance<py::str>(value)) throw py::type_error("rules field 'bidding' must be a str");
  const auto name = text_arg(value, "rules field 'bidding'");
  for (int i = 0; i < 3; ++i) {
    if (name == kBiddingNames[i]) return static_cast<Bidding>(i);
  }
  throw py::value_error("rules field 'bidding' must be 'classic', 'call_rob' or 'none', not '" + name + "'");
}

// A copy of `base` with the given fields set; validated as a whole.
Rules with_fields(Rules r, const py::dict& fields) {
  for (auto [key, value] : fields) {
    const Field& f = field_named(key);
    const bool is_bool = py::isinstance<py::bool_>(value);
    if (f.choice) {
      r.*(f.choice) = bidding_named(value);
    } else if (f.flag) {
      if (!is_bool) throw py::type_error(std::string("rules field '") + f.name + "' must be a bool");
      r.*(f.flag) = value.cast<bool>();
    } else {
      if (is_bool || !py::isinstance<py::int_>(value)) throw py::type_error(std::string("rules field '") + f.name + "' must be an int");
      int overflow = 0;
      const long long n = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
      if (overflow || n < -1'000'000 || n > 1'000'000) throw py::value_error(std::string("rules field '") + f.name + "' is out of range");
      r.*(f.number) = static_cast<int>(n);
    }
  }
  if (auto why = validate(r); !why.empty()) throw py::value_error("invalid rules: " + why);
  return r;
}

py::dict as_dict(const Rules& r) {
  py::dict d;
  for (const Field& f : kFields) d[f.name] = field_value(r, f);
  return d;
}

}  // namespace

void register_rules(py::module_& m) {
  py::class_<Rules>(m, "Rules", R"doc(The rules configuration (immutable). Standard rules by default.

Every field (docs/rules.md, "The fields of Rules") is a keyword argument: the combinations'
four_with_two, max_solo_kicker_copies, kicker_trio_extends_airplane,
joker_kicks_four_with_two, both_jokers_as_kickers, pair_kickers_share_rank, decks;
and the game's players (3, or 4 with decks=2), kitty_size (the rest of the deck is dealt
in equal hands), start_bonus, bidding ('classic', 'call_rob' or 'none'),
passed_may_bid_again, redeal_when_nobody_bids, call_base, max_multiplier (0: no cap),
max_redeals, wild (laizi: a wild rank is drawn after each deal).
Rules.preset(name) gives 'standard', 'douzero', 'rlcard', 'openspiel', or the variants
'sanren', 'happy', 'four_player' and 'laizi'.)doc")
      .def(py::init([](const py::kwargs& fields) { return with_fields(Rules{}, fields); }))
      .def_static("preset", [](const std::string& name) {
            if (auto r = preset(name)) return *r;
            std::string names;
            for (const auto& n : preset_names()) names += (names.empty() ? "" : ", ") + n;
            throw py::value_error("unknown preset '" + name + "'; presets: " + names);
          }, py::arg("name"), "The named preset: standard, douzero, rlcard, openspiel, sanren, happy, four_player or laizi.")
      .def_static("presets", &preset_names, "Names of the presets.")
      .def("replace", [](const Rules& r, const py::kwargs& fields) { return with_fields(r, fields); },
           "A copy with the given fields changed.")
      .def("to_dict", &as_dict, "The fields as a dict.")
      .def("__repr__", [](const Rules& r) {
            for (const auto& name : preset_names()) {
              if (preset(name) == r) return "Rules.preset('" + name + "')";
            }
            std::string s = "Rules(";
            bool first = true;
            for (const Field& f : kFields) {
              s += std::string(first ? "" : ", ") + f.name + "=" + std::string(py::repr(field_value(r, f)));
              first = false;
            }
            return s + ")";
          })
      .def("__eq__", [](const Rules& a, py::handle b) -> py::object {
            if (!py::isinstance<Rules>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
            return py::bool_(a == b.cast<const Rules&>());
          })
      .def("__hash__", [](const Rules& r) { return py::hash(py::tuple(as_dict(r).attr("values")())); })
      .def(py::pickle([](const Rules& r) { return as_dict(r); },
                      [](const py::dict& d) { return with_fields(Rules{}, d); }));
  for (const Field& f : kFields) {
    m.attr("Rules").cast<py::class_<Rules>>().def_property_readonly(
        f.name, [f](const Rules& r) { return field_value(r, f); });
  }
}

}  // namespace ddz::py_bind
