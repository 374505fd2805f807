// ORTHO_TUNE=0 (set by this test's BUILD rule): on random directed graphs
// planned on two hosts, where several algorithms are priced and tuning
// would measure them, no call is timed (the tuning's clock, injected, is
// never asked), explain gives the model's reason, no wisdom file is
// written though ORTHO_WISDOM names one, and every blocking call and
// persistent start still equals Open MPI's neighbour collective.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <tuple>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "ortho/explain.h"
#include "ortho/internal/tuning.h"
#include "tests/ortho/graph/graph_testing.h"
#include "tests/ortho/graph/tuning_testing.h"

namespace {

using classic::Comm;
using classic::Mode;
using ortho::Operation;
using ortho_graph_testing::Graph;
using ortho_graph_testing::OpenMpiGraph;
using ortho_graph_testing::Random;
using ortho_tuning_testing::alltoall_calls;
using ortho_tuning_testing::alltoallv_starts;
using ortho_tuning_testing::graph_with_edges;
using ortho_tuning_testing::kBlock;
using ortho_tuning_testing::kGraphs;
using ortho_tuning_testing::kSeed;

TEST(TuningOff, NothingIsMeasuredNorSavedAndResultsStayExact) {
  ASSERT_STREQ(std::getenv("ORTHO_TUNE"), "0") << "run through its BUILD rule";
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::filesystem::path wisdom =
      std::filesystem::path(dir == nullptr ? "/tmp" : dir) /
      ("tuning_off_wisdom_" + std::to_string(Comm::world().rank()));
  std::filesystem::remove(wisdom);
  setenv("ORTHO_WISDOM", wisdom.c_str(), 1);
  int timed = 0;
  ortho::internal::set_tuning_clock_for_testing(
      [&timed](std::string_view /*algorithm*/, double seconds) {
        ++timed;
        return seconds;
      });
  const Comm world = Comm::world();
  Random shared(kSeed + 17u * static_cast<unsigned>(world.size()));
  for (int g = 0; g < kGraphs; ++g) {
    const Graph graph = graph_with_edges(shared, world.size());
    SCOPED_TRACE("graph " + std::to_string(g) + ": " + graph.name());
    const Comm comm = ortho_graph_testing::make_comm(graph, world);
    const OpenMpiGraph reference(comm);
    alltoall_calls(comm, reference, graph, kSeed + static_cast<unsigned>(g));
    alltoallv_starts(comm, reference, graph, kSeed + static_cast<unsigned>(g));
    for (const auto& [operation, bytes, mode] :
         {std::tuple{Operation::alltoall, kBlock * sizeof(int), Mode::blocking},
          std::tuple{Operation::alltoallv, 2 * sizeof(int),
                     Mode::persistent}}) {
      const ortho::Explanation e = ortho::explain(comm, operation, bytes, mode);
      EXPECT_EQ(e.reason.rfind("measured", 0), std::string::npos)
          << ortho::to_string(e);
      EXPECT_FALSE(e.tuning_cost_ns.has_value()) << ortho::to_string(e);
      for (const ortho::Explanation::Offered& o : e.offered) {
        EXPECT_FALSE(o.measured_ns.has_value()) << o.algorithm;
      }
    }
  }
  EXPECT_EQ(timed, 0) << "calls timed with tuning off";
  EXPECT_FALSE(std::filesystem::exists(wisdom)) << "wisdom written";
  ortho::internal::set_tuning_clock_for_testing(nullptr);
  unsetenv("ORTHO_WISDOM");
}

}  // namespace
