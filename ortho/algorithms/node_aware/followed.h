// The non-blocking v and w forms along relaying routes: the round in which
// the relays learn the sizes of the blocks they forward, and then the
// blocks' own plan, made from those sizes, one after the other on one
// request (classic::execute_followed). The call returns without waiting
// for a peer, as MPI makes the initiation of a non-blocking collective
// local; the blocking form carries the sizes inside its messages instead
// (self_sized.h), the persistent one learns them once, at its *_init.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_FOLLOWED_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_FOLLOWED_H_

#include <cstdint>

#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "ortho/algorithms/node_aware/node_aware_plans.h"
#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "ortho/call.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/last_plan.h"
#include "ortho/internal/table.h"

namespace ortho::algorithms {

// Starts the non-blocking exchange `call` (a v or w form) along `routes`
// (kept with `table`), its relayed sizes learnt by `sizes_of`'s round
// (local_sizes or exchange_sizes). Every argument error is raised here,
// before any message. Where the call has the arguments of the last one
// (`shape`, `last` under `key`), its checked blocks are taken again, and
// its plan where the sizes that arrive are those it was made for; a plan
// made here once the sizes have arrived is kept in `last` by the next such
// call (a plan is never kept while a call is under way). The call's
// derived datatypes are held from here on (classic::HeldDatatypes), as MPI
// lets the caller free them at once; a plan made with them is not kept.
classic::Request run_followed(const classic::Comm& comm, const Table& table,
                              const Call& call, const void* key,
                              std::uint64_t shape, internal::LastPlan& last,
                              const node_routes::Routes& routes,
                              SizesOf sizes_of);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_FOLLOWED_H_
