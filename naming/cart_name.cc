#include "naming/cart_name.h"

#include <string>
#include <utility>
#include <vector>

#include "classic/base/error.h"
#include "naming/agreement.h"
#include "naming/cart_cache.h"

namespace naming {

int cart_name(const classic::Comm& comm, const Geometry& geometry) {
  constexpr const char* kFunction = "naming::cart_name";
  (void)internal::find_naming(comm, kFunction);  // a null or freed comm
  if (comm.is_inter()) {
    throw classic::Error(classic::ErrorClass::comm, kFunction,
                         "comm is an inter-communicator; only "
                         "intra-communicators can be named");
  }
  if (geometry.size() > comm.size()) {
    throw classic::Error(classic::ErrorClass::dims, kFunction,
                         "the grid has " + std::to_string(geometry.size()) +
                             " points but comm has only " +
                             std::to_string(comm.size()) + " processes");
  }
  internal::attach_naming(comm, geometry);
  return geometry.size();
}

int cart_name(const classic::Comm& comm, std::span<const int> dims,
              std::span<const bool> periods, Order order) {
  return cart_name(comm, internal::on_behalf_of("naming::cart_name", [&] {
                     return Geometry(dims, periods, order);
                   }));
}

int cart_name(const classic::Comm& comm, std::span<const int> dims,
              std::span<const bool> periods,
              std::span<const int> dimension_order) {
  return cart_name(comm, internal::on_behalf_of("naming::cart_name", [&] {
                     return Geometry(dims, periods, dimension_order);
                   }));
}

CartTest cart_test(const classic::Comm& comm) {
  const Geometry* naming = internal::find_naming(comm, "naming::cart_test");
  if (naming == nullptr) return {false, 0, 0};
  return {true, naming->ndims(), naming->size()};
}

Geometry cart_get(const classic::Comm& comm) {
  return internal::naming_of(comm, "naming::cart_get");
}

bool cart_testall(const classic::Comm& comm) {
  const Geometry* naming = internal::find_naming(comm, "naming::cart_testall");
  const std::vector<int> description = internal::describe(naming);
  // Identical descriptions: all named (when this one is) or all unnamed.
  return internal::identical_everywhere(comm, description,
                                        "naming::cart_testall") &&
         naming != nullptr;
}

std::size_t live_naming_count() noexcept {
  return internal::live_naming_count();
}

}  // namespace naming
