// ortho::comm_split, comm_create, comm_dup and comm_subgraph on directed
// graphs give the induced subgraph (the paper, section 2.4): edges between
// members, in order, with their weights; checked against the subgraph
// computed from the global edge list that every process generates alike.
#include "ortho/subgraph.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <random>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/groups/group.h"
#include "classic/topology/topology.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/structure.h"
#include "tests/testing/errors.h"

namespace {

using classic::Comm;

struct Edge {
  int from;
  int to;
  int weight;
};

// The same random multigraph (self loops, repeated edges) on every process.
std::vector<Edge> random_edges(int p, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> rank(0, p - 1);
  std::uniform_int_distribution<int> weight(0, 9);
  std::vector<Edge> edges(static_cast<std::size_t>(3 * p));
  for (Edge& e : edges) e = {rank(random), rank(random), weight(random)};
  return edges;
}

// The adjacent lists of `me` (sources in edge order, destinations alike),
// restricted to processes `keep` accepts and renamed by `rename`.
template <class Keep, class Rename>
classic::DistGraphNeighbors lists(const std::vector<Edge>& edges, int me,
                                  Keep keep, Rename rename) {
  classic::DistGraphNeighbors n;
  for (const Edge& e : edges) {
    if (!keep(e.from) || !keep(e.to)) continue;
    if (e.to == me) {
      n.sources.push_back(rename(e.from));
      n.source_weights.push_back(e.weight);
    }
    if (e.from == me) {
      n.destinations.push_back(rename(e.to));
      n.destination_weights.push_back(e.weight);
    }
  }
  return n;
}

Comm weighted_graph(const Comm& comm, const std::vector<Edge>& edges) {
  const auto all = [](int) { return true; };
  const auto same = [](int r) { return r; };
  const classic::DistGraphNeighbors n = lists(edges, comm.rank(), all, same);
  return ortho::dist_graph_create_adjacent(
      comm, n.sources, n.source_weights, n.destinations, n.destination_weights);
}

void expect_lists(const Comm& sub, const classic::DistGraphNeighbors& want) {
  ASSERT_EQ(ortho::topo_test(sub), ortho::Structure::directed_graph);
  const classic::DistGraphNeighbors got = classic::dist_graph_neighbors(sub);
  EXPECT_EQ(got.sources, want.sources);
  EXPECT_EQ(got.source_weights, want.source_weights);
  EXPECT_EQ(got.destinations, want.destinations);
  EXPECT_EQ(got.destination_weights, want.destination_weights);
}

TEST(Subgraph, SplitInducesTheSubgraphWithWeightsInOrder) {
  const Comm world = Comm::world();
  const int p = world.size();
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const std::vector<Edge> edges = random_edges(p, seed);
    const Comm graph = weighted_graph(world, edges);
    const int color = world.rank() % 2;
    // Keys reverse the order within a color: new rank = position from the
    // top among the same color.
    const Comm sub = ortho::comm_split(graph, color, p - world.rank());
    const auto keep = [&](int r) { return r % 2 == color; };
    const auto rename = [&](int r) {
      int above = 0;
      for (int q = r + 1; q < p; ++q) above += keep(q) ? 1 : 0;
      return above;
    };
    expect_lists(sub, lists(edges, world.rank(), keep, rename));
    EXPECT_EQ(sub.rank(), rename(world.rank()));
    // Usable at once: an allgather over the induced in-edges.
    const int me = sub.rank();
    const std::vector<int> got = ortho::allgather(sub, std::span(&me, 1));
    EXPECT_EQ(got, classic::dist_graph_neighbors(sub).sources);
    EXPECT_EQ(ortho::comm_base(sub).compare(sub),
              classic::Comparison::congruent);
  }
}

TEST(Subgraph, CreateAndSubgraphOfASubcommunicatorAgree) {
  const Comm world = Comm::world();
  const int p = world.size();
  const std::vector<Edge> edges = random_edges(p, 42);
  const Comm graph = weighted_graph(world, edges);
  // The first half (at least one process).
  const int half = (p + 1) / 2;
  std::vector<int> members(static_cast<std::size_t>(half));
  for (int i = 0; i < half; ++i) members[static_cast<std::size_t>(i)] = i;
  const Comm created = ortho::comm_create(graph, world.group().incl(members));
  const Comm plain =
      world.split(world.rank() < half ? 0 : classic::undefined, world.rank());
  if (world.rank() >= half) {
    EXPECT_TRUE(created.is_null());
    return;
  }
  const auto keep = [&](int r) { return r < half; };
  const auto same = [](int r) { return r; };
  const classic::DistGraphNeighbors want =
      lists(edges, world.rank(), keep, same);
  expect_lists(created, want);
  expect_lists(ortho::comm_subgraph(graph, plain), want);
}

TEST(Subgraph, DupKeepsTheWholeGraph) {
  const Comm world = Comm::world();
  const std::vector<Edge> edges = random_edges(world.size(), 7);
  const Comm graph = weighted_graph(world, edges);
  const auto all = [](int) { return true; };
  const auto same = [](int r) { return r; };
  expect_lists(ortho::comm_dup(graph), lists(edges, world.rank(), all, same));
}

TEST(Subgraph, FullyConnectedSplitIsClassicSplit) {
  const Comm world = Comm::world();
  const Comm sub = ortho::comm_split(world, 0, world.rank());
  EXPECT_EQ(ortho::topo_test(sub), ortho::Structure::fully_connected);
  EXPECT_EQ(sub.compare(world), classic::Comparison::congruent);
}

TEST(Subgraph, SubgraphNeedsAGraphAndASubset) {
  const Comm world = Comm::world();
  orthocomm_test::expect_error(
      [&] { (void)ortho::comm_subgraph(world, world); },
      classic::ErrorClass::topology,
      {"ortho::comm_subgraph", "not a directed-graph"});
  if (world.size() < 2) return;
  // A graph over the first process only; subcomm: everyone.
  const Comm first = world.split(world.rank() == 0 ? 0 : classic::undefined, 0);
  Comm graph;
  if (!first.is_null()) {
    graph = ortho::dist_graph_create_adjacent(
        first, std::vector<int>{}, classic::unweighted, std::vector<int>{},
        classic::unweighted);
  }
  if (world.rank() == 0) {
    orthocomm_test::expect_error(
        [&] { (void)ortho::comm_subgraph(graph, world); },
        classic::ErrorClass::group, {"subcomm's rank 1"});
  }
}

}  // namespace
