// The engine's one random generator, so that a seed means the same deal everywhere.
//
// xoshiro256** (Blackman and Vigna), seeded by expanding the 64-bit seed with
// splitmix64; bounded draws use Lemire's multiply-and-reject method, which is unbiased
// and defined by this code alone (unlike std::uniform_int_distribution, whose output
// differs between standard libraries).
#pragma once

#include <cstdint>

namespace ddz {

// splitmix64's finalizer: every input bit reaches every output bit. The generator's
// seeding and the engine's hashes share it.
constexpr std::uint64_t splitmix_finalize(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58'476D'1CE4'E5B9;
  z = (z ^ (z >> 27)) * 0x94D0'49BB'1331'11EB;
  return z ^ (z >> 31);
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& word : state_) word = splitmix64(seed);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  friend bool operator==(const Rng&, const Rng&) = default;

  // Uniform in [0, bound), bound >= 1.
  std::uint32_t below(std::uint32_t bound) {
    std::uint64_t product = (next() >> 32) * bound;
    auto low = static_cast<std::uint32_t>(product);
    if (low < bound) {
      const std::uint32_t threshold = (0u - bound) % bound;
      while (low < threshold) {
        product = (next() >> 32) * bound;
        low = static_cast<std::uint32_t>(product);
      }
    }
    return static_cast<std::uint32_t>(product >> 32);
  }

  // True with probability `p` (a uniform draw in [0, 1) of 53 bits below it).
  bool chance(double p) { return static_cast<double>(next() >> 11) * 0x1p-53 < p; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix64(std::uint64_t& x) { return splitmix_finalize(x += 0x9E37'79B9'7F4A'7C15); }

  std::uint64_t state_[4];
};

}  // namespace ddz
