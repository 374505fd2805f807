// Point-to-point restricted to given peers: a communicator whose processes
// may only talk to their neighbours (ortho's strict mode on directed
// graphs builds on it).
#ifndef ORTHOCOMM_CLASSIC_P2P_PEER_RESTRICTION_H_
#define ORTHOCOMM_CLASSIC_P2P_PEER_RESTRICTION_H_

#include <span>

#include "classic/comm/comm.h"

namespace classic {

// From now on, this process's point-to-point on `comm` (an
// intra-communicator) may send only to `destinations` and receive only from
// `sources` (ranks of comm; proc_null entries ignored, repeats allowed). A
// send, receive or probe naming another rank raises ErrorClass::rank naming
// both ranks; a receive or probe from any_source that finds a message from
// another rank raises once it has it (recv, sendrecv, sendrecv_replace,
// probe, iprobe; for irecv the completion function that finds it: wait,
// test and their _all / _any forms; the message is consumed by a
// receive). Collectives are not affected:
// they run on contexts of their own. Local; a duplicate of comm starts
// unrestricted. ErrorClass::comm for a null, freed or inter-communicator,
// ErrorClass::rank for a rank outside comm.
void restrict_peers(const Comm& comm, std::span<const int> sources,
                    std::span<const int> destinations);

// Lifts the restriction (none: nothing happens). Local.
void unrestrict_peers(const Comm& comm);

// Whether this process's point-to-point on comm is restricted. Local.
bool peers_restricted(const Comm& comm);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_P2P_PEER_RESTRICTION_H_
