// The messages of an algorithm's routes where blocks differ in size (an
// SpMV's halo, Workload::entries), MPI-free: every process's routes built
// as ortho builds them (node_aware_routes.h's Routes), each message's
// bytes summed over the blocks it carries, and a relayed block's size
// followed from the message that brought it to the one that takes it on.
#ifndef ORTHOCOMM_EXPERIMENTS_SIMULATE_SIZED_FLOWS_H_
#define ORTHOCOMM_EXPERIMENTS_SIMULATE_SIZED_FLOWS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "experiments/simulate/workload.h"
#include "ortho/algorithms/node_aware/node_aware_routes.h"

namespace simulate {

// What a process sends one peer in one step: blocks and their bytes.
struct Sent {
  int blocks = 0;
  std::int64_t bytes = 0;
};
// sized[r][step][q]: what rank r sends rank q in that step.
using SizedFlow = std::array<std::map<int, Sent>, 3>;

// A process's routes from its rank and its in-neighbours (in the order
// the graph's edges give them: by source rank, then by the source's order).
using RoutesOf = std::function<ortho::algorithms::node_routes::Routes(
    int rank, std::span<const int> sources)>;

// Every process's messages along `routes_of`'s routes, one block per edge
// (an alltoallv), the block of rank r's k-th edge workload.entries[r][k]
// entries of `entry_bytes` bytes. Throws std::invalid_argument where the
// workload has no entries, std::logic_error where the routes send a block
// before it arrives or pair no receive with a send.
std::vector<SizedFlow> sized_flows(const Workload& workload,
                                   const RoutesOf& routes_of,
                                   std::size_t entry_bytes);

}  // namespace simulate

#endif  // ORTHOCOMM_EXPERIMENTS_SIMULATE_SIZED_FLOWS_H_
