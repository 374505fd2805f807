#include "ortho/dist_graph.h"

#include <utility>

#include "ortho/table.h"

namespace ortho {
namespace internal {

classic::Comm structured(classic::Comm graph, classic::Comm base) {
  if (base.is_null()) base = graph.create(graph.group());
  attach(graph, make_table(graph, Structure::directed_graph, std::move(base)));
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
                              {});
}

classic::Comm dist_graph_create_adjacent(
    const classic::Comm& comm, std::span<const int> sources,
    classic::Unweighted unweighted, std::span<const int> destinations,
    classic::Unweighted, const classic::Info& info, classic::Reorder reorder) {
  return internal::structured(
      classic::dist_graph_create_adjacent(
          comm, sources, unweighted, destinations, unweighted, info, reorder),
      {});
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
      {});
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
      {});
}

}  // namespace ortho
