// The executor of inter-communicator collectives: the communicator's two
// contexts, the root conventions, argument checks, transport calls.
// Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTER_CALL_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTER_CALL_H_

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "classic/base/internal/buffer_checks.h"
#include "classic/base/internal/inside_classic.h"
#include "classic/base/internal/transport.h"
#include "classic/collectives/collectives.h"
#include "classic/collectives/internal/collective_call.h"
#include "classic/comm/comm.h"

namespace classic::internal {

using internal::Access;
using internal::RecvBlock;
using internal::RecvBlocks;
using internal::SendBlock;
using internal::SendBlocks;

// Tags on the private context, one per collective, so that a message of
// one collective can never complete a receive of another.
enum class Tag : int {
  barrier = 1,
  bcast,
  gather,
  scatter,
  allgather,
  alltoall,
  reduce,
  allreduce,
  reduce_scatter,
};

// What a process does in a rooted collective.
enum class Role {
  root,       // passed mpi_root: the root, in the root group
  idle,       // passed proc_null: the rest of the root group
  other_side  // passed the root's rank: the group the root sends to or
              // receives from
};

// How the algorithms work: the local group's phases run as the transport's
// collectives on a context over the local group alone; between the groups
// they are point-to-point messages on the inter-communicator's private
// context, which the application's receives never match. Transport ranks
// there are the context's (both groups, one after the other).
class InterCall {
 public:
  // Looks the communicator up (ErrorClass::comm for null, freed, intra,
  // or an inter-communicator no classic constructor made) and makes its
  // local context on first use, so every process of both groups calls it.
  InterCall(const Comm& comm, const char* function);

  const char* function() const { return function_; }
  int local_size() const { return local_size_; }
  int remote_size() const { return remote_size_; }
  int rank() const { return rank_; }
  bool leads() const { return rank_ == 0; }
  // The context between the groups and the local group's context.
  MPI_Comm peers() const { return peers_; }
  MPI_Comm group() const { return group_; }
  // Transport rank in peers() of remote rank j.
  int remote(int j) const { return peer_offset_ + j; }

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

  // Raises classic::Error unless code is MPI_SUCCESS.
  void run(int code) const {
    if (code != MPI_SUCCESS) [[unlikely]] {
      raise(code);
    }
  }
  // Waits for all requests (and raises if one failed).
  void wait_all(std::vector<MPI_Request>& requests) const;

 private:
  [[noreturn]] void raise(int code) const;

  const char* function_;
  int local_size_;
  int remote_size_;
  int rank_;
  int peer_offset_;
  MPI_Comm peers_;
  MPI_Comm group_;
};

// Room for `count` elements of `datatype` (their true extent), for a
// leader's intermediate results; data() is where element 0 goes.
class Scratch {
 public:
  Scratch(int count, MPI_Datatype datatype);
  void* data() const { return data_; }

 private:
  std::vector<std::byte> bytes_;
  void* data_;
};

using transport::shifted;
// The extent of one element of `datatype`.
inline MPI_Aint extent_of(MPI_Datatype datatype) {
  return transport::extent_of(datatype, "classic::internal::extent_of");
}

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_INTER_CALL_H_
