#include "ortho/internal/tuning_measure.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <string_view>
#include <utility>

#include "ortho/internal/choose.h"
#include "ortho/internal/table.h"

namespace ortho::internal {
namespace {

std::function<double(std::string_view, double)>& testing_clock() {
  static std::function<double(std::string_view, double)> clock;
  return clock;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// A candidate's time from its timed runs, in order: per turn the mean of
// its runs, the median over the turns. The mean of consecutive calls is
// what a loop of them takes per call, the time one call leaves the next
// included; the median drops a disturbed turn.
double candidate_seconds(const std::vector<double>& runs) {
  std::vector<double> turns;
  for (std::size_t begin = 0; begin < runs.size(); begin += kRunsPerTurn - 1) {
    const std::size_t end = std::min(runs.size(), begin + kRunsPerTurn - 1);
    double sum = 0;
    for (std::size_t i = begin; i < end; ++i) sum += runs[i];
    turns.push_back(sum / static_cast<double>(end - begin));
  }
  return median(std::move(turns));
}

// The model's choice for blocks in `band` (its smallest size).
Algorithm model_choice(const Choice& choice, classic::Mode mode, int band) {
  const std::size_t bytes = band <= 0 ? 0 : std::size_t{1} << (band - 1);
  return choice.select(bytes, mode);
}

}  // namespace

double reported(const Algorithm& algorithm, double seconds) {
  const auto& clock = testing_clock();
  return clock ? clock(algorithm.name, seconds) : seconds;
}

std::size_t tuning_runs(std::size_t candidates) {
  return candidates * kRunsPerTurn * kRounds;
}

std::size_t candidate_of(std::size_t n, std::size_t candidates) {
  return (n / kRunsPerTurn) % candidates;
}

bool timed(std::size_t n) { return n % kRunsPerTurn != 0; }

std::vector<double> agreement_values(
    const std::vector<std::vector<double>>& seconds, std::uint64_t bands) {
  std::vector<double> values;
  values.reserve(seconds.size() + kBandSlots);
  for (const std::vector<double>& runs : seconds) {
    values.push_back(candidate_seconds(runs));
  }
  for (std::size_t band = 0; band < kBandSlots; ++band) {
    values.push_back(static_cast<double>((bands >> band) & 1U));
  }
  return values;
}

Tuned decision(const Choice& choice, Operation operation, classic::Mode mode,
               const std::vector<Algorithm>& candidates,
               std::span<const double> maxima) {
  Tuned tuned;
  tuned.operation = operation;
  tuned.mode = mode;
  tuned.candidates = candidates;
  const auto times = static_cast<std::ptrdiff_t>(candidates.size());
  tuned.agreed_seconds.assign(maxima.begin(), maxima.begin() + times);
  for (std::size_t band = 0; band < kBandSlots; ++band) {
    if (maxima[candidates.size() + band] > 0) {
      tuned.bands |= band_bit(static_cast<int>(band));
    }
  }
  tuned.band = tuned.bands == 0 ? 0 : 63 - std::countl_zero(tuned.bands);
  const auto fastest =
      static_cast<std::size_t>(std::min_element(tuned.agreed_seconds.begin(),
                                                tuned.agreed_seconds.end()) -
                               tuned.agreed_seconds.begin());
  tuned.winner = candidates[fastest];
  const Algorithm model = model_choice(choice, mode, tuned.band);
  const auto at = std::find(candidates.begin(), candidates.end(), model);
  if (at != candidates.end() &&
      tuned.agreed_seconds[fastest] >
          kDisplacesModel * tuned.agreed_seconds[static_cast<std::size_t>(
                                at - candidates.begin())]) {
    tuned.winner = model;
  }
  return tuned;
}

bool banded(Operation operation, classic::Mode mode) {
  switch (operation) {
    case Operation::allgather:
    case Operation::alltoall:
    case Operation::allgatherv:
    case Operation::allgatherw:
    case Operation::alltoallv:
    case Operation::alltoallw:
      return chosen_by_size(operation, mode);
    default:
      return false;
  }
}

int band_of(const Call& call, const Table& table) {
  return banded(call.operation, call.mode) ? size_band(block_bytes(call, table))
                                           : 0;
}

void set_tuning_clock_for_testing(
    std::function<double(std::string_view, double)> clock) {
  testing_clock() = std::move(clock);
}

}  // namespace ortho::internal
