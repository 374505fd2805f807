// The plans of the algorithms that run along node_aware_routes.h's Routes
// (node_aware.cc, common_neighbours.cc): the routes over a call's blocks, and
// the byte size of every block a process receives or relays, which a relay must
// know before it can place the blocks it forwards.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_NODE_AWARE_PLANS_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_NODE_AWARE_PLANS_H_

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/plan.h"
#include "classic/p2p/request.h"
#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "ortho/call.h"
#include "ortho/internal/exchange.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"
#include "ortho/operation.h"

namespace ortho::algorithms {

// The byte size of every block this process receives (by source, first)
// and relays (by scratch slot, after them), learnt by running the routes
// over one int64 per block: what the v and w forms need. Blocking. (Each
// of these takes the round kept from the last call with the same
// arguments, `kept`, where it keeps one; local_sizes does: it runs that
// round's plan on its buffers, else makes them and keeps them there.)
std::vector<std::int64_t> exchange_sizes(const classic::Comm& comm,
                                         const node_routes::Routes& routes,
                                         const Exchange& blocks,
                                         const char* function,
                                         internal::KeptSizesRound& kept);

// The same learnt within the hosts, for routes whose step 0 sends only the
// senders' own blocks and whose step 2 delivers only into the receivers'
// own receive blocks (node_aware's): a relay's scratch slot gathered in
// step 0 has the size its source sends; one handed out in step 2, the size
// its first receiver expects (step 2 reversed); one kept by the relay, the
// size of its own receive block. Step 0's messages between hosts (tag
// kCrossTag: routes that send to another host's relay at once) carry no
// sizes: their blocks are handed out or kept by the relay. One round of
// small messages within hosts, in place of the routes' steps with messages
// between hosts. Blocking.
std::vector<std::int64_t> local_sizes(const classic::Comm& comm,
                                      const node_routes::Routes& routes,
                                      const Exchange& blocks,
                                      const char* function,
                                      internal::KeptSizesRound& kept);

// The same where nothing is relayed (every edge within a host, as on one
// host): the sizes of this process's own receive blocks, without a message.
std::vector<std::int64_t> own_sizes(const classic::Comm& comm,
                                    const node_routes::Routes& routes,
                                    const Exchange& blocks,
                                    const char* function,
                                    internal::KeptSizesRound& kept);

// How an algorithm along Routes learns the relayed sizes of the v and w
// forms: exchange_sizes, local_sizes or own_sizes.
using SizesOf = std::vector<std::int64_t> (*)(const classic::Comm& comm,
                                              const node_routes::Routes& routes,
                                              const Exchange& blocks,
                                              const char* function,
                                              internal::KeptSizesRound& kept);

// The round in which `sizes_of` (exchange_sizes, local_sizes, own_sizes)
// learns the relayed sizes, unrun: its plan (empty for own_sizes), the
// sizes this process sends and the places they arrive in, whose first
// blocks.recv.size() + routes.scratch_slots are the sizes once it has run
// (own_sizes': known already). For a non-blocking call, which runs it on
// its request (node_aware/followed.h).
internal::KeptSizesRound sizes_round(SizesOf sizes_of,
                                     const node_routes::Routes& routes,
                                     const Exchange& blocks,
                                     const char* function);

// The same where every block has the size of this process's own (allgather,
// alltoall and allreduce: MPI makes the blocks' type signatures equal on
// every process, and relays have an edge, hence a block of their own); all
// 0 for a process without edges, which relays nothing.
std::vector<std::int64_t> uniform_sizes(const node_routes::Routes& routes,
                                        const Exchange& blocks,
                                        const char* function);

// The plan of the routes over `blocks`, once the sizes are known. Relayed
// blocks wait in scratch from byte `scratch_from` on (what lies before is
// the caller's), as MPI_PACKED bytes, or in this process's own receive
// block where it has the relayed block's exact size. Raises classic::Error
// (truncate) where a receive block is too small for its block.
classic::Plan data_plan(const node_routes::Routes& routes,
                        const Exchange& blocks,
                        const std::vector<std::int64_t>& sizes,
                        const Table& table, MPI_Aint scratch_from,
                        const char* function);

// The routes of an algorithm for `operation` on `comm` (made once, kept
// with the table).
using RoutesOf = const node_routes::Routes& (*)(const classic::Comm& comm,
                                                const Table& table,
                                                Operation operation);

// Runs the neighbourhood exchange `call` (allgather(v, w), alltoall(v, w))
// along the routes `routes_of` gives, asked only where no kept plan
// serves: allgather and alltoall keep their plan under `key` for the next
// call with the same arguments; the v and w forms learn the relayed sizes
// first (`sizes_of`), at every call (a persistent call at its
// initialisation), but for blocking calls along routes that relay
// (`local_sizes`, `exchange_sizes`), which carry them inside their
// messages (self_sized.h).
classic::Request run_along(const classic::Comm& comm, const Table& table,
                           const Call& call, const void* key,
                           RoutesOf routes_of, SizesOf sizes_of);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_NODE_AWARE_PLANS_H_
