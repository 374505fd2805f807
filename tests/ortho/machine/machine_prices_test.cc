// The prices ortho's cost models take from a machine file (ORTHO_MACHINE),
// by hand from the file's figures (a message's price both its ends') and the
// documented rule for processes that share cores (cost_model.h: per extra
// process on a core a message 300 ns more and a round 5 us more; the work of
// messages, bytes, copies and reductions times the processes per core).
#include <gtest/gtest.h>

#include "ortho/algorithms/cost_model.h"
#include "ortho/algorithms/node_aware_model.h"
#include "ortho/internal/machine_file.h"

namespace {

using ortho::algorithms::Prices;
using ortho::algorithms::Transport;

ortho::internal::Machine machine() {
  return ortho::internal::parse_machine(R"(name = m
cores_per_node = 8
shared_cores = 0
copy_byte_ns = 0.5
switch_ns = 0
[within]
latency_ns = 300
message_ns = 100
byte_ns = 0.1
receive_message_ns = 40
receive_byte_ns = 0.02
eager_bytes = 4096
rendezvous_ns = 600
inline_bytes = 256
spanning_latency_ns = 1800
[between]
latency_ns = 1000
message_ns = 200
byte_ns = 0.05
receive_message_ns = 60
receive_byte_ns = 0.01
eager_bytes = 8192
rendezvous_ns = 2000
inline_bytes = 8192
[node]
injection_message_ns = 4
injection_byte_ns = 0.04
)",
                                        "m");
}

TEST(MachinePrices, OneProcessPerCoreAreTheFilesLinks) {
  const Prices within =
      ortho::algorithms::prices_for(machine(), Transport::shared_memory, 1);
  EXPECT_DOUBLE_EQ(within.message_ns, 100 + 40);
  EXPECT_DOUBLE_EQ(within.round_ns, 300);
  EXPECT_DOUBLE_EQ(within.byte_ns, 0.1 + 0.02);
  EXPECT_DOUBLE_EQ(within.copy_byte_ns, 0.5);
  EXPECT_DOUBLE_EQ(within.eager_bytes, 4096);
  EXPECT_DOUBLE_EQ(within.rendezvous_ns, 600);
  const Prices between =
      ortho::algorithms::prices_for(machine(), Transport::network, 1);
  EXPECT_DOUBLE_EQ(between.message_ns, 200 + 60);
  EXPECT_DOUBLE_EQ(between.round_ns, 1000);
  EXPECT_DOUBLE_EQ(between.byte_ns, 0.05 + 0.01);
  EXPECT_DOUBLE_EQ(between.eager_bytes, 8192);
  EXPECT_DOUBLE_EQ(between.rendezvous_ns, 2000);
  // Not in the file: a reduced block at the built-in price.
  EXPECT_DOUBLE_EQ(
      between.reduce_block_ns,
      ortho::algorithms::prices_for(Transport::network, 1).reduce_block_ns);
}

TEST(MachinePrices, SharedCoresScaleAsTheBuiltInPrices) {
  const Prices two =
      ortho::algorithms::prices_for(machine(), Transport::shared_memory, 2);
  EXPECT_DOUBLE_EQ(two.message_ns, 2 * (100 + 40) + 300);
  EXPECT_DOUBLE_EQ(two.round_ns, 300 + 5000);
  EXPECT_DOUBLE_EQ(two.byte_ns, 2 * (0.1 + 0.02));
  EXPECT_DOUBLE_EQ(two.copy_byte_ns, 2 * 0.5);
  EXPECT_DOUBLE_EQ(two.eager_bytes, 4096);
}

// The host model: a message's work at one process a core, the rounds'
// waits at the job's sharing, a round within a host at the spanning
// latency (the job spans hosts), no factor fitted to simulated hosts.
TEST(MachinePrices, HostModelTakesBothLinks) {
  const ortho::algorithms::HostPrices prices =
      ortho::algorithms::host_prices(machine(), 3);
  EXPECT_DOUBLE_EQ(prices.processes_per_core, 3);
  EXPECT_DOUBLE_EQ(prices.within.message_ns, 100 + 40);
  EXPECT_DOUBLE_EQ(prices.within.round_ns, 1800 + 2 * 5000);
  EXPECT_DOUBLE_EQ(prices.between.message_ns, 200 + 60);
  EXPECT_DOUBLE_EQ(prices.between.byte_ns, 0.05 + 0.01);
  EXPECT_DOUBLE_EQ(prices.between.round_ns, 1000 + 2 * 5000);
}

}  // namespace
