// Operations that outlive their communicator's free(): MPI-1 5.4.3 lets
// pending operations complete normally and deallocates the communicator
// only when no active reference remains; a persistent request is such a
// reference. Every process runs a ring plan (send to rank + 1, receive from
// rank - 1, one or several rounds) through classic's executor, frees the
// communicator, and then starts, completes and restarts the request; the
// received values must be the ones sent. Messages of 1 int (posted afresh
// at every start) and of 4096 ints (transport persistent requests) take
// both paths of a persistent execution.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "classic/p2p/request.h"

namespace classic {
namespace {

// rounds x (send `count` ints to rank + 1, receive them from rank - 1),
// round r's block at r * count ints in both buffers.
std::shared_ptr<const Plan> ring_plan(const Comm& comm, int rounds, int count) {
  const int size = comm.size();
  const int me = comm.rank();
  auto plan = std::make_shared<Plan>();
  plan->rounds.resize(static_cast<std::size_t>(rounds));
  for (int r = 0; r < rounds; ++r) {
    const MPI_Aint at = MPI_Aint{r} * count * MPI_Aint{sizeof(int)};
    Plan::Round& round = plan->rounds[static_cast<std::size_t>(r)];
    round.receives.push_back(
        {(me + size - 1) % size, r, {{Plan::Space::recv, at, count, MPI_INT}}});
    round.sends.push_back(
        {(me + 1) % size, r, {{Plan::Space::send, at, count, MPI_INT}}});
  }
  return plan;
}

struct Ring {
  Ring(const Comm& comm, int rounds, int count)
      : size(comm.size()),
        me(comm.rank()),
        send(static_cast<std::size_t>(rounds * count)),
        recv(send.size(), -1) {}
  // What this process sends in run `run` (and its left neighbour sent).
  void fill(int run) {
    for (std::size_t i = 0; i < send.size(); ++i) {
      send[i] = 1000 * run + 100 * me + static_cast<int>(i % 97);
    }
  }
  void expect_received(int run) const {
    const int left = (me + size - 1) % size;
    for (std::size_t i = 0; i < recv.size(); ++i) {
      ASSERT_EQ(recv[i], 1000 * run + 100 * left + static_cast<int>(i % 97))
          << "run " << run << ", element " << i;
    }
  }
  PlanBuffers buffers() { return {send.data(), recv.data()}; }
  int size;
  int me;
  std::vector<int> send;
  std::vector<int> recv;
};

class FreedCommTest : public ::testing::TestWithParam<std::pair<int, int>> {
 protected:
  int rounds() const { return GetParam().first; }
  int count() const { return GetParam().second; }
};

TEST_P(FreedCommTest, PersistentRequestStartsAfterFree) {
  Comm comm = Comm::world().dup();
  Ring ring(comm, rounds(), count());
  Request request =
      execute(comm, ring_plan(comm, rounds(), count()), ring.buffers(),
              Mode::persistent, "freed_comm_test");
  comm.free();
  for (int run = 0; run < 3; ++run) {
    ring.fill(run);
    start(request);
    wait(request);
    ring.expect_received(run);
  }
}

TEST_P(FreedCommTest, ActivePersistentRequestRestartsAfterFree) {
  Comm comm = Comm::world().dup();
  Ring ring(comm, rounds(), count());
  Request request =
      execute(comm, ring_plan(comm, rounds(), count()), ring.buffers(),
              Mode::persistent, "freed_comm_test");
  ring.fill(0);
  start(request);
  comm.free();
  wait(request);
  ring.expect_received(0);
  for (int run = 1; run < 3; ++run) {
    ring.fill(run);
    start(request);
    wait(request);
    ring.expect_received(run);
  }
}

TEST_P(FreedCommTest, PendingOperationCompletesAfterFree) {
  Comm comm = Comm::world().dup();
  Ring ring(comm, rounds(), count());
  ring.fill(0);
  Request request =
      execute(comm, ring_plan(comm, rounds(), count()), ring.buffers(),
              Mode::nonblocking, "freed_comm_test");
  comm.free();
  wait(request);
  ring.expect_received(0);
}

// The last handle going away (an implicit free) while the request lives.
TEST_P(FreedCommTest, PersistentRequestOutlivesLastHandle) {
  Ring ring(Comm::world(), rounds(), count());
  Request request;
  {
    const Comm comm = Comm::world().dup();
    request = execute(comm, ring_plan(comm, rounds(), count()), ring.buffers(),
                      Mode::persistent, "freed_comm_test");
  }
  for (int run = 0; run < 2; ++run) {
    ring.fill(run);
    start(request);
    wait(request);
    ring.expect_received(run);
  }
}

// Once the request is gone the context is given back; a new communicator
// and its operations are unaffected.
TEST_P(FreedCommTest, LaterCommunicatorsWorkAfterTheLastRequestGoes) {
  for (int repeat = 0; repeat < 3; ++repeat) {
    Comm comm = Comm::world().dup();
    Ring ring(comm, rounds(), count());
    Request request =
        execute(comm, ring_plan(comm, rounds(), count()), ring.buffers(),
                Mode::persistent, "freed_comm_test");
    comm.free();
    ring.fill(repeat);
    start(request);
    wait(request);
    ring.expect_received(repeat);
  }
  Comm next = Comm::world().dup();
  Ring ring(next, rounds(), count());
  ring.fill(7);
  const Request done =
      execute(next, ring_plan(next, rounds(), count()), ring.buffers(),
              Mode::blocking, "freed_comm_test");
  ring.expect_received(7);
}

INSTANTIATE_TEST_SUITE_P(RoundsAndCounts, FreedCommTest,
                         ::testing::Values(std::pair{1, 1}, std::pair{3, 1},
                                           std::pair{1, 4096},
                                           std::pair{3, 4096}));

// A new operation on another handle of the freed communicator is refused
// in the caller's name, while the request made before the free still runs.
TEST(FreedComm, NewOperationsOnAnotherHandleAreRefused) {
  Comm comm = Comm::world().dup();
  const Comm copy = comm;
  Ring ring(comm, 1, 1);
  const std::shared_ptr<const Plan> plan = ring_plan(comm, 1, 1);
  Request request =
      execute(comm, plan, ring.buffers(), Mode::persistent, "freed_comm_test");
  comm.free();
  try {
    (void)execute(copy, plan, ring.buffers(), Mode::nonblocking,
                  "freed_comm_test::new_operation");
    FAIL() << "an operation on a freed communicator was accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.error_class(), ErrorClass::comm);
    EXPECT_EQ(
        std::string(error.what()).rfind("freed_comm_test::new_operation: ", 0),
        0U)
        << error.what();
  }
  ring.fill(4);
  start(request);
  wait(request);
  ring.expect_received(4);
}

}  // namespace
}  // namespace classic
