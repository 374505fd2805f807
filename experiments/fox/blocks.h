// Fox experiment, MPI-free part: problem sizes, the deterministic input
// matrices and their blocks, assembly of a matrix from its blocks, and the
// exact comparison of a product with its reference.
#ifndef ORTHOCOMM_EXPERIMENTS_FOX_BLOCKS_H_
#define ORTHOCOMM_EXPERIMENTS_FOX_BLOCKS_H_

#include <Eigen/Dense>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace fox {

// The position of a block in the q x q block matrix, which is also the
// position of the process that holds it in the q x q process grid.
struct BlockIndex {
  int row;
  int column;
};

// C = A B with A and B of order n, filled from `seed`.
struct Problem {
  int n;
  std::uint64_t seed;
};

enum class Operand { a, b };

// q with q * q == processes. Throws classic::Error (dims) when `processes`
// is not a perfect square (or < 1): Fox's algorithm needs a q x q grid.
int grid_order(int processes);

// The block order n / q. Throws classic::Error (dims) unless n >= 1, q >= 1
// and q divides n.
int block_order(int n, int q);

// Entry (row, column) of operand A or B: an integer in [-4, 4] drawn from a
// hash of (seed, operand, row, column), so each process makes its own blocks
// without communication. Integer inputs make every product exact: each entry
// of C is a sum of n integers of magnitude <= 16, below 2^53 for every n an
// int holds, so any summation order (Fox's stages, Eigen's kernels, fused
// multiply-adds) gives the same double and results compare with ==.
double input_entry(std::uint64_t seed, Operand operand, int row, int column);

// The whole n x n operand.
Eigen::MatrixXd input_matrix(const Problem& problem, Operand operand);

// Block `index` (nb x nb, nb = block_order(n, q)) of the operand.
Eigen::MatrixXd input_block(const Problem& problem, Operand operand, int nb,
                            BlockIndex index);

// The q nb x q nb matrix whose block where[k] is blocks' k-th run of nb * nb
// values (column-major, as Eigen stores a block). Throws classic::Error
// (count) unless blocks.size() == where.size() * nb * nb, and (arg) for an
// index outside the q x q block grid.
Eigen::MatrixXd assemble(std::span<const double> blocks,
                         std::span<const BlockIndex> where, int nb, int q);

// The first entry (in column-major order) where `actual` differs from
// `expected`.
struct Mismatch {
  int row;
  int column;
  double expected;
  double actual;
};

// nullopt when the two are equal entry by entry (exactly: see input_entry).
// Throws classic::Error (arg) when their shapes differ.
std::optional<Mismatch> first_mismatch(const Eigen::MatrixXd& expected,
                                       const Eigen::MatrixXd& actual);

// "C(5, 7) = 4 where Eigen's product has 3, in block (1, 2)" for blocks of
// order nb.
std::string describe(const Mismatch& mismatch, int nb);

}  // namespace fox

#endif  // ORTHOCOMM_EXPERIMENTS_FOX_BLOCKS_H_
