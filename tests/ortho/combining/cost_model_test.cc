// The cost model of the size-aware selection: the transport read from Open
// MPI's btl setting, the prices per transport and oversubscription, and the
// model's terms.
#include "ortho/algorithms/cost_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "ortho/algorithms/model_crossovers.h"

namespace {

using ortho::algorithms::cheaper_up_to;
using ortho::algorithms::model_ns;
using ortho::algorithms::Prices;
using ortho::algorithms::prices_for;
using ortho::algorithms::split_messages;
using ortho::algorithms::Traffic;
using ortho::algorithms::Transport;
using ortho::algorithms::transport_of;

// The direct algorithm: one block a message, one round (`reduced` blocks
// reduced: allreduce).
Traffic one_message_each(int messages, int reduced = 0) {
  return {.messages = messages,
          .blocks = messages,
          .rounds = 1,
          .packed_blocks = 0,
          .largest_message_blocks = 1,
          .reduced_blocks = reduced,
          .message_blocks = {}};
}

// A combining schedule: every block packed, `largest` in the largest
// message.
Traffic combined_blocks(int messages, int blocks, int rounds, int largest) {
  return {.messages = messages,
          .blocks = blocks,
          .rounds = rounds,
          .packed_blocks = blocks,
          .largest_message_blocks = largest,
          .reduced_blocks = 0,
          .message_blocks = {}};
}

// A schedule whose messages carry `message_blocks` blocks each, in
// `rounds` rounds; every block of a message of several is packed.
Traffic schedule(std::vector<int> message_blocks, int rounds) {
  Traffic traffic = combined_blocks(0, 0, rounds, 0);
  for (const int blocks : message_blocks) {
    ++traffic.messages;
    traffic.blocks += blocks;
    if (blocks > 1) traffic.packed_blocks += blocks;
    traffic.largest_message_blocks =
        std::max(traffic.largest_message_blocks, blocks);
  }
  traffic.message_blocks = std::move(message_blocks);
  return traffic;
}

// allreduce on a box stencil of depth 1: 2 messages a dimension, one
// round a dimension, every block reduced.
Traffic box(int ndims) {
  return {.messages = 2 * ndims,
          .blocks = 2 * ndims,
          .rounds = ndims,
          .packed_blocks = 0,
          .largest_message_blocks = 1,
          .reduced_blocks = 2 * ndims,
          .message_blocks = {}};
}

TEST(CostModel, TransportFollowsTheBtlSetting) {
  EXPECT_EQ(transport_of("", false), Transport::shared_memory);
  EXPECT_EQ(transport_of("self,vader", false), Transport::shared_memory);
  EXPECT_EQ(transport_of("vader,self,tcp", false), Transport::shared_memory);
  EXPECT_EQ(transport_of("sm,self", false), Transport::shared_memory);
  EXPECT_EQ(transport_of("^uct,openib,ofi", false), Transport::shared_memory);
  EXPECT_EQ(transport_of("tcp,self", false), Transport::network);
  EXPECT_EQ(transport_of("self,tcp", false), Transport::network);
  EXPECT_EQ(transport_of("^vader", false), Transport::network);
  EXPECT_EQ(transport_of("^tcp,vader", false), Transport::network);
  // A component whose name merely contains "sm" is not shared memory.
  EXPECT_EQ(transport_of("smcuda_x,self,tcp", false), Transport::network);
  // A job over several hosts sends some messages over the network.
  EXPECT_EQ(transport_of("self,vader,tcp", true), Transport::network);
  EXPECT_EQ(transport_of("", true), Transport::network);
}

TEST(CostModel, PricesPerTransportAndOversubscription) {
  const Prices shm = prices_for(Transport::shared_memory, 1.0);
  const Prices tcp = prices_for(Transport::network, 1.0);
  EXPECT_DOUBLE_EQ(shm.message_ns, 150);
  EXPECT_DOUBLE_EQ(shm.round_ns, 1500);
  EXPECT_DOUBLE_EQ(shm.eager_bytes, 4096);
  EXPECT_GT(tcp.message_ns, 10 * shm.message_ns);
  EXPECT_GT(tcp.round_ns, tcp.message_ns);
  EXPECT_GT(tcp.eager_bytes, shm.eager_bytes);
  // A core per process or more: no waiting for descheduled peers.
  const Prices spare = prices_for(Transport::shared_memory, 0.25);
  EXPECT_DOUBLE_EQ(spare.round_ns, 1500);
  EXPECT_DOUBLE_EQ(spare.message_ns, 150);
  // 2 and 4.5 processes a core: the work costs 2 and 4.5 times as much, a
  // message 0.3 us and a round 5 us more per extra process a core.
  const Prices two = prices_for(Transport::shared_memory, 2.0);
  EXPECT_DOUBLE_EQ(two.message_ns, 2 * 150 + 300);
  EXPECT_DOUBLE_EQ(two.byte_ns, 2 * shm.byte_ns);
  EXPECT_DOUBLE_EQ(two.reduce_block_ns, 2 * shm.reduce_block_ns);
  EXPECT_DOUBLE_EQ(two.round_ns, 6500);
  EXPECT_DOUBLE_EQ(two.rendezvous_ns, shm.rendezvous_ns);
  EXPECT_DOUBLE_EQ(prices_for(Transport::shared_memory, 4.5).round_ns, 19000);
  EXPECT_DOUBLE_EQ(prices_for(Transport::network, 2.0).round_ns,
                   tcp.round_ns + 5000);
}

TEST(CostModel, EveryTermCounts) {
  const Prices prices{.message_ns = 3,
                      .round_ns = 5,
                      .byte_ns = 0.5,
                      .copy_byte_ns = 0.25,
                      .eager_bytes = 20,
                      .rendezvous_ns = 7,
                      .reduce_block_ns = 11};
  const Traffic traffic{.messages = 2,
                        .blocks = 4,
                        .rounds = 3,
                        .packed_blocks = 2,
                        .largest_message_blocks = 2,
                        .reduced_blocks = 0,
                        .message_blocks = {}};
  EXPECT_DOUBLE_EQ(model_ns(prices, traffic, 0), 2 * 3 + 3 * 5);
  // 10 bytes: 4 blocks sent at 0.5, 2 packed blocks copied twice at 0.25;
  // the largest message (20 bytes) is still eager.
  EXPECT_DOUBLE_EQ(model_ns(prices, traffic, 10),
                   2 * 3 + 3 * 5 + 4 * 10 * 0.5 + 2 * 2 * 10 * 0.25);
  // 11 bytes: 22 bytes in the largest message, a rendezvous each round.
  EXPECT_DOUBLE_EQ(model_ns(prices, traffic, 11),
                   2 * 3 + 3 * 5 + 4 * 11 * 0.5 + 2 * 2 * 11 * 0.25 + 3 * 7);
  // Each block reduced locally.
  Traffic reducing = traffic;
  reducing.reduced_blocks = 4;
  EXPECT_DOUBLE_EQ(model_ns(prices, reducing, 0), 2 * 3 + 3 * 5 + 4 * 11);
}

// The crossover is the first size where the cheaper algorithm stops being
// cheaper: linear terms meet, or a rendezvous step comes first.
TEST(CostModel, CheaperUpToFindsTheFirstCrossing) {
  Prices prices{.message_ns = 100,
                .round_ns = 100,
                .byte_ns = 1,
                .copy_byte_ns = 0,
                .eager_bytes = 1e9,
                .rendezvous_ns = 0,
                .reduce_block_ns = 0};
  const Traffic direct = one_message_each(10);
  const Traffic combined = combined_blocks(2, 20, 2, 10);  // nothing copied
  // Saves 1100 - 400 = 700 ns, pays 10 ns a byte more: cheaper up to 69.
  EXPECT_EQ(cheaper_up_to(prices, direct, combined, 1000), 69u);
  EXPECT_EQ(cheaper_up_to(prices, direct, combined, 50), 50u);
  // A 300-byte eager limit: from 31 bytes the combined message of 10
  // blocks goes by rendezvous, 400 ns in each of 2 rounds, which ends the
  // saving before the lines meet.
  prices.eager_bytes = 300;
  prices.rendezvous_ns = 400;
  EXPECT_EQ(cheaper_up_to(prices, direct, combined, 1000), 30u);
  // Nothing saved on empty blocks: never cheaper.
  EXPECT_EQ(cheaper_up_to(prices, combined, direct, 1000), std::nullopt);
}

// On the points the constants were fitted to, the model picks what ran
// faster there (docs/algorithms.md, "When each is chosen").
struct Point {
  const char* what;
  Transport transport;
  double processes_per_core;
  Traffic direct;
  Traffic combining;
  std::size_t block_bytes;
  bool combining_faster;
};

TEST(CostModel, ChoosesWhatWasMeasuredFaster) {
  // 3-d Moore alltoall on a 2 x 1 x 1 torus (2 processes): 26 messages
  // against one of 18 blocks; on a 2 x 2 x 1 torus (4 processes): 26
  // against 2 in 2 rounds; 2-d Moore on a 2 x 2 torus: 8 against 2 in 2.
  // Von Neumann on a 2 x 2 torus: 4 against 2 in 2.
  // allreduce: 26 or 8 blocks reduced against the box's 6 or 4.
  const Point points[] = {
      {"2 processes, shm, 4 B", Transport::shared_memory, 1.0,
       one_message_each(26), combined_blocks(1, 18, 1, 18), 4, true},
      {"2 processes, shm, 400 B (rendezvous)", Transport::shared_memory, 1.0,
       one_message_each(26), combined_blocks(1, 18, 1, 18), 400, false},
      {"2 processes, TCP, 2 KB", Transport::network, 1.0, one_message_each(26),
       combined_blocks(1, 18, 1, 18), 2048, true},
      {"4 processes, shm, Moore 4 B", Transport::shared_memory, 2.0,
       one_message_each(26), combined_blocks(2, 26, 2, 18), 4, true},
      {"4 processes, shm, 2-d Moore 4 B", Transport::shared_memory, 2.0,
       one_message_each(8), combined_blocks(2, 8, 2, 4), 4, false},
      {"4 processes, TCP, Moore 4 B", Transport::network, 2.0,
       one_message_each(26), combined_blocks(2, 26, 2, 18), 4, true},
      {"4 processes, TCP, von Neumann 4 B", Transport::network, 2.0,
       one_message_each(4), combined_blocks(2, 4, 2, 2), 4, false},
      {"4 processes, shm, allreduce 3-d Moore 4 B", Transport::shared_memory,
       2.0, one_message_each(26, 26), box(3), 4, true},
      {"4 processes, shm, allreduce 2-d Moore 4 B", Transport::shared_memory,
       2.0, one_message_each(8, 8), box(2), 4, false},
      {"4 processes, shm, allreduce 2-d Moore 40 KB", Transport::shared_memory,
       2.0, one_message_each(8, 8), box(2), 40000, true},
      // 3-d and 2-d Moore on 2 x 2 x 1 and 2 x 2 tori (4 processes), with
      // their schedules' messages (hops +1 and -1 merged): combining wins
      // on 3-d up to 400 B (the alltoall message of 18 blocks goes as two
      // there) and loses on 2-d from 400 B.
      {"4 processes, shm, 3-d allgather 400 B", Transport::shared_memory, 2.0,
       one_message_each(26), schedule({6, 18}, 2), 400, true},
      {"4 processes, shm, 3-d alltoall 400 B", Transport::shared_memory, 2.0,
       one_message_each(26), schedule({18, 18}, 2), 400, true},
      {"4 processes, shm, 3-d alltoall 4 KB", Transport::shared_memory, 2.0,
       one_message_each(26), schedule({18, 18}, 2), 4000, false},
      {"4 processes, shm, 2-d allgather 400 B", Transport::shared_memory, 2.0,
       one_message_each(8), schedule({2, 6}, 2), 400, false},
      {"4 processes, shm, 2-d alltoall 400 B", Transport::shared_memory, 2.0,
       one_message_each(8), schedule({6, 6}, 2), 400, false},
      // 3-d Moore on 2 x 2 x 2 (8 processes): 26 messages against 3 in 3
      // rounds; 2-d Moore on 4 x 2: 8 against 3 in 2.
      {"8 processes, shm, 3-d allgather 4 B", Transport::shared_memory, 4.0,
       one_message_each(26), schedule({2, 6, 18}, 3), 4, true},
      {"8 processes, shm, 3-d alltoall 4 B", Transport::shared_memory, 4.0,
       one_message_each(26), schedule({18, 18, 18}, 3), 4, true},
      {"8 processes, shm, 3-d alltoall 40 B", Transport::shared_memory, 4.0,
       one_message_each(26), schedule({18, 18, 18}, 3), 40, false},
      {"8 processes, shm, 2-d allgather 4 B", Transport::shared_memory, 4.0,
       one_message_each(8), schedule({1, 1, 6}, 2), 4, false},
      {"8 processes, shm, 2-d alltoall 40 B", Transport::shared_memory, 4.0,
       one_message_each(8), schedule({3, 3, 6}, 2), 40, false},
      // 3-d Moore alltoall on 3 x 3 x 3 (27): 26 messages against 6 in 3
      // rounds.
      {"27 processes, shm, Moore 4 B", Transport::shared_memory, 13.5,
       one_message_each(26), combined_blocks(6, 54, 3, 9), 4, false},
  };
  for (const Point& point : points) {
    const Prices prices = prices_for(point.transport, point.processes_per_core);
    EXPECT_EQ(model_ns(prices, point.combining, point.block_bytes) <
                  model_ns(prices, point.direct, point.block_bytes),
              point.combining_faster)
        << point.what;
  }
}

// A message that the plans split at the eager limit
// (stencils/message_split.h) costs one message more and no rendezvous:
// 3-d Moore alltoall on a 2 x 2 x 2 torus, three messages of 18 blocks
// (the hops +1 and -1 of each dimension merged), shared memory with a core
// per process (0.15 us a message, 1.5 us a round, 0.25 ns a byte, 0.05 ns
// a byte copied twice, 4 KiB eager limit, 6.5 us a rendezvous).
TEST(CostModel, SplitMessagesCostAMessageInsteadOfARendezvous) {
  const Prices prices = prices_for(Transport::shared_memory, 1.0);
  Traffic merged = combined_blocks(3, 54, 3, 18);
  merged.message_blocks = {18, 18, 18};
  const auto work = [](double block_bytes) {
    return 3 * 1500 + 0.25 * block_bytes * 54 + 2 * 0.05 * block_bytes * 54;
  };
  // 200 B: 3,600 B a message, under the limit: three messages.
  EXPECT_DOUBLE_EQ(model_ns(prices, merged, 200), 3 * 150 + work(200));
  EXPECT_EQ(split_messages(merged, 200, prices.eager_bytes), 0);
  // 400 B: 7,200 B in halves of 3,600 B: six messages, no rendezvous.
  EXPECT_DOUBLE_EQ(model_ns(prices, merged, 400), 6 * 150 + work(400));
  EXPECT_EQ(split_messages(merged, 400, prices.eager_bytes), 3);
  // 800 B: halves of 7,200 B: three messages, a rendezvous each round.
  EXPECT_DOUBLE_EQ(model_ns(prices, merged, 800),
                   3 * 150 + work(800) + 3 * 6500);
  EXPECT_EQ(split_messages(merged, 800, prices.eager_bytes), 0);
  // Without the blocks of each message, the largest decides: a rendezvous.
  merged.message_blocks.clear();
  EXPECT_DOUBLE_EQ(model_ns(prices, merged, 400),
                   3 * 150 + work(400) + 3 * 6500);
}

}  // namespace
