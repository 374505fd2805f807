// What ortho finds out about a directed graph when it first meets it, with
// the collective steps that needs, so that every process selects the same
// algorithms: the Cartesian grid every process names alike, if any (where
// the algorithms' analyses look for a stencil), and the host of each
// process.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_GRAPH_FACTS_H_
#define ORTHOCOMM_ORTHO_INTERNAL_GRAPH_FACTS_H_

#include <optional>
#include <vector>

#include "classic/comm/comm.h"
#include "naming/geometry.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho {

// A grid the neighbourhoods of a directed graph lie on.
struct CartesianGrid {
  naming::Geometry geometry;
  // Where a receive block pairs with a source other than its own slot's
  // (a classic Cartesian topology pairs the two neighbours of a periodic
  // dimension of size 1 or 2 crosswise, MPI-4.1): source_order[j] is the
  // slot of the j-th source in the grid's order; empty for the identity.
  std::vector<int> source_order;
};

struct GraphFacts {
  // Where every process names the same Cartesian grid.
  std::optional<CartesianGrid> grid;
  // host_of_rank[r]: the host of rank r (host_layout()).
  std::vector<int> host_of_rank;
};

namespace internal {

// Collective over `graph` (a directed-graph communicator): its hosts, and
// where `named` is given (the communicator graph was made from, same
// processes, same order) and every process has the same Cartesian naming
// on it, that grid.
GraphFacts analyse_graph(const classic::Comm& graph,
                         const classic::Comm* named);

// The grid of `cart` (a communicator with classic's Cartesian topology),
// on which its neighbour lists (the von Neumann neighbourhood, proc_null at
// the borders of a mesh) lie. Local.
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

// The same hosts numbered 0, 1, ... in the order of each host's lowest
// rank, as classic::locality numbers them (any non-negative numbering
// comes in: only which ranks share a host matters).
std::vector<int> numbered_by_lowest_rank(std::vector<int> host_of_rank);

}  // namespace internal
}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_INTERNAL_GRAPH_FACTS_H_
