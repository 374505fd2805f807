// The traffic between hosts that Reorder::yes leaves, against the bound it
// aims at: for the 2-d and 3-d periodic grids over all processes
// (dims_create), Moore and von Neumann stencils of depth 1, each made with
// ortho::dist_graph_create_adjacent(..., Reorder::yes) on the world named
// row-major, rank 0 prints ortho::mapping_report's edges and weight (one
// per edge: unweighted) between hosts for the starting order (identity),
// the best axis-aligned block partition (best) and the mapped communicator
// (mapped), and whether mapped equals the bound. The starting placement is
// the launcher's (tools/mapping_traffic.sh runs it on simulated hosts
// placed by slot and round-robin). Exit status 1 where a mapped graph
// misses its bound, 0 otherwise.
//
//   mpirun -np 16 bazel-bin/experiments/mapping_traffic
#include <array>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "classic/topology/dims_create.h"
#include "naming/cart_name.h"
#include "naming/geometry.h"
#include "ortho/dist_graph.h"
#include "ortho/mapping.h"
#include "stencils/cart_neighbors.h"
#include "stencils/neighborhood.h"

namespace {

std::string dims_text(const std::vector<int>& dims) {
  std::string text;
  for (const int d : dims) {
    text += (text.empty() ? "" : "x") + std::to_string(d);
  }
  return text;
}

// One grid and stencil: builds the mapped graph, prints its line on rank 0.
// Returns whether the mapped traffic meets the bound (true where there is
// none to meet).
bool report(int ndims, stencils::Metric metric, const char* stencil_name) {
  const classic::Comm world = classic::Comm::world();
  const std::vector<int> zeros(static_cast<std::size_t>(ndims), 0);
  const std::vector<int> dims = classic::dims_create(world.size(), zeros);
  const classic::Comm named = world.dup();
  const std::vector<char> periodic(dims.size(), 1);
  naming::cart_name(
      named, dims,
      std::span<const bool>(reinterpret_cast<const bool*>(periodic.data()),
                            dims.size()),
      naming::Order::row_major);
  const std::vector<int> neighbours =
      stencils::cart_neighbor_ranks(named, named.rank(), metric, 1, 1);
  const classic::Comm graph = ortho::dist_graph_create_adjacent(
      named, neighbours, classic::unweighted, neighbours, classic::unweighted,
      {}, classic::Reorder::yes);
  const ortho::MappingReport r = ortho::mapping_report(graph);
  const bool bounded = r.best_blocks.has_value();
  const bool met = !bounded || r.traffic.weight == r.best_blocks->weight;
  if (world.rank() == 0) {
    std::printf("grid=%s stencil=%s hosts=%d mapped=%s",
                dims_text(dims).c_str(), stencil_name, r.hosts,
                r.mapped ? "yes" : "no");
    if (r.identity) {
      std::printf(" identity_edges=%" PRId64, r.identity->edges);
    }
    if (bounded) std::printf(" best_edges=%" PRId64, r.best_blocks->edges);
    std::printf(" mapped_edges=%" PRId64 " meets_bound=%s\n", r.traffic.edges,
                !bounded ? "n/a" : (met ? "yes" : "NO"));
  }
  return met;
}

}  // namespace

int main(int argc, char** argv) {
  classic::Environment environment(argc, argv,
                                   classic::UncaughtErrors::report_and_abort);
  bool all_met = true;
  for (const int ndims : {2, 3}) {
    all_met &= report(ndims, stencils::Metric::chebyshev, "moore");
    all_met &= report(ndims, stencils::Metric::manhattan, "von_neumann");
  }
  return all_met ? 0 : 1;
}
