// What the algorithms' traffic hooks (Registration::traffic, behind
// ortho::traffic) share: a schedule's counts in bytes, and the counts of
// node_aware's and common_neighbours' routes for one process.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_TRAFFIC_COUNTS_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_TRAFFIC_COUNTS_H_

#include <cstddef>

#include "classic/exec/mode.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/operation.h"
#include "ortho/traffic.h"

namespace ortho {
struct Table;
}  // namespace ortho

namespace ortho::algorithms {

// A schedule's messages, rounds and blocks of `block_bytes` (between hosts
// unknown).
ortho::Traffic counted(const Traffic& schedule, std::size_t block_bytes);

// How the non-blocking v and w forms learn their relayed sizes
// (node_aware_plans.h): the routes run over 8 bytes a block
// (exchange_sizes), one round within the hosts (local_sizes), or not at
// all where nothing is relayed (own_sizes). A blocking call that relays
// reads them from its messages (node_aware/self_sized.h).
enum class SizesLearnt { along_routes, within_hosts, not_needed };

// Messages and bytes of `routes` for `operation` on process `rank`; between
// hosts, those to other hosts; the v and w forms that relay also their
// sizes: blocking, 8 bytes a block more in the messages of steps 0 and 1;
// non-blocking, along the routes, the same messages again first with 8
// bytes a block, or within the hosts, one round first of step 0's
// messages within the hosts and step 2's turned around, 8 bytes a block.
ortho::Traffic routes_traffic(const node_routes::Routes& routes,
                              const Table& table, int rank, Operation operation,
                              std::size_t block_bytes, classic::Mode mode,
                              SizesLearnt sizes);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_TRAFFIC_COUNTS_H_
