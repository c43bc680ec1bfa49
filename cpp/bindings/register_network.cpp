// The learned policy's networks (network.hpp) for Python: read a file, see what it holds,
// value a game's actions (the tests hold these values against PyTorch's), and the
// shipped network's place.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "bindings/convert.hpp"
#include "learn/network.hpp"
#include "play/policy.hpp"

namespace ddz::py_bind {

namespace {

std::string path_arg(py::handle path) {
  if (!py::isinstance<py::str>(path) && !py::hasattr(path, "__fspath__")) {
    throw py::type_error("path must be a str or os.PathLike, not " + type_name(path));
  }
  const py::module_ os = py::module_::import("os");
  const py::object name = os.attr("fspath")(path);
  if (!py::isinstance<py::str>(name)) throw py::type_error("path must name a file as a str, not " + type_name(name));
  // The bytes the file system knows it by: a name of bytes no UTF-8 reads back as
  // surrogates (os.fsdecode), which UTF-8 cannot encode, and open() takes.
  const auto bytes = os.attr("fsencode")(name).cast<std::string>();
  if (bytes.find('\0') != std::string::npos) throw py::value_error("path: embedded null byte");  // as open() says
  return bytes;
}

py::dict tensors_of(const Network& net) {
  py::dict out;
  for (const auto& [name, t] : net.tensors()) {
    std::vector<py::ssize_t> shape(t.dims.begin(), t.dims.end());
    py::array_t<float> a(shape);
    std::copy(t.values.begin(), t.values.end(), a.mutable_data());
    out[py::str(name)] = a;
  }
  return out;
}

py::array_t<float> values_of(const Network& net, GameArg game_obj) {
  const Game& game = game_arg(game_obj);
  const State& s = game.state();
  std::vector<float> values;
  if (s.phase == Phase::Bidding) {
    if (!net.bids(game.rules())) raise(ErrorKind::Network, "these networks do not bid under these rules");
    net.bid_values(s, game.rules(), values);
  } else {
    if (s.phase != Phase::Playing) raise(ErrorKind::IllegalAction, "the hand is over: no action to value");
    if (std::string why = net.play_error(game.rules()); !why.empty()) raise(ErrorKind::Network, why);
    neural_play_values(net, game, game.legal_actions(), values);
  }
  py::array_t<float> out(static_cast<py::ssize_t>(values.size()));
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

// A network never changes once read: its copy, deep or not, is itself (an uninitialised
// one refused, as its other methods refuse it).
py::object itself(py::handle self) {
  if (!py::isinstance<Network>(self)) throw py::type_error("self must be a Network, not " + type_name(self));
  if (!constructed(self)) not_constructed(self);
  return py::reinterpret_borrow<py::object>(self);
}

}  // namespace

void register_network(py::module_& m) {
  public_class<Network, std::shared_ptr<Network>>(m, "Network", R"doc(A learned policy's networks, read from a file
(the format: docs/guide/learned_bot.md); NetworkError names what is wrong with a file.)doc")
      .def(py::init([](PathArg path) { return Network::read(path_arg(path)); }), py::arg("path"))
      .def_property_readonly("metadata", &Network::metadata, "The file's metadata: JSON text (how it was made).")
      .def(
          "check",
          [](const Network& net, RulesArg rules) {
            if (std::string why = net.play_error(to_rules(rules)); !why.empty()) raise(ErrorKind::Network, why);
          },
          py::arg("rules"), "Raises NetworkError naming why these networks cannot play under `rules`; else nothing.")
      .def("tensors", &tensors_of, "Every tensor of the file by name, as float32 arrays (PyTorch's shapes).")
      .def("values", &values_of, py::arg("game"),
           "While bidding, the expected payout of each bid output (classic: pass, 1, 2, 3; call and rob: no, yes);\n"
           "in play, the value of each of game.legal_actions(), in that order.")
      // Never changed once read: a copy (deep or not) is the same networks.
      .def("__copy__", [](Hinted<"Network"> self) { return itself(self); })
      .def("__deepcopy__", [](Hinted<"Network"> self, py::handle) { return itself(self); }, py::arg("memo"))
      .def("__repr__", [](const Network& net) { return "<doudizhu.Network of " + std::to_string(net.tensors().size()) + " tensors>"; });
  m.def("bid_features", [](GameArg game_obj) {
          const Game& game = game_arg(game_obj);
          const State& s = game.state();
          if (s.phase != Phase::Bidding) raise(ErrorKind::IllegalAction, "the auction is over: no bid to make");
          const Rules& rules = game.rules();
          if (rules.bidding == Bidding::None) raise(ErrorKind::General, "these rules have no auction");
          py::array_t<std::int8_t> out(bid_feature_width(rules));
          bid_features(s, rules, out.mutable_data());
          return out;
        }, py::arg("game"), "The bidding features of the seat to move (network.hpp), what the bid networks read.");
  m.def("bid_feature_width", [](RulesArg rules) { return bid_feature_width(to_rules(rules)); }, py::arg("rules"),
        "The width of a bid network's features under `rules` (classic or call-and-rob bidding).");
  m.attr("NETWORK_MAGIC") = py::bytes(std::string(kNetworkMagic));
  m.attr("NETWORK_VERSION") = kNetworkVersion;
  m.def("_set_shipped_network", [](PathArg path) { set_shipped_network_path(path_arg(path)); }, py::arg("path"),
        "Where the network the 'neural' policy plays lies (the package sets it at import).");
  m.def("shipped_network", []() { return std::const_pointer_cast<Network>(shipped_network()); },
        "The network the 'neural' policy plays (read at the first use; NetworkError if it cannot be).");
}

}  // namespace ddz::py_bind
