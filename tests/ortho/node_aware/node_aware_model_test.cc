// The node-aware cost model against the choices measured on simulated
// hosts (docs/experiments.md, "Node-aware collectives" and "Sparse
// graphs"; the processes per core the job agrees on there: 16 or 8
// processes on 2 cores).
//  - Periodic 2-d and 3-d Moore tori of 16 processes on 4 hosts and of 8
//    on 2 (grids from classic::dims_create, ranks row-major, hosts of
//    consecutive ranks): node_aware ran faster than direct at every block
//    up to 4 KB, and at 40 KB alltoall ran faster direct.
//  - Seeded sparse graphs of 16 processes on 4 hosts at 4 B blocks:
//    direct faster on er_0.05_s1, er_0.1_s1 and mesh2d_60_sfc (3-5
//    messages between hosts from the busiest process, under 2 on average),
//    node_aware faster by 1.3x and more on er_0.3_s1, geo_0.5_s1 and
//    mesh3d_15_sfc.
#include "ortho/algorithms/node_aware_model.h"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "classic/topology/dims_create.h"
#include "experiments/sparse_graphs.h"

namespace ortho::algorithms {
namespace {

using node_routes::HostGraph;
using node_routes::Payload;

// The periodic Moore torus of `processes` in `ndims` dimensions (each
// offset in order, repeated neighbours kept), `slots` processes a host.
HostGraph moore_torus(int processes, int ndims, int slots) {
  const std::vector<int> dims =
      classic::dims_create(processes, std::vector<int>(ndims, 0));
  HostGraph graph;
  for (int r = 0; r < processes; ++r) {
    graph.host_of_rank.push_back(r / slots);
    std::vector<int> coords(dims.size());
    for (int rest = r, d = ndims - 1; d >= 0; --d) {
      coords[d] = rest % dims[d];
      rest /= dims[d];
    }
    std::vector<int>& out = graph.destinations.emplace_back();
    int offsets = 1;
    for (int d = 0; d < ndims; ++d) offsets *= 3;
    for (int o = 0; o < offsets; ++o) {
      int rank = 0;
      bool self = true;
      for (int d = 0, code = o; d < ndims; ++d, code /= 3) {
        const int step = code % 3 - 1;
        self = self && step == 0;
        rank = rank * dims[d] + (coords[d] + step + dims[d]) % dims[d];
      }
      if (!self) out.push_back(rank);
    }
  }
  return graph;
}

std::string label(int processes, int ndims, int slots) {
  return std::to_string(processes) + " processes, " + std::to_string(ndims) +
         "-d, " + std::to_string(slots) + " a host";
}

constexpr std::size_t kMost = std::size_t{1} << 30;

TEST(NodeAwareModel, ChoosesAsMeasuredOnMooreTori) {
  for (const std::array<int, 2> job : {std::array<int, 2>{16, 4}, {8, 4}}) {
    const HostPrices prices = host_prices(job[0] / 2.0);
    for (int ndims : {2, 3}) {
      const HostGraph graph = moore_torus(job[0], ndims, job[1]);
      const std::string where = label(job[0], ndims, job[1]);
      const std::optional<std::size_t> alltoall =
          node_aware_up_to(graph, Payload::per_edge, prices, kMost);
      ASSERT_TRUE(alltoall) << where;
      EXPECT_GE(*alltoall, 4000u) << where;
      EXPECT_LT(*alltoall, 40000u) << where;
      const std::optional<std::size_t> allgather =
          node_aware_up_to(graph, Payload::per_source, prices, kMost);
      ASSERT_TRUE(allgather) << where;
      EXPECT_GE(*allgather, 4000u) << where;
    }
  }
}

// Graph `name` of sparse_graphs.h on 16 processes, 4 a host.
HostGraph sparse_graph(const char* name) {
  HostGraph graph;
  graph.destinations =
      experiments::make_graph(*experiments::parse_graph_spec(name), 16);
  for (int r = 0; r < 16; ++r) graph.host_of_rank.push_back(r / 4);
  return graph;
}

bool node_aware_at_4_bytes(const HostGraph& graph, Payload payload) {
  const std::optional<std::size_t> up_to =
      node_aware_up_to(graph, payload, host_prices(8), kMost);
  return up_to && *up_to >= 4;
}

TEST(NodeAwareModel, ChoosesAsMeasuredOnSparseGraphs) {
  for (Payload payload : {Payload::per_edge, Payload::per_source}) {
    for (const char* name : {"er_0.05_s1", "er_0.1_s1", "mesh2d_60_sfc"}) {
      EXPECT_FALSE(node_aware_at_4_bytes(sparse_graph(name), payload)) << name;
    }
    for (const char* name : {"er_0.3_s1", "geo_0.5_s1", "mesh3d_15_sfc"}) {
      EXPECT_TRUE(node_aware_at_4_bytes(sparse_graph(name), payload)) << name;
    }
  }
}

// The crossover is the last size where node_aware is modelled faster.
TEST(NodeAwareModel, CrossoverIsWhereTheModelsMeet) {
  const HostPrices prices = host_prices(8);
  const HostGraph graph = moore_torus(16, 3, 4);
  const std::vector<node_routes::Load> loads =
      node_routes::loads(graph, Payload::per_edge);
  const std::optional<std::size_t> up_to =
      node_aware_up_to(graph, Payload::per_edge, prices, kMost);
  ASSERT_TRUE(up_to);
  EXPECT_LT(node_aware_call_ns(graph, loads, prices, *up_to),
            direct_call_ns(graph, prices, *up_to));
  EXPECT_GE(node_aware_call_ns(graph, loads, prices, *up_to + 1),
            direct_call_ns(graph, prices, *up_to + 1));
}

}  // namespace
}  // namespace ortho::algorithms
