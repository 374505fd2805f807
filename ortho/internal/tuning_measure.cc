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

// The candidate a race's fastest must beat by the margin
// (tuning_measure.h, decision); candidates.size() where none.
std::size_t incumbent_of(const Choice& choice, const Incumbency& incumbency,
                         classic::Mode mode, int band,
                         const std::vector<Algorithm>& candidates,
                         const Race& race) {
  const auto model =
      static_cast<std::size_t>(std::find(candidates.begin(), candidates.end(),
                                         model_choice(choice, mode, band)) -
                               candidates.begin());
  const bool model_racing = model < candidates.size() && race.racing(model);
  if (!incumbency.several_hosts && model_racing &&
      !incumbency.baselines[model]) {
    return model;
  }
  const std::vector<double>& seconds = race.agreed_seconds();
  std::size_t incumbent = candidates.size();
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    if (incumbency.baselines[c] && race.racing(c) &&
        (incumbent == candidates.size() || seconds[c] < seconds[incumbent])) {
      incumbent = c;
    }
  }
  if (incumbent < candidates.size()) return incumbent;
  return model_racing ? model : candidates.size();
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

Incumbency incumbency_of(const Table& table, Operation operation,
                         const std::vector<Algorithm>& candidates) {
  Incumbency result{std::vector<bool>(candidates.size(), false),
                    table.hosts() >= 2};
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    for (const Candidate& candidate :
         table.candidates[static_cast<std::size_t>(operation)]) {
      if (candidate.algorithm == candidates[c]) {
        result.baselines[c] = candidate.baseline || candidate.measured;
      }
    }
  }
  return result;
}

Tuned decision(const Choice& choice, const Incumbency& incumbency,
               Operation operation, classic::Mode mode,
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
  const std::size_t incumbent =
      incumbent_of(choice, incumbency, mode, tuned.band, candidates, race);
  if (incumbent < candidates.size() &&
      tuned.agreed_seconds[fastest] >
          kDisplacesBaseline * tuned.agreed_seconds[incumbent]) {
    tuned.winner = candidates[incumbent];
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
