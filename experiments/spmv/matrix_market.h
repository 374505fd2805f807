// Reading a sparse matrix from a Matrix Market file (the coordinate format
// of NIST's Matrix Market and the SuiteSparse collection): real, integer or
// pattern entries (a pattern entry reads as 1), general, symmetric or
// skew-symmetric (one triangle stored, the other mirrored; repeated entries
// add up).
#ifndef ORTHOCOMM_EXPERIMENTS_SPMV_MATRIX_MARKET_H_
#define ORTHOCOMM_EXPERIMENTS_SPMV_MATRIX_MARKET_H_

#include <Eigen/SparseCore>
#include <string>

namespace spmv {

using Matrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;

// Throws std::runtime_error naming the file, and the line where one is at
// fault, where the file cannot be read, its banner is not one of the
// above (complex entries, the array format), its size line or an entry is
// malformed, an index lies outside the declared size, or it holds fewer
// or more entries than declared.
Matrix read_matrix(const std::string& path);

}  // namespace spmv

#endif  // ORTHOCOMM_EXPERIMENTS_SPMV_MATRIX_MARKET_H_
