// Where a communicator's Cartesian naming lives: one classic attribute,
// under a keyval this process creates once. Internal to naming/.
#ifndef ORTHOCOMM_NAMING_CART_CACHE_H_
#define ORTHOCOMM_NAMING_CART_CACHE_H_

#include <cstddef>
#include <utility>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "naming/geometry.h"

namespace naming::internal {

// The keyval is a function-local static created on first use; keyvals are
// process-local, so there is nothing to agree on with other processes. It is
// freed at static destruction; attributes still attached then keep the key
// alive (classic's rule) and their delete callback needs no keyval object.
//
// Its copy callback never copies (comm_null_copy_fn): the paper says naming
// schemes are not inherited by communicator creating functions, so dup
// (like split and create, which copy no attributes at all) yields an unnamed
// communicator. Its delete callback destroys the cached Geometry, so an
// overwrite, delete_attr or free destroys it exactly once.

// The naming cached on `comm`, or nullptr when `comm` is unnamed. One
// attribute lookup. Throws ErrorClass::comm, naming `function` (the
// user's call), for a null or freed `comm`.
const Geometry* find_naming(const classic::Comm& comm, const char* function);

// The naming cached on `comm`. Throws ErrorClass::topology, naming
// `function`, when `comm` is unnamed; ErrorClass::comm as find_naming.
const Geometry& naming_of(const classic::Comm& comm, const char* function);

// Caches `geometry` on `comm`; an earlier naming is destroyed first. The
// caller has validated `geometry` against `comm`.
void attach_naming(const classic::Comm& comm, const Geometry& geometry);

// Namings cached now, over all communicators of this process.
std::size_t live_naming_count() noexcept;

// Runs `core` (a call into Geometry) and re-raises its classic::Error with
// the public function in front, so that messages name what the user called:
// "naming::cart_rank: naming::Geometry::rank: coords[1] = 5 ...".
template <class Core>
decltype(auto) on_behalf_of(const char* function, Core&& core) {
  try {
    return std::forward<Core>(core)();
  } catch (const classic::Error& error) {
    throw classic::Error(error.error_class(), function, error.what());
  }
}

}  // namespace naming::internal

#endif  // ORTHOCOMM_NAMING_CART_CACHE_H_
