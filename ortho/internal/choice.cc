#include "ortho/internal/choice.h"

#include <algorithm>

namespace ortho {
namespace {

// `steps` without a step that names the algorithm of the one before it.
Choice::Steps merged(const Choice::Steps& steps) {
  Choice::Steps result;
  for (const Choice::Step& step : steps) {
    if (result.empty() || !(result.back().algorithm == step.algorithm)) {
      result.push_back(step);
    }
  }
  return result;
}

}  // namespace

void Choice::take_up_to(const Algorithm& algorithm, std::size_t up_to_bytes,
                        std::initializer_list<classic::Mode> modes) {
  for (const classic::Mode mode : modes) {
    Steps fresh = {{0, algorithm}};
    const Steps& old = in(mode);
    if (up_to_bytes != kNever && !old.empty()) {
      const std::size_t above = up_to_bytes + 1;
      fresh.push_back({above, select(above, mode)});
      for (const Step& step : old) {
        if (step.from_bytes > above) fresh.push_back(step);
      }
    }
    in(mode) = merged(fresh);
  }
}

void Choice::take_from(const Algorithm& algorithm, std::size_t from_bytes,
                       std::initializer_list<classic::Mode> modes) {
  for (const classic::Mode mode : modes) {
    Steps fresh;
    for (const Step& step : in(mode)) {
      if (step.from_bytes < from_bytes) fresh.push_back(step);
    }
    fresh.push_back({from_bytes, algorithm});
    in(mode) = merged(fresh);
  }
}

bool Choice::fixed() const {
  return std::all_of(steps.begin(), steps.end(), [this](const Steps& mode) {
    return mode.size() == 1 && mode.front().algorithm == any();
  });
}

const Algorithm& Choice::select(std::size_t block_bytes,
                                classic::Mode mode) const {
  const Steps& mode_steps = in(mode);
  // The last step that begins at or below block_bytes.
  const auto after =
      std::upper_bound(mode_steps.begin(), mode_steps.end(), block_bytes,
                       [](std::size_t bytes, const Step& step) {
                         return bytes < step.from_bytes;
                       });
  return std::prev(after)->algorithm;
}

}  // namespace ortho
