#include "ortho/dist_graph.h"

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "ortho/internal/mapping.h"
#include "ortho/internal/structured.h"
#include "ortho/internal/table.h"

namespace ortho {
namespace internal {
namespace {

// The graph of `adjacency` on comm: mapped where Reorder::yes finds a
// better placement (internal/mapping.h), otherwise classic's in comm's
// order (`made`, where the caller has it already).
classic::Comm adjacent_graph(const classic::Comm& comm,
                             const Adjacency& adjacency,
                             const classic::Info& info,
                             classic::Reorder reorder,
                             std::optional<classic::Comm> made = std::nullopt) {
  MappingFacts facts;
  if (reorder == classic::Reorder::yes) {
    Mapping mapping = map_graph(comm, adjacency, info, host_layout(comm));
    if (mapping.graph) return std::move(*mapping.graph);
    facts = mapping.facts;
  }
  if (!made) {
    made =
        adjacency.weighted
            ? classic::dist_graph_create_adjacent(
                  comm, adjacency.sources, adjacency.source_weights,
                  adjacency.destinations, adjacency.destination_weights, info,
                  reorder)
            : classic::dist_graph_create_adjacent(
                  comm, adjacency.sources, classic::unweighted,
                  adjacency.destinations, classic::unweighted, info, reorder);
  }
  return structured(std::move(*made), {}, &comm, facts);
}

// The adjacency classic made of a graph given edge by edge.
Adjacency adjacency_of(const classic::Comm& graph) {
  classic::DistGraphNeighbors n = classic::dist_graph_neighbors(graph);
  Adjacency a;
  a.weighted = classic::dist_graph_neighbors_count(graph).weighted;
  a.sources = std::move(n.sources);
  a.source_weights = std::move(n.source_weights);
  a.destinations = std::move(n.destinations);
  a.destination_weights = std::move(n.destination_weights);
  return a;
}

}  // namespace
}  // namespace internal

classic::Comm dist_graph_create_adjacent(const classic::Comm& comm,
                                         std::span<const int> sources,
                                         std::span<const int> sourceweights,
                                         std::span<const int> destinations,
                                         std::span<const int> destweights,
                                         const classic::Info& info,
                                         classic::Reorder reorder) {
  if (reorder == classic::Reorder::no) {
    return internal::structured(
        classic::dist_graph_create_adjacent(comm, sources, sourceweights,
                                            destinations, destweights, info),
        {}, &comm);
  }
  // Checked by classic first: the mapping reads only valid lists.
  classic::Comm made = classic::dist_graph_create_adjacent(
      comm, sources, sourceweights, destinations, destweights, info, reorder);
  return internal::adjacent_graph(comm,
                                  {{sources.begin(), sources.end()},
                                   {sourceweights.begin(), sourceweights.end()},
                                   {destinations.begin(), destinations.end()},
                                   {destweights.begin(), destweights.end()},
                                   true},
                                  info, reorder, std::move(made));
}

classic::Comm dist_graph_create_adjacent(
    const classic::Comm& comm, std::span<const int> sources,
    classic::Unweighted unweighted, std::span<const int> destinations,
    classic::Unweighted, const classic::Info& info, classic::Reorder reorder) {
  classic::Comm made = classic::dist_graph_create_adjacent(
      comm, sources, unweighted, destinations, unweighted, info, reorder);
  if (reorder == classic::Reorder::no) {
    return internal::structured(std::move(made), {}, &comm);
  }
  return internal::adjacent_graph(comm,
                                  {{sources.begin(), sources.end()},
                                   {},
                                   {destinations.begin(), destinations.end()},
                                   {},
                                   false},
                                  info, reorder, std::move(made));
}

classic::Comm dist_graph_create(const classic::Comm& comm,
                                std::span<const int> sources,
                                std::span<const int> degrees,
                                std::span<const int> destinations,
                                std::span<const int> weights,
                                const classic::Info& info,
                                classic::Reorder reorder) {
  classic::Comm made = classic::dist_graph_create(
      comm, sources, degrees, destinations, weights, info, reorder);
  if (reorder == classic::Reorder::no) {
    return internal::structured(std::move(made), {}, &comm);
  }
  internal::Adjacency adjacency = internal::adjacency_of(made);
  return internal::adjacent_graph(comm, adjacency, info, reorder,
                                  std::move(made));
}

classic::Comm dist_graph_create(const classic::Comm& comm,
                                std::span<const int> sources,
                                std::span<const int> degrees,
                                std::span<const int> destinations,
                                classic::Unweighted unweighted,
                                const classic::Info& info,
                                classic::Reorder reorder) {
  classic::Comm made = classic::dist_graph_create(
      comm, sources, degrees, destinations, unweighted, info, reorder);
  if (reorder == classic::Reorder::no) {
    return internal::structured(std::move(made), {}, &comm);
  }
  internal::Adjacency adjacency = internal::adjacency_of(made);
  return internal::adjacent_graph(comm, adjacency, info, reorder,
                                  std::move(made));
}

}  // namespace ortho
