#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/graph/dist_graph.h"
#include "ortho/internal/table.h"
#include "ortho/mapping.h"

namespace ortho {

const char* to_string(KeptBecause reason) {
  switch (reason) {
    case KeptBecause::placed:
      return "placed";
    case KeptBecause::not_asked:
      return "not asked";
    case KeptBecause::one_host:
      return "one host";
    case KeptBecause::no_gain:
      return "no gain";
    case KeptBecause::no_scotch:
      return "no Scotch";
  }
  return "?";
}

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
  const MappingFacts& facts = table.mapping;
  report.mapped = facts.mapped();
  report.placement = facts.placement;
  report.kept_because = facts.kept_because;
  report.identity = facts.identity;
  report.best_blocks = facts.best_blocks;
  report.scotch = facts.scotch;
  report.old_rank = facts.old_rank;
  if (report.old_rank.empty()) {
    report.old_rank.resize(static_cast<std::size_t>(graph.size()));
    std::iota(report.old_rank.begin(), report.old_rank.end(), 0);
  }
  report.new_rank.resize(report.old_rank.size());
  for (std::size_t q = 0; q < report.old_rank.size(); ++q) {
    report.new_rank[static_cast<std::size_t>(report.old_rank[q])] =
        static_cast<int>(q);
  }
  report.traffic.edges = sums.back();
  for (std::size_t h = 0; h + 1 < sums.size(); ++h) {
    report.traffic.weight += sums[h];
    report.traffic.max_host_weight =
        std::max(report.traffic.max_host_weight, sums[h]);
  }
  return report;
}

}  // namespace ortho
