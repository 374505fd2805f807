// The cost model's choice between direct, node_aware, common_neighbours and
// (on a Cartesian stencil) message combining where a graph's processes sit
// on several hosts: messages within a host priced
// as shared memory, messages between hosts as the network, and each algorithm's
// time that of its slowest process in each round. MPI-free: node_aware.cc
// runs it once per communicator, on the whole graph every process has
// gathered, so that all processes choose alike.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_MODEL_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ortho/algorithms/combining/combining_loads.h"
#include "ortho/algorithms/common_neighbours/common_neighbours_routes.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho::algorithms {

// The prices of messages within a host and between hosts.
struct HostPrices {
  Prices within;   // a message's work at a core's price; its round's wait
  Prices between;  // the same between hosts
  double processes_per_core = 1;
};

// The work of a message at a core's price: shared memory within a host,
// TCP between hosts with a message 4 times the price of one over TCP
// loopback. Processes that share cores (`processes_per_core` above 1)
// make a round cost the cores' share of all processes' work where that
// exceeds the busiest process's, and wait longer: a round within a host
// costs 4 times the single-host price at as many processes per core. The
// bytes that leave a host cross a link its processes share: they are
// charged to the busiest host. The factors are fitted to runs on simulated
// hosts (16 and 8 processes on 2 cores: experiments/node_aware_benchmark
// on 2-d and 3-d Moore tori, experiments/sparse_graph_benchmark on random
// and mesh graphs); tests/ortho/node_aware:node_aware_model_test keeps the
// choices measured there as points.
HostPrices host_prices(double processes_per_core);

// A machine file's prices (ORTHO_MACHINE): within a host its link within a
// node, between hosts its link between nodes (cost_model.h's
// prices_for(machine, ...)), as the file gives them: no factor fitted to
// simulated hosts.
HostPrices host_prices(const internal::Machine& machine,
                       double processes_per_core);

// The modelled time of one call with blocks of `block_bytes` bytes: direct
// (every edge its own message, one round) on `graph`, node_aware from its
// processes' loads (node_routes::loads).
double direct_call_ns(const node_routes::HostGraph& graph,
                      const HostPrices& prices, std::size_t block_bytes);
double node_aware_call_ns(const node_routes::HostGraph& graph,
                          std::span<const node_routes::Load> loads,
                          const HostPrices& prices, std::size_t block_bytes);

// The round in which the v and w forms learn their relayed blocks' sizes
// within the hosts (node_aware_plans.h, local_sizes), at every call but a
// persistent request's starts: a round within a host and the busiest
// process's `messages`.
double sizes_within_hosts_ns(const HostPrices& prices, int messages);

// Rounds of messages within and between hosts, each priced as direct's
// round: rounds[k][r], rank r's messages in round k.
double split_rounds_call_ns(
    const node_routes::HostGraph& graph,
    std::span<const std::vector<node_routes::SplitLoad>> rounds,
    const HostPrices& prices, std::size_t block_bytes);

// common_neighbours (common_neighbours_routes.h): its two rounds from its
// processes' loads, priced as direct's round.
double common_neighbours_call_ns(const node_routes::HostGraph& graph,
                                 std::span<const common_routes::Load> loads,
                                 const HostPrices& prices,
                                 std::size_t block_bytes);

// Message combining (combining_loads.h): each of its rounds priced as
// direct's one, a message whose blocks pass `split_eager_bytes` counted as
// the two that combining's plans send (stencils/message_split.h).
double combining_call_ns(const node_routes::HostGraph& graph,
                         const combining_loads::Rounds& rounds,
                         const HostPrices& prices, std::size_t block_bytes,
                         std::size_t split_eager_bytes);

// Combining is taken over node_aware only where its modelled time is below
// this share of node_aware's. On 2 simulated hosts x 4 processes the model
// priced the two within 6 % of each other at 4 B - 1 KB, where node_aware
// measured 1.2-1.4x faster (combining sends a message between hosts from
// every process, node_aware one per pair of hosts, and those TCP messages
// cost more on shared cores than the model's price); at 4 KB alltoall on
// the 2-d torus it priced combining 30 % faster, and it measured 25-33 %
// faster.
inline constexpr double kCombiningShareOfNodeAware = 0.85;

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_MODEL_H_
