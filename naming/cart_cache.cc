#include "naming/cart_cache.h"

#include <optional>

#include "classic/base/error.h"
#include "classic/comm/typed_keyval.h"

namespace naming::internal {
namespace {

std::size_t& live_namings() {
  static std::size_t count = 0;
  return count;
}

// The attribute value: a Geometry that counts its cached instances, so that
// tests can see an overwrite or free destroy the old naming exactly once.
class CachedNaming {
 public:
  explicit CachedNaming(const Geometry& geometry) : geometry_(geometry) {
    ++live_namings();
  }
  CachedNaming(const CachedNaming& other) : geometry_(other.geometry_) {
    ++live_namings();
  }
  CachedNaming& operator=(const CachedNaming&) = delete;
  ~CachedNaming() { --live_namings(); }

  const Geometry& geometry() const { return geometry_; }

 private:
  Geometry geometry_;
};

const classic::Keyval<CachedNaming>& naming_keyval() {
  static const classic::Keyval<CachedNaming> keyval(classic::OnDup::drop);
  return keyval;
}

}  // namespace

const Geometry* find_naming(const classic::Comm& comm, const char* function) {
  const CachedNaming* cached = nullptr;
  try {
    cached = naming_keyval().get(comm);
  } catch (const classic::Error& error) {
    // classic names its attribute lookup; the user called `function`.
    throw error.raised_by(function);
  }
  return cached == nullptr ? nullptr : &cached->geometry();
}

const Geometry& naming_of(const classic::Comm& comm, const char* function) {
  const Geometry* naming = find_naming(comm, function);
  if (naming == nullptr) {
    throw classic::Error(classic::ErrorClass::topology, function,
                         "comm has no Cartesian naming (call cart_name)");
  }
  return *naming;
}

void attach_naming(const classic::Comm& comm, const Geometry& geometry) {
  classic::Comm handle = comm;  // a handle to the same communicator
  naming_keyval().set(handle, CachedNaming(geometry));
}

std::size_t live_naming_count() noexcept { return live_namings(); }

}  // namespace naming::internal
