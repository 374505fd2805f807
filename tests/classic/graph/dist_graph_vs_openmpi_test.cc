// Differential tests: classic's distributed graph topology against Open
// MPI's MPI_Dist_graph_create_adjacent, MPI_Dist_graph_create,
// MPI_Dist_graph_neighbors_count and MPI_Dist_graph_neighbors (reorder = 0)
// on the same random multigraphs (self loops and repeated edges included),
// with and without weights. Every process draws the global edge list from
// the same seed and passes its own part.
//
// The adjacent form keeps the given order in both libraries, so the lists
// must agree exactly. For dist_graph_create the standard leaves the order
// of a process's neighbours open, and Open MPI's differs from classic's
// documented one (by giver, then position), so there the lists are
// compared as multisets of (peer, weight).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/topology/topology.h"

namespace classic {
namespace {

constexpr unsigned kSeed = 0xd1570u;
constexpr int kGraphs = 40;

int world_size() { return Environment::world_size(); }
int world_rank() { return Environment::world_rank(); }

struct Edge {
  int source;
  int destination;
  int weight;
  int giver;
};

std::vector<Edge> random_edges(std::mt19937& random, int size) {
  const int count = std::uniform_int_distribution<int>(0, 6 * size)(random);
  std::uniform_int_distribution<int> process(0, size - 1);
  std::uniform_int_distribution<int> weight(0, 100);
  std::vector<Edge> edges;
  for (int i = 0; i < count; ++i) {
    edges.push_back(
        {process(random), process(random), weight(random), process(random)});
  }
  return edges;
}

// Open MPI wants non-null arrays even when they are empty.
const int* data_or_dummy(const std::vector<int>& values) {
  static const int dummy = 0;
  return values.empty() ? &dummy : values.data();
}
int* data_or_dummy(std::vector<int>& values) {
  static int dummy = 0;
  return values.empty() ? &dummy : values.data();
}

struct Lists {
  std::vector<int> sources;
  std::vector<int> source_weights;
  std::vector<int> destinations;
  std::vector<int> destination_weights;
  bool weighted = false;
};

Lists lists_of(MPI_Comm comm) {
  int indegree = 0;
  int outdegree = 0;
  int weighted = 0;
  MPI_Dist_graph_neighbors_count(comm, &indegree, &outdegree, &weighted);
  Lists lists;
  lists.weighted = weighted != 0;
  lists.sources.resize(static_cast<std::size_t>(indegree));
  lists.destinations.resize(static_cast<std::size_t>(outdegree));
  if (lists.weighted) {
    lists.source_weights.resize(lists.sources.size());
    lists.destination_weights.resize(lists.destinations.size());
    MPI_Dist_graph_neighbors(comm, indegree, data_or_dummy(lists.sources),
                             data_or_dummy(lists.source_weights), outdegree,
                             data_or_dummy(lists.destinations),
                             data_or_dummy(lists.destination_weights));
  } else {
    MPI_Dist_graph_neighbors(comm, indegree, data_or_dummy(lists.sources),
                             MPI_UNWEIGHTED, outdegree,
                             data_or_dummy(lists.destinations), MPI_UNWEIGHTED);
  }
  return lists;
}

Lists lists_of(const Comm& comm) {
  const DistGraphCounts counts = dist_graph_neighbors_count(comm);
  DistGraphNeighbors neighbours = dist_graph_neighbors(comm);
  EXPECT_EQ(counts.indegree, static_cast<int>(neighbours.sources.size()));
  EXPECT_EQ(counts.outdegree, static_cast<int>(neighbours.destinations.size()));
  return {std::move(neighbours.sources), std::move(neighbours.source_weights),
          std::move(neighbours.destinations),
          std::move(neighbours.destination_weights), counts.weighted};
}

std::vector<std::pair<int, int>> multiset(const std::vector<int>& peers,
                                          const std::vector<int>& weights) {
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t i = 0; i < peers.size(); ++i) {
    pairs.push_back({peers[i], weights.empty() ? 0 : weights[i]});
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

enum class Order { exact, multiset };

void expect_same(const Lists& ours, const Lists& theirs, Order order) {
  EXPECT_EQ(ours.weighted, theirs.weighted);
  if (order == Order::exact) {
    EXPECT_EQ(ours.sources, theirs.sources);
    EXPECT_EQ(ours.destinations, theirs.destinations);
    EXPECT_EQ(ours.source_weights, theirs.source_weights);
    EXPECT_EQ(ours.destination_weights, theirs.destination_weights);
  } else {
    EXPECT_EQ(multiset(ours.sources, ours.source_weights),
              multiset(theirs.sources, theirs.source_weights));
    EXPECT_EQ(multiset(ours.destinations, ours.destination_weights),
              multiset(theirs.destinations, theirs.destination_weights));
  }
}

// This process's in- and out-edges, shuffled with a per-process seed.
Lists adjacent_lists(const std::vector<Edge>& edges, unsigned seed) {
  std::vector<Edge> in;
  std::vector<Edge> out;
  for (const Edge& edge : edges) {
    if (edge.destination == world_rank()) in.push_back(edge);
    if (edge.source == world_rank()) out.push_back(edge);
  }
  std::mt19937 random(seed + static_cast<unsigned>(world_rank()));
  std::shuffle(in.begin(), in.end(), random);
  std::shuffle(out.begin(), out.end(), random);
  Lists lists;
  for (const Edge& edge : in) {
    lists.sources.push_back(edge.source);
    lists.source_weights.push_back(edge.weight);
  }
  for (const Edge& edge : out) {
    lists.destinations.push_back(edge.destination);
    lists.destination_weights.push_back(edge.weight);
  }
  return lists;
}

TEST(DistGraphVsOpenMpi, AdjacentAgreesExactly) {
  std::mt19937 random(kSeed);
  for (int c = 0; c < kGraphs; ++c) {
    SCOPED_TRACE(testing::Message() << "graph " << c);
    const bool weighted = c % 2 == 0;
    const Lists given =
        adjacent_lists(random_edges(random, world_size()), kSeed + c);
    MPI_Comm theirs = MPI_COMM_NULL;
    const int indegree = static_cast<int>(given.sources.size());
    const int outdegree = static_cast<int>(given.destinations.size());
    ASSERT_EQ(
        MPI_Dist_graph_create_adjacent(
            MPI_COMM_WORLD, indegree, data_or_dummy(given.sources),
            weighted ? data_or_dummy(given.source_weights) : MPI_UNWEIGHTED,
            outdegree, data_or_dummy(given.destinations),
            weighted ? data_or_dummy(given.destination_weights)
                     : MPI_UNWEIGHTED,
            MPI_INFO_NULL, 0, &theirs),
        MPI_SUCCESS);
    Comm ours = weighted
                    ? dist_graph_create_adjacent(
                          Comm::world(), given.sources, given.source_weights,
                          given.destinations, given.destination_weights)
                    : dist_graph_create_adjacent(Comm::world(), given.sources,
                                                 unweighted, given.destinations,
                                                 unweighted);
    int status = MPI_UNDEFINED;
    MPI_Topo_test(theirs, &status);
    EXPECT_EQ(status, MPI_DIST_GRAPH);
    EXPECT_EQ(topo_test(ours), TopologyKind::dist_graph);
    expect_same(lists_of(ours), lists_of(theirs), Order::exact);
    MPI_Comm_free(&theirs);
  }
}

// What `giver` passes to dist_graph_create: its edges in list order, one
// (source, degree) entry per run of equal sources.
struct GeneralArguments {
  std::vector<int> sources;
  std::vector<int> degrees;
  std::vector<int> destinations;
  std::vector<int> weights;
};

GeneralArguments general_arguments(const std::vector<Edge>& edges) {
  GeneralArguments arguments;
  for (const Edge& edge : edges) {
    if (edge.giver != world_rank()) continue;
    if (arguments.sources.empty() || arguments.sources.back() != edge.source) {
      arguments.sources.push_back(edge.source);
      arguments.degrees.push_back(0);
    }
    ++arguments.degrees.back();
    arguments.destinations.push_back(edge.destination);
    arguments.weights.push_back(edge.weight);
  }
  return arguments;
}

TEST(DistGraphVsOpenMpi, GeneralAgreesAsMultisets) {
  std::mt19937 random(kSeed + 1);
  for (int c = 0; c < kGraphs; ++c) {
    SCOPED_TRACE(testing::Message() << "graph " << c);
    const bool weighted = c % 2 == 0;
    const GeneralArguments given =
        general_arguments(random_edges(random, world_size()));
    MPI_Comm theirs = MPI_COMM_NULL;
    ASSERT_EQ(MPI_Dist_graph_create(
                  MPI_COMM_WORLD, static_cast<int>(given.sources.size()),
                  data_or_dummy(given.sources), data_or_dummy(given.degrees),
                  data_or_dummy(given.destinations),
                  weighted ? data_or_dummy(given.weights) : MPI_UNWEIGHTED,
                  MPI_INFO_NULL, 0, &theirs),
              MPI_SUCCESS);
    Comm ours =
        weighted
            ? dist_graph_create(Comm::world(), given.sources, given.degrees,
                                given.destinations, given.weights)
            : dist_graph_create(Comm::world(), given.sources, given.degrees,
                                given.destinations, unweighted);
    expect_same(lists_of(ours), lists_of(theirs), Order::multiset);
    MPI_Comm_free(&theirs);
  }
}

}  // namespace
}  // namespace classic
