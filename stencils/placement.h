// Placement of a Cartesian grid of processes onto hosts (the MPI-free core of
// process mapping): what a placement costs in weighted stencil traffic
// between hosts, the cheapest axis-aligned block partition of the grid, the
// choice between it and the current placement, and which existing process
// takes which cell.
//
// Vocabulary shared by every function:
// - A cell is a point of the grid; cell c is the point geometry.rank() gives
//   number c (row-major for naming::Order::row_major), as rank c holds it
//   under a Cartesian name.
// - The stencil's offsets are directed edges: cell c sends to the cell at
//   coordinates(c) + offset, with the offset's weight (bytes per call, say).
//   Offsets that leave a non-periodic dimension are dropped; periodic ones
//   wrap. `weights` holds one non-negative weight per offset, or is empty:
//   every offset then weighs 1.
// - slots[h] is the number of processes on host h (at least 1); the slots
//   add up to the number of cells.
// - A placement host_of_cell gives the host of each cell; it is balanced
//   when host h appears exactly slots[h] times.
#ifndef ORTHOCOMM_STENCILS_PLACEMENT_H_
#define ORTHOCOMM_STENCILS_PLACEMENT_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "naming/geometry.h"
#include "stencils/stencil.h"

namespace stencils {

// The traffic of one stencil call that a placement sends between hosts.
struct CrossingCost {
  // Total weight of the directed edges whose endpoints are on different
  // hosts.
  std::int64_t weight = 0;
  // The number of those edges.
  std::int64_t edges = 0;
  // The largest weight that leaves one host (0 if nothing crosses).
  std::int64_t max_host_weight = 0;

  friend bool operator==(const CrossingCost& a,
                         const CrossingCost& b) = default;
};

// The crossing cost of `host_of_cell`, which need not be balanced.
// Throws classic::Error: dims if stencil.ndims() != geometry.ndims(); arg if
// weights is neither empty nor of stencil.size() elements, if a weight is
// negative, or if a host index is outside [0, geometry.size()); count if
// host_of_cell.size() != geometry.size() or the weights could add up beyond
// INT64_MAX over the grid.
CrossingCost crossing_cost(const naming::Geometry& geometry,
                           const Stencil& stencil,
                           std::span<const std::int64_t> weights,
                           std::span<const int> host_of_cell);

// The cells in order, filled host by host: host 0 takes cells 0 ..
// slots[0]-1, host 1 the next slots[1], and so on. This is Open MPI's
// default by-slot mapping when rank r holds cell r. Throws arg if a slot
// count is below 1.
std::vector<int> identity_placement(std::span<const int> slots);

// An axis-aligned block partition and its cost.
struct BlockPlacement {
  // blocks[i]: the number of hosts along dimension i; each host owns
  // geometry.dims()[i] / blocks[i] consecutive cells along dimension i.
  // Hosts are numbered through the grid of blocks in the geometry's
  // dimension order (row-major for a row-major geometry).
  std::vector<int> blocks;
  std::vector<int> host_of_cell;
  CrossingCost cost;
};

// The cheapest partition of the grid into equal axis-aligned blocks, one per
// host: every factorisation H = blocks[0] * ... * blocks[d-1] of the number
// of hosts H with blocks[i] dividing dims()[i] is priced exactly with
// crossing_cost. The cheapest has the least cost.weight, then the least
// cost.max_host_weight, then the fewest cost.edges; remaining ties go to the
// first in lexicographic order of `blocks` (blocks[0] most significant,
// ascending).
//
// std::nullopt when the hosts' slots differ (blocks would be unequal) or no
// factorisation fits the dims (e.g. 3 hosts on a 4 x 4 grid). There is no
// fallback: the caller keeps its placement.
//
// Throws as crossing_cost, and: arg if a slot count is below 1; count if the
// slots do not add up to geometry.size().
std::optional<BlockPlacement> best_block_placement(
    const naming::Geometry& geometry, const Stencil& stencil,
    std::span<const std::int64_t> weights, std::span<const int> slots);

// Which placement choose_placement returned.
enum class Chosen { current, block };

struct PlacementChoice {
  Chosen chosen = Chosen::current;
  // The chosen placement.
  std::vector<int> host_of_cell;
  CrossingCost current_cost;
  // The best block placement's cost; std::nullopt when there is none.
  std::optional<CrossingCost> block_cost;
};

// best_block_placement if its cost.weight is strictly below that of
// `current`, otherwise `current` unchanged: the weight between hosts never
// grows. Throws as best_block_placement, and arg if `current` is not a
// balanced placement for `slots` (count if it has not geometry.size()
// elements).
PlacementChoice choose_placement(const naming::Geometry& geometry,
                                 const Stencil& stencil,
                                 std::span<const std::int64_t> weights,
                                 std::span<const int> slots,
                                 std::span<const int> current);

// The old rank that takes each cell (= new rank) c: the lowest old rank on
// host host_of_cell[c] not taken by an earlier cell. host_of_old_rank[r] is
// the host of old rank r. The result is a permutation of 0 .. n-1.
// Throws classic::Error: count if the two lists differ in length; arg if a
// host index is outside [0, n), or if a host holds a different number of
// cells in host_of_cell than of old ranks in host_of_old_rank.
std::vector<int> assign_ranks(std::span<const int> host_of_cell,
                              std::span<const int> host_of_old_rank);

}  // namespace stencils

#endif  // ORTHOCOMM_STENCILS_PLACEMENT_H_
