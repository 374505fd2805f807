// The grid of Fox's algorithm on naming's Cartesian naming (paper sections
// 3.1-3.2): the processes keep their communicator, which gets a name; rows
// and columns come from cart_create_sub and are named again, since names are
// not inherited.
#include <array>

#include "experiments/fox/grid.h"
#include "naming/cart_maps.h"
#include "naming/cart_name.h"
#include "naming/cart_sub.h"
#include "naming/geometry.h"

namespace fox {
namespace {

constexpr std::array<bool, 2> kRowDims{false, true};
constexpr std::array<bool, 2> kColumnDims{true, false};

BlockIndex coordinates(const classic::Comm& grid, int rank) {
  const std::vector<int> coords = naming::cart_coordinates(grid, rank);
  return {coords[0], coords[1]};
}

// The slice of `grid` along the kept dimensions, named as the paper says.
classic::Comm named_slice(const classic::Comm& grid,
                          std::span<const bool> remain_dims) {
  classic::Comm slice = naming::cart_create_sub(grid, remain_dims);
  naming::cart_name(slice,
                    naming::sub_geometry(naming::cart_get(grid), remain_dims));
  return slice;
}

}  // namespace

FoxGrid named_grid(const classic::Comm& comm) {
  FoxGrid fox;
  fox.q = grid_order(comm.size());
  const std::array<int, 2> dims{fox.q, fox.q};
  const std::array<bool, 2> periods{true, true};
  // A duplicate, so that the caller's communicator keeps its own naming.
  fox.grid = comm.dup();
  naming::cart_name(fox.grid, dims, periods, naming::Order::row_major);
  fox.position = coordinates(fox.grid, fox.grid.rank());
  for (int rank = 0; rank < fox.grid.size(); ++rank) {
    fox.positions.push_back(coordinates(fox.grid, rank));
  }
  fox.row = named_slice(fox.grid, kRowDims);
  fox.column = named_slice(fox.grid, kColumnDims);
  for (int k = 0; k < fox.q; ++k) {
    const std::array<int, 1> coords{k};
    fox.row_rank_of_column.push_back(naming::cart_rank(fox.row, coords));
  }
  // {in, out} = the ranks at coordinates - offset and + offset: with offset
  // -1, B comes from row + 1 and goes to row - 1 (cyclic).
  const std::array<int, 1> up{-1};
  const naming::Shift shift =
      naming::cart_relative_shift(fox.column, fox.column.rank(), up);
  fox.b_destination = shift.destination;
  fox.b_source = shift.source;
  return fox;
}

}  // namespace fox
