#include "experiments/spmv/placement.h"

#include <cstdint>
#include <vector>

#include "classic/topology/topology.h"
#include "ortho/dist_graph.h"

namespace spmv {
namespace {

std::vector<int> bytes_of(const std::vector<int>& counts) {
  std::vector<int> bytes;
  bytes.reserve(counts.size());
  for (const int count : counts) {
    bytes.push_back(count * static_cast<int>(sizeof(double)));
  }
  return bytes;
}

// The halo's graph on problem.processes, weighted by bytes or not.
classic::Comm halo_graph(const Problem& problem, bool by_bytes,
                         classic::Reorder reorder) {
  if (!by_bytes) {
    return ortho::dist_graph_create_adjacent(
        problem.processes, problem.plan.sources, classic::unweighted,
        problem.plan.destinations, classic::unweighted, {}, reorder);
  }
  return ortho::dist_graph_create_adjacent(
      problem.processes, problem.plan.sources, bytes_of(problem.recvcounts),
      problem.plan.destinations, bytes_of(problem.sendcounts), {}, reorder);
}

}  // namespace

Placed place(const Problem& problem, bool by_bytes) {
  const classic::Comm graph =
      halo_graph(problem, by_bytes, classic::Reorder::yes);
  Placed placed;
  placed.report = ortho::mapping_report(graph);
  placed.part = graph.rank();
  placed.processes = classic::Comm::world().split(0, placed.part);
  MPI_Comm_split(MPI_COMM_WORLD, 0, placed.part, &placed.comm);
  return placed;
}

std::int64_t bytes_between_hosts(const Problem& problem) {
  return ortho::mapping_report(halo_graph(problem, true, classic::Reorder::no))
      .traffic.weight;
}

}  // namespace spmv
