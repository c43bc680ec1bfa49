#include "learn/network.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "base/checksum.hpp"
#include "rules/card_text.hpp"

namespace ddz {

namespace {

constexpr const char* kPlayPositions[] = {"landlord", "landlord_down", "landlord_up", "landlord_across"};
constexpr int kMaxLayers = 16;
// The largest weight read: far beyond any trained one (the shipped ones stay below 2), so a
// larger one is a damaged file.
constexpr float kMostWeight = 1e30f;

// Reads the file's little-endian fields in order; every read checks what is left.
class Reader {
 public:
  Reader(std::string_view bytes, const std::string& source) : bytes_(bytes), source_(source) {}

  template <class T>
  T scalar(const char* what) {
    T value{};
    std::memcpy(&value, take(sizeof(T), what), sizeof(T));
    return value;
  }
  std::string_view bytes(std::size_t n, const char* what) { return {take(n, what), n}; }
  bool done() const { return at_ == bytes_.size(); }
  std::string_view rest() const { return bytes_.substr(at_); }
  [[noreturn]] void fail(const std::string& why) const { throw NetworkError(source_ + ": " + why); }

 private:
  const char* take(std::size_t n, const char* what) {
    if (bytes_.size() - at_ < n) fail(std::string("truncated (in ") + what + ")");
    const char* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  std::string_view bytes_;
  std::size_t at_ = 0;
  const std::string& source_;
};

Tensor read_tensor(Reader& r, const std::string& name) {
  Tensor t;
  const auto ndim = r.scalar<std::uint8_t>("a tensor's rank");
  if (ndim < 1 || ndim > 2) r.fail(name + ": " + std::to_string(ndim) + " dimensions (1 or 2 expected)");
  std::uint64_t size = 1;
  for (int i = 0; i < ndim; ++i) {
    const auto d = r.scalar<std::uint32_t>("a tensor's shape");
    if (d == 0 || d > (1u << 20)) r.fail(name + ": dimension " + std::to_string(d) + " out of range");
    t.dims.push_back(d);
    size *= d;
  }
  if (size > (std::uint64_t{1} << 26)) r.fail(name + ": too large");
  const std::string_view data = r.bytes(size * sizeof(float), name.c_str());
  t.values.resize(size);
  std::memcpy(t.values.data(), data.data(), data.size());
  for (const float v : t.values) {
    if (!std::isfinite(v)) r.fail(name + ": a value that is not a finite number");
    if (std::fabs(v) > kMostWeight) r.fail(name + ": a value that exceeds the largest weight the reader accepts, 1e30");
  }
  return t;
}

std::string shape(const std::vector<std::uint32_t>& dims) {
  std::string out = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + std::to_string(dims[i]);
  return out + (dims.size() == 1 ? ",)" : ")");
}

// Builds layers from the tensors by name, marking each one used.
class Builder {
 public:
  Builder(const std::map<std::string, Tensor>& tensors, const std::string& source) : tensors_(tensors), source_(source) {}

  bool has(const std::string& name) const { return tensors_.count(name) != 0; }
  // Whether a tensor's name starts with `prefix`: the file holds that network, and each
  // of its tensors missing is named as missing (not its others as unknown).
  bool has_under(const std::string& prefix) const {
    const auto it = tensors_.lower_bound(prefix);
    return it != tensors_.end() && it->first.compare(0, prefix.size(), prefix) == 0;
  }

  // The layer `prefix`.weight (out x in) with `prefix`.bias (out) unless without_bias;
  // `in` (when >= 0) is the input width the caller needs.
  Dense dense(const std::string& prefix, int in, bool with_bias = true) {
    const Tensor& w = get(prefix + ".weight");
    if (w.dims.size() != 2) fail(prefix + ".weight has shape " + shape(w.dims) + ", not (out, in)");
    Dense d;
    d.out = static_cast<int>(w.dims[0]);
    d.in = static_cast<int>(w.dims[1]);
    if (in >= 0 && d.in != in) {
      fail(prefix + ".weight has shape " + shape(w.dims) + ": " + std::to_string(in) + " inputs expected");
    }
    d.weight_t.resize(w.values.size());
    for (int o = 0; o < d.out; ++o) {
      for (int i = 0; i < d.in; ++i) {
        d.weight_t[static_cast<std::size_t>(i * d.out + o)] = w.values[static_cast<std::size_t>(o * d.in + i)];
      }
    }
    d.bias.assign(static_cast<std::size_t>(d.out), 0.0f);
    if (with_bias) {
      const Tensor& b = get(prefix + ".bias");
      if (b.dims.size() != 1 || static_cast<int>(b.dims[0]) != d.out) {
        fail(prefix + ".bias has shape " + shape(b.dims) + ", not (" + std::to_string(d.out) + ",)");
      }
      d.bias = b.values;
    }
    return d;
  }

  // Layers prefix.0, prefix.1, ... chained from `in` inputs, the last with `out` outputs.
  std::vector<Dense> chain(const std::string& prefix, int in, int out) {
    std::vector<Dense> layers;
    for (int i = 0; has(prefix + "." + std::to_string(i) + ".weight"); ++i) {
      if (i == kMaxLayers) fail(prefix + ": more than " + std::to_string(kMaxLayers) + " layers");
      layers.push_back(dense(prefix + "." + std::to_string(i), in));
      in = layers.back().out;
    }
    if (layers.empty()) fail("no " + prefix + ".0.weight");
    if (in != out) fail(prefix + ": the last layer gives " + std::to_string(in) + " values, not " + std::to_string(out));
    return layers;
  }

  void check_all_used() const {
    for (const auto& [name, tensor] : tensors_) {
      if (!used_.count(name)) fail("unknown tensor " + name);
    }
  }

 private:
  const Tensor& get(const std::string& name) {
    const auto it = tensors_.find(name);
    if (it == tensors_.end()) fail("no tensor " + name);
    used_.insert(name);
    return it->second;
  }
  [[noreturn]] void fail(const std::string& why) const { throw NetworkError(source_ + ": " + why); }

  const std::map<std::string, Tensor>& tensors_;
  const std::string& source_;
  std::set<std::string> used_;
};

// The layers' one kernel: `rows` inputs at once, each input's weight row read once for
// all of them. Each output sums its terms in input order whatever the vector width, and
// the language's strict floating point forbids fused multiply-adds, so every CPU gives the
// same values; where the loader can pick a clone by CPU, an AVX2 one runs where it can.
#if defined(__x86_64__) && defined(__GLIBC__)
#define DDZ_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define DDZ_VECTOR_CLONES
#endif

// Eight floats: GCC's and Clang's portable vectors (one AVX register, or two SSE ones).
// They are copied in and out with memcpy (the weights are aligned to a float only), and no
// function takes or returns one: a helper outside the clones would be compiled without AVX,
// and passing such a vector across that boundary changes the ABI (an error in Clang).
typedef float Floats8 __attribute__((vector_size(32)));
constexpr int kBlock = 4;  // vectors of sums per block: 32 outputs held in registers

// One input row: its nonzero inputs listed once, then each block of 32 outputs summed in
// registers over them (the weights stream from cache; the sums never leave registers).
DDZ_VECTOR_CLONES void dense_row(const float* __restrict weight_t, const float* __restrict bias, int out,
                                 const int* __restrict index, const float* __restrict value, int nonzero,
                                 float* __restrict y) {
  const auto stride = static_cast<std::size_t>(out);
  constexpr int width = kBlock * 8;
  int o = 0;
  for (; o + width <= out; o += width) {
    Floats8 sum[kBlock];
    std::memcpy(sum, bias + o, sizeof sum);
    for (int j = 0; j < nonzero; ++j) {
      const float* row = weight_t + static_cast<std::size_t>(index[j]) * stride + static_cast<std::size_t>(o);
      const float v = value[j];
      for (int k = 0; k < kBlock; ++k) {
        Floats8 w;
        std::memcpy(&w, row + 8 * k, sizeof w);
        sum[k] += v * w;
      }
    }
    std::memcpy(y + o, sum, sizeof sum);
  }
  for (; o < out; ++o) {
    float acc = bias[o];
    for (int j = 0; j < nonzero; ++j) acc += value[j] * weight_t[static_cast<std::size_t>(index[j]) * stride + static_cast<std::size_t>(o)];
    y[o] = acc;
  }
}

template <class T>
void dense_rows(const float* weight_t, const float* bias, int in, int out, const T* x, int rows, float* y) {
  thread_local std::vector<int> index;
  thread_local std::vector<float> value;
  index.resize(static_cast<std::size_t>(in));
  value.resize(static_cast<std::size_t>(in));
  for (int r = 0; r < rows; ++r) {
    const T* xr = x + static_cast<std::size_t>(r) * static_cast<std::size_t>(in);
    int nonzero = 0;
    for (int i = 0; i < in; ++i) {
      if (xr[i] != T(0)) {
        index[static_cast<std::size_t>(nonzero)] = i;
        value[static_cast<std::size_t>(nonzero++)] = static_cast<float>(xr[i]);
      }
    }
    dense_row(weight_t, bias, out, index.data(), value.data(), nonzero, y + static_cast<std::size_t>(r) * static_cast<std::size_t>(out));
  }
}

template <class T>
void dense_forward(const Dense& d, const T* x, int rows, float* y) {
  dense_rows(d.weight_t.data(), d.bias.data(), d.in, d.out, x, rows, y);
}

void relu(std::vector<float>& h) {
  for (float& v : h) v = v > 0.0f ? v : 0.0f;
}

// Seats as one-hot slots relative to `me` (slot k: k places after it).
void relative_one_hot(int seat, int me, int seats, std::int8_t* out) {
  if (seat >= 0) out[(seat - me + seats) % seats] = 1;
}

void relative_set(unsigned seats_mask, int me, int seats, std::int8_t* out) {
  for (int seat = 0; seat < seats; ++seat) {
    if ((seats_mask >> seat) & 1u) relative_one_hot(seat, me, seats, out);
  }
}

}  // namespace

void Dense::forward(const float* x, float* y, int rows) const { dense_forward(*this, x, rows, y); }
void Dense::forward(const std::int8_t* x, float* y, int rows) const { dense_forward(*this, x, rows, y); }

int bid_feature_width(const Rules& rules) {
  const int s = rules.players;
  const int plane = card_plane_size(rules.decks);
  return rules.bidding == Bidding::CallRob ? plane + s + 3 + s + s + s : plane + s + 4 + s + s;
}

void bid_features(const State& s, const Rules& rules, std::int8_t* out) {
  std::fill(out, out + bid_feature_width(rules), std::int8_t{0});
  const int n = s.seats, me = s.to_move;
  write_card_plane(s.hands[static_cast<std::size_t>(me)], rules.decks, out);
  out += card_plane_size(rules.decks);
  relative_one_hot(s.first_bidder, me, n, out);  // the first bidder's slot: how far back the auction began
  out += n;
  if (rules.bidding == Bidding::CallRob) {
    out[static_cast<int>(s.stage)] = 1;
    out += 3;
    relative_one_hot(s.high_bidder, me, n, out);
    out += n;
    relative_set(s.out_of_auction, me, n, out);
    out += n;
    for (int r = 0; r < std::min<int>(s.robs, n); ++r) out[r] = 1;
    return;
  }
  out[std::min<int>(s.high_bid, 3)] = 1;
  out += 4;
  relative_one_hot(s.high_bidder, me, n, out);
  out += n;
  relative_set(s.out_of_auction, me, n, out);
}

int bid_outputs(const Rules& rules) { return rules.bidding == Bidding::CallRob ? 2 : 4; }

int bid_output(const Action& a) { return a.value; }

namespace {

// The magic, the version and the metadata's length.
constexpr std::size_t kHeaderBytes = kNetworkMagic.size() + 8;
// More metadata than any trainer writes (a few hundred bytes of JSON).
constexpr std::uint32_t kMostMetadataBytes = std::uint32_t{1} << 20;
// The first version that ends with its checksum.
constexpr std::uint32_t kChecksummedVersion = 2;

struct Header {
  std::uint32_t version = 0;
  std::uint32_t metadata_bytes = 0;
};

// Reads and checks the header.
Header check_header(Reader& r) {
  if (r.rest().substr(0, kNetworkMagic.size()) != kNetworkMagic) r.fail("not a doudizhu network file (no DDZNEURL magic)");
  r.bytes(kNetworkMagic.size(), "the magic");
  Header h;
  h.version = r.scalar<std::uint32_t>("the version");
  if (h.version < kOldestNetworkVersion || h.version > kNetworkVersion) {
    r.fail("format version " + std::to_string(h.version) + "; this engine reads versions " + std::to_string(kOldestNetworkVersion) +
           " to " + std::to_string(kNetworkVersion));
  }
  h.metadata_bytes = r.scalar<std::uint32_t>("the metadata's length");
  if (h.metadata_bytes > kMostMetadataBytes) {
    r.fail(std::to_string(h.metadata_bytes) + " bytes of metadata, more than " + std::to_string(kMostMetadataBytes));
  }
  return h;
}

// The file's bytes without its checksum, which must be the CRC-32 of the rest: a file
// cut short or changed anywhere, a weight's bit included, is refused before its tensors
// are read.
std::string_view checked_body(std::string_view bytes, const std::string& source) {
  constexpr std::size_t kChecksumBytes = sizeof(std::uint32_t);
  const auto damaged = [&] {
    return NetworkError(source + ": truncated or damaged (its CRC-32 checksum does not match its bytes)");
  };
  if (bytes.size() < kHeaderBytes + kChecksumBytes) throw damaged();
  const std::string_view body = bytes.substr(0, bytes.size() - kChecksumBytes);
  std::uint32_t stored = 0;
  std::memcpy(&stored, bytes.data() + body.size(), kChecksumBytes);
  if (crc32(body) != stored) throw damaged();
  return body;
}

}  // namespace

std::shared_ptr<Network> Network::read(const std::string& path) {
  // A device or FIFO would be read without end (/dev/zero) or wait for a writer: only a
  // regular file is a network file; its magic is read before the rest of it.
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) throw NetworkError(path + ": cannot open the file");
  if (!std::filesystem::is_regular_file(status)) throw NetworkError(path + ": not a regular file");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  std::ifstream file(path, std::ios::binary);
  if (error || !file) throw NetworkError(path + ": cannot open the file");
  // The header first: a file of another kind, version or a metadata longer than any is
  // refused before the rest of it is taken into memory.
  std::string bytes(std::min<std::uintmax_t>(size, kHeaderBytes), '\0');
  file.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  Reader header(bytes, path);
  check_header(header);
  if (size > kMostNetworkBytes) {
    throw NetworkError(path + ": " + std::to_string(size) + " bytes, more than any network this engine reads (" +
                       std::to_string(kMostNetworkBytes) + ")");
  }
  const std::size_t head = bytes.size();
  bytes.resize(static_cast<std::size_t>(size));
  file.read(bytes.data() + head, static_cast<std::streamsize>(size - head));
  if (file.gcount() != static_cast<std::streamsize>(size - head)) throw NetworkError(path + ": cannot read the file");
  return parse(bytes, path);
}

std::shared_ptr<Network> Network::parse(std::string_view bytes, const std::string& source) {
  auto net = std::make_shared<Network>();
  net->source_ = source;
  Reader header(bytes, net->source_);
  const std::string_view body = check_header(header).version >= kChecksummedVersion ? checked_body(bytes, net->source_) : bytes;
  Reader r(body, net->source_);
  const Header h = check_header(r);
  net->metadata_ = std::string(r.bytes(h.metadata_bytes, "the metadata"));
  if (!is_utf8(net->metadata_)) r.fail("the metadata is not UTF-8 text");
  const auto count = r.scalar<std::uint32_t>("the tensor count");
  if (count > 4096) r.fail(std::to_string(count) + " tensors");
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto length = r.scalar<std::uint16_t>("a tensor's name");
    std::string name(r.bytes(length, "a tensor's name"));
    if (name.empty()) r.fail("tensor " + std::to_string(i) + " has no name");
    if (!std::all_of(name.begin(), name.end(), [](char c) { return c > ' ' && c < 127; })) {
      r.fail("a tensor name that is not printable ASCII");
    }
    if (net->tensors_.count(name)) r.fail("tensor " + name + " twice");
    Tensor t = read_tensor(r, name);
    net->tensors_.emplace(std::move(name), std::move(t));
  }
  if (!r.done()) r.fail("bytes after the last tensor");
  net->build();
  return net;
}

namespace {

// Every input is an int8 feature: at most this in magnitude (DouZero's are 0 or 1).
constexpr double kMostInput = 127;
// The largest magnitude a layer's output may reach: a float's range, with room for the
// rounding of float sums that the bound, summed in double, does not see.
constexpr double kMostOutput = 1e36;

// The largest magnitude each output of `layer` can take when each input's is at most
// `in`'s (ReLU between layers only shrinks it).
std::vector<double> output_bound(const Dense& layer, const std::vector<double>& in) {
  std::vector<double> out(layer.bias.begin(), layer.bias.end());
  for (double& v : out) v = std::fabs(v);
  for (std::size_t i = 0; i < in.size(); ++i) {
    for (std::size_t j = 0; j < out.size(); ++j) out[j] += std::fabs(static_cast<double>(layer.weight_t[i * out.size() + j])) * in[i];
  }
  return out;
}

// Throws NetworkError naming `what` when a value could pass kMostOutput.
void check_bound(const std::vector<double>& bound, const std::string& what) {
  if (!bound.empty() && *std::max_element(bound.begin(), bound.end()) > kMostOutput) {
    throw NetworkError(what + ": weights that can overflow a float together (a value could pass 1e36)");
  }
}

// output_bound, checked.
std::vector<double> checked_bound(const Dense& layer, const std::vector<double>& in, const std::string& what) {
  std::vector<double> out = output_bound(layer, in);
  check_bound(out, what);
  return out;
}

std::vector<double> largest_inputs(const Dense& layer) { return std::vector<double>(static_cast<std::size_t>(layer.in), kMostInput); }

// Throws NetworkError when some input could drive a value of a play network past a
// float's range: each weight within the reader's bound, they can still overflow together,
// and the file is refused when it is read rather than in the middle of a game. The
// history, then the state (the history's output and the state features), the action
// added to it (and the plan's column), then the head.
void check_range(const PlayNet& net, const std::string& name) {
  std::vector<double> state_in = checked_bound(net.history, largest_inputs(net.history), name + ".history");
  state_in.resize(static_cast<std::size_t>(net.state.in), kMostInput);
  std::vector<double> hidden = checked_bound(net.state, state_in, name + ".state");
  const std::vector<double> action = checked_bound(net.action, largest_inputs(net.action), name + ".action");
  for (std::size_t i = 0; i < hidden.size(); ++i) hidden[i] += action[i] + (net.plan.empty() ? 0.0 : std::fabs(net.plan[i]));
  check_bound(hidden, name + ".action");
  for (std::size_t k = 0; k < net.head.size(); ++k) hidden = checked_bound(net.head[k], hidden, name + ".head." + std::to_string(k));
}

// The same for a bid network.
void check_range(const BidNet& net, const std::string& name) {
  std::vector<double> bound = largest_inputs(net.layers.front());
  for (std::size_t k = 0; k < net.layers.size(); ++k) bound = checked_bound(net.layers[k], bound, name + "." + std::to_string(k));
}

}  // namespace

void Network::build() {
  Builder b(tensors_, source_);
  for (int p = 0; p < 4; ++p) {
    const std::string prefix = std::string("play.") + kPlayPositions[p];
    if (!b.has_under(prefix + ".")) continue;
    PlayNet net;
    net.history = b.dense(prefix + ".history", -1);
    net.state = b.dense(prefix + ".state", -1);
    net.action = b.dense(prefix + ".action", -1, false);
    if (b.has(prefix + ".plan.weight")) {
      const Dense plan = b.dense(prefix + ".plan", 1, false);
      if (plan.out != net.action.out) throw NetworkError(source_ + ": " + prefix + ".plan has " + std::to_string(plan.out) + " rows, not " + std::to_string(net.action.out));
      net.plan = plan.weight_t;
    }
    if (net.state.in <= net.history.out) throw NetworkError(source_ + ": " + prefix + ".state reads no state");
    if (net.action.out != net.state.out) {
      throw NetworkError(source_ + ": " + prefix + ".action gives " + std::to_string(net.action.out) + " values, " +
                         prefix + ".state " + std::to_string(net.state.out));
    }
    net.head = b.chain(prefix + ".head", net.state.out, 1);
    check_range(net, source_ + ": " + prefix);
    play_.emplace(p, std::move(net));
  }
  if (play_.empty()) throw NetworkError(source_ + ": no play network (play.landlord.history.weight)");
  for (const Bidding mode : {Bidding::Classic, Bidding::CallRob}) {
    const std::string prefix = std::string("bid.") + bidding_name(mode) + ".layers";
    if (!b.has_under(prefix + ".")) continue;
    Rules rules;
    rules.bidding = mode;
    BidNet net;
    net.layers = b.chain(prefix, bid_feature_width(rules), bid_outputs(rules));
    check_range(net, source_ + ": " + prefix);
    bid_.emplace(mode, std::move(net));
  }
  b.check_all_used();
}

std::string Network::play_error(const Rules& rules) const {
  if (std::string why = douzero_rules_error(rules); !why.empty()) return "the neural policy reads DouZero's features: " + why;
  const DouZeroLayout layout = douzero_layout(rules);
  if (!layout.exact) {
    return std::string("the neural policy plays DouZero's setting (") + kDouZeroSetting + "), not these rules";
  }
  for (int p = 0; p < layout.seats; ++p) {
    const auto it = play_.find(p);
    const std::string name = std::string("play.") + kPlayPositions[p];
    if (it == play_.end()) return source_ + ": no network for position " + kPlayPositions[p];
    const PlayNet& net = it->second;
    const int x_width = layout.x[static_cast<std::size_t>(p)].width;
    if (net.history.in != layout.z_size() || net.state.in != net.history.out + x_width ||
        net.action.in != layout.action.width) {
      return source_ + ": " + name + " reads " + std::to_string(net.history.in) + " history, " +
             std::to_string(net.state.in - net.history.out) + " state and " + std::to_string(net.action.in) +
             " action values; these rules give " + std::to_string(layout.z_size()) + ", " + std::to_string(x_width) +
             " and " + std::to_string(layout.action.width);
    }
  }
  return {};
}

bool Network::bids(const Rules& rules) const {
  // The bidding features hold no wild cards: under them a hand's strength is another.
  return bid_.count(rules.bidding) && rules.players == 3 && rules.decks == 1 && rules.wild == 0;
}

bool Network::reads_plan() const {
  return std::any_of(play_.begin(), play_.end(), [](const auto& p) { return !p.second.plan.empty(); });
}

void Network::play_values(const GameView& v, const DouZeroLayout& layout, const std::vector<Action>& legal,
                          std::size_t planned, std::vector<float>& values) const {
  const PlayNet& net = play_.at(douzero_position_of(v.state));
  thread_local std::vector<std::int8_t> z, x, planes;
  thread_local std::vector<float> input, decision, h, next;
  z.resize(static_cast<std::size_t>(layout.z_size()));
  douzero_z(v, layout, z.data());
  const int history = net.history.out;
  input.resize(static_cast<std::size_t>(net.state.in));
  net.history.forward(z.data(), input.data());
  std::transform(input.begin(), input.begin() + history, input.begin(), [](float a) { return a > 0.0f ? a : 0.0f; });
  x.resize(static_cast<std::size_t>(net.state.in - history));
  douzero_x_no_action(v, layout, x.data());
  std::transform(x.begin(), x.end(), input.begin() + history, [](std::int8_t a) { return static_cast<float>(a); });
  decision.resize(static_cast<std::size_t>(net.state.out));
  net.state.forward(input.data(), decision.data());

  // The actions in blocks: each layer's weights are read once a block.
  constexpr std::size_t kBlock = 16;
  values.resize(legal.size());
  const auto width = static_cast<std::size_t>(net.action.in), hidden = decision.size();
  for (std::size_t first = 0; first < legal.size(); first += kBlock) {
    const std::size_t rows = std::min(kBlock, legal.size() - first);
    planes.resize(rows * width);
    for (std::size_t r = 0; r < rows; ++r) douzero_action(layout, legal[first + r], planes.data() + r * width);
    h.resize(rows * hidden);
    net.action.forward(planes.data(), h.data(), static_cast<int>(rows));
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t i = 0; i < hidden; ++i) h[r * hidden + i] += decision[i];
      if (first + r == planned && !net.plan.empty()) {
        for (std::size_t i = 0; i < hidden; ++i) h[r * hidden + i] += net.plan[i];
      }
    }
    for (const Dense& layer : net.head) {
      relu(h);
      next.resize(rows * static_cast<std::size_t>(layer.out));
      layer.forward(h.data(), next.data(), static_cast<int>(rows));
      h.swap(next);
    }
    std::copy(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(rows), values.begin() + static_cast<std::ptrdiff_t>(first));
  }
}

void Network::bid_values(const State& s, const Rules& rules, std::vector<float>& values) const {
  const BidNet& net = bid_.at(rules.bidding);
  thread_local std::vector<std::int8_t> features;
  thread_local std::vector<float> h, next;
  features.resize(static_cast<std::size_t>(bid_feature_width(rules)));
  bid_features(s, rules, features.data());
  h.resize(static_cast<std::size_t>(net.layers.front().out));
  net.layers.front().forward(features.data(), h.data());
  for (std::size_t i = 1; i < net.layers.size(); ++i) {
    relu(h);
    next.resize(static_cast<std::size_t>(net.layers[i].out));
    net.layers[i].forward(h.data(), next.data());
    h.swap(next);
  }
  values = h;
}

void require_finite(const std::vector<float>& values) {
  const auto bad = std::find_if(values.begin(), values.end(), [](float v) { return !std::isfinite(v); });
  if (bad == values.end()) return;
  throw NetworkError(std::string("the network valued an action as ") + (std::isnan(*bad) ? "NaN" : "infinite") +
                     ": its weights overflow a float");
}

std::size_t argmax(const std::vector<float>& values) {
  require_finite(values);
  return static_cast<std::size_t>(std::max_element(values.begin(), values.end()) - values.begin());
}

}  // namespace ddz
