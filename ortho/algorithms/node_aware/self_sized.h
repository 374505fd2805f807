// The blocking v and w forms along relaying routes without a round of
// sizes first: every message of the routes' first two steps opens with the
// byte sizes of the blocks it carries, so a relay learns what it forwards
// from what it receives. Each such message is received whole, whatever its
// size (classic::execute_receiving_unsized); the last step's go as
// planned, into the receivers' own blocks, whose sizes they know.
//
// The persistent request learns the sizes once (node_aware_plans.h,
// local_sizes) and keeps its plan; a blocking call cannot keep what its
// peers' next arguments will be, and this spends no message on them.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_SELF_SIZED_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_SELF_SIZED_H_

#include <cstdint>

#include "classic/comm/comm.h"
#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "ortho/call.h"
#include "ortho/internal/exchange.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/last_plan.h"
#include "ortho/internal/table.h"

namespace ortho::algorithms {

// Runs the blocking exchange `call` (a v or w form) along `routes`, whose
// step 0 sends only its senders' own blocks and whose step 2 delivers only
// into its receivers' own receive blocks (node_aware's and spread_relays'
// routes). Three operations on comm at every process, relay or not. The
// run is kept in `last` under `key` and the call's number `shape`
// (internal/call_shape.h) for the next call with the same arguments on
// the same buffers (two runs, for two pairs of buffers): its first step's
// plan is taken as it is, the later ones where the messages came back
// with the same sizes.
// Raises classic::Error (truncate) where a block is larger than the
// receive block it lands in.
void run_self_sized(const classic::Comm& comm, const Table& table,
                    const Call& call, const node_routes::Routes& routes,
                    const void* key, std::uint64_t shape,
                    internal::LastPlan& last);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_SELF_SIZED_H_
