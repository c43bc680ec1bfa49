// The vectorized environment for Python (vector_env.hpp): arguments converted and checked,
// the tables stepped and the batch written with the GIL released, into NumPy arrays the
// caller owns (doudizhu/envs/vector.py allocates and reuses them).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <limits>
#include <atomic>
#include <new>
#include <stdexcept>
#include <thread>
#include <type_traits>

#include "bindings/convert.hpp"
#include "bindings/gil_released.hpp"
#include "bindings/signals.hpp"
#include "play/vector_env.hpp"

namespace ddz::py_bind {

// Named, not anonymous: a unity build shares one anonymous namespace among the bindings.
namespace vector_env_binding {

// One environment and whether a call is in it: its calls run without the GIL, so two
// Python threads could otherwise step the same tables at once; and a call may run Python
// code (a choices array's __array__) that calls in again on the same thread, which a
// mutex's try_lock may not be asked (undefined behaviour for its owner).
struct PyVectorEnv {
  explicit PyVectorEnv(const VectorEnvOptions& options) : env(options) {}
  VectorEnv env;
  std::atomic<bool> busy{false};
};

}  // namespace vector_env_binding
}  // namespace ddz::py_bind

DDZ_CONSTRUCTED_CASTER(ddz::py_bind::vector_env_binding::PyVectorEnv);

namespace ddz::py_bind {
namespace vector_env_binding {

// The environment taken for one call (RuntimeError while another call is in it), given
// back when the call ends.
class InUse {
 public:
  explicit InUse(PyVectorEnv& e) : e_(e) {
    if (e.busy.exchange(true, std::memory_order_acquire)) {
      throw std::runtime_error("this VectorEnv is in use by another call (one at a time)");
    }
  }
  InUse(const InUse&) = delete;
  InUse& operator=(const InUse&) = delete;
  ~InUse() { e_.busy.store(false, std::memory_order_release); }

 private:
  PyVectorEnv& e_;
};

Features features_arg(py::handle obj) {
  if (obj.is_none()) return Features::None;
  const std::string name = text_arg(obj, "features");
  if (name == "compact") return Features::Compact;
  if (name == "douzero") return Features::DouZero;
  throw py::value_error("features must be 'compact', 'douzero' or None, not " + quoted(name));
}

// "all", "landlord", "peasants", a seat, or a sequence of distinct seats.
Learners learners_arg(py::handle obj, int players) {
  Learners l;
  if (py::isinstance<py::str>(obj)) {
    const std::string name = text_arg(obj, "learners");
    if (name == "all") l.seats = static_cast<std::uint8_t>((1u << players) - 1);
    else if (name == "landlord") l.by = Learners::By::Landlord;
    else if (name == "peasants") l.by = Learners::By::Peasants;
    else throw py::value_error("learners must be 'all', 'landlord', 'peasants', a seat or a list of seats, not " + quoted(name));
    return l;
  }
  if (is_int_like(obj)) {
    l.seats = static_cast<std::uint8_t>(1u << seat_from(obj, players, "learners"));
    return l;
  }
  if (!holds_items(obj)) {
    throw py::type_error("learners must be 'all', 'landlord', 'peasants', a seat or a list of seats, not " + type_name(obj));
  }
  const auto seats = py::list(py::reinterpret_borrow<py::object>(obj));  // a copy: reading it runs no user code
  for (std::size_t i = 0; i < seats.size(); ++i) {
    const auto bit = static_cast<std::uint8_t>(1u << seat_from(seats[i], players, "learners"));
    if (l.seats & bit) throw py::value_error("learners: seat " + std::string(py::str(seats[i])) + " is listed twice");
    l.seats |= bit;
  }
  return l;
}

int threads_arg(py::handle obj) {
  if (obj.is_none()) return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return static_cast<int>(int_arg(obj, "threads", 1, 256));
}

// Tables hold about 30 kB each: a million of them is more than a machine of this kind holds.
constexpr int kMaxTables = 1 << 20;
// The least a table holds once played (bench/RESULTS.md, "Memory per table": 26,938 bytes
// without features).
constexpr std::size_t kLeastTableBytes = 26'000;

std::unique_ptr<PyVectorEnv> make(IntArg num_envs, RulesArg rules, Hinted<"str | None"> features, Hinted<"str | int | Sequence[int]"> learners,
                                  Hinted<"object"> opponents, OptionalIntArg seed, OptionalIntArg threads, BoolArg mask,
                                  OptionalIntArg batch_size) {
  VectorEnvOptions o;
  o.num_envs = static_cast<int>(int_arg(num_envs, "num_envs", 1, kMaxTables));
  const std::size_t least = static_cast<std::size_t>(o.num_envs) * kLeastTableBytes;
  check_fits_memory("num_envs", least, std::to_string(o.num_envs) + " tables (at least " + std::to_string(least >> 20) + " MB)");
  o.rules = to_rules(rules);
  o.features = features_arg(features);
  o.mask = bool_arg(mask, "mask");
  o.learners = learners_arg(learners, o.rules.players);
  o.opponents = named_errors("opponents", [&] { return policies_arg(opponents, o.rules.players, true); });
  o.seed = seed_arg(seed);
  o.threads = threads_arg(threads);
  o.batch_size = batch_size.is_none() ? 0 : static_cast<int>(int_arg(batch_size, "batch_size", 1, o.num_envs));
  return within_memory("num_envs", o.num_envs, "tables", [&] { return std::make_unique<PyVectorEnv>(o); });
}

// The choices as int64: a 1-d array (or sequence) of integers; TypeError for other types.
py::array_t<std::int64_t> choices_arg(py::handle obj) {
  return int64_array_arg(obj, "choices, one per decision of the batch,", [](py::ssize_t b, const std::string& value) {
    raise(ErrorKind::IllegalAction, "choices[" + std::to_string(b) + "] = " + value + ": no legal action has that index");
  });
}

// What a batch holds after a reset or step: (its actions, the hands that ended).
py::tuple sizes(const VectorEnv& env) { return py::make_tuple(env.offsets().back(), env.finished().size()); }

// Applies the choices with `how` (VectorEnv::step or send) without the GIL, once they are
// checked. They are copied first: the caller's array may be written by another thread once
// the GIL is released, and what was checked must be what is applied.
void apply_choices(PyVectorEnv& e, py::handle choices_obj, void (VectorEnv::*how)(const std::int64_t*, std::size_t)) {
  const auto given = choices_arg(choices_obj);
  const std::vector<std::int64_t> choices(given.data(), given.data() + given.size());
  if (e.env.sent()) throw std::runtime_error("this batch's choices were sent: recv() the next batch first");
  if (auto why = e.env.choices_error(choices.data(), choices.size()); !why.empty()) raise(ErrorKind::IllegalAction, why);
  interruptible([&] { (e.env.*how)(choices.data(), choices.size()); });
}

py::tuple step(PyVectorEnv& e, ArrayLikeArg choices) {
  const InUse held(e);
  apply_choices(e, choices, &VectorEnv::step);
  return sizes(e.env);
}

void send(PyVectorEnv& e, ArrayLikeArg choices) {
  const InUse held(e);
  apply_choices(e, choices, &VectorEnv::send);
}

py::tuple recv(PyVectorEnv& e) {
  const InUse held(e);
  if (!e.env.sent()) throw std::runtime_error("send() the batch's choices before recv()");
  interruptible([&] { e.env.recv(); });
  return sizes(e.env);
}

// The batch's arrays are read only between a recv (or reset, or step) and the next send.
void require_received(const VectorEnv& env) {
  if (!env.started()) throw py::value_error("reset() the environment first");
  if (env.sent()) throw std::runtime_error("this batch's choices were sent: recv() the next batch first");
}

py::tuple reset(PyVectorEnv& e, OptionalIntArg seed) {
  const InUse held(e);
  const std::uint64_t s = seed.is_none() ? e.env.options().seed : seed_arg(seed);
  interruptible([&] { e.env.reset(s); });
  return sizes(e.env);
}

// Points a field of BatchOut at an array's data.
using Setter = void (*)(BatchOut&, void*);
template <auto Field>
void set(BatchOut& out, void* data) {
  out.*Field = static_cast<std::remove_reference_t<decltype(out.*Field)>>(data);
}

// One array of a batch: its name, dtype and shape, and the field of BatchOut it fills.
struct OutArray {
  const char* name;
  py::dtype dtype;
  std::vector<py::ssize_t> shape;
  Setter setter;
};

// The arrays of a batch of `a` actions: what `write` checks and fills.
std::vector<OutArray> batch_layout(const VectorEnv& env, py::ssize_t a) {
  const py::ssize_t b = env.batch_size();
  const auto i8 = py::dtype::of<std::int8_t>(), i64 = py::dtype::of<std::int64_t>();
  std::vector<OutArray> out{{"env", i64, {b}, &set<&BatchOut::env>}, {"seat", i8, {b}, &set<&BatchOut::seat>}, {"offsets", i64, {b + 1}, &set<&BatchOut::offsets>}, {"actions", action_dtype(), {a}, &set<&BatchOut::actions>}};
  const Features features = env.options().features;
  if (features == Features::Compact) {
    out.push_back({"observation", py::dtype::of<float>(), {b, env.observation_size()}, &set<&BatchOut::observation>});
    out.push_back({"action_ids", i64, {a}, &set<&BatchOut::action_ids>});
    if (env.options().rules.wild) out.push_back({"stand_in_ids", i64, {a}, &set<&BatchOut::stand_in_ids>});
    if (env.options().mask) out.push_back({"mask", py::dtype::of<bool>(), {b, env.action_space()->size()}, &set<&BatchOut::mask>});
  } else if (features == Features::DouZero) {
    const DouZeroLayout& dz = env.douzero_layout();
    out.push_back({"x_no_action", i8, {b, dz.batch_width}, &set<&BatchOut::x_no_action>});
    out.push_back({"z", i8, {b, dz.z_rows, dz.z_cols}, &set<&BatchOut::z>});
    out.push_back({"position", i8, {b}, &set<&BatchOut::position>});
    out.push_back({"action_planes", i8, {a, dz.action.width}, &set<&BatchOut::action_planes>});
  }
  return out;
}

// The layout for Python, read once: the first dimension of per-action arrays is -1 (the
// batch's action count, which step() returns).
py::list layout_list(PyVectorEnv& e) {
  const InUse held(e);
  py::list out;
  for (const OutArray& o : batch_layout(e.env, -1)) out.append(py::make_tuple(o.name, py::tuple(py::cast(o.shape)), o.dtype));
  return out;
}

// The data of out[spec.name]: exactly the spec's dtype and shape, C-contiguous and
// writable; TypeError / ValueError otherwise. The array is kept in `held`.
void* out_data(const py::dict& arrays, const OutArray& spec, std::vector<py::array>& held) {
  const std::string what = std::string("out[") + quoted(spec.name) + "]";
  if (!arrays.contains(spec.name)) throw py::value_error(what + " is missing");
  const py::object obj = arrays[spec.name];
  if (!py::isinstance<py::array>(obj)) throw py::type_error(what + " must be a NumPy array, not " + type_name(obj));
  auto arr = py::reinterpret_borrow<py::array>(obj);
  const bool shaped = arr.ndim() == static_cast<py::ssize_t>(spec.shape.size()) &&
                      std::equal(spec.shape.begin(), spec.shape.end(), arr.shape());
  if (!arr.dtype().equal(spec.dtype) || !shaped || !is_c_contiguous_array(arr) || !arr.writeable()) {
    throw py::value_error(what + " must be a writable C-contiguous array of " + std::string(py::str(spec.dtype)) +
                          " and shape " + std::string(py::str(py::tuple(py::cast(spec.shape)))));
  }
  held.push_back(arr);
  return arr.mutable_data();
}

void write(PyVectorEnv& e, const Hinted<"dict[str, npt.NDArray[Any]]">& arrays) {
  const InUse held_lock(e);
  const VectorEnv& env = e.env;
  require_received(env);
  std::vector<py::array> held;
  BatchOut out;
  for (const OutArray& spec : batch_layout(env, env.offsets().back())) spec.setter(out, out_data(arrays, spec, held));
  GilReleased release;
  env.write(out);
}

// The hands that ended in the last reset or step, one row each.
py::dict finished(PyVectorEnv& e) {
  const InUse held(e);
  if (e.env.started()) require_received(e.env);
  const auto& rows = e.env.finished();
  const int players = e.env.options().rules.players;
  py::array_t<std::int64_t> payouts({static_cast<py::ssize_t>(rows.size()), static_cast<py::ssize_t>(players)});
  auto p = payouts.mutable_unchecked<2>();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (int j = 0; j < players; ++j) p(i, j) = rows[i].summary.payouts[static_cast<std::size_t>(j)];
  }
  py::dict out;
  out["env"] = column<std::int64_t>(rows, [](const FinishedHand& f) { return f.env; });
  out["hand"] = column<std::int64_t>(rows, [](const FinishedHand& f) { return f.hand; });
  out["payouts"] = payouts;
  out["landlord"] = column<std::int8_t>(rows, [](const FinishedHand& f) { return f.summary.landlord; });
  out["landlord_won"] = column<bool>(rows, [](const FinishedHand& f) { return f.summary.landlord_won; });
  out["base"] = column<std::int32_t>(rows, [](const FinishedHand& f) { return f.summary.base; });
  out["multiplier"] = column<std::int32_t>(rows, [](const FinishedHand& f) { return f.summary.multiplier; });
  out["moves"] = column<std::int32_t>(rows, [](const FinishedHand& f) { return f.summary.moves; });
  return out;
}

Game game(PyVectorEnv& e, IntArg index) {
  const InUse held(e);
  const int env = static_cast<int>(int_arg(index, "env", 0, e.env.num_envs() - 1));
  GilReleased release;  // the table may be playing a sent batch
  return e.env.game(env);
}

}  // namespace vector_env_binding

void register_vector_env(py::module_& m) {
  using namespace vector_env_binding;
  m.attr("DOUZERO_X_WIDTHS") = py::make_tuple(douzero_x_width(DouZeroPosition::Landlord), douzero_x_width(DouZeroPosition::LandlordDown),
                                              douzero_x_width(DouZeroPosition::LandlordUp));
  bound_class<PyVectorEnv>(m, "VectorEnvCore", "The C++ tables of doudizhu.envs.VectorEnv (use that class).")
      .def(py::init(&make), py::arg("num_envs"), py::arg("rules"), py::arg("features"), py::arg("learners"),
           py::arg("opponents"), py::arg("seed"), py::arg("threads"), py::arg("mask"), py::arg("batch_size"))
      .def("reset", &reset, py::arg("seed"), "Deals every table (seed None: the current seed) without the GIL; (actions, finished hands).")
      .def("step", &step, py::arg("choices"), "Applies one choice per decision and plays to the next batch, without the GIL; (actions, finished hands).")
      .def("send", &send, py::arg("choices"), "Applies one choice per decision and plays those tables on a background thread.")
      .def("recv", &recv, "Waits for the next batch without the GIL; (actions, finished hands).")
      .def("batch_layout", &layout_list, "The arrays of a batch as `write` takes them: (name, shape, dtype), -1 for the batch's action count.")
      .def("write", &write, py::arg("out"), "Writes the pending decisions into the arrays of `out`, without the GIL.")
      .def("finished", &finished, "The hands that ended in the last reset or step.")
      .def("game", &game, py::arg("env"), "A copy of table `env`'s game.")
      .def_property_readonly("num_envs", [](PyVectorEnv& e) { return e.env.num_envs(); })
      .def_property_readonly("observation_size", [](PyVectorEnv& e) { return e.env.observation_size(); })
      .def_property_readonly("seed", [](PyVectorEnv& e) { const InUse held(e); return e.env.options().seed; })
      .def_property_readonly("threads", [](PyVectorEnv& e) { return e.env.options().threads; })
      .def_property_readonly("batch_size", [](PyVectorEnv& e) { return e.env.batch_size(); })
      ;
}

}  // namespace ddz::py_bind
