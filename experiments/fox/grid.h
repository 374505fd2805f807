// Fox experiment: the q x q process grid of Fox's algorithm (lecture
// notes), made either on classic's Cartesian topology or on naming's
// Cartesian naming.
#ifndef ORTHOCOMM_EXPERIMENTS_FOX_GRID_H_
#define ORTHOCOMM_EXPERIMENTS_FOX_GRID_H_

#include <string_view>
#include <vector>

#include "classic/comm/comm.h"
#include "experiments/fox/blocks.h"

namespace fox {

// Which interface builds the grid.
//   cartesian: classic::cart_create, cart_sub (rows, columns), cart_shift.
//   named:     naming::cart_name, cart_create_sub (rows, columns, each named
//              with sub_geometry), cart_relative_shift.
enum class Variant { cartesian, named };

std::string_view to_string(Variant variant);

// Everything a stage of Fox's algorithm needs, on one process. Both variants
// fill it alike; fox_multiply does not know which made it.
struct FoxGrid {
  int q = 0;
  // This process's (row, column) in the grid: it holds blocks A, B, C there.
  BlockIndex position{0, 0};
  // All q * q processes, periodic in both dimensions.
  classic::Comm grid;
  // The processes of this grid row, and of this grid column.
  classic::Comm row;
  classic::Comm column;
  // row's rank of the process in grid column k (the broadcast root of the
  // stage whose diagonal-shifted A block sits in column k).
  std::vector<int> row_rank_of_column;
  // column's ranks of the process one row up (row - 1, cyclic), where this
  // process's B block goes, and one row down (row + 1), where the next comes
  // from: the cyclic shift of B up the column.
  int b_destination = 0;
  int b_source = 0;
  // The grid position of each rank of `grid` (for gathering C).
  std::vector<BlockIndex> positions;
};

// Collective over `comm`, which must hold q * q processes (classic::Error
// dims otherwise, on every process, before any communication).
FoxGrid cartesian_grid(const classic::Comm& comm);
FoxGrid named_grid(const classic::Comm& comm);
FoxGrid make_grid(Variant variant, const classic::Comm& comm);

}  // namespace fox

#endif  // ORTHOCOMM_EXPERIMENTS_FOX_GRID_H_
