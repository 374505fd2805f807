// The routes of the common-neighbours algorithm (common_neighbours.cc),
// MPI-free, after Mirsadeghi, Träff, Balaji and Afsahi, "Exploiting common
// neighborhoods to optimize MPI neighborhood collectives" (HiPC 2017):
// processes of one host whose out-neighbourhoods overlap pair up (greedy
// matching on the number of distinct common out-neighbours, at least
// `least_common`). Step 0: the two exchange the blocks the other forwards
// (and the blocks of their edges to each other). Step 1: for each common
// out-neighbour one of the two sends both processes' blocks bound there in
// one message (the common neighbours spread over the two so that their
// messages even out); every other edge goes directly. Self loops are local
// copies.
//
// Every process computes the same pairs from the whole graph (every
// process's destinations, in order) and from them its own part as the
// node-aware algorithm's Routes (node_aware_routes.h: steps 0 and 1, step 2
// empty), so that node_aware_plans.h builds the plans and learns the
// relayed sizes of the v and w forms.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_COMMON_NEIGHBOURS_COMMON_NEIGHBOURS_ROUTES_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_COMMON_NEIGHBOURS_COMMON_NEIGHBOURS_ROUTES_H_

#include <array>
#include <map>
#include <span>
#include <vector>

#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho::algorithms::common_routes {

using node_routes::HostGraph;
using node_routes::Payload;
using node_routes::Routes;
using node_routes::StepLoad;

// Two processes with only two common neighbours would send as many
// messages as direct (two exchanges, two combined messages) in one more
// round: pairs need three.
inline constexpr int kLeastCommon = 3;

// The pairs, the same on every process.
struct Grouping {
  // partner[r]: the process rank r pairs with, -1 for none.
  std::vector<int> partner;
  // forwards[r]: the common out-neighbours of r and its partner to which r
  // sends the blocks of both, ascending (empty without a partner).
  std::vector<std::vector<int>> forwards;
};

// Pairs the processes of each host of `graph` greedily by their number of
// distinct common out-neighbours (self loops and the two themselves not
// counted), most first, ties by the lower ranks; only pairs with at least
// `least_common`. Throws std::invalid_argument on a malformed graph.
Grouping groups(const HostGraph& graph, int least_common = kLeastCommon);

// This process's routes (three steps, the last empty). `rank` is its rank,
// `sources` its in-neighbours in its order. Throws std::invalid_argument
// where `sources` disagrees with the graph.
Routes routes(const HostGraph& graph, const Grouping& grouping, int rank,
              std::span<const int> sources, Payload payload);

using node_routes::SplitLoad;
using Load = std::array<SplitLoad, 2>;  // steps 0 and 1

// Every process's load (by rank), counted from the whole graph at once.
std::vector<Load> loads(const HostGraph& graph, const Grouping& grouping,
                        Payload payload);

// The same messages with their peers: flows[r][step][q], the blocks rank r
// sends rank q in steps 0 and 1 (loads() counts them).
using Flow = std::array<std::map<int, int>, 2>;  // blocks per peer
std::vector<Flow> flows(const HostGraph& graph, const Grouping& grouping,
                        Payload payload);

}  // namespace ortho::algorithms::common_routes

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_COMMON_NEIGHBOURS_COMMON_NEIGHBOURS_ROUTES_H_
