// The cost model of common_neighbours (node_aware_model.h) on graphs whose
// prices are worked out by hand from the constants of cost_model.cc and
// host_prices() (one process per core), and its choice checked against
// the modelled times of direct and node_aware on sparse graphs: it is
// never taken at a size where another is modelled faster.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "experiments/sparse_graphs.h"
#include "ortho/algorithms/common_neighbours/common_neighbours_routes.h"
#include "ortho/algorithms/model_crossovers.h"
#include "ortho/algorithms/node_aware_model.h"

namespace ortho::algorithms {
namespace {

using common_routes::Grouping;
using node_routes::HostGraph;
using node_routes::Payload;

constexpr std::size_t kMost = std::size_t{1} << 30;

// 8 processes on host 0 each send one block to each of the 8 on host 1.
HostGraph all_to_the_other_host() {
  HostGraph graph;
  for (int r = 0; r < 16; ++r) {
    graph.host_of_rank.push_back(r / 8);
    std::vector<int>& out = graph.destinations.emplace_back();
    if (r < 8) {
      for (int d = 8; d < 16; ++d) out.push_back(d);
    }
  }
  return graph;
}

TEST(CommonNeighboursModel, PricesThePairsAsWorkedOutByHand) {
  const HostGraph graph = all_to_the_other_host();
  const Grouping grouping = common_routes::groups(graph);
  // Pairs (0, 1), (2, 3), ... : each member gives its partner 4 blocks
  // (one message within the host, 150 ns, and its round, 4 x 1.5 us),
  // then sends 4 messages of 2 blocks to the other host (24 us each, the
  // round 24 us): 6150 + 120000 ns. Direct: 8 messages of 24 us and the
  // round: 216000 ns.
  const std::vector<common_routes::Load> loads =
      common_routes::loads(graph, grouping, Payload::per_edge);
  const HostPrices prices = host_prices(1);
  EXPECT_DOUBLE_EQ(common_neighbours_call_ns(graph, loads, prices, 0), 126150);
  EXPECT_DOUBLE_EQ(direct_call_ns(graph, prices, 0), 216000);
  // B bytes a block, B in (1538, 3000]: direct's busiest process still
  // costs 192 us + 24 us; common_neighbours' step 0 150 + 1.4 B (4 blocks
  // at 0.25 ns a byte, packed and unpacked at 0.05) + 6 us + 6.5 us (4 B >
  // 4 KiB: rendezvous), step 1 the link of host 0 (64 blocks, 1 ns a byte)
  // + 24 us: faster while 36650 + 65.4 B < 216000, up to B = 2742.
  EXPECT_EQ(common_neighbours_up_to(graph, grouping, Payload::per_edge, prices,
                                    std::nullopt, kMost),
            std::optional<std::size_t>(2742));
  // node_aware (one message between the hosts) is modelled faster still at
  // empty blocks (61.2 us), where it runs: common_neighbours is not taken.
  const std::optional<std::size_t> node_aware =
      node_aware_up_to(graph, Payload::per_edge, prices, kMost);
  ASSERT_TRUE(node_aware);
  EXPECT_FALSE(common_neighbours_up_to(graph, grouping, Payload::per_edge,
                                       prices, node_aware, kMost));
}

TEST(CommonNeighboursModel, WithoutPairsItIsDirect) {
  HostGraph graph = all_to_the_other_host();
  const Grouping grouping = common_routes::groups(graph, 9);  // no pairs
  const std::vector<common_routes::Load> loads =
      common_routes::loads(graph, grouping, Payload::per_edge);
  const HostPrices prices = host_prices(1);
  for (const std::size_t bytes : {0, 4, 4000, 100000}) {
    EXPECT_DOUBLE_EQ(common_neighbours_call_ns(graph, loads, prices, bytes),
                     direct_call_ns(graph, prices, bytes));
  }
  EXPECT_FALSE(common_neighbours_up_to(graph, grouping, Payload::per_edge,
                                       prices, std::nullopt, kMost));
}

// On the benchmark's sparse graphs (16 processes, 4 a host, pairs of any
// overlap), at every size up to its crossover common_neighbours is
// modelled faster than direct and than node_aware where node_aware runs;
// at the size after, it is not.
TEST(CommonNeighboursModel, NeverTakenWhereAnotherIsModelledFaster) {
  int chosen = 0;
  for (const char* name : {"er_0.05_s1", "er_0.1_s1", "er_0.3_s1", "geo_0.5_s1",
                           "mesh2d_60_sfc", "mesh3d_15_sfc"}) {
    HostGraph graph;
    graph.destinations =
        experiments::make_graph(*experiments::parse_graph_spec(name), 16);
    for (int r = 0; r < 16; ++r) graph.host_of_rank.push_back(r / 4);
    const Grouping grouping = common_routes::groups(graph, 1);
    for (const double per_core : {1.0, 8.0}) {
      const HostPrices prices = host_prices(per_core);
      for (const Payload payload : {Payload::per_edge, Payload::per_source}) {
        const std::string where =
            std::string(name) + ", " + std::to_string(per_core) + " per core";
        const std::vector<common_routes::Load> loads =
            common_routes::loads(graph, grouping, payload);
        const std::vector<node_routes::Load> node_aware_loads =
            node_routes::loads(graph, payload);
        const std::optional<std::size_t> node_aware =
            node_aware_up_to(graph, payload, prices, kMost);
        const std::optional<std::size_t> mine = common_neighbours_up_to(
            graph, grouping, payload, prices, node_aware, kMost);
        if (!mine) continue;
        ++chosen;
        for (std::size_t bytes = 0; bytes <= *mine + 1;
             bytes = bytes < 8 ? bytes + 1 : bytes * 2) {
          const std::size_t at = std::min(bytes, *mine);
          const double ns = common_neighbours_call_ns(graph, loads, prices, at);
          EXPECT_LT(ns, direct_call_ns(graph, prices, at)) << where << at;
          if (node_aware && at <= *node_aware) {
            EXPECT_LT(ns,
                      node_aware_call_ns(graph, node_aware_loads, prices, at))
                << where << ", " << at << " bytes";
          }
        }
        if (*mine >= kMost) continue;
        const std::size_t after = *mine + 1;
        const double ns =
            common_neighbours_call_ns(graph, loads, prices, after);
        const bool beats_node_aware =
            !node_aware || after > *node_aware ||
            ns < node_aware_call_ns(graph, node_aware_loads, prices, after);
        EXPECT_FALSE(ns < direct_call_ns(graph, prices, after) &&
                     beats_node_aware)
            << where << ": still faster after the crossover";
      }
    }
  }
  RecordProperty("chosen", chosen);
}

}  // namespace
}  // namespace ortho::algorithms
