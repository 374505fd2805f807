// classic keyvals: the process-local attribute keys of MPI caching (MPI-1
// section 5.7, MPI-2 MPI_Comm_create_keyval), with their copy/delete callbacks.
#ifndef ORTHOCOMM_CLASSIC_COMM_KEYVAL_H_
#define ORTHOCOMM_CLASSIC_COMM_KEYVAL_H_

#include <cstddef>
#include <string_view>

namespace classic {

class Comm;

// MPI_Comm_copy_attr_function. Called when `oldcomm` is duplicated, once per
// attribute set on it. Return 0 on success (anything else makes the dup
// fail); set *flag = true and *attribute_val_out to copy the attribute, leave
// *flag false (its value on entry) to leave it out of the duplicate.
using CopyFunction = int (*)(const Comm& oldcomm, int keyval, void* extra_state,
                             void* attribute_val_in, void** attribute_val_out,
                             bool* flag);

// MPI_Comm_delete_attr_function. Called when an attribute leaves `comm`
// (delete, overwrite, free). Return 0 on success; anything else makes the
// call that caused it fail and leaves the attribute attached.
using DeleteFunction = int (*)(const Comm& comm, int keyval,
                               void* attribute_val, void* extra_state);

// MPI_KEYVAL_INVALID: never returned by a create function (real keyvals are
// >= 0), so it can initialise static keyvals.
inline constexpr int keyval_invalid = -1;

// MPI_Comm_create_keyval. A null `copy` behaves as comm_null_copy_fn and a
// null `del` as comm_null_delete_fn (the MPI-1 rule for C). Keyvals count up
// from 0 and are not reused until the counter wraps past INT_MAX, so a stale
// copy of a freed keyval is reported as invalid rather than naming a new key.
[[nodiscard]] int comm_create_keyval(CopyFunction copy, DeleteFunction del,
                                     void* extra_state);

// MPI_Comm_free_keyval: sets `keyval` to keyval_invalid. Attributes already
// attached with it stay valid (get, delete, copy on dup, delete on free) and
// the key is reclaimed when the last of them goes; no new attribute may be set
// with it. Throws ErrorClass::keyval for keyval_invalid, a value that names no
// key, or a key freed before.
void comm_free_keyval(int& keyval);

// MPI-1 names of the two functions above (MPI_Keyval_create/_free): same
// semantics.
[[nodiscard]] int keyval_create(CopyFunction copy, DeleteFunction del,
                                void* extra_state);
void keyval_free(int& keyval);

// MPI_COMM_NULL_COPY_FN: *flag = false, returns 0.
int comm_null_copy_fn(const Comm& oldcomm, int keyval, void* extra_state,
                      void* attribute_val_in, void** attribute_val_out,
                      bool* flag);
// MPI_COMM_DUP_FN: *flag = true, *attribute_val_out = attribute_val_in,
// returns 0.
int comm_dup_fn(const Comm& oldcomm, int keyval, void* extra_state,
                void* attribute_val_in, void** attribute_val_out, bool* flag);
// MPI_COMM_NULL_DELETE_FN: does nothing, returns 0.
int comm_null_delete_fn(const Comm& comm, int keyval, void* attribute_val,
                        void* extra_state);

// MPI-1 names (MPI_NULL_COPY_FN, MPI_DUP_FN, MPI_NULL_DELETE_FN).
inline constexpr CopyFunction null_copy_fn = &comm_null_copy_fn;
inline constexpr CopyFunction dup_fn = &comm_dup_fn;
inline constexpr DeleteFunction null_delete_fn = &comm_null_delete_fn;

// Keys created and not yet reclaimed (a freed key with attributes still
// attached counts). For tests and leak checks.
[[nodiscard]] std::size_t live_keyval_count();

// The registry interface AttributeStore is built on; not for users.
namespace internal {

struct KeyvalCallbacks {
  CopyFunction copy;
  DeleteFunction del;
  void* extra_state;
};

// What a caller is about to do with a key: attach a new attribute (the key
// must not be freed) or access one already attached (a freed key still
// works while it has attributes).
enum class KeyvalUse { attach, access };

// The callbacks of `keyval`. Throws ErrorClass::keyval, naming `function`,
// for keyval_invalid, a value that names no key, and (KeyvalUse::attach) a
// freed key.
KeyvalCallbacks lookup_keyval(int keyval, KeyvalUse use,
                              std::string_view function);

// An attribute attached with / detached from `keyval`: the key lives while
// attributes hold it. Preconditions: the key exists (lookup_keyval passed),
// and every release matches an earlier retain.
void retain_keyval(int keyval);
void release_keyval(int keyval) noexcept;

}  // namespace internal

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COMM_KEYVAL_H_
