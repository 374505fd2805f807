// Fox experiment: Fox's matrix multiplication (lecture notes) on a FoxGrid.
#ifndef ORTHOCOMM_EXPERIMENTS_FOX_MULTIPLY_H_
#define ORTHOCOMM_EXPERIMENTS_FOX_MULTIPLY_H_

#include <Eigen/Dense>

#include "experiments/fox/grid.h"

namespace fox {

// Collective over grid.grid. Process (i, j) holds blocks a = A(i, j) and
// b = B(i, j), all nb x nb with the same nb everywhere; returns its block
// C(i, j) of C = A B. Stage s = 0 .. q - 1: process (i, (i + s) mod q)
// broadcasts its A block along row i; every process adds that block times
// its current B block to C; then (except after the last stage) every B
// block moves one row up the column, cyclically, so that process (i, j)
// holds B((i + s + 1) mod q, j) for the next stage. `a` and `b` are not
// changed. Throws classic::Error (arg) for blocks that are not square or
// differ in order (locally, before any communication).
Eigen::MatrixXd fox_multiply(const FoxGrid& grid, const Eigen::MatrixXd& a,
                             const Eigen::MatrixXd& b);

}  // namespace fox

#endif  // ORTHOCOMM_EXPERIMENTS_FOX_MULTIPLY_H_
