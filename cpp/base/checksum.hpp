// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320): the checksum zlib.crc32, gzip and
// PNG compute, so that a file the engine checks can be written from Python's standard
// library. Network files end with it (learn/network.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace ddz {

namespace crc32_detail {

constexpr std::array<std::uint32_t, 256> table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[i] = c;
  }
  return t;
}

inline constexpr std::array<std::uint32_t, 256> kTable = table();

}  // namespace crc32_detail

inline std::uint32_t crc32(std::string_view bytes) {
  std::uint32_t c = 0xFFFFFFFFu;
  for (const char byte : bytes) c = crc32_detail::kTable[(c ^ static_cast<std::uint8_t>(byte)) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

}  // namespace ddz
