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

// How the v and w forms learn their relayed sizes (node_aware_plans.h):
// the routes run over 8 bytes a block (exchange_sizes), within the hosts
// (local_sizes: one round; a blocking call from the messages themselves,
// node_aware/self_sized.h), or not at all where nothing is relayed
// (own_sizes).
enum class SizesLearnt { along_routes, within_hosts, not_needed };

// Messages and bytes of `routes` for `operation` on process `rank`; between
// hosts, those to other hosts; the v and w forms outside persistent mode
// also their sizes: along the routes, the same messages again first with 8
// bytes a block; within the hosts, non-blocking, one round first of step
// 0's messages within the hosts and step 2's turned around, 8 bytes a
// block; within the hosts, blocking, 8 bytes a block more in the messages
// of steps 0 and 1.
ortho::Traffic routes_traffic(const node_routes::Routes& routes,
                              const Table& table, int rank, Operation operation,
                              std::size_t block_bytes, classic::Mode mode,
                              SizesLearnt sizes);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_TRAFFIC_COUNTS_H_
