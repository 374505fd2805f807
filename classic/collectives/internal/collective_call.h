// The executor every classic collective runs through: one communicator
// lookup, argument checks against it, one transport call in one of three
// modes (blocking, non-blocking, persistent). Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_COLLECTIVE_CALL_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_COLLECTIVE_CALL_H_

#include <mpi.h>
// After mpi.h: MPIX_*_init, Open MPI 4.1's pcollreq extension.
#include <mpi-ext.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

#include "classic/base/internal/buffer_checks.h"
#include "classic/base/internal/buffers.h"
#include "classic/base/internal/inside_classic.h"
#include "classic/collectives/internal/checked_call.h"
#include "classic/collectives/typed_collectives.h"
#include "classic/comm/comm.h"
#include "classic/exec/executor.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"

namespace classic::internal {

inline bool is_in_place(const void* data) { return data == MPI_IN_PLACE; }

using internal::Access;

// A collective's transport function in each mode: MPI_X, MPI_IX and Open
// MPI 4.1's MPIX_X_init (the pcollreq extension), with the same leading
// arguments.
template <typename Blocking, typename Nonblocking, typename Persistent>
struct TransportForms {
  Blocking blocking;
  Nonblocking nonblocking;
  Persistent persistent;
};
// (Spelled out for compilers without C++20's aggregate deduction: Clang.)
template <typename Blocking, typename Nonblocking, typename Persistent>
TransportForms(Blocking, Nonblocking, Persistent)
    -> TransportForms<Blocking, Nonblocking, Persistent>;

// The arrays (counts, displacements, datatypes) that a non-blocking or
// persistent transport collective reads until it ends: copied, so the
// caller's arrays need not outlive the call.
class KeptArrays {
 public:
  template <typename T>
  T keep(T value) {
    return value;
  }
  const int* keep(std::span<const int> values) { return store(ints_, values); }
  const MPI_Datatype* keep(std::span<const MPI_Datatype> values) {
    return store(datatypes_, values);
  }
  const MPI_Aint* keep(std::span<const MPI_Aint> values) {
    return store(byte_displacements_, values);
  }

 private:
  template <typename T>
  static const T* store(std::deque<std::vector<T>>& kept,
                        std::span<const T> values) {
    // A deque never moves its elements, so earlier pointers stay valid.
    return kept.emplace_back(values.begin(), values.end()).data();
  }

  std::deque<std::vector<int>> ints_;
  std::deque<std::vector<MPI_Datatype>> datatypes_;
  std::deque<std::vector<MPI_Aint>> byte_displacements_;
};

// A blocking call reads the caller's arrays in place.
template <typename T>
T in_place_arg(T value) {
  return value;
}
template <typename T>
const T* in_place_arg(std::span<const T> values) {
  return values.data();
}

// Raises classic::Error for a failed transport call of `function`.
[[noreturn]] void raise_collective_error(int code, const char* function);

// A non-blocking (post: MPI_IX, called when the request is made) or
// persistent (post: MPIX_X_init, called now; each classic::start then
// calls MPI_Start) transport collective as a classic::Request.
Request collective_request(const Comm& comm, Mode mode, const char* function,
                           std::shared_ptr<KeptArrays> kept,
                           std::function<int(MPI_Request*)> post);

// For tests: abandoned collectives (their requests destroyed while they
// ran) that have not completed yet.
int collectives_in_background();

// A collective call on an intra-communicator. The constructor looks the
// communicator up (ErrorClass::comm for a null, freed or inter-communicator);
// the checks raise classic::Error naming `function` and the argument; run()
// turns a transport failure into classic::Error.
class CollectiveCall {
 public:
  // ErrorClass::comm on an inter-communicator (whose collectives are
  // inter_collectives.h's).
  CollectiveCall(const Comm& comm, const char* function,
                 Mode mode = Mode::blocking);

  MPI_Comm transport() const { return transport_; }
  int size() const { return size_; }
  int rank() const { return rank_; }
  const char* function() const { return function_; }
  Mode mode() const { return mode_; }
  bool is_root(int root) const { return root == rank_; }

  // Checked mode (checked.h): a block whose bytes every process must use
  // (one type signature everywhere). check_root and check_op record the
  // root and the op; start() agrees before it posts.
  void uniform(int count, MPI_Datatype datatype) const {
    checked_.uniform(count, datatype);
  }

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
  // The same for a typed send and receive span, where the call uses both.
  void check_apart(const In& send, const Out& recv) const {
    check_apart(send.data, send.size * send.element_bytes, "send", recv.data,
                recv.size * recv.element_bytes, "recv");
  }

  // Raises classic::Error unless code is MPI_SUCCESS.
  void run(int code) const {
    if (code != MPI_SUCCESS) [[unlikely]] {
      raise_collective_error(code, function_);
    }
  }

  // The transport collective on the context, in the call's mode, with
  // `args` (then the context, and for the persistent form MPI_INFO_NULL):
  // a null Request once it has completed (blocking), a pending one
  // (non-blocking) or an inactive persistent one. Array arguments are
  // passed as spans; the non-blocking and persistent forms copy them.
  template <typename B, typename N, typename P, typename... Args>
  Request start(const TransportForms<B, N, P>& forms, Args... args) const {
    checked_.agree();
    if (mode_ == Mode::blocking) {
      run(forms.blocking(in_place_arg(args)..., transport_));
      return Request();
    }
    auto kept = std::make_shared<KeptArrays>();
    auto lowered = std::make_tuple(kept->keep(args)...);
    MPI_Comm context = transport_;  // (a handle: const would be on the pointer)
    std::function<int(MPI_Request*)> post;
    if (mode_ == Mode::nonblocking) {
      post = [call = forms.nonblocking, lowered, context](MPI_Request* r) {
        return std::apply([&](auto... a) { return call(a..., context, r); },
                          lowered);
      };
    } else {
      post = [call = forms.persistent, lowered, context](MPI_Request* r) {
        return std::apply(
            [&](auto... a) { return call(a..., context, MPI_INFO_NULL, r); },
            lowered);
      };
    }
    return collective_request(*comm_, mode_, function_, std::move(kept),
                              std::move(post));
  }

 private:
  const Comm* comm_;
  Mode mode_;
  MPI_Comm transport_;
  int size_;
  int rank_;
  const char* function_;
  // Agrees at start(), or as the call is destroyed by an argument error.
  mutable CheckedCall checked_;
};

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_INTERNAL_COLLECTIVE_CALL_H_
