// The spread-relays routes, run in memory: on random directed graphs (self
// loops, repeated edges, processes without edges) over random hosts, every
// receive block must end with the block MPI's pairing of its edge names
// (brute force from the global graph); each process sends at most one
// message to each other host, exactly one where its edges reach it, all in
// step 0; handing out stays within a host; relays have an edge; flows() and
// loads() count what the routes send and receive. On a complete graph
// over two hosts the relaying spreads over every process of a host.
#include "ortho/algorithms/spread_relays/spread_relays_routes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "ortho/algorithms/route_parts.h"
#include "tests/ortho/testing/route_tokens.h"

namespace ortho::algorithms::spread_routes {
namespace {

using node_routes::kCrossTag;
using node_routes::Transfer;
using Graph = ortho_testing::RouteGraph;

// Random graph on `size` ranks over `hosts` hosts: some ranks without
// edges out, repeated edges, self loops; sources listed in a random order
// consistent with MPI's pairing.
Graph random_graph(std::mt19937& random, int size, int hosts, double density) {
  std::uniform_int_distribution<int> host(0, hosts - 1);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  Graph g;
  g.host_graph.host_of_rank.resize(static_cast<std::size_t>(size));
  for (int& h : g.host_graph.host_of_rank) h = host(random);
  g.host_graph.destinations.resize(static_cast<std::size_t>(size));
  g.sources.resize(static_cast<std::size_t>(size));
  for (int s = 0; s < size; ++s) {
    auto& out = g.host_graph.destinations[static_cast<std::size_t>(s)];
    if (coin(random) < 0.1) continue;
    for (int d = 0; d < size; ++d) {
      if (coin(random) >= density) continue;
      const int copies = coin(random) < 0.2 ? 2 : 1;
      for (int c = 0; c < copies; ++c) {
        out.push_back(d);
        g.sources[static_cast<std::size_t>(d)].push_back(s);
      }
    }
    std::shuffle(out.begin(), out.end(), random);
  }
  for (auto& list : g.sources) std::shuffle(list.begin(), list.end(), random);
  return g;
}

std::vector<Routes> all_routes(const Graph& g, Payload payload) {
  std::vector<Routes> all;
  for (std::size_t r = 0; r < g.sources.size(); ++r) {
    all.push_back(spread_routes::routes(g.host_graph, static_cast<int>(r),
                                        g.sources[r], payload));
  }
  return all;
}

int host_of(const Graph& g, int rank) {
  return g.host_graph.host_of_rank[static_cast<std::size_t>(rank)];
}

// The messages' shape: between hosts only in step 0, tagged kCrossTag, one
// per other host the process's edges reach; step 1 empty; step 2 within
// hosts; relays have an edge.
void check_shape(const Graph& g, const std::vector<Routes>& all,
                 const std::string& label) {
  for (int r = 0; r < static_cast<int>(all.size()); ++r) {
    const Routes& mine = all[static_cast<std::size_t>(r)];
    EXPECT_TRUE(mine.steps[1].sends.empty() && mine.steps[1].receives.empty())
        << label;
    std::set<int> reached;
    for (const int d : g.host_graph.destinations[static_cast<std::size_t>(r)]) {
      if (host_of(g, d) != host_of(g, r)) reached.insert(host_of(g, d));
    }
    std::multiset<int> sent_to;
    for (const Transfer& t : mine.steps[0].sends) {
      const bool crosses = host_of(g, t.peer) != host_of(g, r);
      EXPECT_EQ(crosses, t.tag == kCrossTag) << label << ": rank " << r;
      if (crosses) sent_to.insert(host_of(g, t.peer));
    }
    EXPECT_EQ(sent_to, std::multiset<int>(reached.begin(), reached.end()))
        << label << ": rank " << r;
    EXPECT_EQ(mine.messages_between_hosts, static_cast<int>(reached.size()));
    for (const Transfer& t : mine.steps[2].sends) {
      EXPECT_EQ(host_of(g, t.peer), host_of(g, r)) << label << ": rank " << r;
    }
    const bool has_edge =
        !g.host_graph.destinations[static_cast<std::size_t>(r)].empty() ||
        !g.sources[static_cast<std::size_t>(r)].empty();
    EXPECT_TRUE(mine.scratch_slots == 0 || has_edge) << label << ": " << r;
  }
}

TEST(SpreadRelaysRoutes, RandomGraphsDeliverEveryBlockAsMpiPairsThem) {
  std::mt19937 random(20261129);
  for (int trial = 0; trial < 400; ++trial) {
    const Graph g =
        random_graph(random, 1 + trial % 13, 1 + trial % 5, 0.05 * (trial % 9));
    for (const Payload payload : {Payload::per_edge, Payload::per_source}) {
      const std::string label =
          "trial " + std::to_string(trial) +
          (payload == Payload::per_edge ? " per_edge" : " per_source");
      const std::vector<Routes> all = all_routes(g, payload);
      std::vector<ortho_testing::Memory> memory;
      ortho_testing::run_routes(g, all, payload, label, memory);
      if (HasFatalFailure()) return;
      ortho_testing::expect_delivered(g, memory, payload, label);
      check_shape(g, all, label);
      if (HasFailure()) return;
    }
  }
}

// flows() are what every process's own routes receive from each peer, and
// loads() are the flows of steps 0 and 2 split by host and counted.
TEST(SpreadRelaysRoutes, FlowsAndLoadsAreWhatTheRoutesCarry) {
  std::mt19937 random(0x5b7eadu);
  for (int trial = 0; trial < 200; ++trial) {
    const Graph g =
        random_graph(random, 1 + trial % 13, 1 + trial % 5, 0.05 * (trial % 9));
    for (const Payload payload : {Payload::per_edge, Payload::per_source}) {
      const std::vector<Flow> all = spread_routes::flows(g.host_graph, payload);
      const std::vector<Routes> routes_of = all_routes(g, payload);
      const auto counted = spread_routes::loads(g.host_graph, payload);
      ASSERT_EQ(counted.size(), 2u);
      for (int q = 0; q < static_cast<int>(all.size()); ++q) {
        for (const std::size_t step : {0u, 1u, 2u}) {
          std::map<int, int> received;
          for (const Transfer& t :
               routes_of[static_cast<std::size_t>(q)].steps[step].receives) {
            received[t.peer] += static_cast<int>(t.slots.size());
          }
          std::map<int, int> sent_here;
          for (int r = 0; r < static_cast<int>(all.size()); ++r) {
            const auto& to = all[static_cast<std::size_t>(r)][step];
            if (const auto it = to.find(q); it != to.end()) {
              sent_here[r] = it->second;
            }
          }
          EXPECT_EQ(sent_here, received)
              << "trial " << trial << ", rank " << q << ", step " << step;
        }
        for (const auto& [round, step] :
             {std::pair<std::size_t, std::size_t>{0, 0}, {1, 2}}) {
          node_routes::Messages within;
          node_routes::Messages between;
          for (const auto& [peer, blocks] :
               all[static_cast<std::size_t>(q)][step]) {
            (host_of(g, peer) == host_of(g, q) ? within : between)[peer] =
                blocks;
          }
          EXPECT_EQ(counted[round][static_cast<std::size_t>(q)].within,
                    node_routes::counted(within));
          EXPECT_EQ(counted[round][static_cast<std::size_t>(q)].between,
                    node_routes::counted(between));
        }
      }
      if (HasFailure()) return;
    }
  }
}

// Two hosts of four ranks, every rank sending to every other: each rank
// sends one message to the other host, and every rank relays exactly one
// (node_aware's routes give the pair of hosts one relay at each end).
TEST(SpreadRelaysRoutes, CompleteGraphOnTwoHostsSpreadsTheRelaying) {
  Graph g;
  g.host_graph.host_of_rank = {0, 0, 0, 0, 1, 1, 1, 1};
  g.host_graph.destinations.resize(8);
  g.sources.resize(8);
  for (int s = 0; s < 8; ++s) {
    for (int d = 0; d < 8; ++d) {
      if (d == s) continue;
      g.host_graph.destinations[static_cast<std::size_t>(s)].push_back(d);
      g.sources[static_cast<std::size_t>(d)].push_back(s);
    }
  }
  for (const Payload payload : {Payload::per_edge, Payload::per_source}) {
    const std::vector<Routes> all = all_routes(g, payload);
    for (std::size_t r = 0; r < 8; ++r) {
      EXPECT_EQ(all[r].messages_between_hosts, 1) << "rank " << r;
      int relayed = 0;
      for (const Transfer& t : all[r].steps[0].receives) {
        relayed += t.tag == kCrossTag ? 1 : 0;
      }
      EXPECT_EQ(relayed, 1) << "rank " << r;
      // Its bundle's four blocks: one kept, three handed out.
      EXPECT_EQ(all[r].scratch_slots, payload == Payload::per_edge ? 4 : 1);
      int handed = 0;
      for (const Transfer& t : all[r].steps[2].sends) {
        handed += static_cast<int>(t.slots.size());
      }
      EXPECT_EQ(handed, 3) << "rank " << r;
    }
  }
}

// An allgather block crosses once to each host, however many of the
// source's neighbours live there.
TEST(SpreadRelaysRoutes, PerSourceBlockCrossesOncePerHost) {
  Graph g;
  g.host_graph.host_of_rank = {0, 1, 1, 1};
  g.host_graph.destinations = {{1, 2, 3, 3}, {}, {}, {}};
  g.sources = {{}, {0}, {0}, {0, 0}};
  const std::vector<Routes> all = all_routes(g, Payload::per_source);
  ASSERT_EQ(all[0].steps[0].sends.size(), 1u);
  EXPECT_EQ(all[0].steps[0].sends[0].slots.size(), 1u);
  const std::vector<Routes> per_edge = all_routes(g, Payload::per_edge);
  EXPECT_EQ(per_edge[0].steps[0].sends[0].slots.size(), 4u);
}

TEST(SpreadRelaysRoutes, SourcesThatDisagreeWithTheGraphAreRejected) {
  HostGraph graph{{0, 1}, {{1}, {}}};
  const std::vector<int> wrong{1};  // rank 1 does not send to 0
  EXPECT_THROW((void)spread_routes::routes(graph, 0, wrong, Payload::per_edge),
               std::invalid_argument);
  HostGraph outside{{0, 1}, {{2}, {}}};
  EXPECT_THROW((void)spread_routes::flows(outside, Payload::per_edge),
               std::invalid_argument);
}

}  // namespace
}  // namespace ortho::algorithms::spread_routes
