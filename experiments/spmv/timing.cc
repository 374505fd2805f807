#include "experiments/spmv/timing.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "experiments/run_benchmarks.h"

namespace spmv {
namespace {

// The 10th and 90th percentile of `timed`'s batch times over `reference`'s
// in the same round (batches of one round run one after the other, under
// the same load), or none where there is no reference.
std::string paired_spread(const Timed& timed, const Timed* reference) {
  if (reference == nullptr) return {};
  std::vector<double> ratios(timed.seconds.size());
  for (std::size_t i = 0; i < ratios.size(); ++i) {
    ratios[i] = timed.seconds[i] / reference->seconds[i];
  }
  std::sort(ratios.begin(), ratios.end());
  const auto at = [&ratios](double q) {
    return ratios[static_cast<std::size_t>(
        std::lround(q * static_cast<double>(ratios.size() - 1)))];
  };
  char text[96];
  std::snprintf(text, sizeof text, "paired_p10=%g paired_p90=%g ", at(0.1),
                at(0.9));
  return text;
}

// The iterations that take `seconds` for each implementation on average,
// from the times of their first batches (agreed maxima: alike on every
// process), in whole batches; at least `iterations`, at most a million
// unless `iterations` asks for more.
int iterations_for(const std::vector<Timed>& runs, int iterations,
                   double seconds) {
  double per_iteration = 0;
  for (const Timed& timed : runs) per_iteration += timed.seconds.front();
  per_iteration /= static_cast<double>(runs.size());
  constexpr double kMostIterations = 1e6;
  const double wanted = std::min(
      std::ceil(seconds / per_iteration / kBatch) * kBatch, kMostIterations);
  return std::max(iterations, static_cast<int>(wanted));
}

}  // namespace

int measure(std::vector<Timed>& runs, int iterations, double seconds) {
  for (Timed& timed : runs) {
    for (int step = 0; step < experiments::kTuningCalls; ++step) {
      timed.run->step();
    }
  }
  for (int done = 0, round = 0; done < iterations; done += kBatch, ++round) {
    const int steps = std::min(kBatch, iterations - done);
    for (std::size_t k = 0; k < runs.size(); ++k) {
      Timed& timed = runs[(k + static_cast<std::size_t>(round)) % runs.size()];
      timed.seconds.push_back(experiments::slowest_seconds_per_call(
          timed.run->name(), steps, [&] { timed.run->step(); }));
    }
    if (round == 0 && seconds > 0) {
      iterations = iterations_for(runs, iterations, seconds);
    }
  }
  return iterations;
}

std::vector<std::string> paired_spreads(const std::vector<Timed>& runs) {
  std::vector<std::string> spreads;
  const Setup* by_slot = runs.empty() ? nullptr : runs.front().setup;
  for (const Timed& timed : runs) {
    const bool placed = timed.setup != by_slot;
    const std::string reference =
        placed ? timed.run->name()
               : (timed.run->accumulates() ? "accumulate-openmpi" : "openmpi");
    const auto found =
        std::find_if(runs.begin(), runs.end(), [&](const Timed& other) {
          return other.setup == by_slot && other.run->name() == reference;
        });
    spreads.push_back(
        paired_spread(timed, found == runs.end() ? nullptr : &*found));
  }
  return spreads;
}

}  // namespace spmv
