// The neighbours of a process in a topology communicator, in the order that
// places the blocks of the neighbourhood collectives (MPI-4.1 section 8.6).
// Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_LISTS_H_
#define ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_LISTS_H_

#include <mpi.h>

#include <memory>
#include <optional>
#include <vector>

#include "classic/base/internal/inside_classic.h"
#include "classic/comm/comm.h"
#include "classic/exec/plan.h"
#include "classic/topology/internal/topology_cache.h"

namespace classic::internal {

// How the blocks a process sends pair up with the blocks its neighbours
// receive.
enum class Pairing {
  // Cartesian (MPI-4.1): the block sent to the neighbour at -1 in dimension
  // d (send block 2d) lands in that neighbour's receive block 2d + 1 (its
  // neighbour at +1), and send block 2d + 1 in receive block 2d, also when
  // both neighbours are one process or the caller itself (a periodic
  // dimension of size 2 or 1).
  by_direction,
  // Graphs: the k-th block a process sends to a peer lands in the peer's
  // k-th receive block from that process (messages do not overtake).
  by_order,
};

// Equal blocks at a fixed stride (alltoall's; allgather's receive side,
// and its send side at stride 0): block i is `count` elements of
// `datatype` at i * stride bytes into `space`.
struct UniformBlocks {
  Plan::Space space = Plan::Space::send;
  int count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  MPI_Aint stride = 0;
  friend bool operator==(const UniformBlocks&, const UniformBlocks&) = default;
};

// Receive block i comes from sources[i]; send block i goes to
// destinations[i]. proc_null marks a neighbour that does not exist (a
// non-periodic border): its block is neither sent nor received.
struct NeighborLists {
  std::vector<int> sources;
  std::vector<int> destinations;
  Pairing pairing = Pairing::by_order;
  // The plan of the last neighbourhood collective on these lists
  // (NeighborExchange): a call with the same blocks, the common case of a
  // stencil code's loop, runs it again instead of building a new one.
  mutable std::shared_ptr<const Plan> last_plan;
  // Where last_plan moves uniform blocks, those (sends, receives): a
  // uniform call compares these instead of every block.
  struct UniformPlan {
    UniformBlocks sends;
    UniformBlocks receives;
  };
  mutable std::optional<UniformPlan> last_uniform;
};

// The neighbours of `rank` (MPI_Cart_shift by 1 in each dimension, source
// then destination, as both lists).
NeighborLists cart_neighbor_lists(const CartTopology& grid, int rank,
                                  const char* function);

// MPI_Graph_neighbors of `rank`, as both lists. The standard allows
// neighbourhood collectives on a graph only when its adjacency is
// symmetric: ErrorClass::topology unless each neighbour j of `rank` lists
// `rank` as often as `rank` lists j (checked from `rank`'s side only).
NeighborLists graph_neighbor_lists(const GraphTopology& graph, int rank,
                                   const char* function);

// The sources and destinations of the distributed graph, as created.
NeighborLists dist_graph_neighbor_lists(const DistGraphTopology& graph);

// The lists of the calling process in `comm`, by its topology.
// ErrorClass::comm for a null, freed or inter-communicator,
// ErrorClass::topology for a communicator without a topology, and the
// errors of the functions above.
NeighborLists neighbor_lists(const Comm& comm, const char* function);

// neighbor_lists(comm), computed on the first neighbourhood collective and
// then kept on the communicator (an attribute that dup does not copy; the
// duplicate computes its own), so a call costs one lookup. Same errors.
const NeighborLists& cached_neighbor_lists(const Comm& comm,
                                           const char* function);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_LISTS_H_
