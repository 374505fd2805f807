// Non-blocking intra-communicator collectives (ibarrier ... iexscan):
// random cases of all 17 equal the blocking classic collective and Open
// MPI's MPI_I* on the same inputs; several outstanding at once complete in
// any order; they cannot be cancelled; destroyed while pending they still
// complete (in the background).
#include "classic/collectives/nonblocking_collectives.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/internal/collective_call.h"
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

// Completes `request` by one of the completion functions, drawn locally.
void complete(Request& request, Random& local) {
  switch (uniform(local, 0, 3)) {
    case 0:
      wait(request);
      break;
    case 1:
      while (!test(request)) {
      }
      break;
    case 2:
      wait_all(std::span(&request, 1));
      break;
    default:
      EXPECT_EQ(wait_any(std::span(&request, 1)).index, 0);
  }
  EXPECT_TRUE(request.is_null());
}

class NonblockingCollectives : public ::testing::TestWithParam<int> {};

TEST_P(NonblockingCollectives, EqualBlockingAndOpenMpi) {
  const int which = GetParam();
  for (const auto& pair : comm_pairs()) {
    Random shared(testing::kSeed + 100u + static_cast<unsigned>(which));
    Random local(testing::kSeed + 7919u * Environment::world_rank());
    for (int iteration = 0; iteration < 60; ++iteration) {
      const std::unique_ptr<Case> mine = make_case(which, *pair, shared, local);
      SCOPED_TRACE(std::string(mine->name()) + mine->details() + " on " +
                   pair->name + ", iteration " + std::to_string(iteration));
      mine->fill(local);
      const std::unique_ptr<Case> blocking = mine->clone();
      const std::unique_ptr<Case> oracle = mine->clone();
      blocking->run(Mode::blocking);
      Request request = mine->run(Mode::nonblocking);
      EXPECT_FALSE(request.is_null());
      complete(request, local);
      MPI_Request theirs = MPI_REQUEST_NULL;
      ASSERT_EQ(oracle->oracle(&theirs), MPI_SUCCESS);
      ASSERT_EQ(MPI_Wait(&theirs, MPI_STATUS_IGNORE), MPI_SUCCESS);
      EXPECT_TRUE(mine->same(*blocking));
      EXPECT_TRUE(mine->same(*oracle));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All17, NonblockingCollectives,
                         ::testing::Range(0, kCollectives));

// Several collectives outstanding at once, started in one order everywhere
// and completed in another on each process.
TEST(NonblockingCollectivesAtOnce, CompleteInAnyOrder) {
  for (const auto& pair : comm_pairs()) {
    Random shared(testing::kSeed + 300u);
    Random local(testing::kSeed + 31u * Environment::world_rank());
    for (int iteration = 0; iteration < 40; ++iteration) {
      const int k = uniform(shared, 2, 6);
      std::vector<std::unique_ptr<Case>> cases, expected;
      for (int i = 0; i < k; ++i) {
        cases.push_back(make_case(uniform(shared, 0, kCollectives - 1), *pair,
                                  shared, local));
        cases.back()->fill(local);
        expected.push_back(cases.back()->clone());
        expected.back()->run(Mode::blocking);
      }
      std::vector<Request> requests;
      for (auto& c : cases) requests.push_back(c->run(Mode::nonblocking));
      switch (uniform(local, 0, 2)) {
        case 0: {  // wait_any until none is left
          std::vector<bool> seen(requests.size());
          for (int i = 0; i < k; ++i) {
            const Completion done = wait_any(requests);
            ASSERT_GE(done.index, 0);
            EXPECT_FALSE(seen[static_cast<std::size_t>(done.index)]);
            seen[static_cast<std::size_t>(done.index)] = true;
          }
          EXPECT_EQ(wait_any(requests).index, undefined);
          break;
        }
        case 1:  // test, last first, until each has completed
          for (int i = k - 1; i >= 0; --i) {
            while (!test(requests[static_cast<std::size_t>(i)])) {
            }
          }
          break;
        default:
          wait_all(requests);
      }
      for (int i = 0; i < k; ++i) {
        const auto at = static_cast<std::size_t>(i);
        EXPECT_TRUE(requests[at].is_null());
        EXPECT_TRUE(cases[at]->same(*expected[at])) << cases[at]->name();
      }
    }
  }
}

TEST(NonblockingCollectivesRequests, CannotBeCancelled) {
  const Comm world = Comm::world();
  int value = world.rank();
  int sum = -1;
  Request request = iallreduce(world, &value, &sum, 1, MPI_INT, MPI_SUM);
  orthocomm_test::expect_error_from([&] { request.cancel(); },
                                    ErrorClass::request,
                                    "classic::Request::cancel");
  EXPECT_FALSE(request.is_null());  // still pending, to be completed
  wait(request);
  EXPECT_EQ(sum, world.size() * (world.size() - 1) / 2);
}

// The transport neither cancels nor frees a pending collective: destroyed,
// it completes in the background, with its result, and is then let go.
TEST(NonblockingCollectivesRequests, DestroyedWhilePendingStillComplete) {
  const Comm world = Comm::world();
  std::vector<int> values(3, world.rank() + 1), sums(3, -1);
  {
    Request abandoned = iallreduce(world, std::span<const int>(values),
                                   std::span<int>(sums), MPI_SUM);
    Request fence = ibarrier(world);
  }
  barrier(world);
  while (internal::collectives_in_background() > 0) {
  }
  const int n = world.size();
  EXPECT_EQ(sums, std::vector<int>(3, n * (n + 1) / 2));
}

}  // namespace
}  // namespace classic
