// What a call's arguments are, for everything ortho keeps for the next call
// with the same arguments (a stencil code calls the same collective with
// the same counts and datatypes at every iteration): the key of a call
// (all but the buffers' addresses and the mode), and the number that names
// it. The dispatch compares a call's key with its operation's last one at
// most once per call (shape_of) and every layer that keeps something (the
// selection, tuning's winner, an algorithm's plan or its checked counts)
// compares numbers. Datatypes are compared by handle, so only calls whose
// datatypes are all predefined get a number: a derived datatype freed and
// made again may come back with the same handle and another layout.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_CALL_SHAPE_H_
#define ORTHOCOMM_ORTHO_INTERNAL_CALL_SHAPE_H_

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ortho/call.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/operation.h"

namespace ortho::internal {

class CallKey {
 public:
  // Whether `call` has this key (false for an empty key and for one with
  // a derived datatype).
  bool matches(const Call& call) const noexcept;
  // Becomes `call`'s key, reusing the memory of the last one. Asks the
  // transport whether its datatypes are predefined (`function` names the
  // caller in its errors).
  void assign(const Call& call, const char* function);
  // Assigned, and every datatype predefined.
  bool valid() const noexcept { return valid_; }

 private:
  struct SideKey {
    bool in_place = false;
    int count = 0;
    MPI_Datatype datatype = MPI_DATATYPE_NULL;
    std::vector<int> counts;
    std::vector<int> displs;
    std::vector<MPI_Aint> byte_displs;
    std::vector<MPI_Datatype> datatypes;
    std::size_t elements = 0;
    std::size_t element_bytes = 0;
    // Any of the four arrays is not empty: kept with them by assign()
    // rather than found from them at each comparison, which cost 28
    // instructions a call more (callgrind, dispatch_benchmark's layers).
    bool has_arrays = false;

    template <class Pointer>
    bool matches(const Side<Pointer>& side) const noexcept;
    template <class Pointer>
    void assign(const Side<Pointer>& side);
  };

  bool valid_ = false;
  Operation operation_ = Operation::barrier;
  Form form_ = Form::raw;
  SideKey send_;
  SideKey recv_;
  MPI_Op op_ = MPI_OP_NULL;
  int root_ = 0;
};

// The number of a call that nothing is kept for (a derived datatype).
inline constexpr std::uint64_t kUnkept = 1;

// An operation's last call on a communicator: its key and number.
struct LastShape {
  CallKey key;
  std::uint64_t number = 0;
};

// The number of `call`'s arguments: `last`'s where the call has its key,
// otherwise a number no call had before (and `last` becomes the call's);
// kUnkept where nothing may be kept for the call. Named once per call.
std::uint64_t shape_of(LastShape& last, const Call& call);

// Whether what was kept for a call numbered `kept` serves a call numbered
// `shape`.
inline bool same_shape(std::uint64_t kept, std::uint64_t shape) noexcept {
  return shape > kUnkept && kept == shape;
}

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_CALL_SHAPE_H_
