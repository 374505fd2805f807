// Persistent intra-communicator collectives (barrier_init ... exscan_init):
// random cases of all 17, started again and again with new buffer contents,
// equal the blocking classic collective each time; started alongside
// non-blocking ones; start of an active one and cancel() are refused.
#include "classic/collectives/persistent_collectives.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/internal/collective_call.h"
#include "classic/collectives/nonblocking_collectives.h"
#include "classic/p2p/request.h"
#include "tests/classic/collectives/request_collectives_cases.h"
#include "tests/testing/errors.h"

namespace classic {
namespace {

using testing::Case;
using testing::comm_pairs;
using testing::kCollectives;
using testing::make_case;
using testing::Random;
using testing::uniform;

class PersistentCollectives : public ::testing::TestWithParam<int> {};

TEST_P(PersistentCollectives, EveryStartEqualsBlocking) {
  const int which = GetParam();
  for (const auto& pair : comm_pairs()) {
    Random shared(testing::kSeed + 500u + static_cast<unsigned>(which));
    Random local(testing::kSeed + 7919u * Environment::world_rank());
    for (int iteration = 0; iteration < 15; ++iteration) {
      const std::unique_ptr<Case> mine = make_case(which, *pair, shared, local);
      SCOPED_TRACE(std::string(mine->name()) + mine->details() + " on " +
                   pair->name + ", iteration " + std::to_string(iteration));
      mine->fill(local);
      Request request = mine->run(Mode::persistent);
      EXPECT_TRUE(request.is_inactive());
      const int starts = uniform(shared, 3, 5);
      for (int s = 0; s < starts; ++s) {
        mine->fill(local);  // new contents, same buffers
        const std::unique_ptr<Case> expected = mine->clone();
        start(request);
        EXPECT_FALSE(request.is_inactive());
        if (uniform(local, 0, 1) == 0) {
          wait(request);
        } else {
          while (!test(request)) {
          }
        }
        EXPECT_TRUE(request.is_inactive());
        expected->run(Mode::blocking);
        EXPECT_TRUE(mine->same(*expected)) << "start " << s;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All17, PersistentCollectives,
                         ::testing::Range(0, kCollectives));

// Persistent and non-blocking collectives outstanding together, started in
// one order (start_all) and completed in another.
TEST(PersistentCollectivesAtOnce, WithNonblockingOnes) {
  for (const auto& pair : comm_pairs()) {
    Random shared(testing::kSeed + 700u);
    Random local(testing::kSeed + 13u * Environment::world_rank());
    const int k = 4;
    std::vector<std::unique_ptr<Case>> persistent;
    std::vector<Request> requests;
    for (int i = 0; i < k; ++i) {
      persistent.push_back(make_case(uniform(shared, 0, kCollectives - 1),
                                     *pair, shared, local));
      requests.push_back(persistent.back()->run(Mode::persistent));
    }
    for (int round = 0; round < 5; ++round) {
      std::vector<std::unique_ptr<Case>> expected;
      for (auto& c : persistent) {
        c->fill(local);
        expected.push_back(c->clone());
      }
      const std::unique_ptr<Case> other =
          make_case(uniform(shared, 0, kCollectives - 1), *pair, shared, local);
      other->fill(local);
      const std::unique_ptr<Case> other_expected = other->clone();
      start_all(requests);
      Request pending = other->run(Mode::nonblocking);
      wait(pending);
      for (int i = k - 1; i >= 0; --i) {
        wait(requests[static_cast<std::size_t>(i)]);
      }
      for (auto& e : expected) e->run(Mode::blocking);
      other_expected->run(Mode::blocking);
      for (int i = 0; i < k; ++i) {
        const auto at = static_cast<std::size_t>(i);
        EXPECT_TRUE(requests[at].is_inactive());
        EXPECT_TRUE(persistent[at]->same(*expected[at]))
            << persistent[at]->name() << ", round " << round;
      }
      EXPECT_TRUE(other->same(*other_expected)) << other->name();
    }
  }
}

TEST(PersistentCollectivesRequests, StartWhileActiveAndCancelAreRefused) {
  const Comm world = Comm::world();
  int value = 0;
  Request request = bcast_init(world, &value, 1, MPI_INT, 0);
  orthocomm_test::expect_error_class([&] { request.cancel(); },
                                     ErrorClass::request);
  for (int round = 0; round < 3; ++round) {
    value = world.rank() == 0 ? 10 + round : -1;
    start(request);
    orthocomm_test::expect_error_from([&] { start(request); },
                                      ErrorClass::request, "classic::start");
    orthocomm_test::expect_error_class(
        [&] { start_all(std::span(&request, 1)); }, ErrorClass::request);
    orthocomm_test::expect_error_class([&] { request.cancel(); },
                                       ErrorClass::request);
    wait(request);
    EXPECT_EQ(value, 10 + round);
  }
}

// An active persistent collective destroyed: completes in the background
// and is freed; an inactive one is freed at once.
TEST(PersistentCollectivesRequests, DestroyedWhileActiveStillCompletes) {
  const Comm world = Comm::world();
  int value = world.rank() + 1;
  int sum = -1;
  {
    Request inactive = allreduce_init(world, &value, &sum, 1, MPI_INT, MPI_SUM);
    Request active = allreduce_init(world, &value, &sum, 1, MPI_INT, MPI_SUM);
    start(active);
  }
  barrier(world);
  while (internal::collectives_in_background() > 0) {
  }
  const int n = world.size();
  EXPECT_EQ(sum, n * (n + 1) / 2);
}

// MPI-1 5.4.3: a persistent request made before its communicator is freed
// starts, completes and restarts after the free (the transport's context
// stays until the request goes).
TEST(PersistentCollectivesAfterFree, StartAgainAndAgain) {
  Comm comm = Comm::world().dup();
  const int n = comm.size();
  int value = comm.rank() + 1;
  int sum = -1;
  Request request = allreduce_init(comm, &value, &sum, 1, MPI_INT, MPI_SUM);
  comm.free();
  for (int run = 0; run < 3; ++run) {
    value = Comm::world().rank() + 1 + run;
    sum = -1;
    start(request);
    wait(request);
    EXPECT_EQ(sum, n * (n + 1) / 2 + n * run) << "run " << run;
  }
}

}  // namespace
}  // namespace classic
