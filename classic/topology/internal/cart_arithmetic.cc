#include "classic/topology/internal/cart_arithmetic.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>

#include "classic/base/constants.h"
#include "classic/base/error.h"

namespace classic::internal {
namespace {

void check_rank(const CartTopology& grid, int rank, const char* function) {
  const int size = grid_size(grid);
  if (rank < 0 || rank >= size) {
    throw Error(ErrorClass::rank, function,
                "rank = " + std::to_string(rank) + " is outside [0, " +
                    std::to_string(size) + ")");
  }
}

// `coordinate` brought into [0, extent): wrapped in a periodic dimension,
// -1 (off the grid) in a non-periodic one. 64-bit, so a coordinate plus any
// int displacement cannot overflow.
std::int64_t place(std::int64_t coordinate, int extent, bool periodic) {
  if (periodic) return ((coordinate % extent) + extent) % extent;
  return coordinate >= 0 && coordinate < extent ? coordinate : -1;
}

}  // namespace

int grid_size(const CartTopology& grid) {
  return std::accumulate(grid.dims.begin(), grid.dims.end(), 1,
                         std::multiplies<>());
}

std::vector<int> coords_of(const CartTopology& grid, int rank,
                           const char* function) {
  check_rank(grid, rank, function);
  std::vector<int> coords(grid.dims.size());
  for (std::size_t i = grid.dims.size(); i-- > 0;) {
    coords[i] = rank % grid.dims[i];
    rank /= grid.dims[i];
  }
  return coords;
}

int rank_of(const CartTopology& grid, std::span<const int> coords,
            const char* function) {
  if (coords.size() != grid.dims.size()) {
    throw Error(ErrorClass::dims, function,
                "coords has " + std::to_string(coords.size()) +
                    " entries; the grid has " +
                    std::to_string(grid.dims.size()) + " dimensions");
  }
  int rank = 0;
  for (std::size_t i = 0; i < coords.size(); ++i) {
    const std::int64_t at = place(coords[i], grid.dims[i], grid.periods[i]);
    if (at < 0) {
      throw Error(ErrorClass::arg, function,
                  "coords[" + std::to_string(i) +
                      "] = " + std::to_string(coords[i]) + " is outside [0, " +
                      std::to_string(grid.dims[i]) +
                      ") in a non-periodic dimension");
    }
    rank = rank * grid.dims[i] + static_cast<int>(at);
  }
  return rank;
}

ShiftRanks shift_of(const CartTopology& grid, int rank, int direction,
                    int displacement, const char* function) {
  const int ndims = static_cast<int>(grid.dims.size());
  if (direction < 0 || direction >= ndims) {
    throw Error(ErrorClass::dims, function,
                "direction = " + std::to_string(direction) +
                    " is outside [0, " + std::to_string(ndims) + ")");
  }
  std::vector<int> coords = coords_of(grid, rank, function);
  const auto d = static_cast<std::size_t>(direction);
  const std::int64_t here = coords[d];
  // The neighbour `steps` away along `direction`, or proc_null.
  auto neighbour = [&](std::int64_t steps) {
    const std::int64_t at = place(here + steps, grid.dims[d], grid.periods[d]);
    if (at < 0) return proc_null;
    coords[d] = static_cast<int>(at);
    return rank_of(grid, coords, function);
  };
  const int destination = neighbour(displacement);
  const int source = neighbour(-static_cast<std::int64_t>(displacement));
  return {source, destination};
}

}  // namespace classic::internal
