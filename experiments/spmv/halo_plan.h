// The SpMV experiment's distribution, MPI-free: rows and columns of a
// sparse matrix split into contiguous blocks over P processes (process p
// owns rows row_begin[p]..row_begin[p+1] of y and columns
// column_begin[p]..column_begin[p+1] of x), and each process's halo: which
// entries of x it receives from whom, and which of its own it sends to
// whom, both computed from the whole matrix by every process alike.
#ifndef ORTHOCOMM_EXPERIMENTS_SPMV_HALO_PLAN_H_
#define ORTHOCOMM_EXPERIMENTS_SPMV_HALO_PLAN_H_

#include <string>
#include <vector>

#include "experiments/spmv/matrix_market.h"

namespace spmv {

// Contiguous blocks of `count` indices over `processes` (the first count %
// processes blocks one longer): the begin of each, then count.
std::vector<int> blocks(int count, int processes);

// The block that holds `index`.
int owner(const std::vector<int>& begins, int index);

struct HaloPlan {
  // Processes this one receives entries of x from, ascending, and per
  // source the global columns, ascending.
  std::vector<int> sources;
  std::vector<std::vector<int>> receive_columns;
  // Processes this one sends its entries of x to, ascending, and per
  // destination the global columns (its own), ascending.
  std::vector<int> destinations;
  std::vector<std::vector<int>> send_columns;
};

// The halo of `process` for y = a x under the blocks of rows and columns.
HaloPlan halo_plan(const Matrix& a, const std::vector<int>& row_begins,
                   const std::vector<int>& column_begins, int process);

// For each stored entry of the rows of `process`, in order, where its
// column's value of x lies in [own entries, halo entries] (the halo in the
// plan's order: by source, then by column).
std::vector<int> entry_slots(const Matrix& a,
                             const std::vector<int>& row_begins,
                             const std::vector<int>& column_begins, int process,
                             const HaloPlan& plan);

// y = a x over the rows of `process`, x's values in `values` ([own, halo])
// found through `slots`; each row summed in its stored order, as Eigen's
// product sums it.
std::vector<double> local_product(const Matrix& a,
                                  const std::vector<int>& row_begins,
                                  int process, const std::vector<int>& slots,
                                  const std::vector<double>& values);

}  // namespace spmv

#endif  // ORTHOCOMM_EXPERIMENTS_SPMV_HALO_PLAN_H_
