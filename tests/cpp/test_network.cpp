// Network files: a small valid file parses and plays; every truncation and thousands of
// corrupted copies either parse or throw NetworkError (under the sanitizers: never read
// out of bounds); the neural policy is deterministic and plays only what it may.
#include <cstring>
#include <string>
#include <vector>

#include "check.hpp"
#include "base/checksum.hpp"
#include "learn/encode.hpp"
#include "learn/network.hpp"
#include "play/playout.hpp"
#include "play/policy.hpp"
#include "rules/rules.hpp"

using namespace ddz;

namespace {

// The file format written from C++ (the trainer writes it from Python): tensors of
// deterministic small values.
class FileWriter {
 public:
  void tensor(const std::string& name, std::vector<std::uint32_t> dims) {
    tensors_.push_back({name, std::move(dims)});
  }
  // Version 1 ends with the last tensor; version 2 with the checksum of what precedes it.
  std::string bytes(std::uint32_t version) const {
    std::string out(kNetworkMagic);
    put<std::uint32_t>(out, version);
    const std::string meta = "{\"recipe\": \"test\"}";
    put<std::uint32_t>(out, static_cast<std::uint32_t>(meta.size()));
    out += meta;
    put<std::uint32_t>(out, static_cast<std::uint32_t>(tensors_.size()));
    std::uint32_t seed = 1;
    for (const auto& [name, dims] : tensors_) {
      put<std::uint16_t>(out, static_cast<std::uint16_t>(name.size()));
      out += name;
      put<std::uint8_t>(out, static_cast<std::uint8_t>(dims.size()));
      std::size_t size = 1;
      for (const auto d : dims) {
        put<std::uint32_t>(out, d);
        size *= d;
      }
      for (std::size_t i = 0; i < size; ++i) {
        seed = seed * 1664525u + 1013904223u;
        put<float>(out, static_cast<float>(static_cast<int>(seed >> 20) - 2048) / 8192.0f);
      }
    }
    if (version >= 2) put<std::uint32_t>(out, crc32(out));
    return out;
  }

 private:
  template <class T>
  static void put(std::string& out, T value) {
    char raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    out.append(raw, sizeof(T));
  }
  std::vector<std::pair<std::string, std::vector<std::uint32_t>>> tensors_;
};

std::string small_file(std::uint32_t version = kNetworkVersion) {
  const DouZeroLayout layout = douzero_layout(*preset("douzero"));
  constexpr std::uint32_t kHistory = 8, kHidden = 16, kHead = 8;
  FileWriter w;
  const char* names[] = {"landlord", "landlord_down", "landlord_up"};
  for (int p = 0; p < 3; ++p) {
    const std::string pre = std::string("play.") + names[p];
    w.tensor(pre + ".history.weight", {kHistory, static_cast<std::uint32_t>(layout.z_size())});
    w.tensor(pre + ".history.bias", {kHistory});
    w.tensor(pre + ".state.weight", {kHidden, kHistory + static_cast<std::uint32_t>(layout.x[static_cast<std::size_t>(p)].width)});
    w.tensor(pre + ".state.bias", {kHidden});
    w.tensor(pre + ".action.weight", {kHidden, static_cast<std::uint32_t>(layout.action.width)});
    w.tensor(pre + ".plan.weight", {kHidden, 1});
    w.tensor(pre + ".head.0.weight", {kHead, kHidden});
    w.tensor(pre + ".head.0.bias", {kHead});
    w.tensor(pre + ".head.1.weight", {1, kHead});
    w.tensor(pre + ".head.1.bias", {1});
  }
  const std::uint32_t features = static_cast<std::uint32_t>(bid_feature_width(Rules{}));
  w.tensor("bid.classic.layers.0.weight", {kHead, features});
  w.tensor("bid.classic.layers.0.bias", {kHead});
  w.tensor("bid.classic.layers.1.weight", {4, kHead});
  w.tensor("bid.classic.layers.1.bias", {4});
  return w.bytes(version);
}

}  // namespace

TEST(network_small_file_plays_whole_games_deterministically) {
  const auto net = Network::parse(small_file(), "small");
  CHECK(net->play_error(*preset("douzero")).empty());
  CHECK(net->bids(Rules{}));
  CHECK(!net->bids(*preset("douzero")));
  CHECK(!net->play_error(*preset("laizi")).empty());
  const Policy neural{PolicyKind::Neural, net};
  for (const char* name : {"douzero", "standard"}) {
    const Rules rules = *preset(name);
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      const Game once = playout(Game(seed, rules, 0), every_seat(neural), seed);
      const Game again = playout(Game(seed, rules, 0), every_seat(neural), seed);
      CHECK(once.state().phase == Phase::Over);
      CHECK(once.history() .size() == again.history().size());
      CHECK(once.result() == again.result());
    }
  }
}

TEST(network_crc32_is_zlibs) {
  CHECK_EQ(crc32(""), 0u);
  CHECK_EQ(crc32("123456789"), 0xCBF43926u);  // the check value of CRC-32/ISO-HDLC
  CHECK_EQ(crc32("DDZNEURL"), 0x033DF994u);     // zlib.crc32(b"DDZNEURL")
}

TEST(network_files_of_either_version_read_alike) {
  const auto old = Network::parse(small_file(1), "v1");
  const auto now = Network::parse(small_file(2), "v2");
  CHECK(old->tensors() == now->tensors());
  CHECK(now->metadata() == old->metadata());
  try {
    Network::parse(small_file(3), "v3");
    CHECK(false);
  } catch (const NetworkError& e) {
    CHECK(std::string(e.what()).find("format version 3; this engine reads versions 1 to 2") != std::string::npos);
  }
}

// A checksummed file cut short anywhere, or with any one bit changed (a weight's
// included, which version 1 reads as another weight), is refused.
TEST(network_every_cut_and_bit_flip_of_a_checksummed_file_is_refused) {
  const std::string good = small_file(2);
  for (std::size_t n = 0; n < good.size(); n += (n < 400 ? 1 : 61)) {
    bool refused = false;
    try {
      Network::parse(good.substr(0, n), "cut");
    } catch (const NetworkError&) {
      refused = true;
    }
    CHECK(refused);
  }
  for (std::size_t at = 0; at < good.size(); at += (at < 400 ? 1 : 13)) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = good;
      bad[at] = static_cast<char>(bad[at] ^ static_cast<char>(1u << bit));
      bool refused = false;
      try {
        Network::parse(bad, "flipped");
      } catch (const NetworkError&) {
        refused = true;
      }
      CHECK(refused);
    }
  }
}

// Version 1 has no checksum: the parser alone decides, and must never read out of bounds.
TEST(network_every_truncation_and_corruption_is_refused_or_read) {
  const std::string good = small_file(1);
  int refused = 0;
  for (std::size_t n = 0; n < good.size(); n += (n < 400 ? 1 : 97)) {
    try {
      Network::parse(good.substr(0, n), "cut");
    } catch (const NetworkError&) {
      ++refused;
    }
  }
  CHECK(refused > 0);
  std::uint64_t x = 88172645463325252ULL;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string bad = good;
    for (int flips = 0; flips < 3; ++flips) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      // Most flips land in the header and names, where the parser decides.
      const std::size_t at = (x >> 8) % (trial % 2 ? bad.size() : std::min<std::size_t>(bad.size(), 2000));
      bad[at] = static_cast<char>(bad[at] ^ static_cast<char>(1u << (x % 8)));
    }
    try {
      const auto net = Network::parse(bad, "flipped");
      const Rules rules = *preset("douzero");
      if (net->play_error(rules).empty()) {
        Game game(static_cast<std::uint64_t>(trial), rules, 0);
        std::vector<Action> legal;
        game.legal_actions(legal);
        std::vector<float> values;
        net->play_values(view_of(game), douzero_layout(rules), legal, kNoPlan, values);
        CHECK_EQ(values.size(), legal.size());
      }
    } catch (const NetworkError&) {
    }
  }
}
