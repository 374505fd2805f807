// An SpMV's halo exchange as a simulator workload (MPI-free): a Matrix
// Market file's matrix distributed over the job's processes as
// experiments/spmv distributes it (contiguous blocks of rows and columns,
// or METIS's parts of a square matrix), each process sending every other
// the entries of x its rows need, ascending by destination: an alltoallv
// whose blocks differ in size (Workload::entries).
#ifndef ORTHOCOMM_EXPERIMENTS_SIMULATE_HALO_WORKLOAD_H_
#define ORTHOCOMM_EXPERIMENTS_SIMULATE_HALO_WORKLOAD_H_

#include <optional>
#include <string>
#include <string_view>

#include "experiments/simulate/workload.h"

namespace simulate {

enum class MatrixPartition { blocks, metis };

// "blocks" or "metis"; nullopt for another name.
std::optional<MatrixPartition> parse_matrix_partition(std::string_view name);

// The halo of the matrix in `path` on shape's processes, partitioned by
// `partition` (nullopt: METIS where the matrix is square, blocks
// otherwise, as the SpMV experiment chooses). Throws std::runtime_error
// where the file cannot be read or METIS fails, std::invalid_argument for
// METIS on a matrix that is not square.
Workload halo_workload(const std::string& path,
                       std::optional<MatrixPartition> partition,
                       const Shape& shape);

}  // namespace simulate

#endif  // ORTHOCOMM_EXPERIMENTS_SIMULATE_HALO_WORKLOAD_H_
