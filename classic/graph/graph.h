// The MPI-1 graph topology (MPI-1 section 6.5.3-6.5.4, with MPI-2.2's self
// loops and repeated edges): graph_create, its queries and graph_map.
#ifndef ORTHOCOMM_CLASSIC_GRAPH_GRAPH_H_
#define ORTHOCOMM_CLASSIC_GRAPH_GRAPH_H_

#include <span>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/topology/topology.h"

namespace classic {

// The graph is given as MPI-1 gives it: nnodes = index.size() nodes, node
// i's neighbours are edges[index[i-1] .. index[i]) (index[-1] = 0). A node
// may list a neighbour more than once and may list itself (MPI-2.2); the
// adjacency need not be symmetric. Every process holds the whole graph.
//
// Errors (classic::Error):
//   ErrorClass::comm      a null, freed or finalised communicator; an
//                         inter-communicator in graph_create or graph_map.
//   ErrorClass::arg       index.size() larger than comm's size; index
//                         negative or decreasing; index[nnodes-1] !=
//                         edges.size() (edges non-empty for nnodes == 0);
//                         graph_create called with different graphs on
//                         different processes (raised on every process).
//   ErrorClass::rank      an edge outside [0, nnodes); in the queries, a
//                         rank outside [0, size()).
//   ErrorClass::topology  a query on a communicator without a graph
//                         topology (none, Cartesian or distributed graph).

// MPI_Graph_create. Collective over comm; every process passes the same
// graph (checked: one small allreduce). Processes with rank >= nnodes get
// the null communicator (all of them for nnodes == 0). The new communicator
// has its own contexts, a graph topology and no attributes of comm.
//
// Reorder: the new ranks are graph_map's, which numbers the processes as
// comm does (rank r becomes node r), so Reorder::yes gives the same
// communicator as Reorder::no. MPI-1 allows this ("a possible implementation
// ... is to always return the rank of the calling process").
[[nodiscard]] Comm graph_create(const Comm& comm, std::span<const int> index,
                                std::span<const int> edges, Reorder reorder);

// MPI_Graphdims_get.
struct GraphDims {
  int nnodes;
  int nedges;
};
GraphDims graphdims_get(const Comm& comm);

// MPI_Graph_get: index and edges as given to graph_create.
struct GraphInfo {
  std::vector<int> index;
  std::vector<int> edges;
};
GraphInfo graph_get(const Comm& comm);

// MPI_Graph_neighbors_count and MPI_Graph_neighbors: node `rank`'s
// neighbours in the order graph_create's edges list them, repeats and self
// loops included. Local.
int graph_neighbors_count(const Comm& comm, int rank);
std::vector<int> graph_neighbors(const Comm& comm, int rank);

// MPI_Graph_map: the rank the calling process would have in a graph
// communicator made from comm with this graph, or classic::undefined if it
// would not belong to it. Here the identity: comm's rank if it is below
// nnodes. Local; the graph is checked as graph_create checks it.
int graph_map(const Comm& comm, std::span<const int> index,
              std::span<const int> edges);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_GRAPH_GRAPH_H_
