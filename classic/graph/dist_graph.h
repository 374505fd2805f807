// The MPI-2.2 distributed graph topology: dist_graph_create_adjacent,
// dist_graph_create and the neighbour queries. Each process holds only its
// own in- and out-edges.
#ifndef ORTHOCOMM_CLASSIC_GRAPH_DIST_GRAPH_H_
#define ORTHOCOMM_CLASSIC_GRAPH_DIST_GRAPH_H_

#include <span>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/topology/topology.h"

namespace classic {

// MPI_UNWEIGHTED: passed in place of both weight lists. A weighted call with
// empty weight lists ({} included: it never means unweighted) is weighted,
// with no edges on that process (MPI-3's MPI_WEIGHTS_EMPTY).
struct Unweighted {
  struct Tag {};
  // Not default-constructible, so that {} always picks the weighted form.
  explicit constexpr Unweighted(Tag) {}
};
inline constexpr Unweighted unweighted{Unweighted::Tag{}};

// Common to both constructors. Collective over comm (an intra-communicator).
// The new communicator has comm's processes in comm's order, its own
// contexts, the distributed graph topology and none of comm's attributes.
// Ranks in the lists are ranks of comm (and so of the new communicator).
// Edges may repeat and may be self loops. Weights are non-negative ints;
// either every process passes weights or every process passes unweighted.
//
// info: hints (MPI_Info); accepted and ignored.
// reorder: the processes keep comm's numbering whatever is asked (MPI lets
//   the constructors leave the numbering as it is).
//
// Errors (classic::Error). Argument errors are found before anything is
// sent and raised on every process: the process at fault gets its own
// message, the others one that names its rank, all with the same class.
//   ErrorClass::comm      a null, freed or finalised communicator, or an
//                         inter-communicator (raised on the caller only).
//   ErrorClass::arg       a negative degree or weight; lists whose lengths
//                         disagree (weights and their ranks; degrees and
//                         sources; destinations and the sum of degrees);
//                         some processes passing weights and others
//                         unweighted.
//   ErrorClass::rank      a rank outside [0, comm.size()).
//   ErrorClass::topology  adjacent only: processes whose lists disagree (p
//                         lists q as a destination k times, with weights W,
//                         but q lists p as a source another number of times
//                         or with other weights), raised on every process.

// MPI_Dist_graph_create_adjacent: each process gives its own in-neighbours
// (sources) and out-neighbours (destinations). They are kept in the given
// order, which fixes the order of the neighbour collectives' blocks. The
// lists of all processes are checked to agree (one sparse exchange over the
// out-edges and one allreduce).
[[nodiscard]] Comm dist_graph_create_adjacent(
    const Comm& comm, std::span<const int> sources,
    std::span<const int> sourceweights, std::span<const int> destinations,
    std::span<const int> destweights, const Info& info = {},
    Reorder reorder = Reorder::no);
[[nodiscard]] Comm dist_graph_create_adjacent(const Comm& comm,
                                              std::span<const int> sources,
                                              Unweighted,
                                              std::span<const int> destinations,
                                              Unweighted, const Info& info = {},
                                              Reorder reorder = Reorder::no);

// MPI_Dist_graph_create: each process gives any edges of the graph, as
// sources[i] -> destinations[degrees[0] + ... + degrees[i-1] + j] for
// 0 <= j < degrees[i], with weights[] parallel to destinations. Every edge
// reaches its two endpoints through a sparse exchange (NBX: synchronous
// sends and a non-blocking barrier) on the new communicator's private
// context; memory per process is proportional to the edges it gives and
// its own degree, never to the communicator size.
//
// Order (the standard leaves it open): a process's sources and
// destinations are its in- and out-edges ordered by the rank of the process
// that gave the edge, then by the edge's position in that process's
// destinations. So a process that alone gives its own out-edges (sources ==
// {rank}) gets its destinations in the order it gave them.
[[nodiscard]] Comm dist_graph_create(const Comm& comm,
                                     std::span<const int> sources,
                                     std::span<const int> degrees,
                                     std::span<const int> destinations,
                                     std::span<const int> weights,
                                     const Info& info = {},
                                     Reorder reorder = Reorder::no);
[[nodiscard]] Comm dist_graph_create(const Comm& comm,
                                     std::span<const int> sources,
                                     std::span<const int> degrees,
                                     std::span<const int> destinations,
                                     Unweighted, const Info& info = {},
                                     Reorder reorder = Reorder::no);

// MPI_Dist_graph_neighbors_count. Local. ErrorClass::topology on a
// communicator without a distributed graph topology (ErrorClass::comm for a
// null or freed one).
struct DistGraphCounts {
  int indegree;
  int outdegree;
  bool weighted;
};
DistGraphCounts dist_graph_neighbors_count(const Comm& comm);

// MPI_Dist_graph_neighbors: the calling process's neighbours in the order
// the constructor defines; the weight lists are empty for an unweighted
// graph. Local; errors as dist_graph_neighbors_count.
struct DistGraphNeighbors {
  std::vector<int> sources;
  std::vector<int> source_weights;
  std::vector<int> destinations;
  std::vector<int> destination_weights;
};
DistGraphNeighbors dist_graph_neighbors(const Comm& comm);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_GRAPH_DIST_GRAPH_H_
