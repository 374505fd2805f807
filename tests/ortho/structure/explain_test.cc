// ortho::explain against the table's own choice: on a Moore torus (one host,
// or planned on several with ORTHO_HOSTS) at every operation, mode and a
// range of block sizes, the algorithm explained is the one
// selected_algorithm names and the one a call runs by; where it was chosen
// by price it has the lowest price explained (ties: the baseline direct);
// an override is reported as forced, an operation without meaning on the
// structure as undefined, and the scale names the model.
#include "ortho/explain.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "ortho/operation.h"
#include "ortho/reverse.h"
#include "ortho/table.h"
#include "tests/ortho/testing/moore_torus.h"

namespace {

using classic::Mode;
using ortho::Operation;

int planned_hosts() {
  const char* value = std::getenv("ORTHO_HOSTS");
  return value == nullptr ? 1 : std::atoi(value);
}

TEST(Explain, TheSelectedAlgorithmHasTheLowestPrice) {
  const classic::Comm graph = ortho_testing::moore_torus();
  for (Operation operation : ortho::all_operations()) {
    for (Mode mode : {Mode::blocking, Mode::nonblocking, Mode::persistent}) {
      for (std::size_t bytes = 0; bytes <= (std::size_t{1} << 22);
           bytes = bytes == 0 ? 1 : bytes * 4) {
        const ortho::Explanation e =
            ortho::explain(graph, operation, bytes, mode);
        SCOPED_TRACE(ortho::to_string(e));
        EXPECT_EQ(e.selected,
                  ortho::selected_algorithm(graph, operation, bytes, mode));
        if (e.reason == "undefined") {
          EXPECT_TRUE(e.offered.empty());
          continue;
        }
        ASSERT_FALSE(e.offered.empty());
        if (e.reason != "lowest modelled price") continue;
        ASSERT_TRUE(e.offered.front().modelled_ns.has_value());
        const double lowest = *e.offered.front().modelled_ns;
        std::optional<double> selected_ns;
        for (const ortho::Explanation::Offered& o : e.offered) {
          if (o.algorithm == e.selected) selected_ns = o.modelled_ns;
          if (o.modelled_ns) {
            EXPECT_GE(*o.modelled_ns, lowest);
          }
        }
        ASSERT_TRUE(selected_ns.has_value()) << "selected without a price";
        EXPECT_EQ(*selected_ns, lowest);
      }
    }
  }
}

TEST(Explain, NamesTheScaleAndTheOverride) {
  const classic::Comm graph = ortho_testing::moore_torus();
  const ortho::Explanation before = ortho::explain(graph, Operation::alltoall);
  if (planned_hosts() >= 2 && graph.size() >= 2) {
    EXPECT_EQ(before.scale,
              "host model (" + std::to_string(planned_hosts()) + " hosts)");
  } else if (graph.size() >= 4) {
    EXPECT_EQ(before.scale, "single-host model");  // a stencil was detected
  }
  ortho::set_algorithm(graph, "alltoall=per_peer");
  const ortho::Explanation forced = ortho::explain(graph, Operation::alltoall);
  EXPECT_EQ(forced.selected, "per_peer");
  EXPECT_EQ(forced.reason, "forced (ORTHO_ALGORITHM or ortho::set_algorithm)");
  ortho::set_algorithm(graph, "");
  EXPECT_EQ(ortho::explain(graph, Operation::alltoall).reason, before.reason);
}

// The modelled price of `algorithm` in `e` (nullopt: offered unpriced;
// throws nothing, fails where it is not offered).
std::optional<double> price_of(const ortho::Explanation& e,
                               const std::string& algorithm) {
  for (const ortho::Explanation::Offered& o : e.offered) {
    if (o.algorithm == algorithm) return o.modelled_ns;
  }
  ADD_FAILURE() << algorithm << " is not offered: " << ortho::to_string(e);
  return std::nullopt;
}

bool offered(const ortho::Explanation& e, const std::string& algorithm) {
  for (const ortho::Explanation::Offered& o : e.offered) {
    if (o.algorithm == algorithm) return true;
  }
  return false;
}

// Across hosts the algorithms of general graphs have their prices, whatever
// order the registry analyses in (common_neighbours finds its pairs on
// node_aware's graph when first priced), and the reverse is priced with
// what serves it: direct, and the relaying algorithms along node_aware's
// graph turned around; not mpi.
TEST(Explain, AcrossHostsTheGraphAndItsReverseArePriced) {
  const classic::Comm graph = ortho_testing::moore_torus();
  if (planned_hosts() < 2 || graph.size() < 2) {
    GTEST_SKIP() << "one host: the host model does not price";
  }
  const ortho::Explanation forward =
      ortho::explain(graph, Operation::alltoall, 64);
  SCOPED_TRACE(ortho::to_string(forward));
  for (const char* algorithm : {"direct", "node_aware", "common_neighbours"}) {
    EXPECT_TRUE(price_of(forward, algorithm).has_value()) << algorithm;
  }
  // Priced only on a machine file's prices (ORTHO_MACHINE).
  EXPECT_TRUE(offered(forward, "spread_relays"));
  const ortho::Explanation reverse =
      ortho::explain(ortho::reverse(graph), Operation::alltoall, 64);
  SCOPED_TRACE(ortho::to_string(reverse));
  EXPECT_TRUE(reverse.reverse);
  EXPECT_NE(ortho::to_string(reverse).find(" reverse on "), std::string::npos);
  for (const char* algorithm : {"direct", "node_aware", "common_neighbours"}) {
    EXPECT_TRUE(price_of(reverse, algorithm).has_value()) << algorithm;
  }
  EXPECT_TRUE(offered(reverse, "spread_relays"));
  EXPECT_FALSE(offered(reverse, "mpi"));  // a communicator of its own
  EXPECT_EQ(reverse.selected,
            ortho::selected_algorithm(ortho::reverse(graph),
                                      Operation::alltoall, 64));
}

TEST(Explain, AnOperationWithoutMeaningIsUndefined) {
  const classic::Comm graph = ortho_testing::moore_torus();
  const ortho::Explanation e = ortho::explain(graph, Operation::scan);
  EXPECT_EQ(e.reason, "undefined");
  EXPECT_EQ(e.selected, "");
}

TEST(Explain, TheWorldRunsNative) {
  const ortho::Explanation e =
      ortho::explain(classic::Comm::world(), Operation::allreduce, 8);
  EXPECT_EQ(e.selected, "native");
  EXPECT_EQ(e.scale, "none");
}

}  // namespace
