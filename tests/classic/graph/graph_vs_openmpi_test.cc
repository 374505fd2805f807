// Differential tests: classic's graph topology against Open MPI's
// MPI_Graph_create (reorder = 0), MPI_Graphdims_get, MPI_Graph_get,
// MPI_Graph_neighbors_count, MPI_Graph_neighbors, MPI_Graph_map and
// MPI_Topo_test on the same random graphs (self loops and repeated edges
// included). Every process draws from the same seed, so all pass the same
// graph, as both libraries require.
#include <gtest/gtest.h>
#include <mpi.h>

#include <random>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "classic/graph/graph.h"
#include "classic/topology/topology.h"

namespace classic {
namespace {

constexpr unsigned kSeed = 0x96a9u;
constexpr int kGraphs = 100;

int world_size() { return Environment::world_size(); }

struct RandomGraph {
  std::vector<int> index;
  std::vector<int> edges;
};

// nnodes in [1, size], degrees in [0, 5], neighbours drawn with repetition
// (so repeats and self loops occur).
RandomGraph random_graph(std::mt19937& random, int size) {
  const int nnodes = std::uniform_int_distribution<int>(1, size)(random);
  std::uniform_int_distribution<int> degree(0, 5);
  std::uniform_int_distribution<int> node(0, nnodes - 1);
  RandomGraph graph;
  for (int i = 0; i < nnodes; ++i) {
    for (int d = degree(random); d > 0; --d)
      graph.edges.push_back(node(random));
    graph.index.push_back(static_cast<int>(graph.edges.size()));
  }
  return graph;
}

// Open MPI wants a non-null pointer even for no edges.
int* data_or_dummy(std::vector<int>& values) {
  static int dummy = 0;
  return values.empty() ? &dummy : values.data();
}

void compare_queries(const Comm& ours, MPI_Comm theirs, int case_number) {
  SCOPED_TRACE(testing::Message() << "graph " << case_number);
  int status = MPI_UNDEFINED;
  MPI_Topo_test(theirs, &status);
  EXPECT_EQ(status, MPI_GRAPH);
  EXPECT_EQ(topo_test(ours), TopologyKind::graph);

  int size = 0;
  int rank = 0;
  MPI_Comm_size(theirs, &size);
  MPI_Comm_rank(theirs, &rank);
  EXPECT_EQ(ours.size(), size);
  EXPECT_EQ(ours.rank(), rank);

  int nnodes = 0;
  int nedges = 0;
  MPI_Graphdims_get(theirs, &nnodes, &nedges);
  const GraphDims dims = graphdims_get(ours);
  EXPECT_EQ(dims.nnodes, nnodes);
  EXPECT_EQ(dims.nedges, nedges);

  std::vector<int> index(static_cast<std::size_t>(nnodes));
  std::vector<int> edges(static_cast<std::size_t>(nedges));
  MPI_Graph_get(theirs, nnodes, nedges, data_or_dummy(index),
                data_or_dummy(edges));
  const GraphInfo info = graph_get(ours);
  EXPECT_EQ(info.index, index);
  EXPECT_EQ(info.edges, edges);

  for (int r = 0; r < nnodes; ++r) {
    int count = 0;
    MPI_Graph_neighbors_count(theirs, r, &count);
    EXPECT_EQ(graph_neighbors_count(ours, r), count) << "rank " << r;
    std::vector<int> neighbours(static_cast<std::size_t>(count));
    MPI_Graph_neighbors(theirs, r, count, data_or_dummy(neighbours));
    EXPECT_EQ(graph_neighbors(ours, r), neighbours) << "rank " << r;
  }
}

TEST(GraphVsOpenMpi, RandomGraphsAgreeOnEveryQuery) {
  std::mt19937 random(kSeed);
  for (int c = 0; c < kGraphs; ++c) {
    RandomGraph graph = random_graph(random, world_size());
    const int nnodes = static_cast<int>(graph.index.size());
    MPI_Comm theirs = MPI_COMM_NULL;
    ASSERT_EQ(MPI_Graph_create(MPI_COMM_WORLD, nnodes, graph.index.data(),
                               data_or_dummy(graph.edges), 0, &theirs),
              MPI_SUCCESS);
    Comm ours =
        graph_create(Comm::world(), graph.index, graph.edges, Reorder::no);
    ASSERT_EQ(ours.is_null(), theirs == MPI_COMM_NULL) << "graph " << c;
    if (theirs != MPI_COMM_NULL) {
      compare_queries(ours, theirs, c);
      MPI_Comm_free(&theirs);
    }
  }
}

TEST(GraphVsOpenMpi, GraphMapAgrees) {
  std::mt19937 random(kSeed + 1);
  for (int c = 0; c < kGraphs; ++c) {
    RandomGraph graph = random_graph(random, world_size());
    const int nnodes = static_cast<int>(graph.index.size());
    int theirs = 0;
    ASSERT_EQ(MPI_Graph_map(MPI_COMM_WORLD, nnodes, graph.index.data(),
                            data_or_dummy(graph.edges), &theirs),
              MPI_SUCCESS);
    const int ours = graph_map(Comm::world(), graph.index, graph.edges);
    if (theirs != MPI_UNDEFINED && theirs >= nnodes) {
      // Open MPI 4.1 returns the caller's rank even where it is no node of
      // the graph; MPI-1 section 6.5.7 asks for MPI_UNDEFINED there.
      EXPECT_EQ(ours, undefined) << "graph " << c;
    } else {
      EXPECT_EQ(ours, theirs == MPI_UNDEFINED ? undefined : theirs)
          << "graph " << c;
    }
  }
}

}  // namespace
}  // namespace classic
