// The simulator's exchanges and predicted times against counts by hand on
// a 2-d Moore stencil over a 4 x 4 torus on 2 nodes (rows 0-1 and 2-3, by
// slot), and its workloads' placements and names.
#include "experiments/simulate/exchange.h"

#include <gtest/gtest.h>

#include <vector>

#include "experiments/simulate/machine.h"
#include "experiments/simulate/predict.h"
#include "experiments/simulate/report.h"
#include "experiments/simulate/workload.h"

namespace {

using simulate::Algorithm;
using simulate::Counts;
using simulate::Operation;

simulate::Workload moore_4x4_on_2_nodes() {
  return simulate::stencil_workload(
      *simulate::parse_stencil("moore2d"),
      {.nodes = 2,
       .processes_per_node = 8,
       .placement = simulate::Placement::by_slot});
}

Counts counts(const simulate::Workload& workload, Algorithm algorithm,
              Operation operation, int rank) {
  return simulate::counts_of(
      *simulate::exchange(workload, algorithm, operation, 8, 4096), rank);
}

// Each process reaches the rows above and below (one of them on the other
// node) and its own row: 8 messages, the 3 to the other node's row cross.
TEST(SimulateExchange, DirectByHand) {
  const simulate::Workload workload = moore_4x4_on_2_nodes();
  for (int rank = 0; rank < 16; ++rank) {
    EXPECT_EQ(counts(workload, Algorithm::direct, Operation::alltoall, rank),
              (Counts{.messages = 8,
                      .bytes = 64,
                      .rounds = 1,
                      .messages_between = 3,
                      .bytes_between = 24}))
        << rank;
  }
}

// Dimension-order routing: rows first (2 messages of 3 blocks, the one
// to the other node's row crossing), then columns (2 messages of 3 blocks:
// the block's own plus two relayed, within the row's node).
TEST(SimulateExchange, CombiningAlltoallByHand) {
  const simulate::Workload workload = moore_4x4_on_2_nodes();
  for (int rank = 0; rank < 16; ++rank) {
    EXPECT_EQ(counts(workload, Algorithm::combining, Operation::alltoall, rank),
              (Counts{.messages = 4,
                      .bytes = 96,  // 12 blocks
                      .rounds = 2,
                      .messages_between = 1,
                      .bytes_between = 24}))  // 3 blocks
        << rank;
  }
}

// A message above the job's eager limit whose halves are not goes as two.
TEST(SimulateExchange, CombiningSplitsAtTheEagerLimit) {
  const simulate::Workload workload = moore_4x4_on_2_nodes();
  // 3 blocks of 2,000 B: 6,000 B above 4,096, halves of 4,000 and 2,000.
  const auto split = simulate::exchange(workload, Algorithm::combining,
                                        Operation::alltoall, 2000, 4096);
  EXPECT_EQ(simulate::counts_of(*split, 0).messages, 8);
  const auto whole = simulate::exchange(workload, Algorithm::combining,
                                        Operation::alltoall, 2000, 65536);
  EXPECT_EQ(simulate::counts_of(*whole, 0).messages, 4);
}

TEST(SimulateExchange, NoCombiningOnAGeneralGraph) {
  const simulate::Workload graph = simulate::graph_workload(
      "er_0.5_s1", {.nodes = 2, .processes_per_node = 4});
  EXPECT_FALSE(simulate::exchange(graph, Algorithm::combining,
                                  Operation::alltoall, 8, 4096));
  EXPECT_TRUE(simulate::exchange(graph, Algorithm::node_aware,
                                 Operation::alltoall, 8, 4096));
}

// node_aware: between the two nodes one message each way, 24 blocks each
// (8 processes x 3 edges to the other node).
TEST(SimulateExchange, NodeAwareCrossesOncePerPairOfNodes) {
  const simulate::Workload workload = moore_4x4_on_2_nodes();
  const auto sent = *simulate::exchange(workload, Algorithm::node_aware,
                                        Operation::alltoall, 8, 4096);
  int messages_between = 0;
  std::int64_t bytes_between = 0;
  for (int rank = 0; rank < 16; ++rank) {
    const Counts c = simulate::counts_of(sent, rank);
    messages_between += c.messages_between;
    bytes_between += c.bytes_between;
  }
  EXPECT_EQ(messages_between, 2);
  EXPECT_EQ(bytes_between, 2 * 24 * 8);
}

// One direct call priced by hand: every process sends 5 messages (40 B)
// within its node and 3 (24 B) to the other; 8 cores a node keep the
// node's cores from bounding it, the interface adds nothing.
TEST(SimulatePredict, DirectByHand) {
  simulate::Machine machine;
  machine.cores_per_node = 8;
  machine.within = {.latency_ns = 100,
                    .message_ns = 10,
                    .byte_ns = 1,
                    .receive_message_ns = 0,
                    .receive_byte_ns = 0,
                    .eager_bytes = 1 << 20,
                    .rendezvous_ns = 0};
  machine.between = {.latency_ns = 5000,
                     .message_ns = 1000,
                     .byte_ns = 2,
                     .receive_message_ns = 0,
                     .receive_byte_ns = 0,
                     .eager_bytes = 1 << 20,
                     .rendezvous_ns = 0};
  const simulate::Workload workload = moore_4x4_on_2_nodes();
  const auto sent = *simulate::exchange(workload, Algorithm::direct,
                                        Operation::alltoall, 8, 4096);
  const double work = 5 * 10 + 40 * 1 + 3 * 1000 + 24 * 2;
  simulate::Prediction p =
      simulate::predict(sent, workload.graph.host_of_rank, machine);
  EXPECT_DOUBLE_EQ(p.ns, work + 5000);
  EXPECT_EQ(p.rounds.at(0).bound, simulate::Bound::process);

  // 2 cores a node: the node's 8 processes' work on 2 cores, and each of
  // the 4 processes on a core waits the latency in turn.
  machine.cores_per_node = 2;
  p = simulate::predict(sent, workload.graph.host_of_rank, machine);
  EXPECT_DOUBLE_EQ(p.ns, 8 * work / 2 + 4 * 5000);
  EXPECT_EQ(p.rounds.at(0).bound, simulate::Bound::cores);

  // An interface at 1,000 ns a message out: 8 x 3 messages leave each node.
  machine.cores_per_node = 8;
  machine.injection_message_ns = 1000;
  p = simulate::predict(sent, workload.graph.host_of_rank, machine);
  EXPECT_DOUBLE_EQ(p.ns, 24 * 1000 + 5000);
  EXPECT_EQ(p.rounds.at(0).bound, simulate::Bound::network_interface);

  // Receiving: every process receives what it sends (the stencil is
  // symmetric), 5 messages of 8 B from its node, 3 from the other.
  machine.injection_message_ns = 0;
  machine.within.receive_message_ns = 7;
  machine.within.receive_byte_ns = 0.5;
  machine.between.receive_message_ns = 300;
  machine.between.receive_byte_ns = 0.25;
  p = simulate::predict(sent, workload.graph.host_of_rank, machine);
  EXPECT_DOUBLE_EQ(p.ns, work + 5 * 7 + 40 * 0.5 + 3 * 300 + 24 * 0.25 + 5000);
  machine.within.receive_message_ns = 0;
  machine.within.receive_byte_ns = 0;
  machine.between.receive_message_ns = 0;
  machine.between.receive_byte_ns = 0;

  // A rendezvous where a message exceeds the eager limit.
  machine.injection_message_ns = 0;
  machine.between.eager_bytes = 4;
  machine.between.rendezvous_ns = 700;
  p = simulate::predict(sent, workload.graph.host_of_rank, machine);
  EXPECT_DOUBLE_EQ(p.ns, work + 5000 + 700);
}

// On a 2 x 2 torus on 2 nodes (ranks 0-1, the first row, and 2-3) each
// process's 8 neighbours are 3 processes: 2 blocks to the other process
// of its row (left and right), 2 to the one of its column (up and down)
// and 4 to the one diagonal to it, the last two on the other node. The
// price per peer counts each of them once.
TEST(SimulatePredict, APeerCostsOnceHoweverManyMessagesGoThere) {
  const simulate::Workload workload =
      simulate::stencil_workload(*simulate::parse_stencil("moore2d"),
                                 {.nodes = 2,
                                  .processes_per_node = 2,
                                  .placement = simulate::Placement::by_slot});
  const auto sent = *simulate::exchange(workload, Algorithm::direct,
                                        Operation::alltoall, 8, 4096);
  for (int rank = 0; rank < 4; ++rank) {
    const simulate::RoundLoad& load = sent.rounds.at(0).at(rank);
    EXPECT_EQ(load.within_messages, 2) << rank;
    EXPECT_EQ(load.within_peers, 1) << rank;
    EXPECT_EQ(load.between_messages, 6) << rank;
    EXPECT_EQ(load.between_peers, 2) << rank;
  }
  simulate::Machine machine;
  machine.cores_per_node = 2;
  machine.within = {.message_ns = 10, .peer_ns = 100, .eager_bytes = 4096};
  machine.between = {.message_ns = 20, .peer_ns = 1000, .eager_bytes = 4096};
  EXPECT_DOUBLE_EQ(
      simulate::predict(sent, workload.graph.host_of_rank, machine).ns,
      2 * 10 + 1 * 100 + 6 * 20 + 2 * 1000);
}

// A round of messages within nodes waits the within latency on one node,
// the spanning one where the job spans nodes, the between one where a
// message crosses.
TEST(SimulatePredict, ARoundWithinNodesOfAJobAcrossNodesByHand) {
  simulate::Machine machine;
  machine.cores_per_node = 8;
  machine.within.latency_ns = 100;
  machine.within.message_ns = 10;
  machine.within_spanning_latency_ns = 700;
  machine.between.latency_ns = 5000;
  machine.between.message_ns = 1000;
  simulate::Exchange within{.rounds = {std::vector<simulate::RoundLoad>(4)},
                            .messages = {{}},
                            .multiply_adds = {}};
  within.add(0, 0, 1, 1, 8, false);
  const std::vector<int> one_node = {0, 0, 0, 0};
  const std::vector<int> two_nodes = {0, 0, 1, 1};
  EXPECT_DOUBLE_EQ(simulate::predict(within, one_node, machine).ns, 10 + 100);
  EXPECT_DOUBLE_EQ(simulate::predict(within, two_nodes, machine).ns, 10 + 700);
  simulate::Exchange crossing{.rounds = {std::vector<simulate::RoundLoad>(4)},
                              .messages = {{}},
                              .multiply_adds = {}};
  crossing.add(0, 0, 2, 1, 8, true);
  EXPECT_DOUBLE_EQ(simulate::predict(crossing, two_nodes, machine).ns,
                   1000 + 5000);
}

// Combining's messages carry 3 blocks each: packed and unpacked (2 copies
// of 24 B) for each of a process's 2 messages a round, in 2 rounds; with 4
// processes to a core each round waits for 3 switches.
TEST(SimulatePredict, CopiesAndSwitchesByHand) {
  simulate::Machine machine;
  machine.cores_per_node = 8;
  machine.copy_byte_ns = 1;
  const simulate::Workload workload = moore_4x4_on_2_nodes();
  const auto sent = *simulate::exchange(workload, Algorithm::combining,
                                        Operation::alltoall, 8, 4096);
  EXPECT_DOUBLE_EQ(
      simulate::predict(sent, workload.graph.host_of_rank, machine).ns,
      2 * (2 * 2 * 24));
  machine.copy_byte_ns = 0;
  machine.cores_per_node = 2;
  machine.switch_ns = 100;
  EXPECT_DOUBLE_EQ(
      simulate::predict(sent, workload.graph.host_of_rank, machine).ns,
      2 * 3 * 100);
}

TEST(SimulateWorkload, PlacesBySlotAndRoundRobin) {
  EXPECT_EQ(simulate::nodes_of_ranks({.nodes = 2, .processes_per_node = 3}),
            (std::vector<int>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(
      simulate::nodes_of_ranks({.nodes = 2,
                                .processes_per_node = 3,
                                .placement = simulate::Placement::round_robin}),
      (std::vector<int>{0, 1, 0, 1, 0, 1}));
}

// The edges that cross between nodes over the whole job.
std::int64_t crossing(const simulate::Workload& workload) {
  const auto sent = *simulate::exchange(workload, Algorithm::direct,
                                        Operation::alltoall, 1, 4096);
  std::int64_t messages = 0;
  for (std::size_t p = 0; p < workload.graph.destinations.size(); ++p) {
    messages += simulate::counts_of(sent, static_cast<int>(p)).messages_between;
  }
  return messages;
}

// 2-d Moore on a 4 x 4 torus, 4 nodes of 4: by slot each node holds a row
// and every process has 6 neighbours on other rows (96 edges cross); in
// 2 x 2 blocks every process is a block's corner, 5 of its 8 neighbours
// outside (80).
TEST(SimulateWorkload, MapsAGridIntoBlocks) {
  const auto moore = *simulate::parse_stencil("moore2d");
  const simulate::Workload by_slot =
      simulate::stencil_workload(moore, {.nodes = 4, .processes_per_node = 4});
  const simulate::Workload mapped = simulate::stencil_workload(
      moore, {.nodes = 4,
              .processes_per_node = 4,
              .placement = simulate::Placement::mapped});
  EXPECT_EQ(crossing(by_slot), 96);
  EXPECT_EQ(crossing(mapped), 80);
  EXPECT_EQ(mapped.placed, "mapped (block partition)");
  EXPECT_EQ(by_slot.placed, "by slot");
  // On 2 nodes, two rows each are as good as any block: kept.
  const simulate::Workload kept = simulate::stencil_workload(
      moore, {.nodes = 2,
              .processes_per_node = 8,
              .placement = simulate::Placement::mapped});
  EXPECT_EQ(kept.placed, "by slot (mapping kept it: no gain)");
  EXPECT_EQ(kept.graph.host_of_rank,
            simulate::nodes_of_ranks({.nodes = 2, .processes_per_node = 8}));
}

// A general graph mapped by Scotch never crosses more than by slot.
TEST(SimulateWorkload, MapsAGraphNoWorseThanBySlot) {
  for (const char* name : {"er_0.2_s3", "geo_0.3_s1", "mesh2d_16_sfc"}) {
    const simulate::Shape shape{.nodes = 4, .processes_per_node = 4};
    simulate::Shape mapped_shape = shape;
    mapped_shape.placement = simulate::Placement::mapped;
    const simulate::Workload by_slot = simulate::graph_workload(name, shape);
    const simulate::Workload mapped =
        simulate::graph_workload(name, mapped_shape);
    EXPECT_LE(crossing(mapped), crossing(by_slot)) << name;
    if (mapped.placed == "mapped (Scotch)") {
      EXPECT_LT(crossing(mapped), crossing(by_slot)) << name;
    } else {
      EXPECT_EQ(mapped.graph.host_of_rank, by_slot.graph.host_of_rank) << name;
    }
    std::vector<int> per_node(4);
    for (const int node : mapped.graph.host_of_rank) ++per_node.at(node);
    EXPECT_EQ(per_node, (std::vector<int>{4, 4, 4, 4})) << name;
  }
}

TEST(SimulateWorkload, ParsesStencilNames) {
  const auto moore = simulate::parse_stencil("moore3d_2");
  ASSERT_TRUE(moore);
  EXPECT_EQ(moore->ndims, 3);
  EXPECT_EQ(moore->depth, 2);
  EXPECT_EQ(moore->metric, stencils::Metric::chebyshev);
  const auto von_neumann = simulate::parse_stencil("vonneumann2d");
  ASSERT_TRUE(von_neumann);
  EXPECT_EQ(von_neumann->metric, stencils::Metric::manhattan);
  EXPECT_EQ(von_neumann->depth, 1);
  for (const char* bad : {"moore", "moore4d", "moore2d_", "moore2d_0",
                          "moore2d_x", "moore2dd", "cross2d"}) {
    EXPECT_FALSE(simulate::parse_stencil(bad)) << bad;
  }
  EXPECT_THROW(simulate::graph_workload("nonsense",
                                        {.nodes = 1, .processes_per_node = 2}),
               std::invalid_argument);
}

}  // namespace
