// Placement of a general directed graph of processes onto hosts (the
// MPI-free core of Reorder::yes on graphs without a common stencil; the
// grid's own is stencils/placement.h): what a placement costs in weighted
// traffic between hosts, and Scotch's mapping of the graph onto hosts of
// given sizes, made exact.
//
// Vocabulary as in stencils/placement.h: vertex v is rank v of the
// communicator the graph is made from; slots[h] is the number of
// processes on host h; a placement host_of_vertex is balanced when host h
// appears exactly slots[h] times.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_GRAPH_PLACEMENT_H_
#define ORTHOCOMM_ORTHO_INTERNAL_GRAPH_PLACEMENT_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ortho/internal/inside_ortho.h"
#include "stencils/placement.h"

namespace ortho::internal {

// Every vertex's out-edges: vertex v sends to targets[offsets[v]] ..
// targets[offsets[v + 1] - 1], with the weights at the same places (bytes
// per call, say; empty: 1 each, negative ones count as 0). Duplicate edges and
// self loops may appear; a target is a vertex (no proc_null).
struct DirectedGraph {
  std::vector<std::int64_t> offsets = {0};
  std::vector<int> targets;
  std::vector<std::int64_t> weights;

  int vertices() const { return static_cast<int>(offsets.size()) - 1; }
};

// The weight of the edges between hosts under `host_of_vertex` (one host
// per vertex, any host numbers >= 0). Throws classic::Error: count if
// host_of_vertex has not graph.vertices() elements.
stencils::CrossingCost graph_crossing_cost(const DirectedGraph& graph,
                                           std::span<const int> host_of_vertex);

// Whether this build has Scotch (libscotch-dev; optional).
bool scotch_built_in();

// Scotch's mapping of the graph, its edges taken both ways (the weight of
// a pair is the sum of its two directions; self loops and weightless
// edges carry nothing), onto a complete graph of hosts with slots[h]
// places each, with Scotch's quality strategy and its random generator
// reset (the same graph gives the same placement). Scotch balances within
// a tolerance; the result is then made exact by moving, from a host over
// its slots to one under them, the vertex that adds the least weight
// between hosts. std::nullopt without Scotch or where Scotch reports an
// error. Throws classic::Error: arg if a slot count is below 1; count if
// the slots do not add up to graph.vertices().
std::optional<std::vector<int>> scotch_placement(const DirectedGraph& graph,
                                                 std::span<const int> slots);

// Reorder::yes's choice for a general graph, as stencils::choose_placement
// is a grid's: Scotch's placement (scotch_placement onto `slots`) where its
// weight between hosts is strictly below that of `current` (the hosts the
// vertices have), `current` otherwise.
struct GraphPlacementChoice {
  bool placed = false;  // Scotch's placement taken
  std::vector<int> host_of_vertex;
  stencils::CrossingCost current_cost;
  // Scotch's placement's cost; none where Scotch did not run (`use_scotch`
  // false, not built in, or it failed).
  std::optional<stencils::CrossingCost> scotch_cost;
};
GraphPlacementChoice choose_graph_placement(const DirectedGraph& graph,
                                            std::span<const int> slots,
                                            std::span<const int> current,
                                            bool use_scotch);

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_GRAPH_PLACEMENT_H_
