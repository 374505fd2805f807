// Row-major Cartesian arithmetic of MPI-1 section 6.5 with no MPI in it:
// ranks <-> coordinates and shifts on a grid with per-dimension periodicity.
#ifndef ORTHOCOMM_CLASSIC_TOPOLOGY_INTERNAL_CART_ARITHMETIC_H_
#define ORTHOCOMM_CLASSIC_TOPOLOGY_INTERNAL_CART_ARITHMETIC_H_

#include <span>
#include <vector>

#include "classic/base/internal/inside_classic.h"
#include "classic/topology/internal/topology_cache.h"

namespace classic::internal {

// The ranks a shift connects (MPI_Cart_shift): `source` sends to the caller
// and the caller sends to `destination`; proc_null past a non-periodic
// border.
struct ShiftRanks {
  int source;
  int destination;
};

// All functions take a valid grid (dims >= 1 whose product fits an int,
// periods.size() == dims.size()) and raise classic::Error naming `function`
// for bad arguments.

// Processes of the grid: the product of dims.
int grid_size(const CartTopology& grid);

// MPI_Cart_coords: coordinates of `rank`, row-major (the last dimension
// varies fastest). ErrorClass::rank when rank is outside [0, grid_size).
std::vector<int> coords_of(const CartTopology& grid, int rank,
                           const char* function);

// MPI_Cart_rank: the rank at `coords`. Periodic dimensions wrap any
// coordinate; ErrorClass::arg for a coordinate outside [0, dims[i]) in a
// non-periodic dimension, ErrorClass::dims for coords.size() != ndims.
int rank_of(const CartTopology& grid, std::span<const int> coords,
            const char* function);

// MPI_Cart_shift of `rank` along `direction` by `displacement` (any int; a
// periodic dimension wraps it, a non-periodic one gives proc_null beyond the
// border). ErrorClass::dims for direction outside [0, ndims),
// ErrorClass::rank for a bad rank.
ShiftRanks shift_of(const CartTopology& grid, int rank, int direction,
                    int displacement, const char* function);

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_TOPOLOGY_INTERNAL_CART_ARITHMETIC_H_
