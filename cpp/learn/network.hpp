// The learned policy's networks in plain float32 layers, read from one versioned file and
// evaluated without a framework (docs/guide/learned_bot.md).
//
// Play: one value network per DouZero position (encode.hpp), in two halves as the trainer
// fits it: once per decision, the history z through `history` (ReLU), then with the
// state x_no_action through `state`; once per legal action, the action's part of x_batch
// through `action`, added to the decision's row (with `plan`, a column added to the row of
// the action the heuristic's plan plays: the fast heuristic's choice), ReLU, then the
// `head` layers (ReLU between them; the last gives the action's value). Splitting the first layer's weight
// by input columns is exact: the values are those of the layer on the whole x_batch row.
//
// Bidding: one network per bidding mode, features (bid_features) -> dense layers (ReLU
// between) -> the expected payout of each bid the mode knows (classic: pass, 1, 2, 3;
// call and rob: no, yes).
//
// The file (written by doudizhu.train.export, read here only), little-endian:
//   magic "DDZNEURL", u32 version (kNetworkVersion), u32 n + n bytes of metadata (UTF-8
//   JSON: how the networks were made; not read here; at most 1 MiB), u32 tensors, then each tensor:
//   u16 n + n bytes of name, u8 ndim, ndim x u32 dims, float32 values row-major; then
//   (from version 2) u32 CRC-32 (base/checksum.hpp, zlib's) of every byte before it.
// Version 1 files, which end with the last tensor, are still read (unchecked).
// Tensor names: "play.<position>.history.weight" (and .bias), "...state.weight/.bias",
// "...action.weight", optionally "...plan.weight" (hidden x 1), "...head.<i>.weight/.bias";
// "bid.<mode>.layers.<i>.weight/.bias".
// Weights are PyTorch's (out x in).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "learn/encode.hpp"
#include "rules/action.hpp"

namespace ddz {

inline constexpr std::string_view kNetworkMagic = "DDZNEURL";
// The largest network file read (the shipped one is about 4 MB): a larger one is refused
// before its bytes are taken into memory.
inline constexpr std::uintmax_t kMostNetworkBytes = std::uintmax_t{1} << 30;
inline constexpr std::uint32_t kNetworkVersion = 2;  // written
inline constexpr std::uint32_t kOldestNetworkVersion = 1;  // read

// A network file that cannot be read, or networks that do not fit a game.
struct NetworkError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A tensor as the file holds it.
struct Tensor {
  std::vector<std::uint32_t> dims;
  std::vector<float> values;
  friend bool operator==(const Tensor&, const Tensor&) = default;
};

// A dense layer y = W x + b, its weight kept transposed (in x out) so that the weights of
// one input are adjacent: a layer sums the rows of its nonzero inputs (ReLU and binary
// features leave many zeros).
struct Dense {
  int in = 0;
  int out = 0;
  std::vector<float> weight_t;  // in x out
  std::vector<float> bias;      // out (zeros for a layer without one)

  // y = W x + b for `rows` inputs (rows x in, row-major) at once; integer inputs are the
  // binary features.
  void forward(const float* x, float* y, int rows = 1) const;
  void forward(const std::int8_t* x, float* y, int rows = 1) const;
};

struct PlayNet {
  Dense history;
  Dense state;
  Dense action;
  std::vector<float> plan;  // empty, or the plan's column (hidden)
  std::vector<Dense> head;
};

inline constexpr std::size_t kNoPlan = static_cast<std::size_t>(-1);

struct BidNet {
  std::vector<Dense> layers;
};

// The bidding features of the seat to move (Rules::bidding classic or call-and-rob):
// its hand's card plane, then one-hots over seats relative to it (slot k: k places after
// it): where it stands in the auction (the first bidder's distance back), and per mode
//   classic:      the highest bid 0..3, the highest bidder, the seats that passed;
//   call and rob: the stage (calling, robbing, rob-back), the provisional landlord, the
//                 seats that declined, the robs so far (a thermometer of `seats` slots).
int bid_feature_width(const Rules& rules);
void bid_features(const State& s, const Rules& rules, std::int8_t* out);
// The bidding actions a mode values, and the output index of one of them.
int bid_outputs(const Rules& rules);
int bid_output(const Action& a);

class Network {
 public:
  // Throw NetworkError naming the problem (file, magic, version, truncation, a missing,
  // misshapen or unknown tensor, weights that could overflow a float together).
  static std::shared_ptr<Network> read(const std::string& path);
  static std::shared_ptr<Network> parse(std::string_view bytes, const std::string& source);

  const std::string& metadata() const { return metadata_; }
  const std::map<std::string, Tensor>& tensors() const { return tensors_; }

  // Why these networks cannot play a game under `rules` (not DouZero-encodable, a
  // position without a network, widths that differ from the layout's), or empty.
  std::string play_error(const Rules& rules) const;
  bool bids(const Rules& rules) const;  // whether a network bids in this mode

  // Whether the play networks read the plan's choice (then play_values needs `planned`).
  bool reads_plan() const;
  // The value of each legal action of the seat to move of `v` (in play, play_error empty);
  // `planned`: the index in `legal` of the fast heuristic's choice, or kNoPlan.
  void play_values(const GameView& v, const DouZeroLayout& layout, const std::vector<Action>& legal,
                   std::size_t planned, std::vector<float>& values) const;
  // The expected payout of each bid output (bids(rules)).
  void bid_values(const State& s, const Rules& rules, std::vector<float>& values) const;

 private:
  std::string metadata_;
  std::map<std::string, Tensor> tensors_;
  std::map<int, PlayNet> play_;                    // by position
  std::map<Bidding, BidNet> bid_;                  // by mode
  std::string source_;

  void build();
};

// Throws NetworkError when a value is not a finite number: a choice among NaNs is no
// choice. (Networks read by Network::parse cannot give one: it bounds their range.)
void require_finite(const std::vector<float>& values);

// The index of the greedy action (the first of equal values); require_finite first.
std::size_t argmax(const std::vector<float>& values);

}  // namespace ddz
