// Tests of classic's MPI-1 graph topology (graph_create, graphdims_get,
// graph_get, graph_neighbors(_count), graph_map) against the standard's
// text: expected values are written out or computed here from the
// arguments, never read back from classic. Open MPI as an oracle:
// graph_vs_openmpi_test.cc; the seeds' examples: graph_seed_examples_test.cc.
#include "classic/graph/graph.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/topology/internal/topology_cache.h"
#include "classic/topology/topology.h"
#include "tests/classic/testing/communicators.h"
#include "tests/classic/testing/testing.h"

namespace classic {
namespace {

using testing::fake_inter_communicator;
using testing::thrown_class;
using testing::world_rank;
using testing::world_size;

// A graph over n nodes with repeats, self loops and an asymmetric edge:
// node i lists (i+1) % n, i, (i+1) % n again, and node 0 also lists n-1.
struct Graph {
  std::vector<int> index;
  std::vector<int> edges;
  std::vector<std::vector<int>> neighbours;  // the expected lists
};

Graph ring_with_extras(int n) {
  Graph graph;
  for (int i = 0; i < n; ++i) {
    std::vector<int> mine = {(i + 1) % n, i, (i + 1) % n};
    if (i == 0) mine.push_back(n - 1);
    graph.edges.insert(graph.edges.end(), mine.begin(), mine.end());
    graph.index.push_back(static_cast<int>(graph.edges.size()));
    graph.neighbours.push_back(mine);
  }
  return graph;
}

void expect_graph(const Comm& comm, const Graph& graph) {
  ASSERT_FALSE(comm.is_null());
  EXPECT_EQ(topo_test(comm), TopologyKind::graph);
  const GraphDims dims = graphdims_get(comm);
  EXPECT_EQ(dims.nnodes, static_cast<int>(graph.index.size()));
  EXPECT_EQ(dims.nedges, static_cast<int>(graph.edges.size()));
  const GraphInfo info = graph_get(comm);
  EXPECT_EQ(info.index, graph.index);
  EXPECT_EQ(info.edges, graph.edges);
  for (int r = 0; r < dims.nnodes; ++r) {
    const auto& expected = graph.neighbours[static_cast<std::size_t>(r)];
    EXPECT_EQ(graph_neighbors_count(comm, r), static_cast<int>(expected.size()))
        << "rank " << r;
    EXPECT_EQ(graph_neighbors(comm, r), expected) << "rank " << r;
  }
}

TEST(GraphCreate, OverAllProcessesKeepsRanksAndAnswersEveryQuery) {
  const Graph graph = ring_with_extras(world_size());
  for (Reorder reorder : {Reorder::no, Reorder::yes}) {
    Comm comm = graph_create(Comm::world(), graph.index, graph.edges, reorder);
    ASSERT_FALSE(comm.is_null());
    EXPECT_EQ(comm.size(), world_size());
    EXPECT_EQ(comm.rank(), world_rank());  // identity numbering, also reorder
    EXPECT_EQ(comm.compare(Comm::world()), Comparison::congruent);
    expect_graph(comm, graph);
  }
}

TEST(GraphCreate, ProcessesBeyondNnodesGetTheNullCommunicator) {
  for (int nnodes = 1; nnodes <= world_size(); ++nnodes) {
    const Graph graph = ring_with_extras(nnodes);
    Comm comm =
        graph_create(Comm::world(), graph.index, graph.edges, Reorder::no);
    if (world_rank() >= nnodes) {
      EXPECT_TRUE(comm.is_null()) << "nnodes " << nnodes;
      continue;
    }
    ASSERT_FALSE(comm.is_null()) << "nnodes " << nnodes;
    EXPECT_EQ(comm.size(), nnodes);
    EXPECT_EQ(comm.rank(), world_rank());
    expect_graph(comm, graph);
  }
}

TEST(GraphCreate, NoNodesGiveTheNullCommunicatorEverywhere) {
  Comm comm = graph_create(Comm::world(), {}, {}, Reorder::no);
  EXPECT_TRUE(comm.is_null());
}

TEST(GraphCreate, NodesWithoutEdgesAreAllowed) {
  const int n = world_size();
  const std::vector<int> index(static_cast<std::size_t>(n), 0);
  Comm comm = graph_create(Comm::world(), index, {}, Reorder::no);
  expect_graph(
      comm, Graph{index,
                  {},
                  std::vector<std::vector<int>>(static_cast<std::size_t>(n))});
}

TEST(GraphCreate, WorksOnASubCommunicatorWithItsRanks) {
  // The odd-ranked world processes, reversed: graph nodes are ranks there.
  Comm sub = Comm::world().split(world_rank() % 2, -world_rank());
  const Graph graph = ring_with_extras(sub.size());
  Comm comm = graph_create(sub, graph.index, graph.edges, Reorder::no);
  EXPECT_EQ(comm.rank(), sub.rank());
  EXPECT_EQ(comm.compare(sub), Comparison::congruent);
  expect_graph(comm, graph);
}

TEST(GraphTopology, KeptByDupDroppedBySplitAndCreate) {
  const Graph graph = ring_with_extras(world_size());
  Comm comm =
      graph_create(Comm::world(), graph.index, graph.edges, Reorder::no);
  Comm duplicate = comm.dup();
  expect_graph(duplicate, graph);
  Comm split = comm.split(0, world_rank());
  EXPECT_EQ(topo_test(split), TopologyKind::undefined);
  Comm created = comm.create(comm.group());
  EXPECT_EQ(topo_test(created), TopologyKind::undefined);
  EXPECT_EQ(thrown_class([&] { graphdims_get(split); }), ErrorClass::topology);
  EXPECT_EQ(topo_test(Comm::world()), TopologyKind::undefined);
}

TEST(GraphTopology, FreedWithItsCommunicators) {
  const Comm world = Comm::world();  // made before counting
  const std::size_t topologies = internal::live_topology_count();
  const std::size_t comms = Comm::live_count();
  {
    const Graph graph = ring_with_extras(world_size());
    Comm comm =
        graph_create(Comm::world(), graph.index, graph.edges, Reorder::no);
    Comm duplicate = comm.dup();
    EXPECT_EQ(internal::live_topology_count(), topologies + 2);
    comm.free();
    EXPECT_EQ(internal::live_topology_count(), topologies + 1);
  }  // the duplicate's last handle goes here
  EXPECT_EQ(internal::live_topology_count(), topologies);
  EXPECT_EQ(Comm::live_count(), comms);
}

TEST(GraphMap, IsTheIdentityBelowNnodes) {
  for (int nnodes = 0; nnodes <= world_size(); ++nnodes) {
    const Graph graph = ring_with_extras(nnodes);
    EXPECT_EQ(graph_map(Comm::world(), graph.index, graph.edges),
              world_rank() < nnodes ? world_rank() : undefined);
  }
}

// ---- errors, one test each ------------------------------------------------

TEST(GraphErrors, NullCommunicator) {
  const Graph graph = ring_with_extras(1);
  EXPECT_EQ(thrown_class([&] {
              (void)graph_create(Comm(), graph.index, graph.edges, Reorder::no);
            }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { graph_map(Comm(), graph.index, graph.edges); }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { graphdims_get(Comm()); }), ErrorClass::comm);
}

TEST(GraphErrors, FreedCommunicator) {
  Comm comm = Comm::world().dup();
  Comm copy = comm;
  comm.free();
  const Graph graph = ring_with_extras(1);
  EXPECT_EQ(thrown_class([&] {
              (void)graph_create(copy, graph.index, graph.edges, Reorder::no);
            }),
            ErrorClass::comm);
}

TEST(GraphErrors, InterCommunicator) {
  Comm inter = fake_inter_communicator();
  const Graph graph = ring_with_extras(1);
  EXPECT_EQ(thrown_class([&] {
              (void)graph_create(inter, graph.index, graph.edges, Reorder::no);
            }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { graph_map(inter, graph.index, graph.edges); }),
            ErrorClass::comm);
}

TEST(GraphErrors, MoreNodesThanProcesses) {
  const Graph graph = ring_with_extras(world_size() + 1);
  EXPECT_EQ(thrown_class([&] {
              (void)graph_create(Comm::world(), graph.index, graph.edges,
                                 Reorder::no);
            }),
            ErrorClass::arg);
  EXPECT_EQ(
      thrown_class([&] { graph_map(Comm::world(), graph.index, graph.edges); }),
      ErrorClass::arg);
}

TEST(GraphErrors, DecreasingIndex) {
  // Node 0 lists two edges, node 1 "minus one".
  const std::vector<int> index = {2, 1};
  const std::vector<int> edges = {0, 0};
  if (world_size() < 2) GTEST_SKIP() << "needs two nodes";
  EXPECT_EQ(thrown_class([&] {
              (void)graph_create(Comm::world(), index, edges, Reorder::no);
            }),
            ErrorClass::arg);
}

TEST(GraphErrors, NegativeIndex) {
  const std::vector<int> index = {-1};
  EXPECT_EQ(thrown_class([&] {
              (void)graph_create(Comm::world(), index, {}, Reorder::no);
            }),
            ErrorClass::arg);
}

TEST(GraphErrors, EdgesLengthDiffersFromLastIndex) {
  const std::vector<int> index = {2};
  const std::vector<int> edges = {0, 0, 0};
  EXPECT_EQ(thrown_class([&] {
              (void)graph_create(Comm::world(), index, edges, Reorder::no);
            }),
            ErrorClass::arg);
  const std::vector<int> one_edge = {0};
  EXPECT_EQ(thrown_class([&] {
              (void)graph_create(Comm::world(), {}, one_edge, Reorder::no);
            }),
            ErrorClass::arg);
}

TEST(GraphErrors, EdgeOutsideTheNodes) {
  const std::vector<int> index = {1};
  for (int edge : {1, -1}) {
    const std::vector<int> edges = {edge};
    EXPECT_EQ(thrown_class([&] {
                (void)graph_create(Comm::world(), index, edges, Reorder::no);
              }),
              ErrorClass::rank)
        << "edge " << edge;
    EXPECT_EQ(thrown_class([&] { graph_map(Comm::world(), index, edges); }),
              ErrorClass::rank);
  }
}

TEST(GraphErrors, DifferentGraphsOnDifferentProcessesFailEverywhere) {
  if (world_size() < 2) GTEST_SKIP() << "needs two processes";
  // Process 0 gives a graph of one node; the others a valid other one.
  const Graph mine = ring_with_extras(world_rank() == 0 ? 1 : 2);
  EXPECT_EQ(thrown_class([&] {
              (void)graph_create(Comm::world(), mine.index, mine.edges,
                                 Reorder::no);
            }),
            ErrorClass::arg);
  // Process 0's graph invalid, the others' valid: every process fails.
  const std::vector<int> index =
      world_rank() == 0 ? std::vector<int>{-1} : std::vector<int>{0};
  EXPECT_EQ(thrown_class([&] {
              (void)graph_create(Comm::world(), index, {}, Reorder::no);
            }),
            ErrorClass::arg);
}

TEST(GraphErrors, QueriesOnACommunicatorWithoutAGraph) {
  const Comm world = Comm::world();
  EXPECT_EQ(thrown_class([&] { graphdims_get(world); }), ErrorClass::topology);
  EXPECT_EQ(thrown_class([&] { graph_get(world); }), ErrorClass::topology);
  EXPECT_EQ(thrown_class([&] { graph_neighbors_count(world, 0); }),
            ErrorClass::topology);
  EXPECT_EQ(thrown_class([&] { graph_neighbors(world, 0); }),
            ErrorClass::topology);
}

TEST(GraphErrors, NeighboursOfARankOutOfRange) {
  const Graph graph = ring_with_extras(world_size());
  Comm comm =
      graph_create(Comm::world(), graph.index, graph.edges, Reorder::no);
  for (int rank : {-1, world_size(), undefined, proc_null}) {
    EXPECT_EQ(thrown_class([&] { graph_neighbors(comm, rank); }),
              ErrorClass::rank)
        << "rank " << rank;
    EXPECT_EQ(thrown_class([&] { graph_neighbors_count(comm, rank); }),
              ErrorClass::rank)
        << "rank " << rank;
  }
}

}  // namespace
}  // namespace classic
