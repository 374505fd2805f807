#include "experiments/spmv/halo_plan.h"

#include <algorithm>
#include <map>
#include <set>

namespace spmv {

std::vector<int> blocks(int count, int processes) {
  std::vector<int> begins(static_cast<std::size_t>(processes) + 1, 0);
  for (int p = 0; p < processes; ++p) {
    begins[static_cast<std::size_t>(p) + 1] =
        begins[static_cast<std::size_t>(p)] + count / processes +
        (p < count % processes ? 1 : 0);
  }
  return begins;
}

int owner(const std::vector<int>& begins, int index) {
  return static_cast<int>(
      std::upper_bound(begins.begin(), begins.end(), index) - begins.begin() -
      1);
}

namespace {

// The columns process `reader` needs of each other process, by owner.
std::map<int, std::set<int>> needs_of(const Matrix& a,
                                      const std::vector<int>& row_begins,
                                      const std::vector<int>& column_begins,
                                      int reader) {
  std::map<int, std::set<int>> needs;
  for (int row = row_begins[static_cast<std::size_t>(reader)];
       row < row_begins[static_cast<std::size_t>(reader) + 1]; ++row) {
    for (Matrix::InnerIterator it(a, row); it; ++it) {
      const int column = static_cast<int>(it.col());
      const int from = owner(column_begins, column);
      if (from != reader) needs[from].insert(column);
    }
  }
  return needs;
}

}  // namespace

HaloPlan halo_plan(const Matrix& a, const std::vector<int>& row_begins,
                   const std::vector<int>& column_begins, int process) {
  HaloPlan plan;
  for (const auto& [from, columns] :
       needs_of(a, row_begins, column_begins, process)) {
    plan.sources.push_back(from);
    plan.receive_columns.emplace_back(columns.begin(), columns.end());
  }
  const int processes = static_cast<int>(row_begins.size()) - 1;
  for (int reader = 0; reader < processes; ++reader) {
    if (reader == process) continue;
    const auto needs = needs_of(a, row_begins, column_begins, reader);
    if (const auto mine = needs.find(process); mine != needs.end()) {
      plan.destinations.push_back(reader);
      plan.send_columns.emplace_back(mine->second.begin(), mine->second.end());
    }
  }
  return plan;
}

std::vector<int> entry_slots(const Matrix& a,
                             const std::vector<int>& row_begins,
                             const std::vector<int>& column_begins, int process,
                             const HaloPlan& plan) {
  const auto p = static_cast<std::size_t>(process);
  const int own = column_begins[p + 1] - column_begins[p];
  std::map<int, int> halo_slot;
  int slot = own;
  for (const std::vector<int>& columns : plan.receive_columns) {
    for (const int column : columns) halo_slot[column] = slot++;
  }
  std::vector<int> slots;
  for (int row = row_begins[p]; row < row_begins[p + 1]; ++row) {
    for (Matrix::InnerIterator it(a, row); it; ++it) {
      const int column = static_cast<int>(it.col());
      slots.push_back(owner(column_begins, column) == process
                          ? column - column_begins[p]
                          : halo_slot.at(column));
    }
  }
  return slots;
}

std::vector<double> local_product(const Matrix& a,
                                  const std::vector<int>& row_begins,
                                  int process, const std::vector<int>& slots,
                                  const std::vector<double>& values) {
  const auto p = static_cast<std::size_t>(process);
  std::vector<double> y;
  y.reserve(static_cast<std::size_t>(row_begins[p + 1] - row_begins[p]));
  std::size_t entry = 0;
  for (int row = row_begins[p]; row < row_begins[p + 1]; ++row) {
    double sum = 0;
    for (Matrix::InnerIterator it(a, row); it; ++it) {
      sum += it.value() * values[static_cast<std::size_t>(slots[entry++])];
    }
    y.push_back(sum);
  }
  return y;
}

}  // namespace spmv
