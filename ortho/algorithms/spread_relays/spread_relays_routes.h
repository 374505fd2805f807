// The routes of the spread-relays algorithm (spread_relays.cc), MPI-free:
// every process sends its blocks for another host in one message, to a
// relay on that host, which keeps what is its own and hands the rest out
// within its host. A process sends at most one message per other host its
// edges reach, as node_aware's sending relays do for a whole host, but
// without gathering first: two rounds, (0) blocks within the host directly
// and each process's blocks for another host to the relay there, (2)
// handing out on the destination host (step 1 is empty). Each relay is
// chosen on its host by load, so that relaying spreads over the host's
// processes where node_aware's single relay per pair of hosts serves a
// whole host: largest bundles first, the process that receives most of a
// bundle's blocks itself less what it already relays.
//
// Relays are processes with an edge (they know the size of the blocks of an
// allgather or alltoall from their own arguments, and the v and w forms'
// sizes within the host: node_aware_plans.h's local_sizes). Every process
// computes the same relays from the whole graph and the hosts, and from
// them its own part, in node_aware_routes.h's terms.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_SPREAD_RELAYS_SPREAD_RELAYS_ROUTES_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_SPREAD_RELAYS_SPREAD_RELAYS_ROUTES_H_

#include <span>
#include <vector>

#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho::algorithms::spread_routes {

using node_routes::Flow;
using node_routes::HostGraph;
using node_routes::Payload;
using node_routes::Routes;
using node_routes::SplitLoad;

// This process's routes (three steps, step 1 empty). `rank` is its rank,
// `sources` its in-neighbours in its order. Throws std::invalid_argument
// where `sources` disagrees with the graph.
Routes routes(const HostGraph& graph, int rank, std::span<const int> sources,
              Payload payload);

// Every process's messages with their peers: flows[r][step][q], the blocks
// rank r sends rank q in steps 0 and 2 (step 1 empty).
std::vector<Flow> flows(const HostGraph& graph, Payload payload);

// The same as the host model prices them: loads[k][r], rank r's messages
// within its host and to others in round k (step 0, then step 2).
std::vector<std::vector<SplitLoad>> loads(const HostGraph& graph,
                                          Payload payload);

}  // namespace ortho::algorithms::spread_routes

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_SPREAD_RELAYS_SPREAD_RELAYS_ROUTES_H_
