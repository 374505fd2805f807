// classic::Comm: MPI communicators (MPI-1 sections 5.2-5.4, caching of 5.7)
// with orthocomm's own semantics; Open MPI supplies only their contexts.
#ifndef ORTHOCOMM_CLASSIC_COMM_COMM_H_
#define ORTHOCOMM_CLASSIC_COMM_COMM_H_

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

#include "classic/groups/group.h"

namespace classic {

namespace internal {
class CommAccess;
}  // namespace internal

// A communicator handle. Copies are cheap and refer to the same communicator
// (as copies of an MPI_Comm do). The communicator goes away on free(), or
// when its last handle goes: either way the delete callbacks of its
// attributes run exactly once and its context is given back to the
// transport. free() through one handle leaves the other copies referring to
// a freed communicator, and using them raises ErrorClass::comm (where MPI
// would have undefined behaviour). Operations made before the free are
// not affected (MPI-1 5.4.3): pending ones complete normally, and a
// persistent request starts, completes and restarts until it is freed; the
// context goes back to the transport when the last of them has gone.
// Handles that outlive the Environment (a static, a global) are inert:
// destroying them touches no transport.
//
// Inter-communicators (classic/intercomm/intercomm.h makes them) are Comms too:
// size, rank and group are of the local group, point-to-point ranks name the
// remote group, and dup, create, split, compare and free work on them with
// MPI-2's meaning (below).
//
// Errors (classic::Error):
//   ErrorClass::comm   a null, freed or finalised communicator; freeing
//                      world() or self(); remote_size()/remote_group() of
//                      an intra-communicator.
//   ErrorClass::group  create() with a group that has processes outside it
//                      (outside the local group, for an inter-communicator).
//   ErrorClass::arg    split() with a negative color other than undefined;
//                      create() on an inter-communicator where processes of
//                      one side pass different groups (all processes raise).
//   ErrorClass::other  dup() whose copy callback failed on some process (on
//                      every process the duplicate is discarded, nothing
//                      leaks; where a callback threw instead, its own
//                      exception propagates there), a delete callback that
//                      failed.
//   ErrorClass::keyval an invalid keyval in the attribute functions.
class Comm {
 public:
  // The null communicator, MPI_COMM_NULL.
  Comm() = default;
  Comm(const Comm&) = default;
  Comm& operator=(const Comm&);
  Comm(Comm&&) noexcept = default;
  Comm& operator=(Comm&&) noexcept;
  // Inline: the null handles that requests and calls carry cost nothing.
  ~Comm() {
    if (state_ != nullptr) release_if_last();
  }

  // MPI_COMM_WORLD and MPI_COMM_SELF of classic (each has its own context,
  // apart from the application's MPI_COMM_WORLD). Need an active Environment.
  static Comm world();
  static Comm self();

  bool is_null() const noexcept { return state_ == nullptr; }

  // MPI_Comm_test_inter.
  bool is_inter() const;
  // MPI_Comm_size, MPI_Comm_rank, MPI_Comm_group: of the local group.
  int size() const;
  int rank() const;
  Group group() const;
  // MPI_Comm_remote_size, MPI_Comm_remote_group (inter-communicators only;
  // ErrorClass::comm otherwise).
  int remote_size() const;
  Group remote_group() const;

  // MPI_Comm_compare: identical (the same communicator), congruent (same
  // group(s) in the same order, another context), similar (same members,
  // another order), unequal.
  Comparison compare(const Comm& other) const;

  // MPI_Comm_dup: same group(s), new context, attributes copied by their
  // copy callbacks. Collective (over both groups of an inter-communicator).
  [[nodiscard]] Comm dup() const;
  // MPI_Comm_create: a communicator of `group`'s processes in group order;
  // the null communicator on processes outside `group`. Collective; every
  // process passes the same group. On an inter-communicator (MPI-2), each
  // side passes a subset of its local group (the same on that side) and
  // the result joins the two subsets; it is null outside the subsets and
  // everywhere when either subset is empty.
  [[nodiscard]] Comm create(const Group& group) const;
  // MPI_Comm_split: processes with the same color form a communicator,
  // ranked by key, ties by rank here; color == undefined gives the null
  // communicator. Collective. On an inter-communicator (MPI-2), the
  // processes of one color on the two sides form an inter-communicator,
  // each side ranked by key (ties by rank in the side); a color only one
  // side has gives the null communicator.
  [[nodiscard]] Comm split(int color, int key) const;
  // MPI_Comm_free: runs the attributes' delete callbacks and gives the
  // context back; this handle becomes null.
  void free();

  // MPI_Comm_set_attr / MPI_Comm_get_attr / MPI_Comm_delete_attr (also
  // MPI_Attr_put / _get / _delete). See classic/comm/attributes.h.
  void set_attr(int keyval, void* value);
  std::optional<void*> get_attr(int keyval) const;
  void delete_attr(int keyval);

  // The transport context behind this communicator: for classic's own
  // operations, ortho's algorithms and baselines; not for applications.
  MPI_Comm transport() const;

  // Same communicator (compare() == identical); two null handles are equal.
  friend bool operator==(const Comm& a, const Comm& b) noexcept {
    return a.state_ == b.state_;
  }

  // Communicators alive now, world and self included: for leak checks.
  static std::size_t live_count() noexcept;

  // What a communicator is made of: defined in classic's internal
  // comm_state.h, reached only by classic's implementation (CommAccess).
  class State;

 private:
  friend class internal::CommAccess;

  // The state of a valid handle (ErrorClass::comm otherwise); `function`
  // names the caller in the message.
  State& state(const char* function) const;
  explicit Comm(std::shared_ptr<State> state) : state_(std::move(state)) {}

  // Frees the communicator when this is its last handle (not world/self).
  void release_if_last() noexcept;

  std::shared_ptr<State> state_;
};

// The standard's spellings, for readers of the seeds.
inline Comm comm_dup(const Comm& comm) { return comm.dup(); }
inline Comm comm_create(const Comm& comm, const Group& group) {
  return comm.create(group);
}
inline Comm comm_split(const Comm& comm, int color, int key) {
  return comm.split(color, key);
}
inline Comparison comm_compare(const Comm& a, const Comm& b) {
  return a.compare(b);
}
inline void comm_free(Comm& comm) { comm.free(); }

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COMM_COMM_H_
