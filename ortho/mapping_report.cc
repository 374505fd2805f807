#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/graph/dist_graph.h"
#include "ortho/internal/table.h"
#include "ortho/mapping.h"

namespace ortho {

MappingReport mapping_report(const classic::Comm& graph) {
  constexpr const char* kFunction = "ortho::mapping_report";
  const Table& table = internal::table_of(graph, kFunction);
  if (table.structure != Structure::directed_graph) {
    throw classic::Error(classic::ErrorClass::comm, kFunction,
                         "graph is no directed-graph communicator");
  }
  // The hosts the table was made with (internal::host_layout).
  const std::vector<int>& host_of_rank = table.host_of_rank;
  const int hosts = table.hosts();
  const classic::DistGraphNeighbors neighbours =
      classic::dist_graph_neighbors(graph);
  const int my_host = host_of_rank[static_cast<std::size_t>(graph.rank())];
  // Per host, the weight leaving it; then the edges and the total.
  std::vector<std::int64_t> mine(static_cast<std::size_t>(hosts) + 1, 0);
  std::int64_t edges = 0;
  for (std::size_t i = 0; i < neighbours.destinations.size(); ++i) {
    const int to = neighbours.destinations[i];
    if (to < 0 || host_of_rank[static_cast<std::size_t>(to)] == my_host) {
      continue;  // proc_null, or on this host
    }
    ++edges;
    mine[static_cast<std::size_t>(my_host)] +=
        neighbours.destination_weights.empty()
            ? 1
            : neighbours.destination_weights[i];
  }
  mine.back() = edges;
  std::vector<std::int64_t> sums(mine.size(), 0);
  classic::allreduce(graph, mine.data(), sums.data(),
                     static_cast<int>(mine.size()), MPI_INT64_T, MPI_SUM);
  MappingReport report;
  report.hosts = hosts;
  report.mapped = table.mapping.mapped;
  report.identity = table.mapping.identity;
  report.best_blocks = table.mapping.best_blocks;
  report.traffic.edges = sums.back();
  for (std::size_t h = 0; h + 1 < sums.size(); ++h) {
    report.traffic.weight += sums[h];
    report.traffic.max_host_weight =
        std::max(report.traffic.max_host_weight, sums[h]);
  }
  return report;
}

}  // namespace ortho
