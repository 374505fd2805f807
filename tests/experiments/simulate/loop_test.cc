// The loop model (experiments/simulate/loop.h) against clocks worked by
// hand: a chain of rounds, the overlap of a loop's calls, the inline
// limit's wait for the receiver, cores shared out among the processes
// that work, an SpMV's local work after its exchange, and the throughput
// bound.
#include "experiments/simulate/loop.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "experiments/simulate/exchange.h"
#include "experiments/simulate/machine.h"

namespace {

using simulate::Exchange;
using simulate::loop_ns;
using simulate::Machine;
using simulate::RoundLoad;

// 10 ns to send a message, 5 to receive one, 100 ns on the way; nothing a
// byte, no eager or inline limit within reach, cores for everyone.
Machine plain_machine() {
  Machine machine;
  machine.cores_per_node = 8;
  machine.within = {.latency_ns = 100,
                    .message_ns = 10,
                    .byte_ns = 0,
                    .receive_message_ns = 5,
                    .receive_byte_ns = 0,
                    .eager_bytes = 1 << 20,
                    .rendezvous_ns = 0,
                    .inline_bytes = 1 << 20};
  machine.between = machine.within;
  machine.within_spanning_latency_ns = 100;
  return machine;
}

Exchange rounds_of(int rounds, int processes) {
  return {.rounds = std::vector<std::vector<RoundLoad>>(
              static_cast<std::size_t>(rounds),
              std::vector<RoundLoad>(static_cast<std::size_t>(processes))),
          .messages = std::vector<std::vector<simulate::Message>>(
              static_cast<std::size_t>(rounds)),
          .multiply_adds = {}};
}

// 0 -> 1 in the first round, 1 -> 2 in the second, one node.
Exchange chain() {
  Exchange exchange = rounds_of(2, 3);
  exchange.add(0, 0, 1, 1, 8, false);
  exchange.add(1, 1, 2, 1, 8, false);
  return exchange;
}

TEST(SimulateLoop, OneCallOfAChainWaitsForEachLink) {
  const std::vector<int> one_node(3, 0);
  // Process 1 hears at 10 + 100 and is done at 115; 2 hears at 125 + 100.
  EXPECT_DOUBLE_EQ(loop_ns(chain(), one_node, plain_machine(), 1),
                   10 + 100 + 5 + 10 + 100 + 5);
}

// In a loop, process 0 starts its next call at once: the chain fills like
// a pipeline, each call after the first adding only process 1's 15 ns.
TEST(SimulateLoop, ALoopsCallsOverlapAlongAChain) {
  const std::vector<int> one_node(3, 0);
  EXPECT_DOUBLE_EQ(loop_ns(chain(), one_node, plain_machine(), 10),
                   (230 + 9 * 15) / 10.0);
}

TEST(SimulateLoop, PastTheInlineLimitTheSenderWaitsForItsReceiver) {
  Machine machine = plain_machine();
  machine.within.inline_bytes = 256;
  const std::vector<int> one_node(3, 0);
  // 0 sends 300 bytes to 1: taken at 110 (1 has nothing of its own to
  // send), 0 hears so at 210.
  Exchange exchange = rounds_of(1, 3);
  exchange.add_bytes(0, 0, 1, 1, 300, false);
  EXPECT_DOUBLE_EQ(loop_ns(exchange, one_node, machine, 1), 210);
  // 1 first sends 20 messages of its own to 2, on another node at no cost
  // beyond sending: 1 takes 0's message at 200, 0 hears at 300.
  machine.between.latency_ns = 0;
  machine.between.receive_message_ns = 0;
  const std::vector<int> two_on_one = {0, 0, 1};
  for (int i = 0; i < 20; ++i) exchange.add_bytes(0, 1, 2, 1, 8, true);
  EXPECT_DOUBLE_EQ(loop_ns(exchange, two_on_one, machine, 1), 300);
  // Up to the limit, nobody waits: 1 is done last, at 200 + 5.
  Exchange small = rounds_of(1, 3);
  small.add_bytes(0, 0, 1, 1, 256, false);
  for (int i = 0; i < 20; ++i) small.add_bytes(0, 1, 2, 1, 8, true);
  EXPECT_DOUBLE_EQ(loop_ns(small, two_on_one, machine, 1), 205);
}

TEST(SimulateLoop, PastTheEagerLimitAMessageWaitsForARendezvous) {
  Machine machine = plain_machine();
  machine.between.eager_bytes = 100;
  machine.between.rendezvous_ns = 50;
  machine.between.latency_ns = 1000;
  Exchange exchange = rounds_of(1, 2);
  exchange.add_bytes(0, 0, 1, 1, 300, true);
  const std::vector<int> two_nodes = {0, 1};
  EXPECT_DOUBLE_EQ(loop_ns(exchange, two_nodes, machine, 1),
                   10 + 1000 + 50 + 5);
}

// 4 processes on 2 cores, each sending to the next: their work takes
// twice as long, and each waits twice the latency.
TEST(SimulateLoop, CrowdedCoresSlowTheWorkAndTheWait) {
  Machine machine = plain_machine();
  machine.cores_per_node = 2;
  Exchange ring = rounds_of(1, 4);
  for (int p = 0; p < 4; ++p) ring.add(0, p, (p + 1) % 4, 1, 8, false);
  const std::vector<int> one_node(4, 0);
  EXPECT_DOUBLE_EQ(loop_ns(ring, one_node, machine, 1),
                   2 * 10 + 2 * 100 + 2 * 5);
  // The same where the 2 cores are the machine's, shared by two nodes.
  machine.cores_per_node = 1;
  machine.shared_cores = 2;
  machine.between = machine.within;
  machine.within_spanning_latency_ns = 100;
  EXPECT_DOUBLE_EQ(loop_ns(ring, std::vector<int>{0, 0, 1, 1}, machine, 1),
                   2 * 10 + 2 * 100 + 2 * 5);
}

// The cores share out by work: on 2 cores, process 0 with 3 messages and
// three processes with one each, all to process 4 (which sends nothing):
// the three are done sending at (10 + 10 + 10 + 10) / 2, process 0 at
// (30 + 10 + 10 + 10) / 2; 4 hears at 30 + 100 and receives 6 messages
// alone (5 ns each).
TEST(SimulateLoop, CoresShareOutByWork) {
  Machine machine = plain_machine();
  machine.cores_per_node = 2;
  Exchange exchange = rounds_of(1, 5);
  for (int i = 0; i < 3; ++i) exchange.add(0, 0, 4, 1, 8, false);
  for (int p = 1; p < 4; ++p) exchange.add(0, p, 4, 1, 8, false);
  const std::vector<int> one_node(5, 0);
  // 5 processes on 2 cores: each waits 2.5 latencies.
  EXPECT_DOUBLE_EQ(loop_ns(exchange, one_node, machine, 1),
                   30 + 2.5 * 100 + 6 * 5);
}

// A node's interface at 1 us a message out bounds a loop of one message a
// call, however much the calls overlap.
TEST(SimulateLoop, TheNetworkInterfaceBoundsTheLoop) {
  Machine machine = plain_machine();
  machine.injection_message_ns = 1000;
  Exchange exchange = rounds_of(1, 2);
  exchange.add(0, 0, 1, 1, 8, true);
  const std::vector<int> two_nodes = {0, 1};
  EXPECT_DOUBLE_EQ(loop_ns(exchange, two_nodes, machine, 10), 1000);
  machine.injection_message_ns = 0;
  // Without it: 1 hears call k at 10 k + 100 and is done 5 ns later.
  EXPECT_DOUBLE_EQ(loop_ns(exchange, two_nodes, machine, 10),
                   (100 + 100 + 5) / 10.0);
}

// An SpMV's local product after its exchange: 0 -> 1, then 100 and 300
// multiply-adds at 2 ns. With a core each, 0 is out at 10 and done at
// 10 + 200; 1 hears at 110, receives by 115 and is done at 115 + 600.
// On one core the two share it: the message waits 2 latencies, 1 is
// done receiving at 10 + 200 + 5, and its product ends once both are
// done, 200 + 600 later.
TEST(SimulateLoop, LocalWorkFollowsTheExchangeOnTheSharedCores) {
  Machine machine = plain_machine();
  machine.multiply_add_ns = 2;
  Exchange exchange = rounds_of(1, 2);
  exchange.add(0, 0, 1, 1, 8, false);
  exchange.multiply_adds = {100, 300};
  const std::vector<int> one_node(2, 0);
  EXPECT_DOUBLE_EQ(loop_ns(exchange, one_node, machine, 1), 115 + 600);
  machine.cores_per_node = 1;
  EXPECT_DOUBLE_EQ(loop_ns(exchange, one_node, machine, 1),
                   10 + 200 + 5 + 200 + 600);
  exchange.multiply_adds = {100};
  EXPECT_THROW(loop_ns(exchange, one_node, machine, 1), std::invalid_argument);
}

TEST(SimulateLoop, RejectsNoCallsAndAPlacementOfOtherProcesses) {
  const std::vector<int> one_node(3, 0);
  EXPECT_THROW(loop_ns(chain(), one_node, plain_machine(), 0),
               std::invalid_argument);
  try {
    loop_ns(chain(), std::vector<int>(2, 0), plain_machine(), 1);
    FAIL() << "no error";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "simulate::loop_ns: node_of_rank places 2 processes, the "
                 "exchange has 3");
  }
}

}  // namespace
