// What ortho finds out about a directed graph when it first meets it, with
// the collective steps that needs, so that every process selects the same
// algorithms: whether the graph is a Cartesian stencil (then the compiled
// combining schedules).
#ifndef ORTHOCOMM_ORTHO_INTERNAL_GRAPH_FACTS_H_
#define ORTHOCOMM_ORTHO_INTERNAL_GRAPH_FACTS_H_

#include <memory>

#include "classic/comm/comm.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho {

namespace algorithms {
struct Combining;
}  // namespace algorithms

struct GraphFacts {
  // Non-null where every process has the same stencil on a Cartesian grid.
  std::shared_ptr<const algorithms::Combining> combining;
};

namespace internal {

// Collective over `graph` (a directed-graph communicator) where `named` is
// given: the communicator graph was made from (same processes, same
// order), whose Cartesian naming, if every process has the same one, is
// the grid of the stencil detection. Local (nothing to find) when null.
GraphFacts analyse_graph(const classic::Comm& graph,
                         const classic::Comm* named);

// Collective over `cart` (a communicator with classic's Cartesian
// topology): its von Neumann neighbourhood (MPI's neighbour lists, proc_null
// at the borders of a mesh) on its own grid, detected as a stencil.
GraphFacts analyse_cartesian(const classic::Comm& cart);

}  // namespace internal
}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_INTERNAL_GRAPH_FACTS_H_
