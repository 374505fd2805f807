// What one call of an ortho collective moves per process, known before it
// runs: exact counts from the algorithms' plans and schedules, for reports
// that show the structure of an exchange next to its measured time.
#ifndef ORTHOCOMM_ORTHO_TRAFFIC_H_
#define ORTHOCOMM_ORTHO_TRAFFIC_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "ortho/operation.h"

namespace ortho {

struct Traffic {
  int messages = 0;  // messages sent
  std::int64_t bytes =
      0;           // bytes sent: blocks (relayed ones again) x block bytes
  int rounds = 0;  // rounds of messages, each waiting for the one before
  // Of those, the messages and bytes to processes on other hosts (the
  // table's hosts: classic::locality, or ORTHO_HOSTS); where known.
  std::optional<int> messages_between_hosts;
  std::optional<std::int64_t> bytes_between_hosts;
};

// The traffic per process of one call of `operation` on the directed graph
// `comm` with blocks of `block_bytes` bytes when run by the algorithm named
// `algorithm` in `mode`:
//  - "direct": one message per out-edge, in one round;
//  - "combining" (a Cartesian stencil): its schedule, where allgather and
//    alltoall send a message as two when it crosses the transport's eager
//    limit and its halves do not (stencils/message_split.h); alltoallv and
//    alltoallw run the schedule twice per blocking or non-blocking call
//    (a size exchange of one int64 per block first) and once per start of
//    a persistent one (the size exchange ran at *_init); allreduce on a
//    box stencil, the box's rounds (between hosts not counted);
//  - "node_aware": its routes for allgather(v, w), alltoall(v, w) and
//    allreduce (allgather's), once
//    the communicator has run it (its first call gathers the graph); the
//    v and w forms in blocking and non-blocking mode add one round within
//    the hosts, where the relays learn the blocks' sizes (8 bytes a block:
//    step 0's messages, and step 2's turned around);
//  - "common_neighbours": its routes for allgather(v, w) and alltoall(v,
//    w), as node_aware's, once the communicator has run it or its table
//    priced it.
// nullopt where it is not known ahead of the call: another structure or
// algorithm, or combining where comm has no stencil or the operation no
// combining form. Local (the table must exist: collective if it is made
// now, as for any first ortho call on comm).
std::optional<Traffic> traffic(const classic::Comm& comm, Operation operation,
                               std::string_view algorithm,
                               std::size_t block_bytes,
                               classic::Mode mode = classic::Mode::blocking);

}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_TRAFFIC_H_
