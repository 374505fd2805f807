// classic::AttributeStore: the attributes cached on one communicator (MPI-1
// section 5.7, MPI-2 MPI_Comm_set/get/delete_attr), MPI-free.
#ifndef ORTHOCOMM_CLASSIC_COMM_ATTRIBUTES_H_
#define ORTHOCOMM_CLASSIC_COMM_ATTRIBUTES_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "classic/comm/keyval.h"

namespace classic {

// Each communicator's state owns one store. The communicator passes itself
// to the calls that run callbacks, which receive it as MPI's callbacks do.
//
// Order. Attributes are kept in the order they were set; overwriting one
// counts as setting it anew (it moves to the end), as MPI defines overwrite
// as delete-then-store. copy_for_dup runs copy callbacks oldest first and
// the duplicate keeps that order; delete_all runs delete callbacks newest
// first, like destructors, so an attribute may rely on those set before it.
// (MPI leaves both orders arbitrary; these are deterministic.)
//
// Failing callbacks. A delete callback that returns nonzero leaves its
// attribute attached, with the value it had, and the call throws
// ErrorClass::other naming the keyval: an attribute leaves the store only
// when its delete callback succeeds. A copy callback that fails makes
// copy_for_dup delete (through their delete callbacks) the attributes it had
// already copied, discard the duplicate and throw ErrorClass::other.
// Callbacks should not throw; if one does, the store is left as described for
// a failure at that callback and the exception propagates.
//
// Errors (classic::Error):
//   ErrorClass::keyval  keyval_invalid, a value that names no key, and for
//                       set() a freed key (get/remove accept a freed key
//                       while attributes still hold it, so that they can be
//                       deleted, as MPI requires).
//   ErrorClass::other   a copy or delete callback returned nonzero.
//
// Removing a key that has no attribute here is not an error (MPI calls only
// a nonexistent key erroneous); it does nothing and runs no callback.
//
// Where Open MPI 4.1 differs (checked with a one-process program):
//   - MPI_Comm_delete_attr of an absent attribute returns MPI_ERR_OTHER.
//   - MPI_Comm_set_attr with a freed key that is still attached to the
//     communicator succeeds (an overwrite); here any set with a freed key is
//     ErrorClass::keyval.
//   - MPI_Comm_free runs delete callbacks in hash order, not newest first.
//
// Not thread-safe (MPI_THREAD_SINGLE). Callbacks may use other stores, and
// may get/remove on this store, but should not set on it while it runs them.
class AttributeStore {
 public:
  AttributeStore() = default;
  AttributeStore(AttributeStore&& other) noexcept;
  AttributeStore& operator=(AttributeStore&& other) noexcept;
  AttributeStore(const AttributeStore&) = delete;
  AttributeStore& operator=(const AttributeStore&) = delete;

  // Gives back the keys of any attributes left, without running callbacks
  // (there is no communicator to pass them). The communicator must call
  // delete_all first; this only keeps the keyval registry consistent.
  ~AttributeStore();

  // MPI_Comm_set_attr. An attribute already set with `keyval` is first
  // deleted through its delete callback (once); if that fails, nothing
  // changes and ErrorClass::other is thrown.
  void set(const Comm& comm, int keyval, void* value);

  // MPI_Comm_get_attr: the value, or nullopt when `keyval` has no attribute
  // here (a stored nullptr is a present value).
  [[nodiscard]] std::optional<void*> get(int keyval) const;

  // MPI_Comm_delete_attr: runs the delete callback once and detaches the
  // attribute; absent attribute: nothing happens.
  void remove(const Comm& comm, int keyval);

  // The store of a duplicate of `old_comm` (which owns this store): each
  // attribute's copy callback runs once with `old_comm`; those that set flag
  // are copied. On failure the attributes copied so far are deleted through
  // their delete callbacks, which receive `old_comm` (the duplicate has no
  // communicator yet), and ErrorClass::other is thrown.
  [[nodiscard]] AttributeStore copy_for_dup(const Comm& old_comm) const;

  // For MPI_Comm_free: runs every delete callback once, newest attribute
  // first, even after one fails. Attributes whose callback succeeded are
  // detached; if any failed, those stay and ErrorClass::other is thrown.
  void delete_all(const Comm& comm);

  [[nodiscard]] std::size_t size() const noexcept { return attributes_.size(); }
  [[nodiscard]] bool empty() const noexcept { return attributes_.empty(); }

  // The keyvals of the attributes, in the order they were set.
  [[nodiscard]] std::vector<int> keyvals() const;

 private:
  struct Attribute {
    int keyval;
    void* value;
  };

  std::vector<Attribute>::iterator find(int keyval);
  // Inline: every cached lookup (ortho's table at each call) runs it.
  std::vector<Attribute>::const_iterator find(int keyval) const {
    auto it = attributes_.begin();
    while (it != attributes_.end() && it->keyval != keyval) ++it;
    return it;
  }
  void detach(int keyval);
  void release_all() noexcept;
  int discard_after_failed_copy(const Comm& old_comm) noexcept;

  std::vector<Attribute> attributes_;  // in the order they were set
};

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COMM_ATTRIBUTES_H_
