// The common-neighbours routes: on small graphs the pairs, messages,
// rounds, blocks and relayed blocks worked out by hand; on random directed
// graphs (self loops, repeated edges, processes without edges, one-way
// edges, several hosts) every process's routes run in memory, moving
// tokens step by step: each message must be received exactly once with as
// many blocks as were sent, every receive block must be written exactly
// once and end with the block MPI's pairing of its edge names (the
// brute-force answer from the global edge list), pairs share a host, and
// all processes together send fewer messages than one per distinct peer
// wherever a pair formed.
#include "ortho/algorithms/common_neighbours/common_neighbours_routes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tests/ortho/testing/route_tokens.h"

namespace ortho::algorithms::common_routes {
namespace {

using node_routes::Slot;
using node_routes::Transfer;

using Graph = ortho_testing::RouteGraph;
using ortho_testing::Memory;

// A graph from destination lists; sources in ascending source order.
Graph graph_of(std::vector<std::vector<int>> destinations,
               std::vector<int> hosts = {}) {
  Graph g;
  const std::size_t size = destinations.size();
  if (hosts.empty()) hosts.assign(size, 0);
  g.host_graph = {std::move(hosts), std::move(destinations)};
  g.sources.resize(size);
  for (std::size_t s = 0; s < size; ++s) {
    for (const int d : g.host_graph.destinations[s]) {
      g.sources[static_cast<std::size_t>(d)].push_back(static_cast<int>(s));
    }
  }
  return g;
}

// Random graph on `size` ranks over `hosts` hosts: a few ranks without
// edges out, repeated edges, self loops; sources in a random order
// consistent with MPI's pairing.
Graph random_graph(std::mt19937& random, int size, int hosts, double density) {
  std::uniform_int_distribution<int> host(0, hosts - 1);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<int> host_of(static_cast<std::size_t>(size));
  for (int& h : host_of) h = host(random);
  std::vector<std::vector<int>> out(static_cast<std::size_t>(size));
  for (int s = 0; s < size; ++s) {
    if (coin(random) < 0.1) continue;  // no destinations
    auto& list = out[static_cast<std::size_t>(s)];
    for (int d = 0; d < size; ++d) {
      if (coin(random) >= density) continue;
      const int copies = coin(random) < 0.2 ? 2 : 1;  // repeated edges
      for (int c = 0; c < copies; ++c) list.push_back(d);
    }
    std::shuffle(list.begin(), list.end(), random);
  }
  Graph g = graph_of(std::move(out), std::move(host_of));
  for (auto& list : g.sources) std::shuffle(list.begin(), list.end(), random);
  return g;
}

// Every process's routes.
std::vector<Routes> all_routes(const Graph& g, const Grouping& grouping,
                               Payload payload) {
  std::vector<Routes> all;
  for (std::size_t r = 0; r < g.sources.size(); ++r) {
    all.push_back(routes(g.host_graph, grouping, static_cast<int>(r),
                         g.sources[r], payload));
  }
  return all;
}

// Runs every process's routes; checks the messages and the results.
void run_and_check(const Graph& g, const Grouping& grouping, Payload payload,
                   const std::string& label) {
  const std::vector<Routes> all = all_routes(g, grouping, payload);
  for (const Routes& mine : all) {
    ASSERT_EQ(mine.steps.size(), 3u) << label;
    ASSERT_TRUE(mine.steps[2].sends.empty()) << label;
  }
  std::vector<Memory> memory;
  ortho_testing::run_routes(g, all, payload, label, memory);
  if (::testing::Test::HasFatalFailure()) return;
  ortho_testing::expect_delivered(g, memory, payload, label);
}

// Messages and blocks a process sends in a step, and its scratch slots.
struct Sent {
  int messages = 0;
  int blocks = 0;
};
Sent sent(const Routes& r, std::size_t step) {
  Sent s;
  for (const Transfer& t : r.steps[step].sends) {
    ++s.messages;
    s.blocks += static_cast<int>(t.slots.size());
  }
  return s;
}

// 0 and 1 share the out-neighbours 2, 3, 4, 5; 1 also sends to 0, 4 to 0;
// 3 has a self loop.
Graph two_with_four_common() {
  return graph_of({{2, 3, 4, 5}, {2, 3, 4, 5, 0}, {}, {3}, {0}, {}});
}

TEST(CommonNeighboursRoutes, PairsTheProcessesWithCommonNeighbours) {
  const Grouping grouping = groups(two_with_four_common().host_graph);
  EXPECT_EQ(grouping.partner, (std::vector<int>{1, 0, -1, -1, -1, -1}));
  // Neither has other step-1 messages: 2 to 0, 3 to 1, 4 to 0, 5 to 1.
  EXPECT_EQ(grouping.forwards[0], (std::vector<int>{2, 4}));
  EXPECT_EQ(grouping.forwards[1], (std::vector<int>{3, 5}));
  for (std::size_t r = 2; r < 6; ++r) EXPECT_TRUE(grouping.forwards[r].empty());
  // Four common neighbours are not five.
  EXPECT_EQ(groups(two_with_four_common().host_graph, 5).partner,
            std::vector<int>(6, -1));
}

TEST(CommonNeighboursRoutes, AlltoallSendsTheCountedMessagesAndBlocks) {
  const Graph g = two_with_four_common();
  const std::vector<Routes> all =
      all_routes(g, groups(g.host_graph), Payload::per_edge);
  // 0 gives 1 its blocks for 3 and 5; 1 gives 0 its block for 0 and
  // those for 2 and 4.
  EXPECT_EQ(sent(all[0], 0).messages, 1);
  EXPECT_EQ(sent(all[0], 0).blocks, 2);
  EXPECT_EQ(sent(all[1], 0).messages, 1);
  EXPECT_EQ(sent(all[1], 0).blocks, 3);
  // Then two messages of two blocks each; 4 sends directly; 3 copies.
  for (std::size_t r : {0u, 1u}) {
    EXPECT_EQ(sent(all[r], 1).messages, 2);
    EXPECT_EQ(sent(all[r], 1).blocks, 4);
    EXPECT_EQ(all[r].scratch_slots, 2) << "rank " << r;
  }
  EXPECT_EQ(sent(all[4], 1).messages, 1);
  EXPECT_EQ(sent(all[4], 0).messages, 0);
  EXPECT_EQ(all[3].steps[0].copies.size(), 1u);
  EXPECT_EQ(sent(all[3], 0).messages + sent(all[3], 1).messages, 0);
  for (std::size_t r = 2; r < 6; ++r) EXPECT_EQ(all[r].scratch_slots, 0);
  // 7 messages in 2 rounds where direct sends 10 in 1.
  int messages = 0;
  for (const Routes& r : all) {
    messages += sent(r, 0).messages + sent(r, 1).messages;
  }
  EXPECT_EQ(messages, 7);
  run_and_check(g, groups(g.host_graph), Payload::per_edge, "hand graph");
}

TEST(CommonNeighboursRoutes, AllgatherExchangesOneBlockAPartner) {
  const Graph g = two_with_four_common();
  const std::vector<Routes> all =
      all_routes(g, groups(g.host_graph), Payload::per_source);
  // Each gives the other its one block; 0 lands 1's in its receive block
  // of 1 (its only source).
  for (std::size_t r : {0u, 1u}) {
    EXPECT_EQ(sent(all[r], 0).messages, 1);
    EXPECT_EQ(sent(all[r], 0).blocks, 1);
    EXPECT_EQ(all[r].scratch_slots, 1);
    EXPECT_EQ(sent(all[r], 1).blocks, 4);
  }
  EXPECT_EQ(all[0].lands_in, (std::vector<int>{0}));  // 1 is source 0 of 0
  EXPECT_EQ(all[1].lands_in, (std::vector<int>{-1}));
  run_and_check(g, groups(g.host_graph), Payload::per_source, "hand graph");
}

TEST(CommonNeighboursRoutes, LoadsCountEveryProcessAlike) {
  const Graph g = two_with_four_common();
  const std::vector<Load> load =
      loads(g.host_graph, groups(g.host_graph), Payload::per_edge);
  EXPECT_EQ(load[0][0].within, (StepLoad{1, 2, 2, 2}));
  EXPECT_EQ(load[1][0].within, (StepLoad{1, 3, 3, 3}));
  EXPECT_EQ(load[0][1].within, (StepLoad{2, 4, 4, 2}));
  EXPECT_EQ(load[4][1].within, (StepLoad{1, 1, 0, 1}));
  EXPECT_EQ(load[3][0].within, StepLoad{});
  EXPECT_EQ(load[3][1].within, StepLoad{});
}

// flows(), the same messages with their peers: what each process sends
// each peer in a step is what that peer's own routes receive from it.
TEST(CommonNeighboursRoutes, FlowsAreWhatEveryProcessReceives) {
  std::mt19937 random(0xc0f1u);
  for (int trial = 0; trial < 200; ++trial) {
    const int size = 2 + trial % 12;
    const Graph g = random_graph(random, size, 1 + trial % 3, 0.3);
    const Grouping grouping = groups(g.host_graph, 1 + trial % 3);
    for (const Payload payload : {Payload::per_edge, Payload::per_source}) {
      const std::vector<Flow> all = flows(g.host_graph, grouping, payload);
      for (int q = 0; q < size; ++q) {
        const Routes mine =
            routes(g.host_graph, grouping, q,
                   g.sources[static_cast<std::size_t>(q)], payload);
        for (std::size_t step = 0; step < 2; ++step) {
          std::map<int, int> received;
          for (const node_routes::Transfer& t : mine.steps[step].receives) {
            received[t.peer] += static_cast<int>(t.slots.size());
          }
          std::map<int, int> sent_here;
          for (int r = 0; r < size; ++r) {
            const auto& to = all[static_cast<std::size_t>(r)][step];
            if (const auto it = to.find(q); it != to.end() && it->second > 0) {
              sent_here[r] = it->second;
            }
          }
          std::erase_if(received, [](const auto& e) { return e.second == 0; });
          EXPECT_EQ(sent_here, received)
              << "trial " << trial << ", rank " << q << ", step " << step;
        }
      }
      if (HasFailure()) return;
    }
  }
}

TEST(CommonNeighboursRoutes, PairsOnlyWithinAHostAndGreedilyByOverlap) {
  // 1 and 2 share 5 out-neighbours, 0 and 1 four, 0 and 2 three: 1 pairs
  // with 2 and 0 stays alone.
  const std::vector<std::vector<int>> out = {{3, 4, 5, 6},
                                             {3, 4, 5, 6, 7, 8},
                                             {4, 5, 6, 7, 8},
                                             {},
                                             {},
                                             {},
                                             {},
                                             {},
                                             {}};
  EXPECT_EQ(groups(graph_of(out).host_graph).partner,
            (std::vector<int>{-1, 2, 1, -1, -1, -1, -1, -1, -1}));
  // With 1 on a host of its own, 0 and 2 pair.
  EXPECT_EQ(
      groups(graph_of(out, {0, 1, 0, 0, 0, 0, 0, 0, 0}).host_graph).partner,
      (std::vector<int>{2, -1, 0, -1, -1, -1, -1, -1, -1}));
  // Repeated edges and self loops count once and not at all.
  EXPECT_EQ(
      groups(graph_of({{0, 2, 2, 3}, {1, 2, 3, 3}, {}, {}}).host_graph).partner,
      std::vector<int>(4, -1));
}

TEST(CommonNeighboursRoutes, RandomGraphsDeliverEveryBlockExactlyOnce) {
  std::mt19937 random(20261126);
  std::uniform_int_distribution<int> sizes(1, 14);
  std::uniform_int_distribution<int> host_counts(1, 3);
  std::uniform_real_distribution<double> densities(0.05, 0.9);
  int paired_graphs = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int size = sizes(random);
    const Graph g =
        random_graph(random, size, host_counts(random), densities(random));
    const int least = trial % 3 == 0 ? 1 : kLeastCommon;
    const Grouping grouping = groups(g.host_graph, least);
    const std::string label = "trial " + std::to_string(trial);
    int distinct_peers = 0;
    for (std::size_t r = 0; r < g.sources.size(); ++r) {
      const int partner = grouping.partner[r];
      if (partner >= 0) {
        EXPECT_EQ(grouping.partner[static_cast<std::size_t>(partner)],
                  static_cast<int>(r));
        EXPECT_EQ(g.host_graph.host_of_rank[r],
                  g.host_graph.host_of_rank[static_cast<std::size_t>(partner)]);
      }
      std::set<int> peers(g.host_graph.destinations[r].begin(),
                          g.host_graph.destinations[r].end());
      peers.erase(static_cast<int>(r));
      distinct_peers += static_cast<int>(peers.size());
    }
    const bool paired =
        std::any_of(grouping.partner.begin(), grouping.partner.end(),
                    [](int p) { return p >= 0; });
    paired_graphs += paired ? 1 : 0;
    for (const Payload payload : {Payload::per_edge, Payload::per_source}) {
      run_and_check(g, grouping, payload, label);
      const std::vector<Routes> all = all_routes(g, grouping, payload);
      const std::vector<Load> load = loads(g.host_graph, grouping, payload);
      int messages = 0;
      for (std::size_t r = 0; r < all.size(); ++r) {
        for (std::size_t step = 0; step < 2; ++step) {
          const Sent s = sent(all[r], step);
          messages += s.messages;
          EXPECT_EQ(s.messages, load[r][step].within.messages +
                                    load[r][step].between.messages)
              << label;
          EXPECT_EQ(s.blocks,
                    load[r][step].within.blocks + load[r][step].between.blocks)
              << label;
        }
      }
      if (least >= kLeastCommon) {
        if (paired) {
          EXPECT_LT(messages, distinct_peers) << label;
        } else {
          EXPECT_EQ(messages, distinct_peers) << label;
        }
      }
    }
  }
  EXPECT_GT(paired_graphs, 100);  // the trials exercise the pairs
}

}  // namespace
}  // namespace ortho::algorithms::common_routes
