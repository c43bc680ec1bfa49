// The core's one way to refuse an argument: std::invalid_argument with the reason, which
// the bindings turn into ValueError.
#pragma once

#include <stdexcept>
#include <string>

namespace ddz {

inline void require(bool ok, const std::string& why) {
  if (!ok) throw std::invalid_argument(why);
}

}  // namespace ddz
