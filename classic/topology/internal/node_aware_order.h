// The node-aware numbering of a Cartesian grid, for cart_create with
// Reorder::yes: which ranks share a host (Gropp's observation) is enough to
// lay a grid out well. Each host gets one axis-aligned block of the grid
// (the factorisation of the host count into the dimensions whose blocks cut
// the fewest of MPI's Cartesian neighbour edges), taken only where it cuts
// strictly fewer than the identity numbering. MPI-free. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_TOPOLOGY_INTERNAL_NODE_AWARE_ORDER_H_
#define ORTHOCOMM_CLASSIC_TOPOLOGY_INTERNAL_NODE_AWARE_ORDER_H_

#include <cstdint>
#include <span>
#include <vector>

#include "classic/base/internal/inside_classic.h"

namespace classic::internal {

// The directed neighbour edges (per dimension, the neighbours at -1 and +1,
// wrapping where periodic, none past a mesh's border) between processes on
// different hosts when grid cell c (row-major) runs on host_of_cell[c].
std::int64_t cartesian_edges_between_hosts(std::span<const int> dims,
                                           std::span<const bool> periods,
                                           std::span<const int> host_of_cell);

// new_rank[r]: the grid cell (= rank in the new communicator) that rank r
// of the old one takes, where rank r runs on host_of_rank[r] (one rank per
// cell; hosts numbered from 0, each with as many ranks). The identity
// where no block partition cuts fewer edges, or where the hosts differ in
// size or number one.
std::vector<int> node_aware_ranks(std::span<const int> dims,
                                  std::span<const bool> periods,
                                  std::span<const int> host_of_rank);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_TOPOLOGY_INTERNAL_NODE_AWARE_ORDER_H_
