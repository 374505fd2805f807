#include "ortho/dist_graph.h"

#include <memory>
#include <utility>
#include <vector>

#include "naming/cart_name.h"
#include "ortho/algorithms/combining.h"
#include "ortho/internal/table.h"
#include "ortho/strict.h"

namespace ortho {
namespace internal {

classic::Comm structured(classic::Comm graph, classic::Comm base,
                         const classic::Comm* named) {
  if (base.is_null()) base = graph.create(graph.group());
  GraphFacts facts = analyse_graph(graph, named);
  attach(graph, make_table(graph, Structure::directed_graph, std::move(base),
                           std::move(facts)));
  apply_strict_environment(graph);
  return graph;
}

}  // namespace internal

classic::Comm dist_graph_create_adjacent(const classic::Comm& comm,
                                         std::span<const int> sources,
                                         std::span<const int> sourceweights,
                                         std::span<const int> destinations,
                                         std::span<const int> destweights,
                                         const classic::Info& info,
                                         classic::Reorder reorder) {
  return internal::structured(classic::dist_graph_create_adjacent(
                                  comm, sources, sourceweights, destinations,
                                  destweights, info, reorder),
                              {}, &comm);
}

classic::Comm dist_graph_create_adjacent(
    const classic::Comm& comm, std::span<const int> sources,
    classic::Unweighted unweighted, std::span<const int> destinations,
    classic::Unweighted, const classic::Info& info, classic::Reorder reorder) {
  return internal::structured(
      classic::dist_graph_create_adjacent(
          comm, sources, unweighted, destinations, unweighted, info, reorder),
      {}, &comm);
}

classic::Comm dist_graph_create(const classic::Comm& comm,
                                std::span<const int> sources,
                                std::span<const int> degrees,
                                std::span<const int> destinations,
                                std::span<const int> weights,
                                const classic::Info& info,
                                classic::Reorder reorder) {
  return internal::structured(
      classic::dist_graph_create(comm, sources, degrees, destinations, weights,
                                 info, reorder),
      {}, &comm);
}

classic::Comm dist_graph_create(const classic::Comm& comm,
                                std::span<const int> sources,
                                std::span<const int> degrees,
                                std::span<const int> destinations,
                                classic::Unweighted unweighted,
                                const classic::Info& info,
                                classic::Reorder reorder) {
  return internal::structured(
      classic::dist_graph_create(comm, sources, degrees, destinations,
                                 unweighted, info, reorder),
      {}, &comm);
}

}  // namespace ortho
