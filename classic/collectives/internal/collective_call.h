// The executor every classic collective runs through: one communicator
// lookup, argument checks against it, one transport call. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_COLLECTIVE_CALL_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_COLLECTIVE_CALL_H_

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "classic/base/internal/buffer_checks.h"
#include "classic/base/internal/inside_classic.h"
#include "classic/comm/comm.h"

namespace classic::internal {

// One buffer of a collective: `count` elements of `datatype` at `data`
// (or MPI_IN_PLACE). `capacity` is the element count of a typed span, so
// that classic can refuse counts that would overrun it; raw buffers have
// none and are the caller's responsibility.
template <typename Data>
struct Block {
  Data data;
  int count;
  MPI_Datatype datatype;
  std::optional<std::size_t> capacity;
};
using SendBlock = Block<const void*>;
using RecvBlock = Block<void*>;

// One buffer holding one block per process (the v variants): block i has
// counts[i] elements at displs[i] (in elements of `datatype`).
template <typename Data>
struct Blocks {
  Data data;
  std::span<const int> counts;
  std::span<const int> displs;
  MPI_Datatype datatype;
  std::optional<std::size_t> capacity;
};
using SendBlocks = Blocks<const void*>;
using RecvBlocks = Blocks<void*>;

inline bool is_in_place(const void* data) { return data == MPI_IN_PLACE; }

using internal::Access;

// A collective call on an intra-communicator. The constructor looks the
// communicator up (ErrorClass::comm for a null, freed or inter-communicator);
// the checks raise classic::Error naming `function` and the argument; run()
// turns a transport failure into classic::Error.
class CollectiveCall {
 public:
  CollectiveCall(const Comm& comm, const char* function);

  MPI_Comm transport() const { return transport_; }
  int size() const { return size_; }
  int rank() const { return rank_; }
  const char* function() const { return function_; }
  bool is_root(int root) const { return root == rank_; }

  // ErrorClass::root unless root is in [0, size()).
  void check_root(int root) const;
  // ErrorClass::op for MPI_OP_NULL.
  void check_op(MPI_Op op) const;
  // ErrorClass::buffer: MPI_IN_PLACE where it is not allowed.
  void reject_in_place(const void* data, const char* name) const;
  // MPI_IN_PLACE only at the root of a rooted collective.
  void check_in_place_at_root(const void* data, int root,
                              const char* name) const;

  // A block used `blocks` times (size() for the buffer of all processes at
  // a root): count >= 0 (ErrorClass::count), a datatype (ErrorClass::
  // datatype), a capacity of at least blocks * count (ErrorClass::buffer).
  template <typename Data>
  void check(const Block<Data>& block, const char* name,
             std::int64_t blocks = 1) const {
    check_count(block.count, name);
    check_datatype(block.datatype, name);
    check_capacity(block.capacity, blocks * block.count, name);
  }
  // size() counts and displacements (ErrorClass::count), counts >= 0, a
  // datatype, and for typed spans: no block before the start or past the
  // end, and for Access::write no two blocks overlapping
  // (ErrorClass::buffer).
  template <typename Data>
  void check(const Blocks<Data>& blocks, const char* name,
             const char* counts_name, const char* displs_name,
             Access access) const {
    check_counts(blocks.counts, counts_name);
    check_length(blocks.displs, displs_name);
    check_datatype(blocks.datatype, name);
    if (blocks.capacity) {
      internal::check_placement(function_, blocks.counts, blocks.displs,
                                *blocks.capacity, access,
                                {name, counts_name, displs_name});
    }
  }

  // The single checks the above are made of.
  void check_count(int count, const char* name) const;
  void check_datatype(MPI_Datatype datatype, const char* name) const;
  // A typed span (capacity known) holds at least `needed` elements.
  void check_capacity(std::optional<std::size_t> capacity, std::int64_t needed,
                      const char* name) const;
  // `values` has one entry per process (ErrorClass::count).
  void check_length(std::span<const int> values, const char* name) const;
  void check_length(std::span<const MPI_Datatype> values,
                    const char* name) const;
  // counts has size() entries, each >= 0 (ErrorClass::count); their sum.
  std::int64_t check_counts(std::span<const int> counts,
                            const char* name) const;
  // size() datatypes, none MPI_DATATYPE_NULL.
  void check_datatypes(std::span<const MPI_Datatype> datatypes,
                       const char* name) const;
  // ErrorClass::count unless counts[rank()] == count (a typed process's
  // own block must match what it sends or receives).
  void check_own_count(std::span<const int> counts, const char* counts_name,
                       int count, const char* count_name) const;

  // A typed span's element count as an MPI count (ErrorClass::count past
  // INT_MAX).
  int count_of(std::size_t elements, const char* name) const;
  // The per-process count of a typed span holding one block per process:
  // elements / size(), which must divide evenly (ErrorClass::buffer).
  int per_process(std::size_t elements, const char* name) const;
  // ErrorClass::buffer when two typed spans that the call uses share memory
  // (MPI forbids aliased arguments; classic::in_place is the way to reuse).
  void check_apart(const void* a, std::size_t a_bytes, const char* a_name,
                   const void* b, std::size_t b_bytes,
                   const char* b_name) const;

  // Raises classic::Error unless code is MPI_SUCCESS.
  void run(int code) const {
    if (code != MPI_SUCCESS) [[unlikely]] {
      raise(code);
    }
  }

 private:
  [[noreturn]] void raise(int code) const;

  MPI_Comm transport_;
  int size_;
  int rank_;
  const char* function_;
};

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_COLLECTIVE_CALL_H_
