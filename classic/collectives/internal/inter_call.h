// The machinery of inter-communicator collectives: the root conventions,
// argument checks, and their plans for classic's executor.
// Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTER_CALL_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTER_CALL_H_

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "classic/base/internal/buffer_checks.h"
#include "classic/base/internal/inside_classic.h"
#include "classic/base/internal/transport.h"
#include "classic/collectives/collectives.h"
#include "classic/collectives/internal/checked_call.h"
#include "classic/collectives/internal/collective_call.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/exec/plan.h"
#include "classic/p2p/request.h"

namespace classic::internal {

using internal::Access;
using internal::RecvBlock;
using internal::RecvBlocks;
using internal::SendBlock;
using internal::SendBlocks;

// What a process does in a rooted collective.
enum class Role {
  root,       // passed mpi_root: the root, in the root group
  idle,       // passed proc_null: the rest of the root group
  other_side  // passed the root's rank: the group the root sends to or
              // receives from
};

// The checks and facts of one inter-communicator collective. Its
// algorithm is a Plan (InterPlan below) that classic's executor runs on the
// communicator's private context, blocking, non-blocking or persistent.
class InterCall {
 public:
  // Looks the communicator up: ErrorClass::comm for null, freed, intra,
  // or an inter-communicator no classic constructor made.
  InterCall(const Comm& comm, const char* function, Mode mode);

  const Comm& comm() const { return *comm_; }
  const char* function() const { return function_; }
  Mode mode() const { return mode_; }
  int local_size() const { return local_size_; }
  int remote_size() const { return remote_size_; }
  int rank() const { return rank_; }
  bool leads() const { return rank_ == 0; }
  // ErrorClass::root unless root is mpi_root, proc_null or a rank of the
  // remote group.
  Role role(int root) const;
  void check_op(MPI_Op op) const;
  void reject_in_place(const void* data, const char* name) const;
  void check_count(int count, const char* name) const;
  void check_datatype(MPI_Datatype datatype, const char* name) const;
  // count >= 0, a datatype, and a typed capacity of blocks * count.
  template <typename Data>
  void check(const internal::Block<Data>& block, const char* name,
             std::int64_t blocks = 1) const {
    reject_in_place(block.data, name);
    check_count(block.count, name);
    check_datatype(block.datatype, name);
    check_capacity(block.capacity, blocks * block.count, name);
  }
  // `entries` counts and displacements, counts >= 0, a datatype, and for
  // typed spans the blocks inside the span (not overlapping for writes).
  template <typename Data>
  void check(const internal::Blocks<Data>& blocks, int entries,
             const char* name, const char* counts_name, const char* displs_name,
             Access access) const {
    reject_in_place(blocks.data, name);
    check_counts(blocks.counts, entries, counts_name);
    check_length(blocks.displs.size(), entries, displs_name);
    check_datatype(blocks.datatype, name);
    if (blocks.capacity) {
      internal::check_placement(function_, blocks.counts, blocks.displs,
                                *blocks.capacity, access,
                                {name, counts_name, displs_name});
    }
  }
  void check_capacity(std::optional<std::size_t> capacity, std::int64_t needed,
                      const char* name) const;
  void check_length(std::size_t length, int entries, const char* name) const;
  // `entries` counts, each >= 0; their sum.
  std::int64_t check_counts(std::span<const int> counts, int entries,
                            const char* name) const;
  void check_datatypes(std::span<const MPI_Datatype> datatypes, int entries,
                       const char* name) const;
  // A typed span's element count (ErrorClass::count past INT_MAX), and the
  // count per block of a span holding `blocks` blocks (ErrorClass::buffer
  // unless they divide it).
  int count_of(std::size_t elements, const char* name) const;
  int per_block(std::size_t elements, int blocks, const char* name) const;
  // ErrorClass::buffer when two typed spans share memory.
  void check_apart(const internal::In& send, const internal::Out& recv) const;
  // Checked mode (checked.h): agrees on the collective and its op before
  // the plan runs.
  void agree() const { checked_.agree(); }

 private:
  const Comm* comm_;
  const char* function_;
  Mode mode_;
  int local_size_;
  int remote_size_;
  int rank_;
  mutable CheckedCall checked_;
};

// The plan of one inter-communicator collective, built phase by phase: the
// messages of phase r are round r of the plan, tagged r; a process with
// nothing to do in a phase has an empty round there. Local copies and
// reductions of a phase run once its messages have completed.
class InterPlan {
 public:
  explicit InterPlan(const InterCall& call) : call_(&call) {}

  // A message of phase `round` with `peer`, a rank of the remote group
  // (Plan::Group::peers) or of the local one (Plan::Group::local).
  void receive(int round, Plan::Group group, int peer,
               std::vector<Plan::Block> blocks);
  void send(int round, Plan::Group group, int peer,
            std::vector<Plan::Block> blocks);
  // `to` = `from`, after phase `round`'s messages.
  void copy(int round, const Plan::Block& from, const Plan::Block& to);
  // `to` = `from` op `to` (MPI_Reduce_local's order), after phase
  // `round`'s messages and the local work added before.
  void reduce(int round, const Plan::Block& from, const Plan::Block& to,
              MPI_Op op);
  // Room for `count` elements of `datatype` in the plan's scratch.
  Plan::Block scratch(int count, MPI_Datatype datatype);

  // Runs the plan over the caller's buffers in the call's mode.
  Request run(const void* send, void* recv);

 private:
  Plan::Round& round(int index);
  // Appends a message of phase `round` to `messages` (its sends or
  // receives); the phase is its tag.
  static void add_message(std::vector<Plan::Message>& messages, int round,
                          Plan::Group group, int peer,
                          std::vector<Plan::Block> blocks);

  const InterCall* call_;
  std::shared_ptr<Plan> plan_ = std::make_shared<Plan>();
};

// Blocks of the caller's buffers: `count` elements of `datatype`,
// `byte_displacement` bytes into the send or receive buffer.
inline Plan::Block send_block(MPI_Aint byte_displacement, int count,
                              MPI_Datatype datatype) {
  return {Plan::Space::send, byte_displacement, count, datatype};
}
inline Plan::Block recv_block(MPI_Aint byte_displacement, int count,
                              MPI_Datatype datatype) {
  return {Plan::Space::recv, byte_displacement, count, datatype};
}
// A message that carries nothing (the barrier's).
inline Plan::Block empty_block() { return send_block(0, 0, MPI_BYTE); }

// The phases of the collectives that pass a group's data through its rank
// 0 (the leader), as rounds of their plans: to the leader in its group,
// between the two leaders, from the leader to the rest of its group.
enum LeaderPhase : int { kToLeader = 0, kBetweenLeaders = 1, kFromLeader = 2 };

// The leaders swap their groups' reductions: `mine` goes, the other
// group's arrives in `theirs`. Processes that do not lead add nothing.
void swap_at_leaders(const InterCall& call, InterPlan& plan,
                     const Plan::Block& mine, const Plan::Block& theirs);

using transport::shifted;
// The extent of one element of `datatype`.
inline MPI_Aint extent_of(MPI_Datatype datatype) {
  return transport::extent_of(datatype, "classic::internal::extent_of");
}

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTER_CALL_H_
