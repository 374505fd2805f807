// The argument checks of the distributed graph constructors: each
// process's own (ranks, weights, degrees), and the collective agreement on
// them and on the consistency of the processes' lists. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_GRAPH_INTERNAL_DIST_GRAPH_CHECKS_H_
#define ORTHOCOMM_CLASSIC_GRAPH_INTERNAL_DIST_GRAPH_CHECKS_H_

#include <cstddef>
#include <optional>
#include <span>

#include "classic/base/error.h"
#include "classic/base/internal/inside_classic.h"
#include "classic/comm/comm.h"

namespace classic::internal {

// Whether a process passes weights; all processes must do the same.
enum class Weighting { weighted, unweighted };

// ---- argument checks (local) ----------------------------------------------

// ErrorClass::rank naming `function` for the first entry of `ranks` (the
// argument `name`) outside [0, size).
std::optional<Error> rank_error(std::span<const int> ranks, const char* name,
                                int size, const char* function);

// ErrorClass::arg unless `weights` (the argument `name`) has `expected`
// entries, one per entry of `ranks_name`, none negative.
std::optional<Error> weights_error(std::span<const int> weights,
                                   const char* name, std::size_t expected,
                                   const char* ranks_name,
                                   const char* function);

// ErrorClass::arg unless dist_graph_create's degrees have one entry per
// source, none negative, summing to destination_count (at most INT_MAX).
std::optional<Error> degrees_error(std::span<const int> sources,
                                   std::span<const int> degrees,
                                   std::size_t destination_count,
                                   const char* function);

// The first error among `checks`, evaluated in order.
template <class... Checks>
std::optional<Error> first_error(Checks&&... checks) {
  std::optional<Error> error;
  ((error ? void() : void(error = checks())), ...);
  return error;
}

// ---- agreement (collective) -----------------------------------------------

// Raises on every process when any process's arguments are erroneous (the
// class of the lowest such rank, and its own message there) or when the
// processes disagree on weighting. One MIN allreduce over comm's context.
void agree_on_arguments(const Comm::State& state,
                        const std::optional<Error>& local, Weighting weighting,
                        const char* function);

// Raises ErrorClass::topology on every process when `consistent` is false on
// any, naming the lowest such rank.
void agree_on_consistency(const Comm::State& state, bool consistent,
                          const char* function);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_GRAPH_INTERNAL_DIST_GRAPH_CHECKS_H_
