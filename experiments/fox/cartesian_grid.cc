// The grid of Fox's algorithm on classic's Cartesian topology, as the lecture's
// Setup_grid builds it: MPI_Cart_create, MPI_Cart_sub for the row and column
// communicators, MPI_Cart_shift on the column.
#include <array>

#include "classic/topology/cartesian.h"
#include "classic/topology/topology.h"
#include "experiments/fox/grid.h"

namespace fox {
namespace {

constexpr std::array<bool, 2> kRowDims{false, true};
constexpr std::array<bool, 2> kColumnDims{true, false};

BlockIndex coordinates(const classic::Comm& grid, int rank) {
  const std::vector<int> coords = classic::cart_coords(grid, rank);
  return {coords[0], coords[1]};
}

}  // namespace

FoxGrid cartesian_grid(const classic::Comm& comm) {
  FoxGrid fox;
  fox.q = grid_order(comm.size());
  const std::array<int, 2> dims{fox.q, fox.q};
  const std::array<bool, 2> periods{true, true};
  fox.grid = classic::cart_create(comm, dims, periods, classic::Reorder::yes);
  fox.position = coordinates(fox.grid, fox.grid.rank());
  for (int rank = 0; rank < fox.grid.size(); ++rank) {
    fox.positions.push_back(coordinates(fox.grid, rank));
  }
  fox.row = classic::cart_sub(fox.grid, kRowDims);
  fox.column = classic::cart_sub(fox.grid, kColumnDims);
  for (int k = 0; k < fox.q; ++k) {
    const std::array<int, 1> coords{k};
    fox.row_rank_of_column.push_back(classic::cart_rank(fox.row, coords));
  }
  // B moves one step towards row 0: displacement -1 in the column's only
  // dimension, wrapping from row 0 to row q - 1.
  const classic::CartShift shift = classic::cart_shift(fox.column, 0, -1);
  fox.b_destination = shift.destination;
  fox.b_source = shift.source;
  return fox;
}

}  // namespace fox
