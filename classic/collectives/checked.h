// Checked mode: before it sends anything, a collective agrees over its
// processes that every one of them called the same collective with
// matching arguments, and raises on every process where they did not,
// instead of delivering stale or partial data or hanging (programs MPI
// calls erroneous and MPI libraries do not detect). Off by default; one
// switch for classic's collectives and ortho's.
//
// A checked call:
//  1. agrees on the collective (by its function name, so the mode is part
//     of it), the root of an intra-communicator's rooted collective, the
//     reduction op (predefined ops by name, user ops as one kind) and,
//     where MPI requires one type signature everywhere, the bytes of one
//     block; an argument error on one process is agreed on too, so every
//     process raises (the erring one its own error);
//  2. on a process topology (classic's neighbourhood collectives; ortho's
//     graph exchanges), sends each out-neighbour the bytes of the block it
//     sends it and compares what arrives with the bytes of the receive
//     block (MPI requires matching type signatures; bytes are what is
//     compared), then agrees on the result.
// A disagreement raises classic::Error on every process, naming what each
// process called, or the edge whose sizes differ: ErrorClass::truncate
// where a sender sends more than the receive block holds, ErrorClass::other
// otherwise.
//
// Blocking neighbourhood collectives (and ortho's blocking graph
// exchanges) are checked along their edges instead, with no agreement
// (execute_checked below): each message carries the sender's call, its
// block's bytes and whether its arguments were valid, and each process
// compares what arrives with its own call and receive blocks. The check
// costs no message of its own and involves no process outside the
// neighbourhood; a difference raises on the processes that receive from a
// process that differs (the others deliver), and an argument error on the
// erring process and its out-neighbours.
//
// The agreement needs every process of the communicator to make a call,
// as MPI does; one that calls alone waits for the others at most
// ORTHO_CHECK_TIMEOUT seconds (default 60; 0: for ever), then raises
// ErrorClass::other naming its rank and its call: processes that moved on
// to collectives on other communicators each do so, instead of waiting for
// ever. A process in a blocking neighbourhood collective waits for its
// neighbours as long, and raises the same way where they called another
// collective (a barrier on the same graph included: no message tells the
// two apart, so the time limit does). Where every process of the world
// stalled in a checked call (a deadlock), each error also names every
// process's last checked call and its communicator
// (internal/stall_report.h; once per program). The communicator cannot be
// used after that error (the agreement's reduction, or the exchange's
// messages, stay pending in the transport).
// Non-blocking calls check when they are made, persistent calls at *_init
// (which request each process starts is not checked). The counts of v and
// w variants are checked per edge on topologies only.
//
// Cost: one allreduce of a few integers per call, and on a topology with a
// non-blocking or persistent call one neighbourhood exchange of an integer
// per edge and a second allreduce; a blocking neighbourhood call packs each
// block behind a 64-byte header and unpacks it (docs/design.md, "Checked
// mode", has the measurements).
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_CHECKED_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_CHECKED_H_

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <span>
#include <string_view>

#include "classic/comm/comm.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"

namespace classic {

// Turns checked mode on or off for this process's later collectives (every
// process must do the same). ORTHO_CHECK=1 in the environment turns it on
// from the start.
void set_checked(bool on);
// On, and no CheckedAbove alive on this thread.
bool checked();

// For layers above classic that agree on their own calls (ortho's checked
// mode): while one lives on this thread, classic's collectives skip their
// own agreement, so a call is checked once, by the layer the user called.
class CheckedAbove {
 public:
  CheckedAbove();
  ~CheckedAbove();
  CheckedAbove(const CheckedAbove&) = delete;
  CheckedAbove& operator=(const CheckedAbove&) = delete;
};

// What step 1 agrees on; kNone where the call has no such argument.
struct CallFacts {
  static constexpr std::int64_t kNone = -1;

  // The collective called, e.g. "classic::ibcast" (at most 63 characters
  // are reported).
  std::string_view function;
  std::int64_t root = kNone;
  std::int64_t op = kNone;
  // The smallest and largest bytes of one block this process uses where
  // every process must use the same.
  std::int64_t low_bytes = kNone;
  std::int64_t high_bytes = kNone;

  void set_op(MPI_Op reduction);
  void add_block_bytes(std::int64_t bytes);
  // count elements of datatype.
  void add_block(int count, MPI_Datatype datatype);
};

// Step 1 over comm's processes (both groups of an inter-communicator).
// `error`, when set, is this process's argument error: every other process
// then raises ErrorClass::other naming the erring rank, and this one
// rethrows `error`. Collective.
void agree_on_call(const Comm& comm, const CallFacts& mine,
                   const std::exception_ptr& error);

// Step 2's agreement: this process received from sources[j] a block of
// sent[j] bytes (as the sender counted it) where its receive block holds
// expected[j]. Raises on every process when any edge differs, naming the
// first such edge of the lowest rank that has one. Collective.
void agree_on_edges(const Comm& comm, std::span<const int> sources,
                    std::span<const std::int64_t> sent,
                    std::span<const std::int64_t> expected,
                    std::string_view function);

// Checked mode's form of a blocking neighbourhood exchange, for classic's
// neighbourhood collectives and the layers above (ortho's graph
// exchanges): the check travels with the data. Runs `plan` on comm,
// blocking: one round, one block per message (one message per edge).
// Each block is sent behind a header (the caller's `function`, the block's
// bytes, whether the sender's arguments were valid), received into
// staging, and unpacked into place only where every arrival at this
// process matches: the same function, the bytes of its receive block,
// valid arguments at the sender. Otherwise this process raises, naming the
// first edge that does not (ErrorClass::truncate where a sender sends more
// than the receive block holds, ErrorClass::other otherwise) and nothing is
// unpacked; processes whose own arrivals match deliver as unchecked. A
// process that waits ORTHO_CHECK_TIMEOUT seconds for its neighbours raises
// as agree_on_call does. Collective over the plan's peers.
void execute_checked(const Comm& comm, const Plan& plan, PlanBuffers buffers,
                     const char* function);

// The part of a process whose arguments raised, in place of
// execute_checked: `plan` names the edges (its blocks are not read). Sends
// each destination a header that says so and receives what each source
// sends, whatever its size, so that no neighbour waits; the caller then
// rethrows its own error. Gives up after ORTHO_CHECK_TIMEOUT. Never raises.
void execute_checked_failure(const Comm& comm, const Plan& plan,
                             const char* function) noexcept;

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_CHECKED_H_
