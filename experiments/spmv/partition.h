// How the SpMV experiment distributes a matrix: an order of its rows (and,
// for a square matrix, of its columns alike) and the blocks of that order
// each process owns. Contiguous blocks keep the file's order; METIS k-way
// parts of the matrix's graph (an edge between i and j wherever a(i, j) or
// a(j, i) is stored) reorder it so that each part is one block, cutting
// fewer edges: fewer and smaller halo messages.
#ifndef ORTHOCOMM_EXPERIMENTS_SPMV_PARTITION_H_
#define ORTHOCOMM_EXPERIMENTS_SPMV_PARTITION_H_

#include <cstdint>
#include <vector>

#include "experiments/spmv/matrix_market.h"

namespace spmv {

struct Partition {
  // order[k]: the file's index at position k of the distributed order.
  std::vector<int> order;
  // Process p owns positions begins[p] .. begins[p + 1].
  std::vector<int> begins;
};

// The file's order in contiguous blocks as equal as they come.
Partition contiguous(int count, int processes);

// METIS_PartGraphKway's parts of a square matrix's graph (self loops left
// out), each part one block, positions in each part in the file's order.
// Throws std::invalid_argument for a matrix that is not square, and
// std::runtime_error where METIS fails.
Partition metis_parts(const Matrix& a, int processes);

// The matrix with rows and columns in `order`: b(k, l) = a(order[k],
// order[l]).
Matrix reordered(const Matrix& a, const std::vector<int>& order);

// The edges of the matrix's graph between blocks of `partition` (each
// unordered pair once): what a partition minimises.
std::int64_t cut_edges(const Matrix& a, const Partition& partition);

}  // namespace spmv

#endif  // ORTHOCOMM_EXPERIMENTS_SPMV_PARTITION_H_
