// Inter-communicators (MPI-1 section 5.6, with MPI-2's additions):
// intercomm_create, intercomm_merge and the standard's spellings of the
// inter-communicator accessors. dup, create, split, compare and free of
// inter-communicators are Comm's own (classic/comm/comm.h); their collectives
// are those of classic/collectives/collectives.h.
#ifndef ORTHOCOMM_CLASSIC_INTERCOMM_INTERCOMM_H_
#define ORTHOCOMM_CLASSIC_INTERCOMM_INTERCOMM_H_

#include "classic/comm/comm.h"
#include "classic/groups/group.h"

namespace classic {

// MPI_Intercomm_create: an inter-communicator between the group of
// local_comm and the group of the remote leader's local_comm. Collective
// over both groups. Every process of a group passes the same local_comm
// and local_leader; peer_comm, remote_leader and tag are significant at
// the leaders only (others may pass the null communicator and anything).
//
// How it runs (so users can reason about peer_comm's traffic):
//  1. Each group agrees on local_leader (a reduction over local_comm).
//  2. The leaders talk point-to-point on peer_comm with `tag`, as MPI
//     does, in at most three messages each way: a header (an
//     intercomm_create marker, the sender's and the intended receiver's
//     world ranks, the group size), a verdict (whether the header received
//     was one), and, when both verdicts are good, the group's members.
//     Receives name the remote leader (never any_source).
//  3. Each leader broadcasts the outcome and the remote members over
//     local_comm; then both groups build the context over their union
//     (transport::new_context_among), the group whose rank 0 has the lower
//     world rank first, and a private context for collectives.
//
// Errors (classic::Error), raised on every process of the group that
// detects them:
//   ErrorClass::comm  local_comm null, freed or an inter-communicator; at
//                     the leader, peer_comm likewise; remote_leader naming
//                     a process of the local group (the groups of an
//                     inter-communicator must be disjoint; this includes a
//                     leader naming itself); the two groups' members
//                     overlapping.
//   ErrorClass::rank  local_leader outside [0, local_comm.size()) (the
//                     same on every process); at the leader, remote_leader
//                     outside [0, peer_comm.size()).
//   ErrorClass::tag   at the leader, tag outside [0, tag_ub()].
//   ErrorClass::arg   processes of local_comm passing different
//                     local_leader values; a leader receiving from the
//                     remote leader, with this tag, a message that is not
//                     intercomm_create's header (the remote leader is not
//                     in a matching intercomm_create, or the application
//                     left a message pending there; a message of another
//                     size is left unconsumed); the remote leader reporting
//                     such a failure. Both groups raise in those cases.
// Errors raised before the leaders' exchange (the local ones, and the
// leader's checks of peer_comm, remote_leader, tag) are seen by the local
// group only: the remote group then waits in the exchange unless its own
// call fails too, as with any erroneous collective call in MPI.
//
// The user's responsibility (undetectable without a timeout, so a hang, as
// in MPI): leaders that name processes which do not name them back (or are
// not leaders), different tags or peer communicators at the two leaders,
// and a process that is in both groups (it cannot be in both calls, so one
// group's local agreement waits for it). After an arg failure of the
// exchange, the remote leader's protocol messages (header and verdict) may
// remain pending on peer_comm with this tag.
[[nodiscard]] Comm intercomm_create(const Comm& local_comm, int local_leader,
                                    const Comm& peer_comm, int remote_leader,
                                    int tag);

// MPI_Intercomm_merge's `high`: where the caller's group goes in the
// merged order.
enum class Merge { low, high };

// MPI_Intercomm_merge: an intra-communicator over both groups; the group
// that passed Merge::low comes first. Where both groups pass the same
// value, the order is the inter-communicator's context order: the group
// whose rank 0 has the lower world rank first. Within a group, ranks keep
// their order. Collective over both groups.
// Errors: ErrorClass::comm for a null, freed or intra-communicator;
// ErrorClass::arg, on every process, when the processes of one group pass
// different values.
[[nodiscard]] Comm intercomm_merge(const Comm& intercomm, Merge high);

// The standard's spellings of the accessors (MPI_Comm_test_inter,
// MPI_Comm_remote_size, MPI_Comm_remote_group).
inline bool comm_test_inter(const Comm& comm) { return comm.is_inter(); }
inline int comm_remote_size(const Comm& comm) { return comm.remote_size(); }
inline Group comm_remote_group(const Comm& comm) { return comm.remote_group(); }

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_INTERCOMM_INTERCOMM_H_
