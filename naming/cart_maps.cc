#include "naming/cart_maps.h"

#include <string>

#include "classic/base/error.h"
#include "naming/cart_cache.h"

namespace naming {
namespace {

using internal::naming_of;
using internal::on_behalf_of;

// The grid cannot see the communicator, so ranks past it are checked here;
// everything below comm.size() is Geometry's to judge.
void check_in_comm(const classic::Comm& comm, int rank, const char* name,
                   const char* function) {
  const int size = comm.size();
  if (rank < size) return;
  throw classic::Error(classic::ErrorClass::rank, function,
                       std::string(name) + " = " + std::to_string(rank) +
                           " is not a rank of comm: outside [0, " +
                           std::to_string(size) + ")");
}

}  // namespace

int cart_rank(const classic::Comm& comm, std::span<const int> coords) {
  constexpr const char* kFunction = "naming::cart_rank";
  const Geometry& naming = naming_of(comm, kFunction);
  return on_behalf_of(kFunction, [&] { return naming.rank(coords); });
}

std::vector<int> cart_coordinates(const classic::Comm& comm, int rank) {
  constexpr const char* kFunction = "naming::cart_coordinates";
  const Geometry& naming = naming_of(comm, kFunction);
  check_in_comm(comm, rank, "rank", kFunction);
  return on_behalf_of(kFunction, [&] { return naming.coordinates(rank); });
}

int cart_relative_rank(const classic::Comm& comm, int source,
                       std::span<const int> offset) {
  constexpr const char* kFunction = "naming::cart_relative_rank";
  const Geometry& naming = naming_of(comm, kFunction);
  check_in_comm(comm, source, "source", kFunction);
  return on_behalf_of(kFunction,
                      [&] { return naming.relative_rank(source, offset); });
}

std::vector<int> cart_relative_coordinates(const classic::Comm& comm,
                                           int source, int dest) {
  constexpr const char* kFunction = "naming::cart_relative_coordinates";
  const Geometry& naming = naming_of(comm, kFunction);
  check_in_comm(comm, source, "source", kFunction);
  check_in_comm(comm, dest, "dest", kFunction);
  return on_behalf_of(
      kFunction, [&] { return naming.relative_coordinates(source, dest); });
}

Shift cart_relative_shift(const classic::Comm& comm, int rank,
                          std::span<const int> offset) {
  constexpr const char* kFunction = "naming::cart_relative_shift";
  const Geometry& naming = naming_of(comm, kFunction);
  check_in_comm(comm, rank, "rank", kFunction);
  return on_behalf_of(kFunction,
                      [&] { return naming.relative_shift(rank, offset); });
}

std::vector<int> cart_allranks(const classic::Comm& comm,
                               std::span<const int> flat_coords) {
  constexpr const char* kFunction = "naming::cart_allranks";
  const Geometry& naming = naming_of(comm, kFunction);
  return on_behalf_of(kFunction, [&] { return naming.allranks(flat_coords); });
}

std::vector<int> cart_allranks_relative(const classic::Comm& comm, int source,
                                        std::span<const int> flat_offsets) {
  constexpr const char* kFunction = "naming::cart_allranks_relative";
  const Geometry& naming = naming_of(comm, kFunction);
  check_in_comm(comm, source, "source", kFunction);
  return on_behalf_of(kFunction, [&] {
    return naming.allranks_relative(source, flat_offsets);
  });
}

}  // namespace naming
