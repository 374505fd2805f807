// Message-combining schedules for Cartesian neighbour allgather and alltoall
// (Traff & Hunold, "Cartesian Collective Communication", ICPP 2019): what
// travels where in which round, in relative terms only, with no MPI in it.
//
// Conventions. T (targets) are the offsets of a process's destinations in
// the order a user passes them to dist_graph_create_adjacent; S (sources)
// the offsets of its sources in their order. Every process is assumed to
// have these neighbourhoods (on a non-periodic grid: minus the offsets that
// leave the grid; see cartesianness.h for checking that and for mapping a
// process's own order onto T's and S's).
//
// A schedule names buffer positions, never addresses, so one schedule serves
// every buffer, datatype and count:
//  - send slot s: the s-th block of the send buffer (alltoall: s = target
//    index; allgather: the single block, s = 0);
//  - receive slot j: the j-th block of the receive buffer (source index j);
//  - temp slot k: scratch space at a relay process.
// Each round is a list of messages. A process executes round r by sending
// every message of r (message m goes to relative_rank(self, hop)) and
// receiving every message of r (message m comes from relative_rank(self,
// -hop)). Two messages of one round can join the same pair of processes (on a
// small torus hops +1 and -1 meet), so an executor must tell them apart by
// the message index m (use it in the tag), not by the pair of ranks. (The
// builders below work on canonical offsets, so their messages of one round
// reach distinct processes and none reaches the sender itself; hand-made or
// future schedules need not have that property.)
// Within a round no process reads a slot that a message of the same round
// writes, so all sends and receives of a round may be posted at once.
// Local copies write only slots that no message reads or writes, so they
// may run at any time.
#ifndef ORTHOCOMM_STENCILS_SCHEDULE_H_
#define ORTHOCOMM_STENCILS_SCHEDULE_H_

#include <span>
#include <vector>

#include "naming/geometry.h"
#include "stencils/stencil.h"

namespace stencils {

enum class SlotKind { send, receive, temp };

struct Location {
  SlotKind kind;
  int index;
  friend bool operator==(const Location&, const Location&) = default;
};

// One block carried by a message: read at the sender from `from`, stored at
// the receiver in `to`. `block` is the target index i of the edge T[i] it
// travels along (alltoall: the sender's origin block i; allgather: the copy
// of the origin's block bound for its i-th destination).
//
// `origin` and `destination` place the block's origin process and its final
// destination relative to the sender. On a non-periodic grid a move is
// active (its block exists and is sent) only if both lie on the grid; see
// move_active. On a torus every move is active.
struct BlockMove {
  int block;
  Location from;
  Location to;
  std::vector<int> origin;
  std::vector<int> destination;
};

struct Message {
  std::vector<int> hop;
  std::vector<BlockMove> moves;  // Ordered by block.
};

struct Round {
  int dimension;                  // The grid dimension this round serves.
  std::vector<Message> messages;  // Message m of the round: index m.
};

enum class Collective { allgather, alltoall };

// A schedule for one collective; the kind is part of the type, so an
// allgather schedule cannot be handed to an alltoall executor.
template <Collective kind>
struct Schedule {
  static constexpr Collective collective = kind;
  // T and S as built from: canonical offsets (geometry.canonical_offset), in
  // the caller's order.
  Stencil targets;
  Stencil sources;
  // landing[i]: the receive slot at the destination where the block sent
  // along T[i] ends up (see landing_slots).
  std::vector<int> landing;
  int send_slots;
  int receive_slots;
  int temp_slots;
  std::vector<BlockMove> local_copies;  // Offsets that are the process itself.
  std::vector<Round> rounds;            // Non-empty rounds only, in order.
};

using AllgatherSchedule = Schedule<Collective::allgather>;
using AlltoallSchedule = Schedule<Collective::alltoall>;

// MPI's pairing of send slots with receive slots: process p's i-th block
// goes to q = p + T[i]; if q occurs several times among p's destinations (a
// repeated offset, or offsets that wrap onto one process on a small torus),
// the k-th occurrence lands in the receive slot of q's k-th source equal to p.
// landing[i] is that slot index j (q + S[j] == p). It is the same for every
// process that has the edge T[i], since ranks coincide exactly when
// canonical offsets do.
//
// Throws classic::Error: dims if targets, sources and geometry differ in
// ndims; arg if a component of a non-periodic dimension is INT_MIN (it cannot
// be negated); topology if the canonical sources are not, as a multiset, the
// negated canonical targets (then the neighbourhoods are not those of a
// stencil: some edge has no partner).
std::vector<int> landing_slots(const naming::Geometry& geometry,
                               const Stencil& targets, const Stencil& sources);

// Allgather by relay trees: the block of process q reaches q + o (o = T[i])
// from q + parent(o), where parent(o) is o with its trailing non-zero
// components zeroed one by one until the result is a target offset or zero.
// Relays are processes that receive the block anyway, so every block is sent
// exactly once per target, as in the direct algorithm, but the blocks with
// the same hop share one message. The edge is served in the round of o's
// last non-zero dimension. Moore depth 1 in 3-d: 6 messages in 3 rounds
// instead of 26. Throws as landing_slots.
AllgatherSchedule allgather_schedule(const naming::Geometry& geometry,
                                     const Stencil& targets,
                                     const Stencil& sources);

// Alltoall by dimension-order routing: round k moves, for each distinct
// non-zero value c of component k, one message with hop c*e_k carrying every
// block i with T[i][k] == c. Between hops a block waits at relays in one of
// two temp slots of its own, alternating with each hop, so a slot sent from
// in a round is never the one received into; only blocks with two or more
// non-zero components need temp slots, and they are numbered densely. Moore
// depth 1 in 3-d: 6 messages in 3 rounds, each block travelling as many hops
// as it has non-zero components.
// Throws as landing_slots.
AlltoallSchedule alltoall_schedule(const naming::Geometry& geometry,
                                   const Stencil& targets,
                                   const Stencil& sources);

// Whether a move sent by `sender` carries a block: its origin and final
// destination are on the grid. Sender and receiver of a message evaluate it
// alike (the receiver knows the sender's rank), so both agree on the
// message's contents. A message with no active move is not sent.
bool move_active(const naming::Geometry& geometry, int sender,
                 const BlockMove& move);

}  // namespace stencils

#endif  // ORTHOCOMM_STENCILS_SCHEDULE_H_
