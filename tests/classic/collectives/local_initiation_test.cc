// A non-blocking collective returns without waiting for its peers (MPI-4.1,
// 6.12: its initiation is local), also as the first operation on a new
// communicator. Rank 0 starts it and then sends a token to rank 1; every
// other rank starts it only once the token from the rank before has
// arrived, and passes it on; then all wait. A communicator whose first
// collective made its private context (a collective of the transport)
// inside the call hung here; the hang watchdog names the case.
#include <gtest/gtest.h>
#include <mpi.h>

#include <functional>
#include <string>

#include "classic/collectives/nonblocking_collectives.h"
#include "classic/comm/comm.h"
#include "classic/groups/group.h"
#include "classic/p2p/point_to_point.h"
#include "classic/p2p/request.h"
#include "tests/harness/case_label.h"

namespace classic {
namespace {

// iallreduce (sum of the ranks) started in turn, on a new communicator.
void sum_in_turn(const Comm& comm, const std::string& label) {
  const orthocomm_test::CaseLabel case_label(label);  // for a hang's report
  const Comm world = Comm::world();
  const int me = world.rank();
  constexpr int kTokenTag = 7302;
  int token = 0;
  if (me > 0) (void)recv(world, &token, 1, MPI_INT, me - 1, kTokenTag);
  const int mine = comm.rank();
  int sum = -1;
  Request request = iallreduce(comm, &mine, &sum, 1, MPI_INT, MPI_SUM);
  if (me + 1 < world.size()) send(world, &token, 1, MPI_INT, me + 1, kTokenTag);
  (void)wait(request);
  const int n = comm.size();
  EXPECT_EQ(sum, n * (n - 1) / 2) << label << ", rank " << me;
}

TEST(LocalInitiation, OnTheFirstCollectiveOfANewCommunicator) {
  const Comm world = Comm::world();
  sum_in_turn(world.split(0, world.rank()), "split");
  sum_in_turn(world.create(world.group()), "create");
  sum_in_turn(world.dup(), "dup");
  sum_in_turn(world.split(0, world.rank()).dup(), "dup of a split");
}

}  // namespace
}  // namespace classic
