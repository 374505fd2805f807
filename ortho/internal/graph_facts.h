// What ortho finds out about a directed graph when it first meets it, with
// the collective steps that needs, so that every process selects the same
// algorithms: whether the graph is a Cartesian stencil (then the compiled
// combining schedules), and the host of each process (the node-aware
// algorithm's routes, node_aware.cc).
#ifndef ORTHOCOMM_ORTHO_INTERNAL_GRAPH_FACTS_H_
#define ORTHOCOMM_ORTHO_INTERNAL_GRAPH_FACTS_H_

#include <memory>
#include <vector>

#include "classic/comm/comm.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho {

namespace algorithms {
struct Combining;
}  // namespace algorithms

struct GraphFacts {
  // Non-null where every process has the same stencil on a Cartesian grid.
  std::shared_ptr<const algorithms::Combining> combining;
  // host_of_rank[r]: the host of rank r (host_layout()).
  std::vector<int> host_of_rank;
};

namespace internal {

// Collective over `graph` (a directed-graph communicator): its hosts, and
// where `named` is given (the communicator graph was made from, same
// processes, same order) whose Cartesian naming, if every process has the
// same one, is the grid of the stencil detection, its stencil.
GraphFacts analyse_graph(const classic::Comm& graph,
                         const classic::Comm* named);

// Collective over `cart` (a communicator with classic's Cartesian
// topology): its von Neumann neighbourhood (MPI's neighbour lists, proc_null
// at the borders of a mesh) on its own grid, detected as a stencil.
GraphFacts analyse_cartesian(const classic::Comm& cart);

// Where the processes of `comm` run: classic::locality's hosts, or, where
// the environment variable ORTHO_HOSTS=K is set (K >= 1), K simulated
// hosts holding blocks of consecutive MPI_COMM_WORLD ranks as equal as
// they come (the first world size % K hosts one process more): the layout
// ortho plans for, e.g. to try node-aware routes on one machine. A
// simulated host, like a real one, belongs to the process, so it follows
// the process into a communicator of another order (a remapped graph).
// Hosts are numbered in the order of each host's lowest rank of comm.
// Collective the first time on comm (locality). Throws classic::Error: arg
// for an ORTHO_HOSTS that is no positive number.
std::vector<int> host_layout(const classic::Comm& comm);

}  // namespace internal
}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_INTERNAL_GRAPH_FACTS_H_
