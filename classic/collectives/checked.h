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
// otherwise. The agreement needs every process of the communicator to make
// a call, as MPI does; one that calls alone waits for the others at most
// ORTHO_CHECK_TIMEOUT seconds (default 60; 0: for ever), then raises
// ErrorClass::other naming its rank and its call: processes that moved on
// to collectives on other communicators each do so, instead of waiting for
// ever. Where every process of the world stalled in a checked call (a
// deadlock), each error also names every process's last checked call and
// its communicator (internal/stall_report.h; once per program). The communicator cannot be used after that error (the agreement's
// reduction stays pending in the transport).
// Non-blocking calls check when they are made, persistent calls at *_init
// (which request each process starts is not checked). The counts of v and
// w variants are checked per edge on topologies only.
//
// Cost: one allreduce of a few integers per call, and on a topology one
// neighbourhood exchange of an integer per edge and a second allreduce
// (docs/design.md, "Checked mode", has the measurements).
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_CHECKED_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_CHECKED_H_

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <span>
#include <string_view>

#include "classic/comm/comm.h"

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

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_CHECKED_H_
