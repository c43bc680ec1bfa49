// `Rules`: the immutable rules configuration, built from keyword fields or a preset name.
#include <pybind11/stl.h>

#include "bindings/convert.hpp"

namespace ddz::py_bind {

namespace {

const RulesField& field_named(py::handle key) {
  // Not a str, or no UTF-8 form (a lone surrogate): no field's name.
  const std::optional<std::string> name = py::isinstance<py::str>(key) ? utf8_of(key) : std::nullopt;
  const RulesField* f = name ? rules_field_named(*name) : nullptr;
  if (!f) {
    throw py::type_error("unknown rules field " + shown(key) +
                         (name == "preset" ? " (Rules.preset(name) gives a preset)" : ""));
  }
  return *f;
}

Rules preset_named(Hinted<"str"> name) {
  if (!py::isinstance<py::str>(name)) throw py::type_error("name must be a str, not " + type_name(name));
  const std::optional<std::string> text = utf8_of(name);  // none for a lone surrogate: no preset's name
  if (const auto r = text ? preset(*text) : std::nullopt) return *r;
  std::string names;
  for (const auto& n : preset_names()) names += (names.empty() ? "" : ", ") + n;
  raise(ErrorKind::Rules, "unknown preset " + shown(name) + "; presets: " + names);
}

py::object field_value(const Rules& r, const RulesField& f) {
  if (f.flag) return py::bool_(r.*(f.flag));
  if (f.number) return py::int_(r.*(f.number));
  return py::str(bidding_name(r.*(f.choice)));
}

// A number field's value: an int (else TypeError); validate() then bounds each field, every
// bound within a million, so a larger value reads as a million and one, of its sign, and
// gets the field's own message.
int number_field(py::handle value, const std::string& what) {
  constexpr long long kPast = 1'000'001;
  try {
    return static_cast<int>(int_arg(value, what.c_str(), -kPast, kPast));
  } catch (const py::value_error&) {
    return py::int_(0) < py::reinterpret_borrow<py::object>(value) ? kPast : -kPast;
  }
}

// A copy of `base` with the given fields set; validated as a whole.
Rules with_fields(Rules r, const py::dict& fields) {
  for (auto [key, value] : fields) {
    const RulesField& f = field_named(key);
    const std::string what = std::string("rules field '") + f.name + "'";
    if (f.choice) {
      const auto b = bidding_named(text_arg(value, what.c_str(), ErrorKind::Rules));
      if (!b) raise(ErrorKind::Rules, what + " must be 'classic', 'call_rob' or 'none', not " + shown(value));
      r.*(f.choice) = *b;
    } else if (f.flag) {
      r.*(f.flag) = bool_arg(value, what.c_str());
    } else if (f.was_flag && is_bool(value)) {
      r.*(f.number) = bool_arg(value, what.c_str()) ? 1 : 0;
    } else {
      r.*(f.number) = number_field(value, what);
    }
  }
  if (auto why = validate(r); !why.empty()) raise(ErrorKind::Rules, "invalid rules: " + why);
  return r;
}

// Rules' fields go by name: a positional argument (a preset's name, the usual first guess,
// or a dict of fields) is refused with the way to what it meant.
void refuse_positional(const py::args& given, const std::string& call, const std::string& example) {
  if (given.empty()) return;
  const py::handle first = given[0];
  const char* hint = py::isinstance<py::str>(first)    ? ": Rules.preset(name) gives a preset"
                     : py::isinstance<py::dict>(first) ? ": give a dict's fields as **fields"
                                                       : "";
  throw py::type_error(call + " takes its fields by name (" + example + "), not a positional " + type_name(first) + hint);
}

py::dict as_dict(const Rules& r) {
  py::dict d;
  for (const RulesField& f : kRulesFields) d[f.name] = field_value(r, f);
  return d;
}

}  // namespace

void register_rules(py::module_& m) {
  public_class<Rules>(m, "Rules", R"doc(The rules configuration (immutable). Standard rules by default.

Every field (docs/rules.md, "The fields of Rules") is a keyword argument; `to_dict()`
names them all. `Rules.preset(name)` gives a named preset or variant, `Rules.presets()`
the names. A value out of a field's range, fields that cannot go together, or an unknown
bidding or preset name raise RulesError; an unknown field or a value of the wrong type
TypeError.)doc")
      // Positional arguments are refused with the way to a preset, the usual first guess
      // (pybind's own words listed the constructor's signature).
      .def(py::init([](const py::args& given, const py::kwargs& fields) {
             refuse_positional(given, "Rules", "Rules(bidding='none')");
             return with_fields(Rules{}, fields);
           }))
      .def_static("preset", &preset_named, py::arg("name"),
                  "The named preset or variant (`Rules.presets()` names them).")
      .def_static("presets", &preset_names, "Names of the presets.")
      .def("replace", [](const Rules& r, const py::args& given, const py::kwargs& fields) {
             refuse_positional(given, "Rules.replace", "rules.replace(bidding='none')");
             return with_fields(r, fields);
           },
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
