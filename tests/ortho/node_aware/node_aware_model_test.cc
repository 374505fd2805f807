// The node-aware cost model against the choices measured on simulated
// hosts (docs/experiments.md, "Node-aware collectives" and "Sparse
// graphs"; the processes per core the job agrees on there: 16 or 8
// processes on 2 cores).
//  - Periodic 2-d and 3-d Moore tori of 16 processes on 4 hosts and of 8
//    on 2 (grids from classic::dims_create, ranks row-major and
//    round-robin over the hosts, as tools/node_aware.sh places them):
//    node_aware ran faster than direct at every block
//    up to 4 KB, and at 40 KB alltoall ran faster direct.
//  - Seeded sparse graphs of 16 processes on 4 hosts at 4 B blocks:
//    direct faster on er_0.05_s1, er_0.1_s1 and mesh2d_60_sfc (3-5
//    messages between hosts from the busiest process, under 2 on average),
//    node_aware faster by 1.3x and more on er_0.3_s1, geo_0.5_s1 and
//    mesh3d_15_sfc.
#include "ortho/algorithms/node_aware_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "classic/topology/dims_create.h"
#include "experiments/sparse_graphs.h"
#include "naming/geometry.h"
#include "ortho/algorithms/combining/combining_loads.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/algorithms/model_crossovers.h"
#include "stencils/neighborhood.h"
#include "stencils/schedule.h"

namespace ortho::algorithms {
namespace {

using node_routes::HostGraph;
using node_routes::Payload;

// Where consecutive ranks go: filling a host's slots first, or
// round-robin over the hosts (mpirun --map-by node, as tools/node_aware.sh
// places them).
enum class Placement { by_slot, by_node };

int host_of(int rank, int processes, int slots, Placement placement) {
  return placement == Placement::by_slot ? rank / slots
                                         : rank % (processes / slots);
}

// The periodic Moore torus of `processes` in `ndims` dimensions (each
// offset in order, repeated neighbours kept), `slots` processes a host.
HostGraph moore_torus(int processes, int ndims, int slots,
                      Placement placement = Placement::by_slot) {
  const std::vector<int> dims =
      classic::dims_create(processes, std::vector<int>(ndims, 0));
  HostGraph graph;
  for (int r = 0; r < processes; ++r) {
    graph.host_of_rank.push_back(host_of(r, processes, slots, placement));
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
      const HostGraph graph =
          moore_torus(job[0], ndims, job[1], Placement::by_node);
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

// ---- node_aware, combining and direct on one scale
// ---------------------------

// Message combining's rounds on the Moore torus of moore_torus().
combining_loads::Rounds combining_rounds(int processes, int ndims, int slots,
                                         Placement placement,
                                         stencils::Collective collective) {
  const std::vector<int> dims =
      classic::dims_create(processes, std::vector<int>(ndims, 0));
  const std::array<bool, 3> periodic = {true, true, true};
  const naming::Geometry geometry(
      dims, std::span<const bool>(periodic.data(), dims.size()),
      naming::Order::row_major);
  const stencils::Stencil moore =
      stencils::cart_stencil(ndims, stencils::Metric::chebyshev, 1, 1);
  std::vector<int> flat(moore.flat().begin(), moore.flat().end());
  for (int& x : flat) x = -x;
  const stencils::Stencil sources(ndims, flat);
  std::vector<int> host_of_rank(static_cast<std::size_t>(processes));
  for (int r = 0; r < processes; ++r) {
    host_of_rank[static_cast<std::size_t>(r)] =
        host_of(r, processes, slots, placement);
  }
  const std::vector<stencils::Round> rounds =
      collective == stencils::Collective::allgather
          ? stencils::allgather_schedule(geometry, moore, sources).rounds
          : stencils::alltoall_schedule(geometry, moore, sources).rounds;
  return combining_loads::messages_of(rounds, geometry, host_of_rank);
}

constexpr std::size_t kCombiningMost = std::size_t{16} * 1024;

std::size_t eager_between_hosts() {
  return static_cast<std::size_t>(
      prices_for(Transport::network, 1).eager_bytes);
}

// What fastest_steps says runs blocks of `bytes`.
Fastest step_at(const std::vector<FastestStep>& steps, std::size_t bytes) {
  for (const FastestStep& step : steps) {
    if (bytes <= step.up_to) return step.fastest;
  }
  return steps.back().fastest;
}

// At every size, the steps name the algorithm of least modelled time
// (brute force over the three prices), on 2-d and 3-d tori over 2 and 4
// hosts, for both collectives.
TEST(NodeAwareModel, FastestStepsNameTheFastestAtEverySize) {
  for (const std::array<int, 2> job : {std::array<int, 2>{16, 4}, {8, 4}}) {
    const HostPrices prices = host_prices(job[0] / 2.0);
    for (int ndims : {2, 3}) {
      for (const Placement placement :
           {Placement::by_slot, Placement::by_node}) {
        const HostGraph graph = moore_torus(job[0], ndims, job[1], placement);
        for (const stencils::Collective collective :
             {stencils::Collective::allgather,
              stencils::Collective::alltoall}) {
          const Payload payload = collective == stencils::Collective::allgather
                                      ? Payload::per_source
                                      : Payload::per_edge;
          const combining_loads::Rounds rounds =
              combining_rounds(job[0], ndims, job[1], placement, collective);
          const std::vector<node_routes::Load> loads =
              node_routes::loads(graph, payload);
          const std::vector<FastestStep> steps =
              fastest_steps(graph, payload, rounds, prices,
                            eager_between_hosts(), kMost, kCombiningMost);
          for (std::size_t i = 1; i < steps.size(); ++i) {
            EXPECT_LT(steps[i - 1].up_to, steps[i].up_to);
            EXPECT_NE(steps[i - 1].fastest, steps[i].fastest);
          }
          std::vector<std::size_t> sizes;
          for (std::size_t b = 0; b <= 20000; b += 97) sizes.push_back(b);
          for (std::size_t b = 1; b <= (std::size_t{1} << 22); b *= 2) {
            sizes.push_back(b);
          }
          for (const std::size_t bytes : sizes) {
            const double direct = direct_call_ns(graph, prices, bytes);
            const double node_aware =
                node_aware_call_ns(graph, loads, prices, bytes);
            const double combining =
                bytes <= kCombiningMost
                    ? combining_call_ns(graph, rounds, prices, bytes,
                                        eager_between_hosts())
                    : direct + node_aware + 1;  // out of the running
            Fastest best = Fastest::direct;
            if (node_aware < direct) best = Fastest::node_aware;
            if (combining <
                std::min(direct, kCombiningShareOfNodeAware * node_aware)) {
              best = Fastest::combining;
            }
            EXPECT_EQ(step_at(steps, bytes), best)
                << label(job[0], ndims, job[1]) << ", "
                << (payload == Payload::per_edge ? "alltoall" : "allgather")
                << ", " << bytes << " B";
          }
        }
      }
    }
  }
}

// Measured on 2 simulated hosts x 4, ranks round-robin over the hosts
// (2-d Moore on 4 x 2, docs/experiments.md, "Node-aware collectives"):
// alltoall at 4 KB ran combining 1.45-1.48x Open MPI's speed, node_aware
// 1.11-1.21x, direct 0.97-1.00x; at 4-400 B node_aware led (3.06-3.45x
// against combining's 2.12-2.77x); at 40 KB direct (0.97-1.01x against
// 0.75x and 0.50-0.68x). allgather at 1 KB: node_aware 2.47-2.55x,
// combining 2.13-2.26x; at 40 KB node_aware 1.36-1.37x, direct 0.98-1.01x.
TEST(NodeAwareModel, ChoosesBesideCombiningAsMeasured) {
  const HostGraph graph = moore_torus(8, 2, 4, Placement::by_node);
  const auto steps_of = [&](stencils::Collective collective, Payload payload) {
    return fastest_steps(
        graph, payload,
        combining_rounds(8, 2, 4, Placement::by_node, collective),
        host_prices(4), eager_between_hosts(), kMost, kCombiningMost);
  };
  const std::vector<FastestStep> alltoall =
      steps_of(stencils::Collective::alltoall, Payload::per_edge);
  for (const std::size_t bytes : {4, 40, 400}) {
    EXPECT_EQ(step_at(alltoall, bytes), Fastest::node_aware) << bytes << " B";
  }
  EXPECT_EQ(step_at(alltoall, 4000), Fastest::combining);
  EXPECT_EQ(step_at(alltoall, 40000), Fastest::direct);
  const std::vector<FastestStep> allgather =
      steps_of(stencils::Collective::allgather, Payload::per_source);
  EXPECT_EQ(step_at(allgather, 1000), Fastest::node_aware);
  EXPECT_EQ(step_at(allgather, 40000), Fastest::node_aware);
}

}  // namespace
}  // namespace ortho::algorithms
