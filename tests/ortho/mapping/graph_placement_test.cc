// The MPI-free core of general-graph mapping (ortho/internal/
// graph_placement.h): the weight between hosts against hand counts and a
// brute force, and Scotch's placements balanced exactly to the hosts' slots
// on random graphs, optimal where the optimum is plain, and the same for
// the same graph. Without Scotch in the build: no placement.
#include "ortho/internal/graph_placement.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "classic/base/error.h"

namespace {

using ortho::internal::DirectedGraph;
using ortho::internal::graph_crossing_cost;
using ortho::internal::scotch_built_in;
using ortho::internal::scotch_placement;

// A graph from per-vertex lists of (target, weight).
DirectedGraph graph_of(
    const std::vector<std::vector<std::pair<int, std::int64_t>>>& lists) {
  DirectedGraph graph;
  for (const auto& list : lists) {
    for (const auto& [to, w] : list) {
      graph.targets.push_back(to);
      graph.weights.push_back(w);
    }
    graph.offsets.push_back(static_cast<std::int64_t>(graph.targets.size()));
  }
  return graph;
}

// Random multigraph: self loops, duplicates, empty lists, weights 0..9.
DirectedGraph random_graph(int vertices, std::mt19937& random) {
  std::uniform_int_distribution<int> degree(0, 5);
  std::uniform_int_distribution<int> vertex(0, vertices - 1);
  std::uniform_int_distribution<std::int64_t> weight(0, 9);
  std::vector<std::vector<std::pair<int, std::int64_t>>> lists(
      static_cast<std::size_t>(vertices));
  for (auto& list : lists) {
    for (int i = degree(random); i > 0; --i) {
      list.emplace_back(vertex(random), weight(random));
    }
  }
  return graph_of(lists);
}

std::vector<int> counts_per_host(const std::vector<int>& placement,
                                 std::size_t hosts) {
  std::vector<int> counts(hosts, 0);
  for (const int h : placement) ++counts[static_cast<std::size_t>(h)];
  return counts;
}

// 0 -> 1 (5), 0 -> 2 (7), 1 -> 0 (2), 2 -> 2 (self, 9), 3 -> 1 (1),
// 3 -> 1 (4, a duplicate); hosts {0, 1} on host 0, {2, 3} on host 1.
// Crossing: 0 -> 2 (7) from host 0; 3 -> 1 twice (1 + 4) from host 1.
TEST(GraphCrossingCost, CountsEdgesBetweenHostsByHand) {
  const DirectedGraph graph =
      graph_of({{{1, 5}, {2, 7}}, {{0, 2}}, {{2, 9}}, {{1, 1}, {1, 4}}});
  const stencils::CrossingCost cost =
      graph_crossing_cost(graph, std::vector<int>{0, 0, 1, 1});
  EXPECT_EQ(cost.edges, 3);
  EXPECT_EQ(cost.weight, 12);
  EXPECT_EQ(cost.max_host_weight, 7);
  // Unweighted: each edge weighs 1.
  DirectedGraph unweighted = graph;
  unweighted.weights.clear();
  const stencils::CrossingCost ones =
      graph_crossing_cost(unweighted, std::vector<int>{0, 0, 1, 1});
  EXPECT_EQ(ones.edges, 3);
  EXPECT_EQ(ones.weight, 3);
  EXPECT_EQ(ones.max_host_weight, 2);
}

TEST(GraphCrossingCost, RejectsAPlacementOfTheWrongLength) {
  const DirectedGraph graph = graph_of({{{1, 1}}, {}});
  EXPECT_THROW((void)graph_crossing_cost(graph, std::vector<int>{0}),
               classic::Error);
}

TEST(ScotchPlacement, RejectsSlotsThatDoNotFitTheGraph) {
  const DirectedGraph graph = graph_of({{{1, 1}}, {}, {}, {}});
  try {
    (void)scotch_placement(graph, std::vector<int>{2, 0, 2});
    FAIL() << "a host without a slot was taken";
  } catch (const classic::Error& e) {
    EXPECT_EQ(e.error_class(), classic::ErrorClass::arg);
    EXPECT_NE(std::string(e.what()).find("slots[1] = 0"), std::string::npos)
        << e.what();
  }
  try {
    (void)scotch_placement(graph, std::vector<int>{2, 3});
    FAIL() << "5 slots for 4 vertices were taken";
  } catch (const classic::Error& e) {
    EXPECT_EQ(e.error_class(), classic::ErrorClass::count);
  }
}

// Four cliques of four, interleaved: vertex v belongs to clique v % 4.
// One clique per host puts nothing between hosts; by slot (v / 4) every
// edge crosses.
TEST(ScotchPlacement, FindsThePlainOptimumOfInterleavedCliques) {
  std::vector<std::vector<std::pair<int, std::int64_t>>> lists(16);
  for (int v = 0; v < 16; ++v) {
    for (int u = v % 4; u < 16; u += 4) {
      if (u != v) lists[static_cast<std::size_t>(v)].emplace_back(u, 3);
    }
  }
  const DirectedGraph graph = graph_of(lists);
  std::vector<int> by_slot(16);
  for (int v = 0; v < 16; ++v) by_slot[static_cast<std::size_t>(v)] = v / 4;
  EXPECT_EQ(graph_crossing_cost(graph, by_slot).weight, 16 * 3 * 3);
  const auto placement = scotch_placement(graph, std::vector<int>{4, 4, 4, 4});
  if (!scotch_built_in()) {
    EXPECT_FALSE(placement.has_value());
    GTEST_SKIP() << "Scotch is not built in";
  }
  ASSERT_TRUE(placement.has_value());
  EXPECT_EQ(graph_crossing_cost(graph, *placement).weight, 0);
  EXPECT_EQ(counts_per_host(*placement, 4), (std::vector<int>{4, 4, 4, 4}));
}

// Random multigraphs on unequal hosts: every placement fills each host's
// slots exactly, and the same graph gives the same placement.
TEST(ScotchPlacement, BalancesExactlyAndRepeatsOnRandomGraphs) {
  if (!scotch_built_in()) GTEST_SKIP() << "Scotch is not built in";
  std::mt19937 random(20261129);
  const std::vector<std::vector<int>> shapes = {
      {8, 8}, {4, 4, 4, 4}, {7, 5, 3, 1}, {1, 1, 1}, {10, 2, 6}, {16}};
  for (int trial = 0; trial < 60; ++trial) {
    const std::vector<int>& slots =
        shapes[static_cast<std::size_t>(trial) % shapes.size()];
    int vertices = 0;
    for (const int s : slots) vertices += s;
    const DirectedGraph graph = random_graph(vertices, random);
    const auto first = scotch_placement(graph, slots);
    ASSERT_TRUE(first.has_value()) << "trial " << trial;
    EXPECT_EQ(counts_per_host(*first, slots.size()), slots)
        << "trial " << trial;
    const auto second = scotch_placement(graph, slots);
    ASSERT_TRUE(second.has_value());
    EXPECT_EQ(*first, *second) << "trial " << trial;
  }
}

// A graph without any weight (no edges, or weights 0 only) still gets a
// balanced placement: nothing to gain, nothing to break.
TEST(ScotchPlacement, PlacesAGraphWithoutWeight) {
  if (!scotch_built_in()) GTEST_SKIP() << "Scotch is not built in";
  const DirectedGraph empty = graph_of({{}, {}, {}, {}, {}, {}});
  const auto placement = scotch_placement(empty, std::vector<int>{3, 3});
  ASSERT_TRUE(placement.has_value());
  EXPECT_EQ(counts_per_host(*placement, 2), (std::vector<int>{3, 3}));
  const DirectedGraph weightless = graph_of({{{1, 0}}, {{0, 0}}});
  const auto two = scotch_placement(weightless, std::vector<int>{1, 1});
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(counts_per_host(*two, 2), (std::vector<int>{1, 1}));
}

}  // namespace
