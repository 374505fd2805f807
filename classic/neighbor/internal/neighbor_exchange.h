// The executor of classic's neighbourhood collectives: one message per
// neighbour block on the communicator's private context, tagged so that
// every block lands where MPI-4.1 puts it. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_EXCHANGE_H_
#define ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_EXCHANGE_H_

#include <mpi.h>

#include <span>

#include "classic/base/internal/inside_classic.h"
#include "classic/comm/comm.h"
#include "classic/neighbor/internal/neighbor_lists.h"
#include "classic/p2p/request.h"

namespace classic::internal {

// One block of a neighbourhood collective: `count` elements of `datatype`
// at `data`.
struct SendPart {
  const void* data;
  int count;
  MPI_Datatype datatype;
};
struct RecvPart {
  void* data;
  int count;
  MPI_Datatype datatype;
};

enum class ExchangeMode { blocking, nonblocking };

// A neighbourhood collective on one communicator. Messages run on the
// communicator's private context, so no receive of the application (any
// source, any tag) can take them. Every operation on a communicator gets
// the next number of a sequence that all its processes count alike (they
// call collectives in the same order), and its tags carry that number, so
// the messages of operations outstanding at once never mix. Within one
// operation a tag says which way a Cartesian block travels; messages
// between two processes keep their order, which pairs the k-th block to a
// peer with the peer's k-th block from this process.
class NeighborExchange {
 public:
  // Looks comm and its neighbours up (the errors of neighbor_lists).
  NeighborExchange(const Comm& comm, const char* function);

  const NeighborLists& lists() const { return lists_; }
  int indegree() const { return static_cast<int>(lists_.sources.size()); }
  int outdegree() const { return static_cast<int>(lists_.destinations.size()); }
  const char* function() const { return function_; }

  // Sends sends[i] to destinations[i] and receives receives[i] from
  // sources[i] (nothing for proc_null); sends.size() == outdegree(),
  // receives.size() == indegree(). Blocking: returns a null Request once
  // all have completed (a transport error is raised after the transfers
  // still pending are let go of as described below). Non-blocking: returns
  // the pending operation.
  //
  // Letting go of a pending operation (the request destroyed before it
  // completed) never blocks on a peer and leaves every later operation on
  // the communicator intact: receives not yet matched are withdrawn and
  // replaced by receives into buffers of classic's own, which take the
  // peers' blocks when they come and are discarded (so the caller's
  // receive buffer is not written after the destructor returns; a receive
  // already matched completes first); sends are left to complete in the
  // background, so their buffers must stay valid until the peers have
  // received them.
  Request run(std::span<const SendPart> sends,
              std::span<const RecvPart> receives, ExchangeMode mode) const;

 private:
  Comm comm_;
  MPI_Comm context_ = MPI_COMM_NULL;
  const NeighborLists& lists_;  // cached on comm_, which this holds
  const char* function_;
};

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_NEIGHBOR_INTERNAL_NEIGHBOR_EXCHANGE_H_
