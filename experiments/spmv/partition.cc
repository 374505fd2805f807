#include "experiments/spmv/partition.h"

#include <metis.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "experiments/spmv/halo_plan.h"

namespace spmv {
namespace {

// The symmetric pattern without the diagonal, as adjacency lists.
std::vector<std::set<int>> graph_of(const Matrix& a) {
  std::vector<std::set<int>> adjacent(static_cast<std::size_t>(a.rows()));
  for (int row = 0; row < a.rows(); ++row) {
    for (Matrix::InnerIterator it(a, row); it; ++it) {
      const int column = static_cast<int>(it.col());
      if (column == row) continue;
      adjacent[static_cast<std::size_t>(row)].insert(column);
      adjacent[static_cast<std::size_t>(column)].insert(row);
    }
  }
  return adjacent;
}

}  // namespace

Partition contiguous(int count, int processes) {
  Partition partition;
  partition.order.resize(static_cast<std::size_t>(count));
  for (int k = 0; k < count; ++k) {
    partition.order[static_cast<std::size_t>(k)] = k;
  }
  partition.begins = blocks(count, processes);
  return partition;
}

Partition metis_parts(const Matrix& a, int processes) {
  if (a.rows() != a.cols()) {
    throw std::invalid_argument(
        "spmv: METIS partitions a square matrix; this one is " +
        std::to_string(a.rows()) + " x " + std::to_string(a.cols()));
  }
  const auto n = static_cast<idx_t>(a.rows());
  std::vector<idx_t> part(static_cast<std::size_t>(n), 0);
  if (processes > 1 && n > 0) {
    const std::vector<std::set<int>> adjacent = graph_of(a);
    std::vector<idx_t> xadj{0};
    std::vector<idx_t> adjncy;
    for (const std::set<int>& list : adjacent) {
      adjncy.insert(adjncy.end(), list.begin(), list.end());
      xadj.push_back(static_cast<idx_t>(adjncy.size()));
    }
    idx_t vertices = n;
    idx_t constraints = 1;
    auto parts = static_cast<idx_t>(processes);
    idx_t cut = 0;
    idx_t options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = 1;  // the same parts on every process
    const int status = METIS_PartGraphKway(
        &vertices, &constraints, xadj.data(),
        adjncy.empty() ? nullptr : adjncy.data(), nullptr, nullptr, nullptr,
        &parts, nullptr, nullptr, options, &cut, part.data());
    if (status != METIS_OK) {
      throw std::runtime_error("spmv: METIS_PartGraphKway failed (status " +
                               std::to_string(status) + ")");
    }
  }
  Partition partition;
  partition.begins.assign(static_cast<std::size_t>(processes) + 1, 0);
  for (const idx_t p : part) {
    ++partition.begins[static_cast<std::size_t>(p) + 1];
  }
  for (std::size_t p = 1; p < partition.begins.size(); ++p) {
    partition.begins[p] += partition.begins[p - 1];
  }
  std::vector<int> next(partition.begins.begin(), partition.begins.end() - 1);
  partition.order.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < static_cast<int>(n); ++i) {
    const auto p = static_cast<std::size_t>(part[static_cast<std::size_t>(i)]);
    partition.order[static_cast<std::size_t>(next[p]++)] = i;
  }
  return partition;
}

Matrix reordered(const Matrix& a, const std::vector<int>& order) {
  std::vector<int> position(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    position[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  }
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(a.nonZeros()));
  for (int row = 0; row < a.rows(); ++row) {
    for (Matrix::InnerIterator it(a, row); it; ++it) {
      entries.emplace_back(position[static_cast<std::size_t>(row)],
                           position[static_cast<std::size_t>(it.col())],
                           it.value());
    }
  }
  Matrix b(a.rows(), a.cols());
  b.setFromTriplets(entries.begin(), entries.end());
  b.makeCompressed();
  return b;
}

std::int64_t cut_edges(const Matrix& a, const Partition& partition) {
  std::vector<int> block(partition.order.size());
  for (std::size_t k = 0; k < partition.order.size(); ++k) {
    block[static_cast<std::size_t>(partition.order[k])] =
        owner(partition.begins, static_cast<int>(k));
  }
  std::int64_t cut = 0;
  const std::vector<std::set<int>> adjacent = graph_of(a);
  for (std::size_t i = 0; i < adjacent.size(); ++i) {
    for (const int j : adjacent[i]) {
      if (static_cast<std::size_t>(j) > i &&
          block[i] != block[static_cast<std::size_t>(j)]) {
        ++cut;
      }
    }
  }
  return cut;
}

}  // namespace spmv
