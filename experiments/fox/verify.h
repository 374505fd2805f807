// Fox experiment: the check of a distributed product against Eigen's
// product of the whole matrices.
#ifndef ORTHOCOMM_EXPERIMENTS_FOX_VERIFY_H_
#define ORTHOCOMM_EXPERIMENTS_FOX_VERIFY_H_

#include <Eigen/Dense>
#include <string>

#include "experiments/fox/blocks.h"
#include "experiments/fox/grid.h"

namespace fox {

// `correct` is the same on every process. `detail` is set on rank 0 of
// grid.grid only: empty when correct, else the first wrong entry
// (describe()).
struct Verdict {
  bool correct;
  std::string detail;
};

// Collective over grid.grid. Gathers every process's C block (nb x nb, nb =
// block_order(problem.n, grid.q)) to rank 0, which assembles C and compares
// it exactly with input_matrix(A) * input_matrix(B) computed by Eigen.
// Throws classic::Error (count) where c_block is not nb x nb.
Verdict verify_product(const FoxGrid& grid, const Eigen::MatrixXd& c_block,
                       const Problem& problem);

}  // namespace fox

#endif  // ORTHOCOMM_EXPERIMENTS_FOX_VERIFY_H_
