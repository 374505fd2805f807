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

double reported_barrier(double seconds) {
  const auto& clock = testing_clock();
  return clock ? clock(kBarrierClockName, seconds) : seconds;
}

Tuned decision(const Choice& choice, Operation operation, classic::Mode mode,
               const std::vector<Algorithm>& candidates, const Race& race) {
  Tuned tuned;
  tuned.operation = operation;
  tuned.mode = mode;
  tuned.candidates = candidates;
  tuned.agreed_seconds = race.agreed_seconds();
  tuned.runs = race.runs_of();
  tuned.barrier_seconds = race.agreed_barrier_seconds();
  tuned.bands = race.agreed_bands();
  tuned.band = tuned.bands == 0 ? 0 : 63 - std::countl_zero(tuned.bands);
  std::size_t fastest = candidates.size();
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (race.racing(c) &&
        (fastest == candidates.size() ||
         tuned.agreed_seconds[c] < tuned.agreed_seconds[fastest])) {
      fastest = c;
    }
  }
  tuned.winner = candidates[fastest];
  const Algorithm model = model_choice(choice, mode, tuned.band);
  const auto at = std::find(candidates.begin(), candidates.end(), model);
  if (at != candidates.end()) {
    const auto m = static_cast<std::size_t>(at - candidates.begin());
    if (race.racing(m) && tuned.agreed_seconds[fastest] >
                              kDisplacesModel * tuned.agreed_seconds[m]) {
      tuned.winner = model;
    }
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
