// A sparse data exchange for the distributed graph constructors: each
// process sends to a few peers and receives from peers it does not know in
// advance, with memory proportional to its messages. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_GRAPH_INTERNAL_DIST_GRAPH_EXCHANGE_H_
#define ORTHOCOMM_CLASSIC_GRAPH_INTERNAL_DIST_GRAPH_EXCHANGE_H_

#include <mpi.h>

#include <span>
#include <vector>

#include "classic/base/internal/inside_classic.h"

namespace classic::internal {

// A message of ints to (outgoing) or from (received) `peer`, a rank of the
// context.
struct SparseMessage {
  int peer;
  std::vector<int> data;
};

// Sends every outgoing message (at most one per peer is expected, none
// needed; a message to oneself is allowed) and returns every message sent
// to this process, in arrival order. Collective over `context`, which must
// carry no other point-to-point traffic meanwhile (a private context).
//
// NBX (Hoefler, Siebert, Lumsdaine, "Scalable communication protocols for
// dynamic sparse data exchange", PPoPP 2010): synchronous sends complete
// only once received; a process that sees its own sends complete enters a
// non-blocking barrier and keeps receiving; when the barrier completes,
// every send everywhere has been received. No O(size) counts are exchanged.
std::vector<SparseMessage> sparse_exchange(
    MPI_Comm context, std::span<const SparseMessage> outgoing,
    const char* function);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_GRAPH_INTERNAL_DIST_GRAPH_EXCHANGE_H_
