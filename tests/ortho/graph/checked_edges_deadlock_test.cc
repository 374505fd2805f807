// Checked mode (ORTHO_CHECK=1) where a blocking graph exchange, checked
// along its edges, meets a collective checked by agreement on the same
// graph: process 0 calls a barrier over the graph while the others call an
// alltoall on it, which waits for process 0's messages. No message can tell
// them apart, so the time limit does: with ORTHO_CHECK_TIMEOUT=2 every
// process raises, within the limit, an error that names its rank, its call
// and every process's last call. (The graph cannot be used afterwards: the
// test ends there.)
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/checked.h"
#include "classic/comm/comm.h"
#include "ortho/collectives.h"
#include "tests/ortho/testing/moore_torus.h"

namespace {

TEST(CheckedEdgesDeadlock, EveryProcessNamesTheCallItWaitedIn) {
  ASSERT_TRUE(classic::checked()) << "run with ORTHO_CHECK=1";
  const classic::Comm graph = ortho_testing::moore_torus();
  const int rank = graph.rank();
  const int size = graph.size();
  const auto start = std::chrono::steady_clock::now();
  std::string message;
  try {
    if (rank == 0) {
      ortho::barrier(graph);
    } else {
      const std::vector<int> send(8, rank);
      std::vector<int> recv(8, -1);
      ortho::alltoall(graph, send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT);
    }
  } catch (const classic::Error& error) {
    message = error.what();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ASSERT_FALSE(message.empty()) << "no error on rank " << rank;
  EXPECT_NE(message.find("ORTHO_CHECK_TIMEOUT"), std::string::npos) << message;
  EXPECT_NE(message.find("rank " + std::to_string(rank) + " called " +
                         (rank == 0 ? "ortho::barrier" : "ortho::alltoall")),
            std::string::npos)
      << message;
  EXPECT_GE(seconds, 2.0);
  const std::string on = " on a communicator of " + std::to_string(size);
  EXPECT_NE(message.find("rank 0: ortho::barrier" + on), std::string::npos)
      << message;
  for (int other = 1; other < size; ++other) {
    EXPECT_NE(message.find("rank " + std::to_string(other) +
                           ": ortho::alltoall" + on),
              std::string::npos)
        << message;
  }
}

}  // namespace
