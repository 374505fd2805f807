// The transport boundary of classic: the few Open MPI calls that give a
// communicator its matching context. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_BASE_INTERNAL_TRANSPORT_H_
#define ORTHOCOMM_CLASSIC_BASE_INTERNAL_TRANSPORT_H_

#include <mpi.h>

#include <cstdint>
#include <span>
#include <string_view>

#include "classic/base/internal/inside_classic.h"

namespace classic::transport {

// A fresh matching context over the processes `world_ranks`, in that order
// (rank i of the context is world rank world_ranks[i]); MPI_COMM_NULL for an
// empty list. Collective over *every* process of `parent`: each passes the
// list of the context it joins (the caller's own process must be in it) or
// an empty one, and lists of different processes are equal or disjoint (as
// in MPI-2.2 MPI_Comm_create). This is how classic makes contexts: split,
// create, dup and merge compute the member lists themselves, then ask for
// contexts over them.
//
// Why whole-parent and not MPI_Comm_create_group over the members only:
// the latter talks point-to-point on `parent` with a user-range tag, so a
// pending any_tag receive the application posted on that communicator could
// take the setup traffic. Collective traffic never matches user receives.
MPI_Comm new_context(MPI_Comm parent, std::span<const int> world_ranks);

// A fresh context over `world_ranks` (in that order, the caller among them)
// that is collective over those processes only; for intercomm_create, where
// no communicator holds both groups. It runs over the Environment's private
// bridge context, which carries nothing else. The processes of one call are
// in it together, and a process takes part in one call at a time, so calls
// over different (even overlapping) lists cannot take each other's messages.
MPI_Comm new_context_among(std::span<const int> world_ranks);

// A fresh context over the processes of `context`, in the same order
// (MPI_Comm_dup; collective over them).
MPI_Comm new_private_context(MPI_Comm context);

// Gives a context back; `context` becomes MPI_COMM_NULL. A retained
// context is given back at its last release instead.
void free_context(MPI_Comm& context);

// Keeps `context` from being given back while classic still has messages
// to take from it (those of an abandoned operation): free_context() then
// defers to the matching release_context(). Calls pair up.
void retain_context(MPI_Comm context);
void release_context(MPI_Comm context);

// retain_context for as long as it lives (nothing for a null context).
class ContextHold {
 public:
  ContextHold() = default;
  explicit ContextHold(MPI_Comm context) : context_(context) {
    if (context_ != MPI_COMM_NULL) retain_context(context_);
  }
  ~ContextHold() {
    if (context_ != MPI_COMM_NULL) release_context(context_);
  }
  ContextHold(const ContextHold&) = delete;
  ContextHold& operator=(const ContextHold&) = delete;

 private:
  MPI_Comm context_ = MPI_COMM_NULL;
};

// ---- datatypes and addresses ----------------------------------------------
// Transport failures raise classic::Error naming `function`.

// The extent of one element of `datatype` (MPI_Type_get_extent).
MPI_Aint extent_of(MPI_Datatype datatype, std::string_view function);
// The size in bytes of `count` elements of `datatype` (MPI_Type_size_x).
MPI_Count size_of(MPI_Datatype datatype, int count, std::string_view function);

// `base` moved by `bytes`, computed on integers: base may be null (a zero
// count, or MPI_BOTTOM), where pointer arithmetic would be undefined.
// Inline: the executor computes one per message it posts.
inline void* shifted(void* base, MPI_Aint bytes) {
  // NOLINTNEXTLINE(performance-no-int-to-ptr): base may be null, see above.
  return reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(base) +
                                 static_cast<std::uintptr_t>(bytes));
}
inline const void* shifted(const void* base, MPI_Aint bytes) {
  return shifted(const_cast<void*>(base), bytes);
}

}  // namespace classic::transport

#endif  // ORTHOCOMM_CLASSIC_BASE_INTERNAL_TRANSPORT_H_
