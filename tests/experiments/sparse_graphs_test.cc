// The benchmark graphs of experiments/sparse_graphs.h: the same graph for
// the same seed, densities within a statistical bound, self loops only on
// request, symmetric geometric and mesh graphs, and mesh graphs equal to
// hand-written edges and to a brute-force recomputation from the partition.
#include "experiments/sparse_graphs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <vector>

namespace experiments {
namespace {

// Out-lists ascending, without repeats, ranks in range.
void expect_well_formed(const Graph& graph) {
  for (const std::vector<int>& out : graph) {
    EXPECT_TRUE(std::is_sorted(out.begin(), out.end()));
    EXPECT_EQ(std::adjacent_find(out.begin(), out.end()), out.end());
    for (const int q : out) {
      EXPECT_GE(q, 0);
      EXPECT_LT(q, static_cast<int>(graph.size()));
    }
  }
}

bool has_self_loop(const Graph& graph) {
  for (std::size_t p = 0; p < graph.size(); ++p) {
    const std::vector<int>& out = graph[p];
    if (std::binary_search(out.begin(), out.end(), static_cast<int>(p))) {
      return true;
    }
  }
  return false;
}

bool symmetric(const Graph& graph) { return reversed(graph) == graph; }

TEST(ErdosRenyi, SameSeedSameGraphOtherSeedOther) {
  EXPECT_EQ(erdos_renyi(40, 0.1, 7), erdos_renyi(40, 0.1, 7));
  EXPECT_NE(erdos_renyi(40, 0.1, 7), erdos_renyi(40, 0.1, 8));
  expect_well_formed(erdos_renyi(40, 0.3, 7));
}

TEST(ErdosRenyi, DensityWithinFiveStandardDeviations) {
  constexpr int kProcesses = 300;
  constexpr double kPairs = kProcesses * (kProcesses - 1.0);
  for (const double density : {0.05, 0.1, 0.2, 0.3}) {
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const auto edges = static_cast<double>(
          edge_count(erdos_renyi(kProcesses, density, seed)));
      const double sigma = std::sqrt(kPairs * density * (1.0 - density));
      EXPECT_NEAR(edges, kPairs * density, 5.0 * sigma)
          << "density " << density << " seed " << seed;
    }
  }
  EXPECT_EQ(edge_count(erdos_renyi(50, 0.0, 1)), 0);
  EXPECT_EQ(edge_count(erdos_renyi(50, 1.0, 1)), 50 * 49);
}

TEST(ErdosRenyi, SelfLoopsOnlyWhenAskedAndNothingElseChanges) {
  const Graph without = erdos_renyi(100, 0.5, 3);
  EXPECT_FALSE(has_self_loop(without));
  Graph with = erdos_renyi(100, 0.5, 3, SelfLoops::yes);
  EXPECT_TRUE(has_self_loop(with));
  for (std::size_t p = 0; p < with.size(); ++p) {
    std::erase(with[p], static_cast<int>(p));
  }
  EXPECT_EQ(with, without);
}

TEST(RandomGeometric, SymmetricDeterministicNoSelfLoops) {
  const Graph graph = random_geometric(60, 0.3, 5);
  expect_well_formed(graph);
  EXPECT_TRUE(symmetric(graph));
  EXPECT_FALSE(has_self_loop(graph));
  EXPECT_EQ(graph, random_geometric(60, 0.3, 5));
  EXPECT_NE(graph, random_geometric(60, 0.3, 6));
}

TEST(RandomGeometric, EdgesGrowWithRadiusFromNoneToAll) {
  EXPECT_EQ(edge_count(random_geometric(30, 0.0, 2)), 0);
  // Any two points of the unit square are closer than 1.5.
  EXPECT_EQ(edge_count(random_geometric(30, 1.5, 2)), 30 * 29);
  const Graph small = random_geometric(30, 0.2, 2);
  const Graph large = random_geometric(30, 0.4, 2);
  for (std::size_t p = 0; p < small.size(); ++p) {
    EXPECT_TRUE(std::includes(large[p].begin(), large[p].end(),
                              small[p].begin(), small[p].end()));
  }
}

TEST(RandomGeometric, EdgeFractionIsThatOfUniformPointsInTheSquare) {
  // Two uniform points of the unit square lie within r with probability
  // pi r^2 - 8/3 r^3 + r^4 / 2 (r <= 1): 0.1051 at r = 0.2.
  constexpr int kProcesses = 400;
  const double r = 0.2;
  const double expected =
      M_PI * r * r - 8.0 / 3.0 * r * r * r + r * r * r * r / 2.0;
  const double fraction =
      static_cast<double>(edge_count(random_geometric(kProcesses, r, 11))) /
      (kProcesses * (kProcesses - 1.0));
  EXPECT_NEAR(fraction, expected, 0.1 * expected);
}

TEST(MeshGraph, FourByFourInFourPartsByBisectionByHand) {
  // Bisection halves x first (parts 0, 1 left; 2, 3 right), then y:
  //   y 2-3:  1 1 3 3
  //   y 0-1:  0 0 2 2
  const Mesh faces{{4, 4}, Connectivity::faces};
  EXPECT_EQ(mesh_partition(faces, 4, Partition::bisection),
            (std::vector<int>{0, 0, 2, 2, 0, 0, 2, 2, 1, 1, 3, 3, 1, 1, 3, 3}));
  EXPECT_EQ(mesh_graph(faces, 4, Partition::bisection),
            (Graph{{1, 2}, {0, 3}, {0, 3}, {1, 2}}));
  // Diagonal neighbours join the opposite corners too.
  const Mesh full{{4, 4}, Connectivity::full};
  EXPECT_EQ(mesh_graph(full, 4, Partition::bisection),
            (Graph{{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}}));
}

TEST(MeshGraph, FourByFourInThreePartsAlongTheCurveByHand) {
  // Z order visits the 2 x 2 quadrants lower left, lower right, upper left,
  // upper right; runs of 5, 5 and 6 vertices:
  //   y 3:  2 2 2 2
  //   y 2:  1 1 2 2
  //   y 1:  0 0 1 1
  //   y 0:  0 0 0 1
  const Mesh faces{{4, 4}, Connectivity::faces};
  EXPECT_EQ(mesh_partition(faces, 3, Partition::space_filling_curve),
            (std::vector<int>{0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2}));
  EXPECT_EQ(mesh_graph(faces, 3, Partition::space_filling_curve),
            (Graph{{1}, {0, 2}, {1}}));
  // (1, 1) and (2, 2) touch at a corner.
  const Mesh full{{4, 4}, Connectivity::full};
  EXPECT_EQ(mesh_graph(full, 3, Partition::space_filling_curve),
            (Graph{{1, 2}, {0, 2}, {0, 1}}));
}

// The graph recomputed from the partition over all pairs of vertices.
Graph brute_force(const Mesh& mesh, const std::vector<int>& owner, int parts) {
  const auto coordinate = [&](int vertex, std::size_t axis) {
    for (std::size_t a = 0; a < axis; ++a) vertex /= mesh.extents[a];
    return vertex % mesh.extents[axis];
  };
  std::vector<std::set<int>> adjacent(static_cast<std::size_t>(parts));
  const int vertices = static_cast<int>(owner.size());
  for (int u = 0; u < vertices; ++u) {
    for (int v = 0; v < vertices; ++v) {
      int sum = 0;
      int most = 0;
      for (std::size_t a = 0; a < mesh.extents.size(); ++a) {
        const int d = std::abs(coordinate(u, a) - coordinate(v, a));
        sum += d;
        most = std::max(most, d);
      }
      const bool adjacent_vertices =
          mesh.connectivity == Connectivity::faces ? sum == 1 : most == 1;
      const int p = owner[static_cast<std::size_t>(u)];
      const int q = owner[static_cast<std::size_t>(v)];
      if (adjacent_vertices && p != q) {
        adjacent[static_cast<std::size_t>(p)].insert(q);
      }
    }
  }
  Graph graph;
  for (const std::set<int>& out : adjacent) {
    graph.emplace_back(out.begin(), out.end());
  }
  return graph;
}

TEST(MeshGraph, EqualsBruteForceAndPartsAreBalanced) {
  for (const std::vector<int>& extents :
       {std::vector<int>{7, 5}, std::vector<int>{9, 9},
        std::vector<int>{4, 3, 5}}) {
    for (const Connectivity connectivity :
         {Connectivity::faces, Connectivity::full}) {
      for (const Partition partition :
           {Partition::bisection, Partition::space_filling_curve}) {
        for (const int parts : {1, 2, 3, 5, 7, 16}) {
          const Mesh mesh{extents, connectivity};
          const std::vector<int> owner = mesh_partition(mesh, parts, partition);
          const Graph graph = mesh_graph(mesh, parts, partition);
          EXPECT_EQ(graph, brute_force(mesh, owner, parts))
              << extents.size() << "-d, " << parts << " parts";
          EXPECT_TRUE(symmetric(graph));
          EXPECT_FALSE(has_self_loop(graph));
          std::vector<int> sizes(static_cast<std::size_t>(parts), 0);
          for (const int p : owner) ++sizes[static_cast<std::size_t>(p)];
          const auto [low, high] =
              std::minmax_element(sizes.begin(), sizes.end());
          EXPECT_GE(*low, 1);
          EXPECT_LE(*high - *low, 1);
        }
      }
    }
  }
}

TEST(MeshGraph, CurvePartsOfAnUnevenMeshAreIrregular) {
  // Not a stencil: the processes' degrees differ.
  const Graph graph = mesh_graph(Mesh{{60, 60}, Connectivity::faces}, 16,
                                 Partition::space_filling_curve);
  std::set<std::size_t> degrees;
  for (const std::vector<int>& out : graph) degrees.insert(out.size());
  EXPECT_GE(degrees.size(), 3U);
}

TEST(GraphSpec, ParsesTheBenchmarkNames) {
  const std::optional<GraphSpec> er = parse_graph_spec("er_0.1_s3");
  ASSERT_TRUE(er.has_value());
  EXPECT_EQ(make_graph(*er, 20), erdos_renyi(20, 0.1, 3));
  const std::optional<GraphSpec> geo = parse_graph_spec("geo_0.4_s2");
  ASSERT_TRUE(geo.has_value());
  EXPECT_EQ(make_graph(*geo, 20), random_geometric(20, 0.4, 2));
  const std::optional<GraphSpec> mesh = parse_graph_spec("mesh3d_6_rcb");
  ASSERT_TRUE(mesh.has_value());
  EXPECT_EQ(make_graph(*mesh, 8),
            mesh_graph(Mesh{{6, 6, 6}, Connectivity::faces}, 8,
                       Partition::bisection));
  const std::optional<GraphSpec> full = parse_graph_spec("mesh2d_10_sfc_full");
  ASSERT_TRUE(full.has_value());
  EXPECT_EQ(make_graph(*full, 5),
            mesh_graph(Mesh{{10, 10}, Connectivity::full}, 5,
                       Partition::space_filling_curve));
  for (const char* bad :
       {"", "er", "er_0.1", "er_1.5_s1", "er_0.1_1", "er_x_s1", "geo_-1_s1",
        "mesh2d_0_sfc", "mesh2d_6.5_sfc", "mesh4d_6_sfc", "mesh2d_6_hilbert",
        "mesh2d_6_sfc_half", "ring_4_s1"}) {
    EXPECT_FALSE(parse_graph_spec(bad).has_value()) << bad;
  }
}

TEST(Graphs, ReversedAndEdgeCount) {
  const Graph graph{{1, 2}, {2}, {}};
  EXPECT_EQ(reversed(graph), (Graph{{}, {0}, {0, 1}}));
  EXPECT_EQ(edge_count(graph), 3);
}

TEST(Graphs, RefusesArgumentsOutOfRange) {
  EXPECT_THROW(erdos_renyi(4, 1.5, 1), std::invalid_argument);
  EXPECT_THROW(random_geometric(4, -0.1, 1), std::invalid_argument);
  EXPECT_THROW(mesh_partition(Mesh{{4, 4}}, 17, Partition::bisection),
               std::invalid_argument);
  EXPECT_THROW(mesh_graph(Mesh{{4}}, 1, Partition::bisection),
               std::invalid_argument);
}

}  // namespace
}  // namespace experiments
