// The accumulate of z = A^T w, MPI-free: each process multiplies the
// entries of its rows by its entries of w, keeps the sums that fall on its
// own columns and sends those on other processes' columns back to their
// owners. It is the halo exchange of y = A x reversed: a partial sum for
// column c travels the edge along which c's entry of x came, the other way
// (in-neighbours become destinations).
#ifndef ORTHOCOMM_EXPERIMENTS_SPMV_ACCUMULATE_H_
#define ORTHOCOMM_EXPERIMENTS_SPMV_ACCUMULATE_H_

#include <vector>

#include "experiments/spmv/halo_plan.h"

namespace spmv {

// This process's sums of a(row, c) * w[row] over its rows, per column c it
// touches, in the layout entry_slots gives: its own columns first
// (`own_columns` of them), then its halo columns in the plan's order (by
// source, then by column), which are what it sends back. `w` holds its
// rows' entries.
std::vector<double> partial_sums(const Matrix& a,
                                 const std::vector<int>& row_begins,
                                 int process, const std::vector<int>& slots,
                                 int own_columns, int halo_columns,
                                 const std::vector<double>& w);

// z over this process's own columns: `own` (its own partial sums) plus,
// in the plan's order of destinations, the sums each destination sent back
// for the columns the plan sends it (`received`, packed in that order).
std::vector<double> accumulated(std::vector<double> own, const HaloPlan& plan,
                                int first_column,
                                const std::vector<double>& received);

// w's entry for global row `row`: what every process and the serial
// reference use.
inline double w_of_row(int row) { return 1 + (row % 5) * 0.25; }

}  // namespace spmv

#endif  // ORTHOCOMM_EXPERIMENTS_SPMV_ACCUMULATE_H_
