// Helpers shared by the point-to-point and request tests: a ring over the
// world and a fixture that keeps the ranks in step.
#ifndef ORTHOCOMM_TESTS_CLASSIC_TESTING_P2P_TESTING_H_
#define ORTHOCOMM_TESTS_CLASSIC_TESTING_P2P_TESTING_H_

#include <gtest/gtest.h>
#include <mpi.h>

#include "classic/comm/comm.h"

namespace classic::testing_p2p {

// The world as a ring: messages go right, come from the left.
struct Ring {
  Comm comm = Comm::world();
  int size = comm.size();
  int rank = comm.rank();
  int right = (rank + 1) % size;
  int left = (rank + size - 1) % size;
};

inline void barrier(const Comm& comm) { MPI_Barrier(comm.transport()); }

// Every rank finishes a test before any starts the next. The tests share
// the world communicator, and a rank running ahead into the next test could
// send a message that this test's any_source / any_tag receive would take.
class PointToPointTest : public ::testing::Test {
 protected:
  void TearDown() override { barrier(Comm::world()); }
};

}  // namespace classic::testing_p2p

#endif  // ORTHOCOMM_TESTS_CLASSIC_TESTING_P2P_TESTING_H_
