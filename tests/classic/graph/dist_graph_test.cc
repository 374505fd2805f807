// Tests of classic's MPI-2.2 distributed graph topology: both constructors,
// the neighbour queries, caching, and every erroneous call. Expected
// neighbour lists are computed here, independently, from one global edge
// list that every process draws from the same seed. Open MPI as an oracle:
// dist_graph_vs_openmpi_test.cc.
#include "classic/graph/dist_graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/graph/graph.h"
#include "classic/p2p/point_to_point.h"
#include "classic/topology/internal/topology_cache.h"
#include "classic/topology/topology.h"
#include "tests/classic/testing/communicators.h"
#include "tests/classic/testing/testing.h"

namespace classic {
namespace {

constexpr unsigned kSeed = 0xd157u;

using testing::fake_inter_communicator;
using testing::thrown_class;
using testing::world_rank;
using testing::world_size;

// One directed edge of the global list, and the process that gives it to
// dist_graph_create.
struct Edge {
  int source;
  int destination;
  int weight;
  int giver;
};

// The same random multigraph on every process (self loops and repeats
// included: few processes, many edges).
std::vector<Edge> random_edges(unsigned seed, int size, int count) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> process(0, size - 1);
  std::uniform_int_distribution<int> weight(0, 9);
  std::vector<Edge> edges;
  for (int i = 0; i < count; ++i) {
    edges.push_back(
        {process(random), process(random), weight(random), process(random)});
  }
  return edges;
}

// What `giver` passes to dist_graph_create: its edges in list order, one
// (source, degree) entry per run of equal sources, plus a degree-0 entry.
struct GeneralArguments {
  std::vector<int> sources;
  std::vector<int> degrees;
  std::vector<int> destinations;
  std::vector<int> weights;
};

GeneralArguments arguments_of(const std::vector<Edge>& edges, int giver) {
  GeneralArguments arguments;
  arguments.sources.push_back(giver);  // a source with no edges
  arguments.degrees.push_back(0);
  for (const Edge& edge : edges) {
    if (edge.giver != giver) continue;
    if (arguments.sources.size() == 1 ||
        arguments.sources.back() != edge.source) {
      arguments.sources.push_back(edge.source);
      arguments.degrees.push_back(0);
    }
    ++arguments.degrees.back();
    arguments.destinations.push_back(edge.destination);
    arguments.weights.push_back(edge.weight);
  }
  return arguments;
}

// The documented order of dist_graph_create: by giver, then by position in
// the giver's destinations, which is list order among one giver's edges.
DistGraphNeighbors expected_general(const std::vector<Edge>& edges, int rank,
                                    bool weighted) {
  std::vector<Edge> ordered = edges;
  std::stable_sort(
      ordered.begin(), ordered.end(),
      [](const Edge& a, const Edge& b) { return a.giver < b.giver; });
  DistGraphNeighbors expected;
  for (const Edge& edge : ordered) {
    if (edge.destination == rank) {
      expected.sources.push_back(edge.source);
      if (weighted) expected.source_weights.push_back(edge.weight);
    }
    if (edge.source == rank) {
      expected.destinations.push_back(edge.destination);
      if (weighted) expected.destination_weights.push_back(edge.weight);
    }
  }
  return expected;
}

// Adjacent arguments of `rank`: its in- and out-edges of the list, in an
// order shuffled with a per-process seed.
DistGraphNeighbors adjacent_arguments(const std::vector<Edge>& edges,
                                      int rank) {
  std::vector<Edge> in;
  std::vector<Edge> out;
  for (const Edge& edge : edges) {
    if (edge.destination == rank) in.push_back(edge);
    if (edge.source == rank) out.push_back(edge);
  }
  std::mt19937 random(kSeed + static_cast<unsigned>(rank));
  std::shuffle(in.begin(), in.end(), random);
  std::shuffle(out.begin(), out.end(), random);
  DistGraphNeighbors lists;
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

void expect_neighbours(const Comm& comm, const DistGraphNeighbors& expected,
                       bool weighted) {
  ASSERT_FALSE(comm.is_null());
  EXPECT_EQ(topo_test(comm), TopologyKind::dist_graph);
  const DistGraphCounts counts = dist_graph_neighbors_count(comm);
  EXPECT_EQ(counts.indegree, static_cast<int>(expected.sources.size()));
  EXPECT_EQ(counts.outdegree, static_cast<int>(expected.destinations.size()));
  EXPECT_EQ(counts.weighted, weighted);
  const DistGraphNeighbors got = dist_graph_neighbors(comm);
  EXPECT_EQ(got.sources, expected.sources);
  EXPECT_EQ(got.destinations, expected.destinations);
  EXPECT_EQ(got.source_weights,
            weighted ? expected.source_weights : std::vector<int>{});
  EXPECT_EQ(got.destination_weights,
            weighted ? expected.destination_weights : std::vector<int>{});
}

void expect_congruent_to_world(const Comm& comm) {
  EXPECT_EQ(comm.rank(), world_rank());
  EXPECT_EQ(comm.compare(Comm::world()), Comparison::congruent);
}

// ---- dist_graph_create_adjacent -------------------------------------------

TEST(DistGraphCreateAdjacent, KeepsTheGivenOrderUnweighted) {
  const int n = world_size();
  const int r = world_rank();
  // Left, right and self, in different orders on the two sides.
  const std::vector<int> sources = {(r + n - 1) % n, (r + 1) % n, r};
  const std::vector<int> destinations = {r, (r + 1) % n, (r + n - 1) % n};
  Comm comm = dist_graph_create_adjacent(Comm::world(), sources, unweighted,
                                         destinations, unweighted);
  expect_congruent_to_world(comm);
  expect_neighbours(comm, {sources, {}, destinations, {}}, false);
}

TEST(DistGraphCreateAdjacent, RandomMultigraphsWithWeights) {
  for (unsigned round = 0; round < 8; ++round) {
    const auto edges =
        random_edges(kSeed + round, world_size(), 6 * world_size());
    const DistGraphNeighbors lists = adjacent_arguments(edges, world_rank());
    const Info hints = {{"reorder_hint", "ignored"}};
    Comm weighted = dist_graph_create_adjacent(
        Comm::world(), lists.sources, lists.source_weights, lists.destinations,
        lists.destination_weights, hints, Reorder::yes);
    expect_congruent_to_world(weighted);
    expect_neighbours(weighted, lists, true);
    Comm plain =
        dist_graph_create_adjacent(Comm::world(), lists.sources, unweighted,
                                   lists.destinations, unweighted);
    expect_neighbours(plain, lists, false);
  }
}

TEST(DistGraphCreateAdjacent, WeightedWithoutEdgesStaysWeighted) {
  Comm comm = dist_graph_create_adjacent(Comm::world(), {}, {}, {}, {});
  expect_neighbours(comm, {}, true);
}

// ---- dist_graph_create ----------------------------------------------------

TEST(DistGraphCreate, EdgesFromArbitraryProcessesReachBothEnds) {
  for (unsigned round = 0; round < 12; ++round) {
    const bool weighted = round % 2 == 0;
    const auto edges =
        random_edges(kSeed * 7 + round, world_size(),
                     (2 + static_cast<int>(round)) * world_size());
    const GeneralArguments mine = arguments_of(edges, world_rank());
    Comm comm =
        weighted ? dist_graph_create(Comm::world(), mine.sources, mine.degrees,
                                     mine.destinations, mine.weights)
                 : dist_graph_create(Comm::world(), mine.sources, mine.degrees,
                                     mine.destinations, unweighted);
    expect_congruent_to_world(comm);
    expect_neighbours(comm, expected_general(edges, world_rank(), weighted),
                      weighted);
  }
}

TEST(DistGraphCreate, OwnOutEdgesKeepTheirGivenOrder) {
  const int n = world_size();
  const int r = world_rank();
  const std::vector<int> destinations = {(r + 2) % n, r, (r + 1) % n, r};
  const std::vector<int> weights = {4, 3, 2, 1};
  const std::vector<int> sources = {r};
  const std::vector<int> degrees = {4};
  Comm comm =
      dist_graph_create(Comm::world(), sources, degrees, destinations, weights);
  const DistGraphNeighbors got = dist_graph_neighbors(comm);
  EXPECT_EQ(got.destinations, destinations);
  EXPECT_EQ(got.destination_weights, weights);
  // In-edges from rank q arrive in q's order: q's list holds r at positions
  // where (q + 2) % n, q, (q + 1) % n or q equal r; by giver q ascending.
  std::vector<int> expected_sources;
  std::vector<int> expected_weights;
  for (int q = 0; q < n; ++q) {
    const std::vector<int> theirs = {(q + 2) % n, q, (q + 1) % n, q};
    for (std::size_t i = 0; i < theirs.size(); ++i) {
      if (theirs[i] == r) {
        expected_sources.push_back(q);
        expected_weights.push_back(weights[i]);
      }
    }
  }
  EXPECT_EQ(got.sources, expected_sources);
  EXPECT_EQ(got.source_weights, expected_weights);
}

TEST(DistGraphCreate, NoEdgesAnywhere) {
  Comm comm = dist_graph_create(Comm::world(), {}, {}, {}, unweighted);
  expect_neighbours(comm, {}, false);
}

TEST(DistGraphCreate, LeavesNoMessageForTheApplication) {
  const auto edges = random_edges(kSeed, world_size(), 4 * world_size());
  const GeneralArguments mine = arguments_of(edges, world_rank());
  Comm comm = dist_graph_create(Comm::world(), mine.sources, mine.degrees,
                                mine.destinations, mine.weights);
  EXPECT_FALSE(iprobe(comm, any_source, any_tag).has_value());
  EXPECT_FALSE(iprobe(Comm::world(), any_source, any_tag).has_value());
}

// ---- caching --------------------------------------------------------------

TEST(DistGraphTopology, KeptByDupDroppedBySplitAndCreate) {
  const auto edges = random_edges(kSeed + 99, world_size(), 5 * world_size());
  const DistGraphNeighbors lists = adjacent_arguments(edges, world_rank());
  Comm comm = dist_graph_create_adjacent(
      Comm::world(), lists.sources, lists.source_weights, lists.destinations,
      lists.destination_weights);
  expect_neighbours(comm.dup(), lists, true);
  EXPECT_EQ(topo_test(comm.split(0, world_rank())), TopologyKind::undefined);
  EXPECT_EQ(topo_test(comm.create(comm.group())), TopologyKind::undefined);
}

TEST(DistGraphTopology, FreedWithItsCommunicators) {
  const Comm world = Comm::world();  // made before counting
  const std::size_t topologies = internal::live_topology_count();
  const std::size_t comms = Comm::live_count();
  {
    Comm comm = dist_graph_create(Comm::world(), {}, {}, {}, unweighted);
    Comm duplicate = comm.dup();
    Comm adjacent =
        dist_graph_create_adjacent(duplicate, {}, unweighted, {}, unweighted);
    EXPECT_EQ(internal::live_topology_count(), topologies + 3);
    comm.free();
    EXPECT_EQ(internal::live_topology_count(), topologies + 2);
  }
  EXPECT_EQ(internal::live_topology_count(), topologies);
  EXPECT_EQ(Comm::live_count(), comms);
}

// ---- errors, one test each ------------------------------------------------

TEST(DistGraphErrors, NullCommunicator) {
  EXPECT_EQ(thrown_class([] {
              (void)dist_graph_create_adjacent(Comm(), {}, unweighted, {},
                                               unweighted);
            }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([] {
              (void)dist_graph_create(Comm(), {}, {}, {}, unweighted);
            }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([] { dist_graph_neighbors_count(Comm()); }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([] { dist_graph_neighbors(Comm()); }),
            ErrorClass::comm);
}

TEST(DistGraphErrors, FreedCommunicator) {
  Comm comm = dist_graph_create(Comm::world(), {}, {}, {}, unweighted);
  Comm copy = comm;
  comm.free();
  EXPECT_EQ(thrown_class(
                [&] { (void)dist_graph_create(copy, {}, {}, {}, unweighted); }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { dist_graph_neighbors(copy); }),
            ErrorClass::comm);
}

TEST(DistGraphErrors, InterCommunicator) {
  Comm inter = fake_inter_communicator();
  EXPECT_EQ(thrown_class([&] {
              (void)dist_graph_create_adjacent(inter, {}, unweighted, {},
                                               unweighted);
            }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] {
              (void)dist_graph_create(inter, {}, {}, {}, unweighted);
            }),
            ErrorClass::comm);
}

TEST(DistGraphErrors, NegativeDegree) {
  const std::vector<int> sources = {0, 0};
  const std::vector<int> degrees = {1, -1};
  EXPECT_EQ(thrown_class([&] {
              (void)dist_graph_create(Comm::world(), sources, degrees, {},
                                      unweighted);
            }),
            ErrorClass::arg);
}

TEST(DistGraphErrors, RanksOutOfRange) {
  const std::vector<int> zero = {0};
  const std::vector<int> one = {1};
  for (int bad : {-1, world_size(), proc_null}) {
    const std::vector<int> ranks = {bad};
    EXPECT_EQ(thrown_class([&] {
                (void)dist_graph_create_adjacent(Comm::world(), ranks,
                                                 unweighted, {}, unweighted);
              }),
              ErrorClass::rank);
    EXPECT_EQ(thrown_class([&] {
                (void)dist_graph_create_adjacent(Comm::world(), {}, unweighted,
                                                 ranks, unweighted);
              }),
              ErrorClass::rank);
    EXPECT_EQ(thrown_class([&] {
                (void)dist_graph_create(Comm::world(), ranks, one, zero,
                                        unweighted);
              }),
              ErrorClass::rank);
    EXPECT_EQ(thrown_class([&] {
                (void)dist_graph_create(Comm::world(), zero, one, ranks,
                                        unweighted);
              }),
              ErrorClass::rank);
  }
}

TEST(DistGraphErrors, NegativeWeights) {
  const int r = world_rank();
  const std::vector<int> self = {r};
  const std::vector<int> negative = {-3};
  const std::vector<int> zero = {0};
  EXPECT_EQ(thrown_class([&] {
              (void)dist_graph_create_adjacent(Comm::world(), self, negative,
                                               self, zero);
            }),
            ErrorClass::arg);
  EXPECT_EQ(thrown_class([&] {
              (void)dist_graph_create_adjacent(Comm::world(), self, zero, self,
                                               negative);
            }),
            ErrorClass::arg);
  const std::vector<int> one = {1};
  EXPECT_EQ(thrown_class([&] {
              (void)dist_graph_create(Comm::world(), self, one, self, negative);
            }),
            ErrorClass::arg);
}

TEST(DistGraphErrors, WeightedOnSomeProcessesUnweightedOnOthers) {
  if (world_size() < 2) GTEST_SKIP() << "needs two processes";
  EXPECT_EQ(thrown_class([&] {
              if (world_rank() == 0) {
                (void)dist_graph_create(Comm::world(), {}, {}, {},
                                        std::vector<int>{});
              } else {
                (void)dist_graph_create(Comm::world(), {}, {}, {}, unweighted);
              }
            }),
            ErrorClass::arg);
  EXPECT_EQ(thrown_class([&] {
              if (world_rank() == 0) {
                (void)dist_graph_create_adjacent(Comm::world(), {}, {}, {}, {});
              } else {
                (void)dist_graph_create_adjacent(Comm::world(), {}, unweighted,
                                                 {}, unweighted);
              }
            }),
            ErrorClass::arg);
}

TEST(DistGraphErrors, ListsOfWrongLengths) {
  const std::vector<int> self = {world_rank()};
  const std::vector<int> two = {1, 1};
  const std::vector<int> one = {1};
  const std::vector<int> none;
  const auto adjacent = [](std::span<const int> s, std::span<const int> sw,
                           std::span<const int> d, std::span<const int> dw) {
    return thrown_class(
        [&] { (void)dist_graph_create_adjacent(Comm::world(), s, sw, d, dw); });
  };
  EXPECT_EQ(adjacent(self, two, self, one), ErrorClass::arg);   // sourceweights
  EXPECT_EQ(adjacent(self, one, self, none), ErrorClass::arg);  // destweights
  const auto general = [](std::span<const int> s, std::span<const int> deg,
                          std::span<const int> d, std::span<const int> w) {
    return thrown_class(
        [&] { (void)dist_graph_create(Comm::world(), s, deg, d, w); });
  };
  EXPECT_EQ(general(self, two, self, one), ErrorClass::arg);   // degrees
  EXPECT_EQ(general(self, two, two, two), ErrorClass::arg);    // degrees
  EXPECT_EQ(general(self, one, none, none), ErrorClass::arg);  // destinations
  EXPECT_EQ(general(self, one, self, two), ErrorClass::arg);   // weights
}

TEST(DistGraphErrors, OneProcessAtFaultFailsEveryProcessWithItsClass) {
  const int last = world_size() - 1;
  const std::vector<int> ranks = {world_rank() == last ? world_size() : 0};
  const std::vector<int> zero = {0};
  const std::vector<int> one = {1};
  EXPECT_EQ(thrown_class([&] {
              (void)dist_graph_create(Comm::world(), zero, one, ranks,
                                      unweighted);
            }),
            ErrorClass::rank);
}

TEST(DistGraphErrors, AdjacentListsThatDisagree) {
  const int n = world_size();
  const int r = world_rank();
  const std::vector<int> next = {(r + 1) % n};
  // Every process sends to its successor, which lists no source.
  EXPECT_EQ(thrown_class([&] {
              (void)dist_graph_create_adjacent(Comm::world(), {}, unweighted,
                                               next, unweighted);
            }),
            ErrorClass::topology);
  // Both ends list the edge, with different weights on process 0's edge.
  const std::vector<int> previous = {(r + n - 1) % n};
  const std::vector<int> out_weight = {r == 0 ? 5 : 1};
  const std::vector<int> in_weight = {1};
  EXPECT_EQ(thrown_class([&] {
              (void)dist_graph_create_adjacent(Comm::world(), previous,
                                               in_weight, next, out_weight);
            }),
            ErrorClass::topology);
  // The same edge listed twice on one end only.
  const std::vector<int> twice = {(r + 1) % n, (r + 1) % n};
  const std::vector<int> previous_twice = {(r + n - 1) % n};
  EXPECT_EQ(thrown_class([&] {
              (void)dist_graph_create_adjacent(Comm::world(), previous_twice,
                                               unweighted, twice, unweighted);
            }),
            ErrorClass::topology);
}

TEST(DistGraphErrors, QueriesOnACommunicatorWithoutADistributedGraph) {
  EXPECT_EQ(thrown_class([] { dist_graph_neighbors_count(Comm::world()); }),
            ErrorClass::topology);
  EXPECT_EQ(thrown_class([] { dist_graph_neighbors(Comm::world()); }),
            ErrorClass::topology);
  const std::vector<int> index(static_cast<std::size_t>(world_size()), 0);
  Comm graph = graph_create(Comm::world(), index, {}, Reorder::no);
  EXPECT_EQ(thrown_class([&] { dist_graph_neighbors(graph); }),
            ErrorClass::topology);
  Comm dist = dist_graph_create(Comm::world(), {}, {}, {}, unweighted);
  EXPECT_EQ(thrown_class([&] { graph_neighbors(dist, 0); }),
            ErrorClass::topology);
}

}  // namespace
}  // namespace classic
