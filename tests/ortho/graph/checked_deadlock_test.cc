// Checked mode (ORTHO_CHECK=1) against the mistake that deadlocks silently
// without it: processes that leave a loop at different iterations, so that
// one waits in a collective on the graph while the others have moved to a
// collective on another communicator. With ORTHO_CHECK_TIMEOUT=2 every
// process raises, within the limit, an error that names its rank and the
// call it waited in, and, since every process stalled, every process's
// last call: rank 0's allreduce on the graph, the others' barrier on the
// world. (The communicators cannot be used afterwards: the test ends
// there.)
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <string>

#include "classic/base/error.h"
#include "classic/collectives/checked.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "ortho/collectives.h"
#include "tests/ortho/testing/moore_torus.h"

namespace {

TEST(CheckedDeadlock, EveryProcessNamesTheCallItWaitedIn) {
  ASSERT_TRUE(classic::checked()) << "run with ORTHO_CHECK=1";
  const classic::Comm graph = ortho_testing::moore_torus();
  const classic::Comm world = classic::Comm::world();
  const int rank = world.rank();
  const auto start = std::chrono::steady_clock::now();
  std::string message;
  try {
    int value = rank;
    int result = 0;
    if (rank == 0) {
      // Still in the loop: the residual reduced over the graph.
      ortho::allreduce(graph, &value, &result, 1, MPI_INT, MPI_SUM);
    } else {
      // Out of the loop: on to a barrier over the world.
      classic::barrier(world);
    }
  } catch (const classic::Error& error) {
    message = error.what();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ASSERT_FALSE(message.empty()) << "no error on rank " << rank;
  EXPECT_NE(message.find("ORTHO_CHECK_TIMEOUT"), std::string::npos) << message;
  EXPECT_NE(message.find("rank " + std::to_string(rank)), std::string::npos)
      << message;
  EXPECT_NE(message.find(rank == 0 ? "ortho::allreduce" : "classic::barrier"),
            std::string::npos)
      << message;
  EXPECT_GE(seconds, 2.0);
  // Every process's call, on every process.
  EXPECT_NE(message.find("rank 0: ortho::allreduce on a communicator of " +
                         std::to_string(world.size()) + " processes"),
            std::string::npos)
      << message;
  for (int other = 1; other < world.size(); ++other) {
    EXPECT_NE(message.find("rank " + std::to_string(other) +
                           ": classic::barrier on the world"),
              std::string::npos)
        << message;
  }
}

}  // namespace
