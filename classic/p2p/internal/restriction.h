// The checks of classic/p2p/peer_restriction.h, for classic's
// point-to-point and completion functions.
#ifndef ORTHOCOMM_CLASSIC_P2P_INTERNAL_RESTRICTION_H_
#define ORTHOCOMM_CLASSIC_P2P_INTERNAL_RESTRICTION_H_

#include <vector>

#include "classic/base/internal/inside_classic.h"
#include "classic/comm/internal/comm_state.h"

namespace classic::internal {

// ErrorClass::rank naming `function`, this process and `peer` unless the
// restriction (if any) lets this process send to / receive from `peer` (a
// rank of the communicator; proc_null and any_source always pass: a
// wildcard is checked by check_arrival).
void check_send_peer(const Comm::State& state, int peer, const char* function);
void check_receive_peer(const Comm::State& state, int peer,
                        const char* function);
// A message from `source` (a rank) has arrived for a receive or probe.
void check_arrival(const Comm::State& state, int source, const char* function);
// The same for a process of rank `rank` allowed to receive from `sources`
// (sorted): a non-blocking receive's completion.
void check_source_in(const std::vector<int>& sources, int rank, int source,
                     const char* function);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_P2P_INTERNAL_RESTRICTION_H_
