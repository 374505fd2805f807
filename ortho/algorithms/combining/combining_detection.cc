// The detection of a common stencil on a directed graph and what message
// combining costs there (combining.h): the compiled schedules, their
// traffic, and the cost model's prices agreed over the graph.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "ortho/algorithms/agreed_prices.h"
#include "ortho/algorithms/combining/combining.h"
#include "ortho/algorithms/combining/combining_plans.h"
#include "stencils/neighborhood.h"

namespace ortho::algorithms {
namespace {

using combining_plans::traffic_of;

// `ranks` without its proc_null entries; `kept` gets the index in `ranks`
// of each entry kept.
std::vector<int> without_proc_null(std::span<const int> ranks,
                                   std::vector<int>& kept) {
  std::vector<int> out;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] == classic::proc_null) continue;
    out.push_back(ranks[i]);
    kept.push_back(static_cast<int>(i));
  }
  return out;
}

// The stencil's offsets, canonical, sorted (a multiset).
std::vector<std::vector<int>> sorted_offsets(const naming::Geometry& geometry,
                                             const stencils::Stencil& stencil) {
  std::vector<std::vector<int>> offsets;
  offsets.reserve(static_cast<std::size_t>(stencil.size()));
  for (int i = 0; i < stencil.size(); ++i) {
    offsets.push_back(geometry.canonical_offset(stencil.offset(i)));
  }
  std::sort(offsets.begin(), offsets.end());
  return offsets;
}

// r where targets and sources are both the Moore box of depth r without
// its centre (up to the torus's wrapping), 0 otherwise.
int box_depth_of(const naming::Geometry& geometry,
                 const stencils::Stencil& targets,
                 const stencils::Stencil& sources) {
  const int d = geometry.ndims();
  if (d == 0 || targets.empty()) return 0;
  // (2r + 1)^d - 1 offsets.
  for (int r = 1; r <= 8; ++r) {
    int box = 1;
    for (int k = 0; k < d; ++k) box *= 2 * r + 1;
    if (box - 1 > targets.size()) return 0;
    if (box - 1 < targets.size()) continue;
    const auto want = sorted_offsets(
        geometry, stencils::cart_stencil(d, stencils::Metric::chebyshev, 1, r));
    return sorted_offsets(geometry, targets) == want &&
                   sorted_offsets(geometry, sources) == want
               ? r
               : 0;
  }
  return 0;
}

}  // namespace

Traffic combining_traffic(const Combining& combining,
                          stencils::Collective collective) {
  return collective == stencils::Collective::allgather
             ? traffic_of(combining.allgather)
             : traffic_of(combining.alltoall);
}

Traffic direct_traffic(const Combining& combining) {
  const int neighbours = combining.neighborhood.targets.size();
  return {.messages = neighbours,
          .blocks = neighbours,
          .rounds = 1,
          .packed_blocks = 0,
          .largest_message_blocks = 1,
          .reduced_blocks = 0,
          .message_blocks = {}};
}

Traffic box_allreduce_traffic(const Combining& combining) {
  const int d = combining.geometry.ndims();
  const int messages = 2 * combining.box_depth * d;
  return {.messages = messages,
          .blocks = messages,
          .rounds = d,
          .packed_blocks = 0,
          .largest_message_blocks = 1,
          .reduced_blocks = messages,
          .message_blocks = {}};
}

std::shared_ptr<Combining> detect_combining(const classic::Comm& graph,
                                            const naming::Geometry& geometry,
                                            std::span<const int> destinations,
                                            std::span<const int> sources,
                                            std::span<const int> source_order) {
  // The detection takes ranks only; proc_null entries (the borders of a
  // classic Cartesian topology) keep their slots in the caller's lists.
  std::vector<int> kept_destinations;
  std::vector<int> kept_sources;
  const std::vector<int> targets =
      without_proc_null(destinations, kept_destinations);
  std::vector<int> ordered(sources.size());
  std::vector<int> order(sources.size());
  for (std::size_t j = 0; j < order.size(); ++j) {
    order[j] = source_order.empty() ? static_cast<int>(j) : source_order[j];
    ordered[j] = sources[static_cast<std::size_t>(order[j])];
  }
  const std::vector<int> origins = without_proc_null(ordered, kept_sources);
  for (int& index : kept_sources) {
    index = order[static_cast<std::size_t>(index)];
  }
  std::optional<stencils::CartesianNeighborhood> found =
      stencils::detect_cartesian(graph, geometry, targets, origins);
  if (!found) return nullptr;
  for (int& slot : found->target_slots) {
    if (slot >= 0) slot = kept_destinations[static_cast<std::size_t>(slot)];
  }
  for (int& slot : found->source_slots) {
    if (slot >= 0) slot = kept_sources[static_cast<std::size_t>(slot)];
  }
  auto allgather =
      stencils::allgather_schedule(geometry, found->targets, found->sources);
  auto alltoall =
      stencils::alltoall_schedule(geometry, found->targets, found->sources);
  const int box_depth = box_depth_of(geometry, found->targets, found->sources);
  auto combining = std::make_shared<Combining>(
      geometry, std::move(*found), std::move(allgather), std::move(alltoall),
      graph.rank(), box_depth);
  combining->prices = agreed_prices(graph);
  return combining;
}

}  // namespace ortho::algorithms
