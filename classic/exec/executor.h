// The one executor of classic: runs a Plan on a communicator, blocking,
// non-blocking or persistent. Every collective that classic runs with
// messages (neighbour collectives, and ortho's algorithms) is a plan run
// here.
#ifndef ORTHOCOMM_CLASSIC_EXEC_EXECUTOR_H_
#define ORTHOCOMM_CLASSIC_EXEC_EXECUTOR_H_

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/exec/plan.h"
#include "classic/p2p/request.h"

namespace classic {

// The caller's buffers of one operation (Plan::Space::send and ::recv).
// Either may be null where the plan does not use it; a null base with
// displacements that are addresses serves MPI_BOTTOM.
struct PlanBuffers {
  const void* send = nullptr;
  void* recv = nullptr;
};

// Persistent operations (Mode::persistent) bind their buffers once and keep
// a transport persistent request (MPI_Send_init, MPI_Recv_init) for every
// message of at least 256 bytes, started at each classic::start; smaller
// messages are posted afresh, which Open MPI's shared-memory transport
// sends inline.
//
// Runs `plan` on comm's private context (made now, collectively, if comm
// has none). Every process of comm runs its operations on comm in the same
// order, blocking and non-blocking alike; each takes the next number of
// comm's operation sequence, which its tags carry, so operations
// outstanding at once never take each other's messages.
//
// Messages of more than one block travel as one message: up to 16 KiB
// packed into scratch (memcpy for contiguous blocks, MPI_Pack otherwise;
// sent and received as MPI_PACKED), larger ones as a derived datatype over
// the blocks (MPI_Type_create_struct on absolute addresses), made when the
// buffers are bound (every call; once for a persistent operation) and
// freed when the operation ends. Measured: a struct datatype costs about
// 1.5 us a message to make, commit and free, more than packing a few KiB
// (executor.cc, kPackBytes). Single blocks go as they are.
//
// Destroying a pending request never blocks on a peer and leaves later
// operations on the communicator, and on any other, correct: receives not
// yet matched are withdrawn; the messages the peers still send for this
// operation (the withdrawn ones and those of later rounds) are received
// into classic's own buffers whatever their size, whenever they arrive,
// also after the communicator is freed (its context is given back once
// they have); sends already posted complete in the background (the send
// buffer must stay valid until then; scratch is kept by classic).
//
// Errors: those of the transport (ErrorClass::truncate, ...), raised by the
// completion function that meets them; `function` names the caller.
[[nodiscard]] Request execute(const Comm& comm,
                              std::shared_ptr<const Plan> plan,
                              PlanBuffers buffers, Mode mode,
                              const char* function);

// A receive whose size only its sender knows: one message from `peer` (a
// rank of comm's group) with the plan tag `tag` (as Plan::Message's),
// received whole into `bytes`, resized to the message's size, as
// MPI_PACKED (which matches any type signature; read it with MPI_Unpack).
// For messages that carry their own blocks' sizes.
struct UnsizedReceive {
  int peer = 0;
  int tag = 0;
  std::vector<std::byte>* bytes = nullptr;
};

// Runs `plan` blocking, as execute(..., Mode::blocking, ...) does (its
// binding kept likewise), and within the same operation (its tags)
// receives the messages `unsized`: once its first round is posted, each
// is matched as it arrives (MPI_Mprobe from any of them, blocking in the
// transport; MPI_Improbe in turn while other operations are in progress,
// which move along meanwhile) and received (MPI_Imrecv, MPI_Mrecv).
// Returns once both are complete. Several from one peer with one tag take
// its messages in the list's order, as MPI pairs receives with messages.
//
// Errors as execute(); a failure leaves the unsized messages not yet
// matched unreceived (the operation's tags are not reused before some 33
// million further operations on comm).
void execute_receiving_unsized(const Comm& comm,
                               std::shared_ptr<const Plan> plan,
                               PlanBuffers buffers,
                               std::span<const UnsizedReceive> unsized,
                               const char* function);

// The second operation of a collective whose plan depends on what its
// first one received (the sizes of the blocks a relay forwards): its plan
// and buffers.
struct FollowingPlan {
  std::shared_ptr<const Plan> plan;
  PlanBuffers buffers;
};

// Runs `first` on `first_buffers` non-blocking and then, on the same
// request, the plan `then` returns once `first` has completed (none where
// it returns a null plan). Local, as
// MPI makes the initiation of a non-blocking collective (MPI-4.1, 6.12):
// both operations take their numbers of comm's operation sequence now, so
// the second's messages match whenever each process gets to it. `then`
// runs once, from whichever call moves the request along (a wait or test
// of it or of another request, another operation's progress); it must not
// block, start an operation or raise for a peer's sake: an error it raises
// is the request's, as any failure of its messages. The second plan's
// derived datatypes are held as execute's (classic/exec/internal/
// held_datatypes.h) from when `then` returns; datatypes it plans with
// before then are the caller's to keep valid (HeldDatatypes). Destroying
// the request before `first` has completed leaves the second operation's
// messages from peers unreceived, as dropping a collective of several
// rounds does (docs/design.md, "Lifetimes").
[[nodiscard]] Request execute_followed(const Comm& comm,
                                       std::shared_ptr<const Plan> first,
                                       PlanBuffers first_buffers,
                                       std::function<FollowingPlan()> then,
                                       const char* function);

// Duplicates (MPI_Type_dup) of the derived datatypes of some plan blocks,
// owned here and freed when this goes: what a non-blocking operation that
// plans later (execute_followed) holds of its caller's datatypes, which
// MPI lets the caller free at once. Predefined datatypes are kept as they
// are, at one query per distinct handle.
class HeldDatatypes {
 public:
  HeldDatatypes() = default;
  HeldDatatypes(const HeldDatatypes&) = delete;
  HeldDatatypes& operator=(const HeldDatatypes&) = delete;
  ~HeldDatatypes();

  // Names in each of `blocks` the duplicate held for its datatype (made
  // at its first sight) where that is derived. Transport failures raise
  // classic::Error naming `function`.
  void hold(std::span<Plan::Block> blocks, const char* function);
  // Whether any datatype is held.
  bool empty() const { return duplicates_.empty(); }

 private:
  // Original and duplicate, in the order first seen.
  std::vector<std::pair<MPI_Datatype, MPI_Datatype>> duplicates_;
  std::vector<MPI_Datatype> predefined_;
};

namespace internal {

// Messages of several blocks up to `bytes` are packed, larger ones go as
// struct datatypes (negative: the default, 16 KiB); returns the previous
// limit. For tests that need both paths in one plan. Not thread-safe.
MPI_Aint set_pack_limit(MPI_Aint bytes);

// Persistent operations keep a transport persistent request for each
// message of at least `bytes` bytes and post smaller ones afresh at every
// start (negative: the default, 256 bytes; 0: every message has one);
// returns the previous limit. For tests and measurements. Not thread-safe.
MPI_Aint set_started_limit(MPI_Aint bytes);

// Where comm's next operation posts: its private context (made now,
// collectively, where comm has none) and the first of the Plan::kMaxTags
// tags it owns, taken from comm's operation sequence as execute() takes
// them. For checked mode's exchange (classic/collectives/
// checked.h: execute_checked), which posts messages of its own form.
struct OperationTags {
  MPI_Comm context = MPI_COMM_NULL;
  int base = 0;
};
OperationTags take_operation(const Comm& comm, const char* function);

}  // namespace internal

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_EXEC_EXECUTOR_H_
