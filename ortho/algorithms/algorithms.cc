#include "ortho/algorithms/algorithms.h"

namespace ortho::algorithms {

std::span<const std::string_view> known_names() {
  static constexpr std::string_view kNames[] = {"native", "direct", "per_peer",
                                                "combining"};
  return kNames;
}

}  // namespace ortho::algorithms
