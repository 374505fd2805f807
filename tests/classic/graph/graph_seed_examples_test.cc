// The seeds' graph topology examples against classic's graph functions:
//  - MPI-1.1 Example 6.2 and the lecture notes' example:
//    four processes with neighbours 0: 1, 3; 1: 0; 2: 3; 3: 0, 2, given as
//    nnodes = 4, index = 2, 3, 4, 6, edges = 1, 3, 0, 3, 0, 2.
//  - MPI-1.1 Example 6.3: the shuffle-exchange topology of 2^n
//    processes and its program, which cycles A through the exchange,
//    shuffle and unshuffle neighbours with MPI_SENDRECV_REPLACE. At 8
//    processes the seed's table for n = 3 is checked entry by entry.
#include <gtest/gtest.h>
#include <mpi.h>

#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "classic/graph/graph.h"
#include "classic/p2p/point_to_point.h"
#include "classic/topology/topology.h"

namespace classic {
namespace {

int world_size() { return Environment::world_size(); }
int world_rank() { return Environment::world_rank(); }

// ---- Example 6.2 ----------------------------------------------------------

const std::vector<int> kIndex = {2, 3, 4, 6};
const std::vector<int> kEdges = {1, 3, 0, 3, 0, 2};
// The seeds' table "process | neighbors".
const std::vector<std::vector<int>> kNeighbourTable = {
    {1, 3}, {0}, {3}, {0, 2}};

TEST(SeedGraphExample, FourProcessGraphMatchesTheTable) {
  ASSERT_GE(world_size(), 4) << "the example has four processes";
  Comm graph = graph_create(Comm::world(), kIndex, kEdges, Reorder::no);
  if (world_rank() >= 4) {
    // "If the size, nnodes, of the graph is smaller than the size of the
    // group of comm, then some processes are returned MPI_COMM_NULL."
    EXPECT_TRUE(graph.is_null());
    return;
  }
  ASSERT_FALSE(graph.is_null());
  EXPECT_EQ(graph.size(), 4);
  EXPECT_EQ(graph.rank(), world_rank());  // reorder = false keeps ranks
  EXPECT_EQ(topo_test(graph), TopologyKind::graph);

  const GraphDims dims = graphdims_get(graph);
  EXPECT_EQ(dims.nnodes, 4);
  EXPECT_EQ(dims.nedges, 6);
  // "MPI_Graph_get - returns index and edges as supplied".
  const GraphInfo info = graph_get(graph);
  EXPECT_EQ(info.index, kIndex);
  EXPECT_EQ(info.edges, kEdges);
  for (int process = 0; process < 4; ++process) {
    const auto& row = kNeighbourTable[static_cast<std::size_t>(process)];
    EXPECT_EQ(graph_neighbors_count(graph, process),
              static_cast<int>(row.size()))
        << "process " << process;
    EXPECT_EQ(graph_neighbors(graph, process), row) << "process " << process;
  }
  // "index[0] is the degree of node zero, and index[i] - index[i-1] is the
  // degree of node i".
  EXPECT_EQ(graph_neighbors_count(graph, 0), kIndex[0]);
  for (int i = 1; i < 4; ++i) {
    EXPECT_EQ(graph_neighbors_count(graph, i), kIndex[i] - kIndex[i - 1]);
  }
}

TEST(SeedGraphExample, GraphMapPlacesTheFirstFourProcesses) {
  EXPECT_EQ(graph_map(Comm::world(), kIndex, kEdges),
            world_rank() < 4 ? world_rank() : undefined);
}

// ---- Example 6.3: shuffle-exchange ------------------------------------------

// The seed's table for n = 3: exchange, shuffle, unshuffle neighbours.
const std::vector<std::vector<int>> kShuffleExchangeTable = {
    {1, 0, 0}, {0, 2, 4}, {3, 4, 1}, {2, 6, 5},
    {5, 1, 2}, {4, 3, 6}, {7, 5, 3}, {6, 7, 7}};

// The labels' rules of the example, for any n: a = a_1 ... a_n with a_1 the
// most significant bit.
int exchange(int a, int n) {
  (void)n;
  return a ^ 1;
}
int shuffle(int a, int n) {  // a_2 ... a_n a_1: rotate left
  const int top = (a >> (n - 1)) & 1;
  return ((a << 1) & ((1 << n) - 1)) | top;
}
int unshuffle(int a, int n) {  // a_n a_1 ... a_{n-1}: rotate right
  return (a >> 1) | ((a & 1) << (n - 1));
}

int log2_exact(int size) {
  int n = 0;
  while ((1 << n) < size) ++n;
  return (1 << n) == size ? n : -1;
}

TEST(SeedShuffleExchange, RulesReproduceTheSeedsTable) {
  for (int a = 0; a < 8; ++a) {
    const std::vector<int> row = {exchange(a, 3), shuffle(a, 3),
                                  unshuffle(a, 3)};
    EXPECT_EQ(row, kShuffleExchangeTable[static_cast<std::size_t>(a)])
        << "node " << a;
  }
}

TEST(SeedShuffleExchange, ProgramCyclesThroughTheThreeNeighbours) {
  const int n = log2_exact(world_size());
  if (n < 1) GTEST_SKIP() << "needs 2^n processes, n >= 1";
  std::vector<int> index;
  std::vector<int> edges;
  for (int a = 0; a < world_size(); ++a) {
    const std::vector<int> row =
        n == 3
            ? kShuffleExchangeTable[static_cast<std::size_t>(a)]
            : std::vector<int>{exchange(a, n), shuffle(a, n), unshuffle(a, n)};
    edges.insert(edges.end(), row.begin(), row.end());
    index.push_back(static_cast<int>(edges.size()));
  }
  Comm comm = graph_create(Comm::world(), index, edges, Reorder::no);
  ASSERT_FALSE(comm.is_null());

  // The seed's program (Fortran indices 1, 2, 3 are 0, 1, 2 here).
  const int myrank = comm.rank();
  const std::vector<int> neighbors = graph_neighbors(comm, myrank);
  ASSERT_EQ(neighbors.size(), 3u);
  const auto value_of = [](int rank) { return 100.0f + rank; };
  float a = value_of(myrank);
  std::span<float> buffer(&a, 1);
  // perform exchange permutation
  sendrecv_replace(comm, buffer, neighbors[0], 0, neighbors[0], 0);
  EXPECT_EQ(a, value_of(exchange(myrank, n)));
  // perform shuffle permutation: A comes from the unshuffle neighbour
  const float before_shuffle = a;
  sendrecv_replace(comm, buffer, neighbors[1], 0, neighbors[2], 0);
  EXPECT_EQ(a, value_of(exchange(unshuffle(myrank, n), n)));
  // perform unshuffle permutation: undoes the shuffle
  sendrecv_replace(comm, buffer, neighbors[2], 0, neighbors[1], 0);
  EXPECT_EQ(a, before_shuffle);
}

}  // namespace
}  // namespace classic
