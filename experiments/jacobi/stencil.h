// 9-point Jacobi experiment, MPI-free part: the update of Figure 1's
// stencil code on an Eigen array with a halo of one cell (the step that
// every variant and the serial reference share), its deterministic inputs
// and its convergence check.
#ifndef ORTHOCOMM_EXPERIMENTS_JACOBI_STENCIL_H_
#define ORTHOCOMM_EXPERIMENTS_JACOBI_STENCIL_H_

#include <cstdint>

#include "experiments/halo/grid.h"

namespace jacobi {

using Matrix = halo::Grid<double>;

// One Jacobi sweep of the 9-point Laplacian (the Mehrstellen weights):
// next = (4 (N + S + W + E) + (NW + NE + SW + SE)) / 20 on the interior,
// summed in this order in every variant, so all give the same bits.
// Returns the largest |next - current| of the interior (the local part
// of the convergence check).
double step(const Matrix& current, Matrix& next);

// Cell (row, column) of the n x n problem, row and column in [-1, n]:
// inside, an initial value k / 1024 (k in [0, 1024) from a hash of seed
// and position); on the ring around it the fixed boundary: 1 on the top
// row (row -1), 0 elsewhere. All are exact binary fractions.
double initial_value(std::uint64_t seed, int n, int row, int column);

// The model of the runs: initial_value, step, the global check as the
// maximum change (Figure 1's convergence check), done when it is at most
// `tolerance`.
halo::Model<double> model(std::uint64_t seed, int n, double tolerance);

}  // namespace jacobi

#endif  // ORTHOCOMM_EXPERIMENTS_JACOBI_STENCIL_H_
