#include "experiments/spmv/accumulate.h"

#include <cstddef>

namespace spmv {

std::vector<double> partial_sums(const Matrix& a,
                                 const std::vector<int>& row_begins,
                                 int process, const std::vector<int>& slots,
                                 int own_columns, int halo_columns,
                                 const std::vector<double>& w) {
  const auto p = static_cast<std::size_t>(process);
  std::vector<double> sums(static_cast<std::size_t>(own_columns) +
                           static_cast<std::size_t>(halo_columns));
  std::size_t entry = 0;
  for (int row = row_begins[p]; row < row_begins[p + 1]; ++row) {
    const double weight = w[static_cast<std::size_t>(row - row_begins[p])];
    for (Matrix::InnerIterator it(a, row); it; ++it) {
      sums[static_cast<std::size_t>(slots[entry++])] += it.value() * weight;
    }
  }
  return sums;
}

std::vector<double> accumulated(std::vector<double> own, const HaloPlan& plan,
                                int first_column,
                                const std::vector<double>& received) {
  std::size_t at = 0;
  for (const std::vector<int>& columns : plan.send_columns) {
    for (const int column : columns) {
      own[static_cast<std::size_t>(column - first_column)] += received[at++];
    }
  }
  return own;
}

}  // namespace spmv
