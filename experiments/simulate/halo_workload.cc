#include "experiments/simulate/halo_workload.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "experiments/spmv/halo_plan.h"
#include "experiments/spmv/matrix_market.h"
#include "experiments/spmv/partition.h"

namespace simulate {
namespace {

std::string file_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.ends_with(".mtx")) name.resize(name.size() - 4);
  return name;
}

}  // namespace

std::optional<MatrixPartition> parse_matrix_partition(std::string_view name) {
  if (name == "blocks") return MatrixPartition::blocks;
  if (name == "metis") return MatrixPartition::metis;
  return std::nullopt;
}

Workload halo_workload(const std::string& path,
                       std::optional<MatrixPartition> partition,
                       const Shape& shape) {
  const int processes = shape.processes();
  spmv::Matrix a = spmv::read_matrix(path);
  const MatrixPartition chosen = partition.value_or(
      a.rows() == a.cols() ? MatrixPartition::metis : MatrixPartition::blocks);
  std::vector<int> row_begins;
  std::vector<int> column_begins;
  if (chosen == MatrixPartition::metis) {
    const spmv::Partition parts = spmv::metis_parts(a, processes);
    a = spmv::reordered(a, parts.order);
    row_begins = parts.begins;
    column_begins = parts.begins;
  } else {
    row_begins = spmv::blocks(static_cast<int>(a.rows()), processes);
    column_begins = spmv::blocks(static_cast<int>(a.cols()), processes);
  }
  // needs[from][reader]: the columns of `from` that rows of `reader` read.
  std::vector<std::map<int, std::set<int>>> needs(
      static_cast<std::size_t>(processes));
  std::vector<std::int64_t> multiply_adds(static_cast<std::size_t>(processes));
  for (int reader = 0; reader < processes; ++reader) {
    const auto r = static_cast<std::size_t>(reader);
    for (int row = row_begins[r]; row < row_begins[r + 1]; ++row) {
      for (spmv::Matrix::InnerIterator it(a, row); it; ++it) {
        ++multiply_adds[r];
        const int column = static_cast<int>(it.col());
        const int from = spmv::owner(column_begins, column);
        if (from != reader) {
          needs[static_cast<std::size_t>(from)][reader].insert(column);
        }
      }
    }
  }
  Workload workload;
  workload.name =
      file_name(path) +
      (chosen == MatrixPartition::metis ? " (METIS parts)" : " (blocks)");
  workload.graph.host_of_rank = nodes_of_ranks(shape);
  workload.multiply_adds = std::move(multiply_adds);
  workload.graph.destinations.resize(needs.size());
  workload.entries.resize(needs.size());
  for (std::size_t p = 0; p < needs.size(); ++p) {
    for (const auto& [reader, columns] : needs[p]) {
      workload.graph.destinations[p].push_back(reader);
      workload.entries[p].push_back(static_cast<int>(columns.size()));
    }
  }
  workload.placed =
      shape.placement == Placement::round_robin ? "round robin" : "by slot";
  if (shape.placement == Placement::mapped) map_graph(workload, shape);
  return workload;
}

}  // namespace simulate
