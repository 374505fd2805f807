// What a classic communicator is made of; shared by classic's implementation
// files (communicators, point-to-point, collectives, topologies).
#ifndef ORTHOCOMM_CLASSIC_COMM_INTERNAL_COMM_STATE_H_
#define ORTHOCOMM_CLASSIC_COMM_INTERNAL_COMM_STATE_H_

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/internal/inside_classic.h"
#include "classic/comm/attributes.h"
#include "classic/comm/comm.h"
#include "classic/groups/group.h"

namespace classic {

struct Locality;  // classic/comm/locality.h

class Comm::State {
 public:
  // An intra-communicator over `local` whose context is `transport` (rank i
  // of the context is member i of `local`).
  State(MPI_Comm transport, Group local);
  ~State();
  State(const State&) = delete;
  State& operator=(const State&) = delete;

  // The context; for an inter-communicator it spans both groups.
  MPI_Comm transport = MPI_COMM_NULL;
  // A second context over the same processes, for collectives that classic
  // implements with point-to-point messages (neighbour collectives,
  // inter-communicator collectives): the application's receives on
  // `transport`, wildcards included, can never match them. Null unless the
  // constructor of such a communicator adds one (add_private_context); dup
  // gives the duplicate its own.
  MPI_Comm private_context = MPI_COMM_NULL;
  // The number of the next operation classic's executor runs on
  // private_context (classic/exec/executor.h: its tags carry it). A
  // duplicate, with a private context of its own, starts again at 0.
  std::uint64_t next_operation = 0;
  // The executor's blocking runs kept bound for the next call with the
  // same plan and buffers (classic/exec/executor.cc); they refer to
  // private_context and go with the communicator.
  std::shared_ptr<void> repeats;
  Group local;
  Group remote;  // null for an intra-communicator
  int rank = undefined;
  AttributeStore attributes;
  // Which processes share a host (classic/comm/locality.h), found on first
  // use. A duplicate finds its own.
  std::shared_ptr<const Locality> locality;
  // world() and self(): never freed by users, finalised with the
  // Environment, and their contexts belong to the Environment.
  bool predefined = false;
  // Freed (or finalised): the context is gone; handles must not use it.
  bool freed = false;
  // Where set, this process's point-to-point on the communicator is
  // restricted to these peers (sorted, distinct; classic/p2p/
  // peer_restriction.h). A duplicate starts unrestricted.
  struct PeerRestriction {
    std::vector<int> destinations;
    std::vector<int> sources;
  };
  std::shared_ptr<const PeerRestriction> restriction;

  // Point-to-point ranks address the local group of an intra-communicator
  // and the remote group of an inter-communicator. The context numbers
  // those peers consecutively from peer_offset (0 for intra-communicators;
  // an inter-communicator's context holds both groups one after the other).
  int peer_offset = 0;
  int peer_to_transport(int peer_rank) const { return peer_offset + peer_rank; }
  int transport_to_peer(int transport_rank) const {
    return transport_rank - peer_offset;
  }
  // Number of valid point-to-point ranks.
  int peer_count() const {
    return remote.is_null() ? local.size() : remote.size();
  }

  // Makes private_context. Collective over the processes of `transport`.
  void add_private_context();
  // Gives the contexts back to the transport (not world's and self's,
  // which belong to the Environment).
  void free_contexts() noexcept;

  // ---- inter-communicators ----------------------------------------------
  //
  // The context of an inter-communicator holds its two groups one after
  // the other, in an order both sides compute alone: the group whose rank 0
  // has the lower world rank comes first (inter_context_members). Every
  // constructor (intercomm_create, dup, create, split) builds its context
  // over that list, and intercomm_merge with equal `high` on both sides
  // keeps that order.

  // An inter-communicator over `local` and `remote` (disjoint, non-empty)
  // whose context holds inter_context_members(local, remote); makes its
  // private context. Collective over both groups.
  static std::shared_ptr<State> make_inter(MPI_Comm context, Group local,
                                           Group remote);
  // The local group comes first in the context (intra: always).
  bool local_group_first() const {
    return remote.is_null() || peer_offset != 0;
  }
  // The transport rank of local rank 0 (the context numbers the local
  // group consecutively from there, as it numbers the remote group from
  // peer_offset).
  int local_offset() const { return local_group_first() ? 0 : remote.size(); }
  // The world ranks of `transport`'s processes, in its rank order.
  std::vector<int> context_members() const;

  static std::size_t live_count() noexcept;
};

namespace internal {

// The way into a communicator, for classic's implementation files: its
// state (ErrorClass::comm naming `function` for a null, freed or finalised
// handle) and a handle around a new state.
class CommAccess {
 public:
  static Comm::State& state(const Comm& comm, const char* function) {
    return comm.state(function);
  }
  // The same for an operation that needs an intra-communicator:
  // ErrorClass::comm for an inter-communicator too.
  static Comm::State& intra_state(const Comm& comm, const char* function);
  static Comm make(std::shared_ptr<Comm::State> state) {
    return Comm(std::move(state));
  }
};

}  // namespace internal

// The world ranks of the context of an inter-communicator between `local`
// and `remote`: the group whose rank 0 has the lower world rank first. Both
// sides compute the same list.
std::vector<int> inter_context_members(const Group& local, const Group& remote);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COMM_INTERNAL_COMM_STATE_H_
