// Cartesian process topologies (MPI-1 section 6.5, with the zero-dimensional
// grids of MPI-2.2): constructors, inquiry, shifts and sub-grids.
#ifndef ORTHOCOMM_CLASSIC_TOPOLOGY_CARTESIAN_H_
#define ORTHOCOMM_CLASSIC_TOPOLOGY_CARTESIAN_H_

#include <span>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/topology/topology.h"

namespace classic {

// A grid is described by `dims` (processes per dimension; ndims is
// dims.size()) and `periods` (wrap-around per dimension). Ranks are numbered
// in row-major order: the last dimension varies fastest. A grid of ndims = 0
// has one process, rank 0, with empty coordinates (MPI-2.2).
//
// Errors (classic::Error), each checked before any communication, so that a
// collective call fails on every process alike:
//   ErrorClass::comm      a null, freed or finalised communicator; an
//                         inter-communicator passed to cart_create/cart_map.
//   ErrorClass::topology  a query or cart_sub on a communicator without a
//                         Cartesian topology (none, graph, dist graph, or an
//                         inter-communicator).
//   ErrorClass::dims      a dims entry < 1 (Open MPI 4.1 says MPI_ERR_OTHER);
//                         a span whose length is not ndims (periods in the
//                         constructors, coords in cart_rank, remain_dims in
//                         cart_sub); a shift direction outside [0, ndims)
//                         (Open MPI checks only direction < 0).
//   ErrorClass::arg       a grid of more processes than comm (as Open MPI;
//                         also from cart_map, where Open MPI does not check);
//                         a coordinate outside [0, dims[i]) in a non-periodic
//                         dimension (as Open MPI); a `reorder` that is not a
//                         Reorder value.
//   ErrorClass::rank      cart_coords of a rank outside [0, size) (Open MPI
//                         checks only rank < 0).

// MPI_Cart_map. This process's rank in the grid, or classic::undefined when
// the grid has fewer processes than comm and this process is left out.
// Returns the identity numbering: comm's ranks 0 .. grid size - 1 form the
// grid in their order, which the standard allows ("a possible
// implementation ... is to always return the rank of the calling process").
// Local (a node-aware placement needs the hosts, which cart_create with
// Reorder::yes finds collectively).
int cart_map(const Comm& comm, std::span<const int> dims,
             std::span<const bool> periods);

// MPI_Cart_create. Collective over comm (all pass the same grid). Made as
// the standard's advice to implementors says: comm.split with color 0 for
// the processes cart_map places in the grid (undefined for the others) and
// key their cart_map rank; the result caches the grid (topo_test says
// cartesian; dup keeps it, split and create do not) and has a private
// context. Processes beyond the grid get the null communicator. Reorder::no
// keeps each process's rank in comm. Reorder::yes, where the grid holds all
// of comm's processes and they run on several hosts with as many processes
// each (classic::locality; collective), numbers node-aware: each host gets
// one axis-aligned block of the grid, the factorisation of the host count
// into the dimensions that cuts the fewest of the Cartesian neighbour edges
// between hosts, and a process takes the grid cell (rank) its host's block
// assigns it (the lowest ranks of a host take the block's cells in row-major
// order); where no block partition cuts fewer edges than the identity, or
// otherwise, the identity. No attribute of comm propagates.
[[nodiscard]] Comm cart_create(const Comm& comm, std::span<const int> dims,
                               std::span<const bool> periods, Reorder reorder);

// MPI_Cartdim_get: ndims of comm's grid. Local.
int cartdim_get(const Comm& comm);

// MPI_Cart_get: the grid and this process's coordinates in it. Local.
struct CartInfo {
  std::vector<int> dims;
  std::vector<bool> periods;
  std::vector<int> coords;
};
CartInfo cart_get(const Comm& comm);

// MPI_Cart_rank: the rank at `coords` (ndims entries). A periodic dimension
// wraps any coordinate into [0, dims[i]); a non-periodic one rejects a
// coordinate outside it (ErrorClass::arg). Local.
int cart_rank(const Comm& comm, std::span<const int> coords);

// MPI_Cart_coords: the coordinates of `rank` (in [0, size)). Local.
std::vector<int> cart_coords(const Comm& comm, int rank);

// MPI_Cart_shift: the ranks this process receives from (`source`) and sends
// to (`destination`) when data moves `displacement` steps (any int, also
// negative or larger than the dimension) along dimension `direction`.
// Periodic dimensions wrap; past a non-periodic border the rank is
// classic::proc_null. Local.
struct CartShift {
  int source;
  int destination;
};
CartShift cart_shift(const Comm& comm, int direction, int displacement);

// MPI_Cart_sub. Collective over comm. Processes that share their coordinates
// in the dropped dimensions (remain_dims[i] false) form one communicator,
// ranked in row-major order of their coordinates in the kept dimensions; it
// caches the sub-grid of the kept dims and periods. With every dimension
// dropped each process gets a zero-dimensional Cartesian communicator of
// size 1 (MPI-2.2 onwards, and Open MPI; MPI-1 leaves the case open).
[[nodiscard]] Comm cart_sub(const Comm& comm,
                            std::span<const bool> remain_dims);

// The same with flags in a std::vector<bool> (which no std::span can view),
// so that cart_get's periods go straight back into a constructor.
int cart_map(const Comm& comm, std::span<const int> dims,
             const std::vector<bool>& periods);
[[nodiscard]] Comm cart_create(const Comm& comm, std::span<const int> dims,
                               const std::vector<bool>& periods,
                               Reorder reorder);
[[nodiscard]] Comm cart_sub(const Comm& comm,
                            const std::vector<bool>& remain_dims);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_TOPOLOGY_CARTESIAN_H_
