// The spread of a set of timed batches: their median, minimum, maximum and
// count, which the experiments report next to each other so that a reader
// can tell a difference from noise (MPI-free).
#ifndef ORTHOCOMM_EXPERIMENTS_HALO_SPREAD_H_
#define ORTHOCOMM_EXPERIMENTS_HALO_SPREAD_H_

#include <span>

namespace halo {

struct Spread {
  double median = 0;  // of an even count, the mean of the two middle values
  double min = 0;
  double max = 0;
  int batches = 0;  // how many values; all zero when there are none
};

Spread spread_of(std::span<const double> values);

// The interval that holds every ratio of a value of `numerator` to one of
// `denominator` (both positive): {min / max, max / min}; its median is the
// ratio of the medians. Zero when either has no batches or a zero value.
Spread ratio_of(const Spread& numerator, const Spread& denominator);

// Whether the difference between the medians is within the spread: the
// two min-max ranges overlap (then ratio_of's interval contains 1).
bool within_noise(const Spread& a, const Spread& b);

}  // namespace halo

#endif  // ORTHOCOMM_EXPERIMENTS_HALO_SPREAD_H_
