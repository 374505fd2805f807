// Reorder::yes on general directed graphs (ortho/mapping.h): Scotch's
// placement, taken only where it lowers the weight between hosts. The
// hosts are given to the mapping step directly (white-box:
// ortho/internal/mapping.h) so that one machine can test several hosts, or
// simulated with ORTHO_HOSTS through the public constructors. Every oracle
// is brute force over the global graph, which every process generates
// alike: the weight between hosts of the identity and of the placement
// taken, the neighbour lists each new rank must hold (data follows the
// vertex), the permutation against the processes' world ranks, and what
// allgather and alltoall deliver on the mapped graph.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/internal/graph_placement.h"
#include "ortho/internal/mapping.h"
#include "ortho/mapping.h"

namespace {

using classic::Comm;
using ortho::KeptBecause;
using ortho::internal::Adjacency;

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// The global graph: per vertex its out-edges (target, weight) in the
// user's order; the in-lists follow (sources in rank order, then by
// position), as every process can compute them.
struct Graph {
  std::vector<std::vector<int>> out, out_weights, in, in_weights;
  bool weighted = false;
};

Graph with_in_lists(Graph g) {
  const int n = static_cast<int>(g.out.size());
  g.in.assign(at(n), {});
  g.in_weights.assign(at(n), {});
  for (int v = 0; v < n; ++v) {
    for (std::size_t i = 0; i < g.out[at(v)].size(); ++i) {
      const int to = g.out[at(v)][i];
      g.in[at(to)].push_back(v);
      g.in_weights[at(to)].push_back(g.out_weights[at(v)][i]);
    }
  }
  return g;
}

// Random multigraph: self loops, duplicates, empty lists.
Graph random_graph(int n, unsigned seed, bool weighted) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> degree(0, 4);
  std::uniform_int_distribution<int> vertex(0, n - 1);
  std::uniform_int_distribution<int> weight(0, 20);
  Graph g;
  g.weighted = weighted;
  g.out.assign(at(n), {});
  g.out_weights.assign(at(n), {});
  for (int v = 0; v < n; ++v) {
    for (int d = degree(random); d > 0; --d) {
      g.out[at(v)].push_back(vertex(random));
      g.out_weights[at(v)].push_back(weighted ? weight(random) : 1);
    }
  }
  return with_in_lists(g);
}

// Cliques of the vertices alike modulo `cliques`, edges both ways.
Graph interleaved_cliques(int n, int cliques) {
  Graph g;
  g.out.assign(at(n), {});
  g.out_weights.assign(at(n), {});
  for (int v = 0; v < n; ++v) {
    for (int u = v % cliques; u < n; u += cliques) {
      if (u == v) continue;
      g.out[at(v)].push_back(u);
      g.out_weights[at(v)].push_back(1);
    }
  }
  return with_in_lists(g);
}

Adjacency adjacency_of(const Graph& g, int vertex) {
  Adjacency a;
  a.weighted = g.weighted;
  a.sources = g.in[at(vertex)];
  a.destinations = g.out[at(vertex)];
  if (g.weighted) {
    a.source_weights = g.in_weights[at(vertex)];
    a.destination_weights = g.out_weights[at(vertex)];
  }
  return a;
}

// Brute force: the weight of the edges between hosts when vertex v runs on
// host_of_vertex[v].
std::int64_t weight_between(const Graph& g,
                            const std::vector<int>& host_of_vertex) {
  std::int64_t weight = 0;
  for (std::size_t v = 0; v < g.out.size(); ++v) {
    for (std::size_t i = 0; i < g.out[v].size(); ++i) {
      if (host_of_vertex[at(g.out[v][i])] != host_of_vertex[v]) {
        weight += std::max(0, g.out_weights[v][i]);
      }
    }
  }
  return weight;
}

// The world rank of each rank of `comm` (a communicator of all of world).
std::vector<int> world_rank_of_rank(const Comm& comm) {
  const int pair[2] = {comm.rank(), Comm::world().rank()};
  std::vector<int> all(2 * at(comm.size()));
  MPI_Allgather(pair, 2, MPI_INT, all.data(), 2, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> result(at(comm.size()));
  for (std::size_t i = 0; i < all.size(); i += 2) {
    result[at(all[i])] = all[i + 1];
  }
  return result;
}

// What allgather and alltoall must deliver at `vertex`: allgather each
// in-neighbour's vertex number; alltoall from in-neighbour s the value
// 1000 s + i where i is the position of the edge in s's out-list that
// pairs with this in-edge (the k-th edge s -> vertex pairs with the k-th
// s among vertex's sources).
std::vector<int> expected_blocks(const Graph& g, int vertex) {
  std::vector<int> expected = g.in[at(vertex)];
  std::vector<int> seen(g.out.size(), 0);
  for (const int s : g.in[at(vertex)]) {
    int k = seen[at(s)]++;
    for (std::size_t i = 0; i < g.out[at(s)].size(); ++i) {
      if (g.out[at(s)][i] == vertex && k-- == 0) {
        expected.push_back(1000 * s + static_cast<int>(i));
        break;
      }
    }
  }
  return expected;
}

std::vector<int> delivered_blocks(const Comm& graph) {
  const int vertex = graph.rank();
  const classic::DistGraphCounts counts =
      classic::dist_graph_neighbors_count(graph);
  std::vector<int> send(at(counts.outdegree));
  std::iota(send.begin(), send.end(), 1000 * vertex);
  std::vector<int> received(2 * at(counts.indegree) + 1, -1);
  ortho::allgather(graph, &vertex, 1, MPI_INT, received.data(), 1, MPI_INT);
  ortho::alltoall(graph, send.data(), 1, MPI_INT,
                  received.data() + counts.indegree, 1, MPI_INT);
  received.pop_back();
  return received;
}

// Everything a mapping of `g` on `hosts` (host of each world rank) must
// hold; `comm` is world's duplicate it was made from.
void check_mapping(const Comm& comm, const Graph& g,
                   const std::vector<int>& hosts,
                   const ortho::internal::Mapping& mapping) {
  const std::int64_t identity = weight_between(g, hosts);
  ASSERT_TRUE(mapping.facts.identity.has_value());
  EXPECT_EQ(mapping.facts.identity->weight, identity);
  if (!mapping.graph) {
    EXPECT_FALSE(mapping.facts.mapped());
    if (ortho::internal::scotch_built_in()) {
      EXPECT_EQ(mapping.facts.kept_because, KeptBecause::no_gain);
      ASSERT_TRUE(mapping.facts.scotch.has_value());
      EXPECT_GE(mapping.facts.scotch->weight, identity);
    } else {
      EXPECT_EQ(mapping.facts.kept_because, KeptBecause::no_scotch);
    }
    return;
  }
  const Comm& graph = *mapping.graph;
  EXPECT_TRUE(mapping.facts.mapped());
  EXPECT_EQ(mapping.facts.placement, ortho::Placement::scotch);
  EXPECT_EQ(mapping.facts.kept_because, KeptBecause::placed);
  // The permutation is where the processes are: old rank = world rank.
  EXPECT_EQ(mapping.facts.old_rank, world_rank_of_rank(graph));
  std::vector<int> host_of_vertex(hosts.size());
  for (std::size_t q = 0; q < hosts.size(); ++q) {
    host_of_vertex[q] = hosts[at(mapping.facts.old_rank[q])];
  }
  const std::int64_t placed = weight_between(g, host_of_vertex);
  ASSERT_TRUE(mapping.facts.scotch.has_value());
  EXPECT_EQ(mapping.facts.scotch->weight, placed);
  EXPECT_LT(placed, identity);
  // Data follows the vertex: new rank q holds vertex q's lists.
  const int q = graph.rank();
  const classic::DistGraphNeighbors mine = classic::dist_graph_neighbors(graph);
  EXPECT_EQ(mine.destinations, g.out[at(q)]);
  EXPECT_EQ(mine.sources, g.in[at(q)]);
  if (g.weighted) {
    EXPECT_EQ(mine.destination_weights, g.out_weights[at(q)]);
    EXPECT_EQ(mine.source_weights, g.in_weights[at(q)]);
  }
  EXPECT_EQ(delivered_blocks(graph), expected_blocks(g, q)) << "vertex " << q;
  (void)comm;
}

std::vector<int> round_robin(int n, int hosts) {
  std::vector<int> host(at(n));
  for (int r = 0; r < n; ++r) host[at(r)] = r % hosts;
  return host;
}

// Hosts of unequal sizes: half the processes, a quarter, the rest.
std::vector<int> unequal(int n) {
  std::vector<int> host(at(n));
  for (int r = 0; r < n; ++r) {
    host[at(r)] = 2 * r < n ? 0 : (4 * r < 3 * n ? 1 : 2);
  }
  return host;
}

class GraphMapping : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Comm::world().size() < 4) GTEST_SKIP() << "needs 4 processes";
  }
  Comm comm_ = Comm::world().dup();
  int n_ = Comm::world().size();
};

TEST_F(GraphMapping, RandomGraphsNeverLoseWeightBetweenHosts) {
  int mapped = 0;
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const bool weighted = seed % 2 == 0;
    const Graph g = random_graph(n_, seed, weighted);
    // Host numbers need not be dense: 42 and 7 are two hosts as 0 and 1.
    std::vector<int> numbered = round_robin(n_, 2);
    for (int& host : numbered) host = host == 0 ? 42 : 7;
    for (const std::vector<int>& hosts :
         {round_robin(n_, 2), round_robin(n_, 4), unequal(n_), numbered}) {
      SCOPED_TRACE("seed " + std::to_string(seed));
      const ortho::internal::Mapping mapping = ortho::internal::map_graph(
          comm_, adjacency_of(g, comm_.rank()), {}, hosts);
      check_mapping(comm_, g, hosts, mapping);
      mapped += mapping.graph ? 1 : 0;
    }
  }
  // Round-robin hosts leave much to gain on most random graphs.
  if (ortho::internal::scotch_built_in()) {
    EXPECT_GT(mapped, 0);
  }
}

// Cliques of the vertices alike modulo 4 on 4 round-robin hosts fit one
// host each only with n = 16; by slot hosts, everything crosses.
TEST_F(GraphMapping, InterleavedCliquesLandOnOneHostEach) {
  if (n_ != 16) GTEST_SKIP() << "the clique case has 16 processes";
  if (!ortho::internal::scotch_built_in()) GTEST_SKIP() << "no Scotch";
  const Graph g = interleaved_cliques(16, 4);
  std::vector<int> by_slot(16);
  for (int r = 0; r < 16; ++r) by_slot[at(r)] = r / 4;
  const ortho::internal::Mapping mapping = ortho::internal::map_graph(
      comm_, adjacency_of(g, comm_.rank()), {}, by_slot);
  check_mapping(comm_, g, by_slot, mapping);
  ASSERT_TRUE(mapping.graph.has_value());
  EXPECT_EQ(mapping.facts.scotch->weight, 0);
  EXPECT_EQ(mapping.facts.identity->weight, 16 * 3);
}

TEST_F(GraphMapping, KeepsTheOrderOnOneHostAndWithScotchTurnedOff) {
  const Graph g = random_graph(n_, 99, true);
  const ortho::internal::Mapping one = ortho::internal::map_graph(
      comm_, adjacency_of(g, comm_.rank()), {}, std::vector<int>(at(n_), 0));
  EXPECT_FALSE(one.graph.has_value());
  EXPECT_EQ(one.facts.kept_because, KeptBecause::one_host);
  ASSERT_EQ(setenv("ORTHO_SCOTCH", "0", 1), 0);
  const ortho::internal::Mapping off = ortho::internal::map_graph(
      comm_, adjacency_of(g, comm_.rank()), {}, round_robin(n_, 2));
  EXPECT_FALSE(off.graph.has_value());
  EXPECT_EQ(off.facts.kept_because, KeptBecause::no_scotch);
  ASSERT_TRUE(off.facts.identity.has_value());
  EXPECT_EQ(off.facts.identity->weight, weight_between(g, round_robin(n_, 2)));
  // A value that is no flag raises on every process, before any message.
  ASSERT_EQ(setenv("ORTHO_SCOTCH", "perhaps", 1), 0);
  try {
    (void)ortho::internal::map_graph(comm_, adjacency_of(g, comm_.rank()), {},
                                     round_robin(n_, 2));
    ADD_FAILURE() << "ORTHO_SCOTCH=perhaps was taken";
  } catch (const classic::Error& e) {
    EXPECT_NE(std::string(e.what()).find("ORTHO_SCOTCH"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("perhaps"), std::string::npos);
  }
  ASSERT_EQ(unsetenv("ORTHO_SCOTCH"), 0);
}

// Through the public constructors with simulated hosts (ORTHO_HOSTS=4:
// hosts of consecutive world ranks): the report's permutation against
// the world ranks, its traffic against brute force.
TEST_F(GraphMapping, ConstructorsReportThePermutation) {
  const char* simulated = std::getenv("ORTHO_HOSTS");
  if (simulated == nullptr || std::string(simulated) != "4" || n_ % 4 != 0) {
    GTEST_SKIP() << "needs ORTHO_HOSTS=4 and a multiple of 4 processes";
  }
  std::vector<int> hosts(at(n_));
  for (int r = 0; r < n_; ++r) hosts[at(r)] = r / (n_ / 4);
  const Graph g = interleaved_cliques(n_, 4);
  const Adjacency a = adjacency_of(g, comm_.rank());
  const Comm graph = ortho::dist_graph_create_adjacent(
      comm_, a.sources, classic::unweighted, a.destinations,
      classic::unweighted, {}, classic::Reorder::yes);
  const ortho::MappingReport report = ortho::mapping_report(graph);
  EXPECT_EQ(report.hosts, 4);
  ASSERT_TRUE(report.identity.has_value());
  EXPECT_EQ(report.identity->weight, weight_between(g, hosts));
  EXPECT_EQ(report.old_rank, world_rank_of_rank(graph));
  for (int q = 0; q < n_; ++q) {
    EXPECT_EQ(report.new_rank[at(report.old_rank[at(q)])], q);
  }
  std::vector<int> host_of_vertex(at(n_));
  for (int q = 0; q < n_; ++q) {
    host_of_vertex[at(q)] = hosts[at(report.old_rank[at(q)])];
  }
  EXPECT_EQ(report.traffic.weight, weight_between(g, host_of_vertex));
  if (ortho::internal::scotch_built_in() && n_ == 16) {
    EXPECT_TRUE(report.mapped);
    EXPECT_EQ(report.placement, ortho::Placement::scotch);
    EXPECT_EQ(report.traffic.weight, 0);
  }
  EXPECT_EQ(delivered_blocks(graph), expected_blocks(g, graph.rank()));
  // The edge-list constructor: each process gives its own out-edges.
  std::vector<int> degrees = {static_cast<int>(a.destinations.size())};
  const int source = comm_.rank();
  const Comm listed = ortho::dist_graph_create(
      comm_, std::span<const int>(&source, 1), degrees, a.destinations,
      classic::unweighted, {}, classic::Reorder::yes);
  const ortho::MappingReport listed_report = ortho::mapping_report(listed);
  EXPECT_EQ(listed_report.traffic.weight, report.traffic.weight);
  EXPECT_EQ(listed_report.old_rank, world_rank_of_rank(listed));
}

TEST_F(GraphMapping, ReorderNoReportsNotAskedAndTheIdentity) {
  const Graph g = random_graph(n_, 7, false);
  const Adjacency a = adjacency_of(g, comm_.rank());
  const Comm graph =
      ortho::dist_graph_create_adjacent(comm_, a.sources, classic::unweighted,
                                        a.destinations, classic::unweighted);
  const ortho::MappingReport report = ortho::mapping_report(graph);
  EXPECT_FALSE(report.mapped);
  EXPECT_EQ(report.kept_because, KeptBecause::not_asked);
  EXPECT_STREQ(ortho::to_string(report.kept_because), "not asked");
  std::vector<int> identity(at(n_));
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(report.old_rank, identity);
  EXPECT_EQ(report.new_rank, identity);
}

}  // namespace
