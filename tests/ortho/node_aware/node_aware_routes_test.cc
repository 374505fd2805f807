// The node-aware routes, checked by running them in memory: on random
// directed graphs (self loops, repeated edges, processes without edges)
// and random hosts, every process's routes move tokens step by step; each
// message must be received exactly once with as many blocks as were sent,
// every receive block must end with the block MPI's pairing of its edge
// names (the brute-force answer from the global graph), at most one
// message may cross per ordered pair of hosts (exactly one where an edge
// crosses), and relays are processes with an edge.
#include "ortho/algorithms/node_aware/node_aware_routes.h"

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

namespace ortho::algorithms::node_routes {
namespace {

using Graph = ortho_testing::RouteGraph;
using ortho_testing::Memory;

// Random graph on `size` ranks over `hosts` hosts; sources listed in a
// random order consistent with MPI's pairing (any order of sources works).
Graph random_graph(std::mt19937& random, int size, int hosts, double density) {
  Graph g;
  std::uniform_int_distribution<int> host(0, hosts - 1);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  g.host_graph.host_of_rank.resize(static_cast<std::size_t>(size));
  for (int& h : g.host_graph.host_of_rank) h = host(random);
  g.host_graph.destinations.resize(static_cast<std::size_t>(size));
  g.sources.resize(static_cast<std::size_t>(size));
  for (int s = 0; s < size; ++s) {
    for (int d = 0; d < size; ++d) {
      if (coin(random) >= density) continue;
      const int copies = coin(random) < 0.2 ? 2 : 1;  // repeated edges
      for (int c = 0; c < copies; ++c) {
        g.host_graph.destinations[static_cast<std::size_t>(s)].push_back(d);
        g.sources[static_cast<std::size_t>(d)].push_back(s);
      }
    }
    std::shuffle(g.host_graph.destinations[static_cast<std::size_t>(s)].begin(),
                 g.host_graph.destinations[static_cast<std::size_t>(s)].end(),
                 random);
  }
  for (auto& list : g.sources) std::shuffle(list.begin(), list.end(), random);
  return g;
}

// Runs every process's routes; checks the messages, the results, and
// that only step 1 crosses between hosts, once per ordered pair of hosts
// with an edge between them.
void check_graph(const Graph& g, Payload payload, const std::string& label) {
  const int size = static_cast<int>(g.sources.size());
  std::vector<Routes> all;
  for (int r = 0; r < size; ++r) {
    all.push_back(routes(g.host_graph, r,
                         g.sources[static_cast<std::size_t>(r)], payload));
    const Routes& mine = all.back();
    // Relays have an edge (they know the blocks' size from their own).
    const bool relays = mine.scratch_slots > 0 || !mine.steps[1].sends.empty();
    const bool has_edge =
        !g.host_graph.destinations[static_cast<std::size_t>(r)].empty() ||
        !g.sources[static_cast<std::size_t>(r)].empty();
    EXPECT_TRUE(!relays || has_edge) << label << ": rank " << r;
  }
  std::vector<Memory> memory;
  ortho_testing::run_routes(g, all, payload, label, memory);
  if (::testing::Test::HasFatalFailure()) return;
  ortho_testing::expect_delivered(g, memory, payload, label);
  std::map<std::pair<int, int>, int> crossing;  // (from host, to host)
  for (int r = 0; r < size; ++r) {
    const int from = g.host_graph.host_of_rank[static_cast<std::size_t>(r)];
    for (std::size_t step = 0; step < 3; ++step) {
      for (const Transfer& t :
           all[static_cast<std::size_t>(r)].steps[step].sends) {
        const int to =
            g.host_graph.host_of_rank[static_cast<std::size_t>(t.peer)];
        if (step == 1) {
          ASSERT_NE(from, to) << label;
          ++crossing[{from, to}];
        } else {
          ASSERT_EQ(from, to) << label << ": step " << step << " crosses hosts";
        }
      }
    }
  }
  std::set<std::pair<int, int>> pairs;
  for (int s = 0; s < size; ++s) {
    for (const int d : g.host_graph.destinations[static_cast<std::size_t>(s)]) {
      const int from = g.host_graph.host_of_rank[static_cast<std::size_t>(s)];
      const int to = g.host_graph.host_of_rank[static_cast<std::size_t>(d)];
      if (from != to) pairs.insert({from, to});
    }
  }
  EXPECT_EQ(crossing.size(), pairs.size()) << label;
  for (const auto& [pair, messages] : crossing) {
    EXPECT_EQ(messages, 1) << label << ": host " << pair.first << " -> "
                           << pair.second;
  }
}

TEST(NodeAwareRoutes, RandomGraphsDeliverEveryBlockAsMpiPairsThem) {
  std::mt19937 random(20261126);
  for (int trial = 0; trial < 400; ++trial) {
    const int size = 1 + trial % 13;
    const int hosts = 1 + trial % 5;
    const double density = 0.05 * (trial % 9);
    const Graph g = random_graph(random, size, hosts, density);
    for (const Payload payload : {Payload::per_edge, Payload::per_source}) {
      check_graph(
          g, payload,
          "trial " + std::to_string(trial) +
              (payload == Payload::per_edge ? " per_edge" : " per_source"));
      if (HasFatalFailure()) return;
    }
  }
}

// What rank r's routes send in each step, counted from its transfers.
Load counted_routes(const Graph& g, int r, Payload payload) {
  const Routes mine =
      routes(g.host_graph, r, g.sources[static_cast<std::size_t>(r)], payload);
  Load load;
  for (std::size_t step = 0; step < 3; ++step) {
    for (const Transfer& t : mine.steps[step].sends) {
      const auto blocks = static_cast<int>(t.slots.size());
      ++load[step].messages;
      load[step].blocks += blocks;
      if (blocks > 1) load[step].packed_blocks += blocks;
      load[step].largest_message_blocks =
          std::max(load[step].largest_message_blocks, blocks);
    }
  }
  return load;
}

// loads(), the cost model's count from the whole graph at once, equals
// every process's own routes, counted.
TEST(NodeAwareRoutes, LoadsCountEveryProcessRoutes) {
  std::mt19937 random(0x10adu);
  for (int trial = 0; trial < 200; ++trial) {
    const int size = 1 + trial % 13;
    const Graph g =
        random_graph(random, size, 1 + trial % 5, 0.05 * (trial % 9));
    for (const Payload payload : {Payload::per_edge, Payload::per_source}) {
      const std::vector<Load> all = loads(g.host_graph, payload);
      ASSERT_EQ(all.size(), static_cast<std::size_t>(size));
      for (int r = 0; r < size; ++r) {
        const Load expected = counted_routes(g, r, payload);
        for (std::size_t step = 0; step < 3; ++step) {
          EXPECT_EQ(all[static_cast<std::size_t>(r)][step], expected[step])
              << "trial " << trial << ", rank " << r << ", step " << step
              << (payload == Payload::per_edge ? " per_edge" : " per_source");
        }
      }
      if (HasFailure()) return;
    }
  }
}

// flows(), the same messages with their peers: what each process sends
// each peer in a step is what that peer's own routes receive from it
// (every message counted at both ends), and counted it is loads().
TEST(NodeAwareRoutes, FlowsAreWhatEveryProcessReceives) {
  std::mt19937 random(0xf10e5u);
  for (int trial = 0; trial < 200; ++trial) {
    const int size = 1 + trial % 13;
    const Graph g =
        random_graph(random, size, 1 + trial % 5, 0.05 * (trial % 9));
    for (const Payload payload : {Payload::per_edge, Payload::per_source}) {
      const std::vector<Flow> all = flows(g.host_graph, payload);
      const std::vector<Load> counted_loads = loads(g.host_graph, payload);
      for (int q = 0; q < size; ++q) {
        const Routes mine = routes(
            g.host_graph, q, g.sources[static_cast<std::size_t>(q)], payload);
        for (std::size_t step = 0; step < 3; ++step) {
          std::map<int, int> received;
          for (const Transfer& t : mine.steps[step].receives) {
            received[t.peer] += static_cast<int>(t.slots.size());
          }
          std::map<int, int> sent_here;
          for (int r = 0; r < size; ++r) {
            const auto& to = all[static_cast<std::size_t>(r)][step];
            if (const auto it = to.find(q); it != to.end()) {
              sent_here[r] = it->second;
            }
          }
          EXPECT_EQ(sent_here, received)
              << "trial " << trial << ", rank " << q << ", step " << step;
        }
        for (std::size_t step = 0; step < 3; ++step) {
          EXPECT_EQ(counted(all[static_cast<std::size_t>(q)][step]),
                    counted_loads[static_cast<std::size_t>(q)][step]);
        }
      }
      if (HasFailure()) return;
    }
  }
}

// Two hosts of two ranks, every rank sending to every other: the relays
// of the two directions are four different processes.
TEST(NodeAwareRoutes, CompleteGraphOnTwoHostsHasOneRelayPerRole) {
  Graph g;
  g.host_graph.host_of_rank = {0, 0, 1, 1};
  g.host_graph.destinations = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  g.sources = g.host_graph.destinations;  // symmetric
  check_graph(g, Payload::per_edge, "complete");
  std::vector<int> between(4);
  std::vector<std::size_t> step0(4);  // blocks a rank sends in step 0
  for (int r = 0; r < 4; ++r) {
    const Routes mine =
        routes(g.host_graph, r, g.sources[static_cast<std::size_t>(r)],
               Payload::per_edge);
    between[static_cast<std::size_t>(r)] = mine.messages_between_hosts;
    for (const Transfer& t : mine.steps[0].sends) {
      step0[static_cast<std::size_t>(r)] += t.slots.size();
    }
  }
  // Host 0 -> 1: rank 0 relays (its 2 blocks and rank 1's 2) to rank 2;
  // host 1 -> 0: rank 3 relays to rank 1. In step 0 each rank sends its
  // block for its host mate, and ranks 1 and 2 their 2 blocks to relay with
  // it, in one message.
  EXPECT_EQ(between, (std::vector<int>{1, 0, 0, 1}));
  EXPECT_EQ(step0, (std::vector<std::size_t>{1, 3, 3, 1}));
}

// allgather's block crosses once per host it reaches, whatever the number
// of its destinations there.
TEST(NodeAwareRoutes, PerSourceBlockCrossesOncePerHost) {
  Graph g;
  g.host_graph.host_of_rank = {0, 1, 1, 1};
  g.host_graph.destinations = {{1, 2, 3, 3}, {}, {}, {}};
  g.sources = {{}, {0}, {0}, {0, 0}};
  check_graph(g, Payload::per_source, "star");
  const Routes root =
      routes(g.host_graph, 0, g.sources[0], Payload::per_source);
  ASSERT_EQ(root.steps[1].sends.size(), 1u);
  EXPECT_EQ(root.steps[1].sends[0].slots.size(), 1u);
  const Routes edges = routes(g.host_graph, 0, g.sources[0], Payload::per_edge);
  ASSERT_EQ(edges.steps[1].sends.size(), 1u);
  EXPECT_EQ(edges.steps[1].sends[0].slots.size(), 4u);
}

TEST(NodeAwareRoutes, SourcesThatDisagreeWithTheGraphAreRejected) {
  HostGraph graph{{0, 1}, {{1}, {}}};
  const std::vector<int> wrong = {1};
  EXPECT_THROW((void)routes(graph, 0, wrong, Payload::per_edge),
               std::invalid_argument);
}

}  // namespace
}  // namespace ortho::algorithms::node_routes
