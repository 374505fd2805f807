// The cost model's choice between direct and node_aware where a graph's
// processes sit on several hosts: messages within a host priced as shared
// memory, messages between hosts as the network, and each algorithm's
// time that of its slowest process in each round. MPI-free: node_aware.cc
// runs it once per communicator, on the whole graph every process has
// gathered, so that all processes choose alike.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_MODEL_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_MODEL_H_

#include <cstddef>
#include <optional>
#include <span>

#include "ortho/algorithms/cost_model.h"
#include "ortho/algorithms/node_aware_routes.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho::algorithms {

// The prices of messages within a host and between hosts.
struct HostPrices {
  Prices within;
  Prices between;
};

// Within a host: shared memory (prices_for). Between hosts: TCP, with a
// message 8 times the price of one over TCP loopback between two
// processes, fitted to runs of experiments/node_aware_benchmark on
// simulated hosts (4 x 4 and 2 x 4 processes on 2 cores, 2-d and 3-d Moore
// tori): direct's time at 4 B blocks over its messages between hosts came
// to 60-150 us a message. The bytes between hosts cross a link each host
// shares among its processes (the model charges them to the busiest host,
// not to each process). With these prices the model puts alltoall's
// crossover between the 4 KB and 40 KB measured, and allgather's above
// 40 KB, as measured (kept as points in
// tests/ortho/node_aware:node_aware_model_test).
HostPrices host_prices(double processes_per_core);

// The modelled time of one call with blocks of `block_bytes` bytes: direct
// (every edge its own message, one round) on `graph`, node_aware from its
// processes' loads (node_routes::loads).
double direct_call_ns(const node_routes::HostGraph& graph,
                      const HostPrices& prices, std::size_t block_bytes);
double node_aware_call_ns(const node_routes::HostGraph& graph,
                          std::span<const node_routes::Load> loads,
                          const HostPrices& prices, std::size_t block_bytes);

// The largest block size, at most `most_bytes`, up to which node_aware is
// modelled faster than direct on `graph` with `payload`; none where it is
// not even on empty blocks.
std::optional<std::size_t> node_aware_up_to(const node_routes::HostGraph& graph,
                                            node_routes::Payload payload,
                                            const HostPrices& prices,
                                            std::size_t most_bytes);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_MODEL_H_
