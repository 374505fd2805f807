#include "experiments/halo/spread.h"

#include <algorithm>
#include <vector>

namespace halo {

Spread spread_of(std::span<const double> values) {
  if (values.empty()) return {};
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  Spread spread;
  spread.median =
      n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  spread.min = sorted.front();
  spread.max = sorted.back();
  spread.batches = static_cast<int>(n);
  return spread;
}

Spread ratio_of(const Spread& numerator, const Spread& denominator) {
  if (numerator.batches == 0 || denominator.batches == 0 ||
      numerator.min <= 0 || denominator.min <= 0) {
    return {};
  }
  return {.median = numerator.median / denominator.median,
          .min = numerator.min / denominator.max,
          .max = numerator.max / denominator.min,
          .batches = std::min(numerator.batches, denominator.batches)};
}

bool within_noise(const Spread& a, const Spread& b) {
  return a.min <= b.max && b.min <= a.max;
}

}  // namespace halo
