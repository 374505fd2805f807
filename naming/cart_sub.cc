#include "naming/cart_sub.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "naming/agreement.h"
#include "naming/cart_cache.h"

namespace naming {
namespace {

constexpr const char* kCreateSub = "naming::cart_create_sub";

// The arguments of a split that groups processes by their coordinates in
// the dropped dimensions (color) and orders them by those in the remaining
// dimensions (key), both read as mixed-radix numbers in the naming's
// dimension order, slowest dimension first.
struct SplitPosition {
  int color;
  int key;
};

SplitPosition split_position(const Geometry& naming,
                             std::span<const bool> remain_dims, int rank) {
  if (rank >= naming.size()) return {classic::undefined, 0};
  const std::vector<int> coords = naming.coordinates(rank);
  SplitPosition position{0, 0};
  // Both stay below naming.size() <= INT_MAX.
  for (const int dim : naming.dimension_order()) {
    int& number = remain_dims[dim] ? position.key : position.color;
    number = number * naming.dims()[dim] + coords[dim];
  }
  return position;
}

std::optional<classic::Error> check_remain_dims(
    const Geometry& naming, std::span<const bool> remain_dims,
    const char* function) {
  if (remain_dims.size() == static_cast<std::size_t>(naming.ndims())) {
    return std::nullopt;
  }
  return classic::Error(classic::ErrorClass::arg, function,
                        "remain_dims has " +
                            std::to_string(remain_dims.size()) +
                            " elements but the naming has ndims = " +
                            std::to_string(naming.ndims()));
}

// What this process would object to, were it alone.
std::optional<classic::Error> local_objection(
    const Geometry* naming, std::span<const bool> remain_dims) {
  if (naming == nullptr) {
    return classic::Error(classic::ErrorClass::topology, kCreateSub,
                          "comm has no Cartesian naming (call cart_name)");
  }
  return check_remain_dims(*naming, remain_dims, kCreateSub);
}

}  // namespace

classic::Comm cart_create_sub(const classic::Comm& comm,
                              std::span<const bool> remain_dims) {
  const Geometry* naming = internal::find_naming(comm, kCreateSub);
  const std::optional<classic::Error> objection =
      local_objection(naming, remain_dims);
  std::vector<int> arguments = internal::describe(naming);
  arguments.push_back(static_cast<int>(remain_dims.size()));
  for (const bool remains : remain_dims) arguments.push_back(remains ? 1 : 0);
  // Everyone takes part before anyone throws: no process is left in split.
  const bool agreed =
      internal::identical_everywhere(comm, arguments, kCreateSub);
  if (objection) throw classic::Error(*objection);
  if (!agreed) {
    throw classic::Error(classic::ErrorClass::topology, kCreateSub,
                         "the processes of comm differ in their naming or "
                         "remain_dims; all must pass the same");
  }
  const SplitPosition position =
      split_position(*naming, remain_dims, comm.rank());
  return comm.split(position.color, position.key);
}

Geometry sub_geometry(const Geometry& naming,
                      std::span<const bool> remain_dims) {
  if (auto objection =
          check_remain_dims(naming, remain_dims, "naming::sub_geometry")) {
    throw classic::Error(*objection);
  }
  std::vector<int> dims;
  std::vector<int> new_index(remain_dims.size(), -1);
  for (std::size_t i = 0; i < remain_dims.size(); ++i) {
    if (!remain_dims[i]) continue;
    new_index[i] = static_cast<int>(dims.size());
    dims.push_back(naming.dims()[i]);
  }
  // std::vector<bool> cannot hand out a span<const bool>.
  auto periods = std::make_unique<bool[]>(dims.size());
  for (std::size_t i = 0; i < remain_dims.size(); ++i) {
    if (remain_dims[i]) periods[new_index[i]] = naming.periods()[i];
  }
  std::vector<int> dimension_order;
  for (const int dim : naming.dimension_order()) {
    if (remain_dims[dim]) dimension_order.push_back(new_index[dim]);
  }
  return Geometry(dims, std::span<const bool>(periods.get(), dims.size()),
                  dimension_order);
}

}  // namespace naming
