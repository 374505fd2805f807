// classic::Keyval<T>: typed attribute caching (b-mpi3 style). The copy and
// delete callbacks come from T's copy constructor and destructor; no void*.
#ifndef ORTHOCOMM_CLASSIC_COMM_TYPED_KEYVAL_H_
#define ORTHOCOMM_CLASSIC_COMM_TYPED_KEYVAL_H_

#include <concepts>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "classic/base/error.h"
#include "classic/comm/keyval.h"

namespace classic {

// What a duplicate of the communicator gets: a copy of the value (T's copy
// constructor) or no attribute at all.
enum class OnDup { copy, drop };

// Anything that caches attributes the way classic::Comm does.
template <class C>
concept AttributeHolder = requires(C& comm, const C& const_comm, int keyval,
                                   void* value) {
  comm.set_attr(keyval, value);
  { const_comm.get_attr(keyval) } -> std::same_as<std::optional<void*>>;
  comm.delete_attr(keyval);
};

// A keyval whose attributes are values of T, owned by the communicator: set
// stores a heap copy, remove/overwrite/free destroy it, dup copies it (or
// drops it, OnDup::drop). Move-only; the destructor frees the keyval, and
// attributes still attached then stay valid until they are deleted.
// A moved-from Keyval holds keyval_invalid; using it throws
// ErrorClass::keyval.
template <class T>
class Keyval {
  static_assert(std::is_object_v<T> && !std::is_const_v<T>,
                "an attribute type is a non-const object type");

 public:
  Keyval() requires std::copy_constructible<T> : Keyval(OnDup::copy) {}

  // OnDup::copy needs a copy-constructible T (ErrorClass::arg otherwise).
  explicit Keyval(OnDup on_dup)
      : keyval_(comm_create_keyval(copy_callback(on_dup), &delete_value,
                                   nullptr)) {}

  Keyval(Keyval&& other) noexcept
      : keyval_(std::exchange(other.keyval_, keyval_invalid)) {}
  Keyval& operator=(Keyval&& other) noexcept {
    if (this != &other) {
      free_keyval();
      keyval_ = std::exchange(other.keyval_, keyval_invalid);
    }
    return *this;
  }
  Keyval(const Keyval&) = delete;
  Keyval& operator=(const Keyval&) = delete;
  ~Keyval() { free_keyval(); }

  // The MPI keyval, to mix with the untyped interface.
  [[nodiscard]] int keyval() const noexcept { return keyval_; }

  // Attaches (a copy of) `value`; an attribute already set is destroyed
  // first. If the call fails, `value`'s copy is destroyed with it.
  template <AttributeHolder C>
  void set(C& comm, T value) const {
    auto owned = std::make_unique<T>(std::move(value));
    comm.set_attr(keyval_, owned.get());
    (void)owned.release();  // the communicator owns it now
  }

  // The attached value, or nullptr when none is set.
  template <AttributeHolder C>
  [[nodiscard]] T* get(const C& comm) const {
    const std::optional<void*> value = comm.get_attr(keyval_);
    return value ? static_cast<T*>(*value) : nullptr;
  }

  // Destroys the attached value, if any.
  template <AttributeHolder C>
  void remove(C& comm) const {
    comm.delete_attr(keyval_);
  }

 private:
  static CopyFunction copy_callback(OnDup on_dup) {
    if (on_dup == OnDup::drop) return &comm_null_copy_fn;
    if constexpr (std::is_copy_constructible_v<T>) {
      return &copy_value;
    } else {
      throw Error(ErrorClass::arg, "classic::Keyval::Keyval",
                  "on_dup = OnDup::copy needs a copy-constructible "
                  "attribute type; use OnDup::drop");
    }
  }

  // A throwing copy constructor becomes a failed copy (the dup fails and
  // rolls back) instead of an exception through the store.
  static int copy_value(const Comm& /*oldcomm*/, int /*keyval*/,
                        void* /*extra_state*/, void* attribute_val_in,
                        void** attribute_val_out, bool* flag) {
    if constexpr (std::is_copy_constructible_v<T>) {
      try {
        *attribute_val_out = new T(*static_cast<const T*>(attribute_val_in));
      } catch (...) {
        return 1;
      }
      *flag = true;
    }
    return 0;
  }

  static int delete_value(const Comm& /*comm*/, int /*keyval*/,
                          void* attribute_val, void* /*extra_state*/) {
    delete static_cast<T*>(attribute_val);
    return 0;
  }

  // Fails only if someone freed keyval() behind this object's back; a
  // destructor cannot report that, and the key is gone either way.
  void free_keyval() noexcept {
    if (keyval_ == keyval_invalid) return;
    try {
      comm_free_keyval(keyval_);
    } catch (const Error&) {
      keyval_ = keyval_invalid;
    }
  }

  int keyval_;
};

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COMM_TYPED_KEYVAL_H_
