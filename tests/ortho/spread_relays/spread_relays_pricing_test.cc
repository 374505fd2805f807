// spread_relays on a running job whose processes are planned on 2 hosts of
// consecutive ranks (ORTHO_HOSTS=2), every process sending to every other:
// it is offered for the exchanges; it competes for the default (has a
// modelled price) exactly where ORTHO_MACHINE gives the prices, as the
// BUILD targets set it; and its traffic is what its routes promise, worked
// out by hand: one message to the other host per process, whose relay there
// keeps one block and hands the rest out.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <optional>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "ortho/dist_graph.h"
#include "ortho/explain.h"
#include "ortho/operation.h"
#include "ortho/traffic.h"
#include "tests/ortho/testing/complete_graph.h"

namespace {

using ortho::Operation;

const ortho::Explanation::Offered* offered(const ortho::Explanation& why) {
  for (const ortho::Explanation::Offered& o : why.offered) {
    if (o.algorithm == "spread_relays") return &o;
  }
  return nullptr;
}

TEST(SpreadRelaysPricing, PricedWhereAMachineFileGivesThePrices) {
  const classic::Comm graph = ortho_testing::complete_graph();
  const char* machine = std::getenv("ORTHO_MACHINE");
  const bool from_file = machine != nullptr && *machine != '\0';
  for (const Operation operation :
       {Operation::allgather, Operation::alltoall, Operation::alltoallv}) {
    for (const classic::Mode mode :
         {classic::Mode::blocking, classic::Mode::persistent}) {
      const ortho::Explanation why =
          ortho::explain(graph, operation, 512, mode);
      const ortho::Explanation::Offered* mine = offered(why);
      ASSERT_NE(mine, nullptr) << ortho::to_string(why);
      EXPECT_EQ(mine->modelled_ns.has_value(), from_file)
          << ortho::to_string(why);
      if (from_file) {
        EXPECT_GT(*mine->modelled_ns, 0);
      }
    }
  }
  // Not offered for what it does not implement.
  EXPECT_EQ(offered(ortho::explain(graph, Operation::allreduce, 8)), nullptr);
}

TEST(SpreadRelaysPricing, TrafficIsOneMessagePerOtherHost) {
  const classic::Comm graph = ortho_testing::complete_graph();
  const int size = graph.size();
  ASSERT_EQ(size % 2, 0) << "run on an even number of processes";
  const int per_host = size / 2;
  constexpr std::size_t kBytes = 8;
  const std::optional<ortho::Traffic> traffic =
      ortho::traffic(graph, Operation::alltoall, "spread_relays", kBytes,
                     classic::Mode::blocking);
  ASSERT_TRUE(traffic);
  ASSERT_TRUE(traffic->messages_between_hosts);
  // One message to the other host, carrying a block for each of its
  // processes.
  EXPECT_EQ(*traffic->messages_between_hosts, 1);
  EXPECT_EQ(*traffic->bytes_between_hosts,
            static_cast<std::int64_t>(per_host * kBytes));
  // Relays are spread: every process relays one bundle here, keeps its own
  // block and hands per_host - 1 out, one message each; with its
  // per_host - 1 direct messages within its host: 2 rounds, and
  // 1 + 2 (per_host - 1) messages.
  EXPECT_EQ(traffic->rounds, per_host > 1 ? 2 : 1);
  EXPECT_EQ(traffic->messages, 1 + 2 * (per_host - 1));
}

}  // namespace
