// `Rules`: the immutable rules configuration, built from keyword fields or a preset name.
#include <pybind11/stl.h>

#include "bindings/convert.hpp"

namespace ddz::py_bind {

namespace {

const RulesField& field_named(py::handle key) {
  // Not a str, or no UTF-8 form (a lone surrogate): no field's name.
  const std::optional<std::string> name = py::isinstance<py::str>(key) ? utf8_of(key) : std::nullopt;
  const RulesField* f = name ? rules_field_named(*name) : nullptr;
  if (!f) throw py::type_error("unknown rules field " + std::string(py::repr(key)));
  return *f;
}

Rules preset_named(Hinted<"str"> name) {
  if (!py::isinstance<py::str>(name)) throw py::type_error("name must be a str, not " + type_name(name));
  const std::optional<std::string> text = utf8_of(name);  // none for a lone surrogate: no preset's name
  if (const auto r = text ? preset(*text) : std::nullopt) return *r;
  std::string names;
  for (const auto& n : preset_names()) names += (names.empty() ? "" : ", ") + n;
  throw py::value_error("unknown preset " + std::string(py::repr(name)) + "; presets: " + names);
}

py::object field_value(const Rules& r, const RulesField& f) {
  if (f.flag) return py::bool_(r.*(f.flag));
  if (f.number) return py::int_(r.*(f.number));
  return py::str(bidding_name(r.*(f.choice)));
}

// A copy of `base` with the given fields set; validated as a whole.
Rules with_fields(Rules r, const py::dict& fields) {
  for (auto [key, value] : fields) {
    const RulesField& f = field_named(key);
    const std::string what = std::string("rules field '") + f.name + "'";
    if (f.choice) {
      const auto b = bidding_named(text_arg(value, what.c_str()));
      if (!b) throw py::value_error(what + " must be 'classic', 'call_rob' or 'none', not " + std::string(py::repr(value)));
      r.*(f.choice) = *b;
    } else if (f.flag) {
      r.*(f.flag) = bool_arg(value, what.c_str());
    } else if (f.was_flag && is_bool(value)) {
      r.*(f.number) = bool_arg(value, what.c_str()) ? 1 : 0;
    } else {
      r.*(f.number) = static_cast<int>(int_arg(value, what.c_str(), -1'000'000, 1'000'000));  // validate() bounds each field
    }
  }
  if (auto why = validate(r); !why.empty()) throw py::value_error("invalid rules: " + why);
  return r;
}

py::dict as_dict(const Rules& r) {
  py::dict d;
  for (const RulesField& f : kRulesFields) d[f.name] = field_value(r, f);
  return d;
}

}  // namespace

void register_rules(py::module_& m) {
  public_class<Rules>(m, "Rules", R"doc(The rules configuration (immutable). Standard rules by default.

Every field (docs/rules.md, "The fields of Rules") is a keyword argument: the combinations'
four_with_two, max_solo_kicker_copies, kicker_trio_extends_airplane,
joker_kicks_four_with_two, both_jokers_as_kickers, pair_kickers_share_rank, decks;
and the game's players (3, or 4 with decks=2), kitty_size (the rest of the deck is dealt
in equal hands), start_bonus, bidding ('classic', 'call_rob' or 'none'),
passed_may_bid_again, redeal_when_nobody_bids, call_base, max_multiplier (0: no cap),
max_redeals, wild (the number of wild ranks drawn after each deal: 0, 1 for laizi, 2 for
laizi2; True and False read as 1 and 0), partner (players=4 only: the landlord may name a
partner and play two against two).
Rules.preset(name) gives 'standard', 'douzero', 'rlcard', 'openspiel', or the variants
'sanren', 'happy', 'four_player', 'laizi', 'laizi2' and 'four_partner'.)doc")
      .def(py::init([](const py::kwargs& fields) { return with_fields(Rules{}, fields); }))
      .def_static("preset", &preset_named, py::arg("name"),
                  "The named preset: standard, douzero, rlcard, openspiel, sanren, happy, four_player, laizi, laizi2\n"
                  "or four_partner.")
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
            for (const RulesField& f : kRulesFields) {
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
                      [](py::handle state) {
                        if (!py::isinstance<py::dict>(state)) throw py::type_error("a pickled Rules is a dict, not " + type_name(state));
                        return with_fields(Rules{}, py::reinterpret_borrow<py::dict>(state));
                      }));
  for (const RulesField& f : kRulesFields) {
    m.attr("Rules").cast<py::class_<Rules>>().def_property_readonly(
        f.name, [f](const Rules& r) { return field_value(r, f); });
  }
}

}  // namespace ddz::py_bind
