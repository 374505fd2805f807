// The argument checks of the distributed graph constructors
// (dist_graph_checks.h).
#include "classic/graph/internal/dist_graph_checks.h"

#include <climits>
#include <cstdint>
#include <string>

#include "classic/base/error_text.h"
#include "classic/base/internal/agreement.h"
#include "classic/comm/internal/comm_state.h"

namespace classic::internal {

// ---- argument checks (local) ----------------------------------------------

std::optional<Error> rank_error(std::span<const int> ranks, const char* name,
                                int size, const char* function) {
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] < 0 || ranks[i] >= size) {
      return Error(
          ErrorClass::rank, function,
          error_text::entry(name, i, ranks[i]) + error_text::outside(0, size));
    }
  }
  return std::nullopt;
}

std::optional<Error> weights_error(std::span<const int> weights,
                                   const char* name, std::size_t expected,
                                   const char* ranks_name,
                                   const char* function) {
  if (weights.size() != expected) {
    return Error(ErrorClass::arg, function,
                 std::string(name) + ".size() = " +
                     std::to_string(weights.size()) + " differs from " +
                     ranks_name + ".size() = " + std::to_string(expected));
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] < 0) {
      return Error(ErrorClass::arg, function,
                   error_text::entry(name, i, weights[i]) + " is negative");
    }
  }
  return std::nullopt;
}

std::optional<Error> degrees_error(std::span<const int> sources,
                                   std::span<const int> degrees,
                                   std::size_t destination_count,
                                   const char* function) {
  if (degrees.size() != sources.size()) {
    return Error(
        ErrorClass::arg, function,
        "degrees.size() = " + std::to_string(degrees.size()) +
            " differs from sources.size() = " + std::to_string(sources.size()));
  }
  std::size_t total = 0;
  for (std::size_t i = 0; i < degrees.size(); ++i) {
    if (degrees[i] < 0) {
      return Error(
          ErrorClass::arg, function,
          error_text::entry("degrees", i, degrees[i]) + " is negative");
    }
    total += static_cast<std::size_t>(degrees[i]);
  }
  if (total != destination_count) {
    return Error(ErrorClass::arg, function,
                 "destinations.size() = " + std::to_string(destination_count) +
                     " differs from the sum of degrees, " +
                     std::to_string(total));
  }
  if (total > static_cast<std::size_t>(INT_MAX)) {
    return Error(ErrorClass::arg, function,
                 "more than INT_MAX edges (" + std::to_string(total) + ")");
  }
  return std::nullopt;
}

// ---- agreement (collective) -----------------------------------------------

// Raises on every process when any process's arguments are erroneous (the
// class of the lowest such rank, and its own message there) or when the
// processes disagree on weighting. One MIN allreduce over comm's context.
void agree_on_arguments(const Comm::State& state,
                        const std::optional<Error>& local, Weighting weighting,
                        const char* function) {
  // The lowest erroneous rank and its error class, in one value.
  constexpr std::int64_t kNoError = INT64_MAX;
  constexpr std::int64_t kClasses = 64;  // more than ErrorClass has
  Agreement agreement;
  const auto first_error = agreement.ask_minimum(
      local ? std::int64_t{state.rank} * kClasses +
                  static_cast<std::int64_t>(local->error_class())
            : kNoError);
  const auto weighted =
      agreement.ask_range(weighting == Weighting::weighted ? 1 : 0);
  agreement.run(state.transport, function);
  if (local) throw Error(*local);
  if (const std::int64_t lowest = agreement.minimum(first_error);
      lowest != kNoError) {
    const auto error_class = static_cast<ErrorClass>(lowest % kClasses);
    throw Error(error_class, function,
                "the arguments of comm rank " +
                    std::to_string(lowest / kClasses) + " are erroneous (" +
                    std::string(to_string(error_class)) + ")");
  }
  if (agreement.range_low(weighted) != agreement.range_high(weighted)) {
    throw Error(ErrorClass::arg, function,
                "some processes pass weights and others unweighted; all "
                "must do the same");
  }
}

// Raises ErrorClass::topology on every process when `consistent` is false on
// any, naming the lowest such rank.
void agree_on_consistency(const Comm::State& state, bool consistent,
                          const char* function) {
  Agreement agreement;
  const auto inconsistent =
      agreement.ask_lowest_rank_where(!consistent, state.rank);
  agreement.run(state.private_context, function);
  const std::optional<int> lowest = agreement.lowest_rank_where(inconsistent);
  if (!lowest) return;
  throw Error(ErrorClass::topology, function,
              "the processes' lists disagree: comm rank " +
                  std::to_string(*lowest) +
                  "'s sources (with weights) differ from the destinations "
                  "other processes list for it");
}

}  // namespace classic::internal
