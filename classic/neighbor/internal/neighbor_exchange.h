// The executor of classic's neighbourhood collectives: one message per
// neighbour block on the communicator's private context, tagged so that
// every block lands where MPI-4.1 puts it. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_EXCHANGE_H_
#define ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_EXCHANGE_H_

#include <mpi.h>

#include <exception>
#include <span>

#include "classic/base/internal/inside_classic.h"
#include "classic/collectives/internal/checked_call.h"
#include "classic/comm/comm.h"
#include "classic/exec/executor.h"
#include "classic/exec/mode.h"
#include "classic/exec/plan.h"
#include "classic/neighbor/internal/neighbor_lists.h"
#include "classic/p2p/request.h"

namespace classic::internal {

// A neighbourhood collective on one communicator: one round of messages,
// one per neighbour block, run by classic's executor (classic/exec) on the
// communicator's private context, so no receive of the application (any
// source, any tag) can take them, and with the tags of the communicator's
// operation sequence, so operations outstanding at once never mix. Within
// one operation a tag says which way a Cartesian block travels; messages
// between two processes keep their order, which pairs the k-th block to a
// peer with the peer's k-th block from this process.
class NeighborExchange {
 public:
  // Looks comm and its neighbours up (the errors of neighbor_lists), for a
  // call of `function` in `mode`.
  NeighborExchange(const Comm& comm, const char* function, Mode mode);
  // A blocking call in checked mode that raised before its exchange takes
  // its part in it (checked.h: execute_checked), so no neighbour waits.
  ~NeighborExchange();
  NeighborExchange(const NeighborExchange&) = delete;
  NeighborExchange& operator=(const NeighborExchange&) = delete;

  const NeighborLists& lists() const { return lists_; }
  int indegree() const { return static_cast<int>(lists_.sources.size()); }
  int outdegree() const { return static_cast<int>(lists_.destinations.size()); }
  const char* function() const { return function_; }

  // Sends sends[i] to destinations[i] and receives receives[i] from
  // sources[i] (nothing for proc_null); sends.size() == outdegree(),
  // receives.size() == indegree(). Blocks lie in `buffers` (Plan::Space
  // send and recv). Blocking: returns a null Request once all have
  // completed. Non-blocking and persistent: the request, with what
  // classic::execute says of destroying it while it is pending.
  Request run(PlanBuffers buffers, std::span<const Plan::Block> sends,
              std::span<const Plan::Block> receives, Mode mode) const;
  // The same for uniform blocks, outdegree() sends and indegree()
  // receives: a call with the blocks of the last one costs no block lists.
  Request run(PlanBuffers buffers, const UniformBlocks& sends,
              const UniformBlocks& receives, Mode mode) const;

 private:
  // Builds the plan of these blocks and keeps it as the last one.
  std::shared_ptr<const Plan> make_plan(
      std::span<const Plan::Block> sends,
      std::span<const Plan::Block> receives) const;
  std::shared_ptr<Plan> build_plan(std::span<const Plan::Block> sends,
                                   std::span<const Plan::Block> receives) const;
  // Checked mode, blocking calls: the exchange with the check carried by
  // its messages (checked.h: execute_checked).
  Request run_checked(PlanBuffers buffers, const Plan& plan) const;
  // Checked mode (classic/collectives/checked.h), non-blocking and
  // persistent calls: agrees on the call, then on each edge's bytes, before
  // the exchange posts anything. Blocking calls check along their edges.
  void check(std::span<const Plan::Block> sends,
             std::span<const Plan::Block> receives) const;

  // The caller's: a NeighborExchange lives within one collective call.
  const Comm& comm_;
  const NeighborLists& lists_;  // cached on comm_
  const char* function_;
  Mode mode_;
  int exceptions_;  // uncaught as the call began
  mutable bool exchanged_ = false;
  mutable CheckedCall checked_;
};

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_EXCHANGE_H_
