// ORTHO_MACHINE on a running job (set by the BUILD target to the InfiniBand
// machine file shipped with the simulator): ortho::explain names the file
// and its machine as the source of its prices, and the collective the
// prices choose delivers MPI's result.
#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "ortho/explain.h"
#include "ortho/operation.h"
#include "ortho/raw_collectives.h"
#include "tests/ortho/testing/moore_torus.h"

namespace {

constexpr char kSource[] =
    "machine file experiments/simulate/machines/infiniband_hdr.machine "
    "(InfiniBand HDR, 128 cores a node (published and typical figures))";

TEST(MachineEnv, ExplainNamesTheMachineFile) {
  const classic::Comm graph = ortho_testing::moore_torus();
  for (const ortho::Operation operation :
       {ortho::Operation::allgather, ortho::Operation::alltoall}) {
    const ortho::Explanation explanation = ortho::explain(graph, operation, 64);
    EXPECT_EQ(explanation.prices, kSource);
    EXPECT_NE(ortho::to_string(explanation).find(kSource), std::string::npos)
        << ortho::to_string(explanation);
  }
}

TEST(MachineEnv, TheChosenAllgatherDeliversMpisResult) {
  const classic::Comm graph = ortho_testing::moore_torus();
  const std::vector<int> sources = classic::dist_graph_neighbors(graph).sources;
  for (const int ints : {1, 16, 1024}) {
    std::vector<int> send(static_cast<std::size_t>(ints));
    for (int i = 0; i < ints; ++i) {
      send[static_cast<std::size_t>(i)] = 1000 * graph.rank() + i;
    }
    std::vector<int> recv(send.size() * sources.size(), -1);
    ortho::allgather(graph, send.data(), ints, MPI_INT, recv.data(), ints,
                     MPI_INT);
    for (std::size_t j = 0; j < sources.size(); ++j) {
      for (int i = 0; i < ints; ++i) {
        ASSERT_EQ(recv[j * static_cast<std::size_t>(ints) +
                       static_cast<std::size_t>(i)],
                  1000 * sources[j] + i)
            << "slot " << j << " int " << i << " of " << ints;
      }
    }
  }
}

}  // namespace
