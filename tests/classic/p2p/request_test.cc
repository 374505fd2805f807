// Tests of classic::Request and the completion functions (wait, test and
// their _all / _any forms) at any number of processes: completion of every
// request exactly once, MPI's empty status for null requests, errors that
// surface at completion, and what destroying, moving and cancelling a
// pending request does.
#include "classic/p2p/request.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/p2p/point_to_point.h"
#include "classic/p2p/status.h"
#include "tests/classic/testing/p2p_testing.h"
#include "tests/testing/errors.h"

namespace classic {
namespace {

using Requests = testing_p2p::PointToPointTest;
using orthocomm_test::expect_error;
using orthocomm_test::expect_error_class;
using testing_p2p::Ring;

// ---- completion: all, any, test ---------------------------------------------

// Every rank sends rank*1000+peer to every peer (itself included) and
// receives into slot `peer`.
struct AllToAll {
  Ring ring;
  std::vector<int> out;
  std::vector<int> in;
  std::vector<Request> receives;
  std::vector<Request> sends;

  explicit AllToAll(int tag)
      : out(static_cast<std::size_t>(ring.size)),
        in(static_cast<std::size_t>(ring.size), -1) {
    for (int peer = 0; peer < ring.size; ++peer) {
      const auto slot = static_cast<std::size_t>(peer);
      receives.push_back(irecv(ring.comm, std::span(&in[slot], 1), peer, tag));
    }
    for (int peer = 0; peer < ring.size; ++peer) {
      const auto slot = static_cast<std::size_t>(peer);
      out[slot] = 1000 * ring.rank + peer;
      sends.push_back(isend(ring.comm, std::span(&out[slot], 1), peer, tag));
    }
  }

  void expect_received() const {
    for (int peer = 0; peer < ring.size; ++peer) {
      EXPECT_EQ(in[static_cast<std::size_t>(peer)], 1000 * peer + ring.rank);
    }
  }
};

bool all_null(std::span<const Request> requests) {
  return std::all_of(requests.begin(), requests.end(),
                     [](const Request& r) { return r.is_null(); });
}

TEST_F(Requests, WaitAllCompletesEveryRequest) {
  AllToAll exchange(20);
  const std::vector<Status> statuses = wait_all(exchange.receives);
  wait_all(exchange.sends);
  ASSERT_EQ(statuses.size(), exchange.receives.size());
  for (int peer = 0; peer < exchange.ring.size; ++peer) {
    EXPECT_EQ(statuses[static_cast<std::size_t>(peer)].source, peer);
    EXPECT_EQ(statuses[static_cast<std::size_t>(peer)].tag, 20);
  }
  exchange.expect_received();
  EXPECT_TRUE(all_null(exchange.receives));
  EXPECT_TRUE(all_null(exchange.sends));
}

TEST_F(Requests, TestAllEventuallyCompletesEveryRequest) {
  AllToAll exchange(21);
  std::optional<std::vector<Status>> statuses;
  while (!statuses) statuses = test_all(exchange.receives);
  while (!test_all(exchange.sends)) {
  }
  for (int peer = 0; peer < exchange.ring.size; ++peer) {
    EXPECT_EQ((*statuses)[static_cast<std::size_t>(peer)].source, peer);
  }
  exchange.expect_received();
  EXPECT_TRUE(all_null(exchange.receives));
}

TEST_F(Requests, WaitAnyCompletesEachRequestOnce) {
  AllToAll exchange(22);
  std::vector<int> completed;
  for (;;) {
    const Completion done = wait_any(exchange.receives);
    if (done.index == undefined) {
      EXPECT_EQ(done.status, Status{});
      break;
    }
    EXPECT_EQ(done.status.source, done.index);  // receive i is from peer i
    EXPECT_TRUE(
        exchange.receives[static_cast<std::size_t>(done.index)].is_null());
    completed.push_back(done.index);
  }
  wait_all(exchange.sends);
  std::sort(completed.begin(), completed.end());
  std::vector<int> all(static_cast<std::size_t>(exchange.ring.size));
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(completed, all);
  exchange.expect_received();
}

TEST_F(Requests, TestAnyCompletesEachRequestOnce) {
  AllToAll exchange(23);
  std::vector<int> completed;
  for (;;) {
    const std::optional<Completion> done = test_any(exchange.receives);
    if (!done) continue;
    if (done->index == undefined) break;
    EXPECT_EQ(done->status.source, done->index);
    completed.push_back(done->index);
  }
  wait_all(exchange.sends);
  std::sort(completed.begin(), completed.end());
  EXPECT_EQ(completed.size(), static_cast<std::size_t>(exchange.ring.size));
  EXPECT_EQ(std::unique(completed.begin(), completed.end()), completed.end());
  exchange.expect_received();
}

// MPI: completing a null request returns at once with the empty status.
TEST_F(Requests, NullRequestsGiveTheEmptyStatus) {
  MPI_Request raw_request = MPI_REQUEST_NULL;
  MPI_Status raw;
  MPI_Wait(&raw_request, &raw);
  int count = -1;
  MPI_Get_count(&raw, MPI_BYTE, &count);
  ASSERT_EQ(raw.MPI_SOURCE, MPI_ANY_SOURCE);
  ASSERT_EQ(raw.MPI_TAG, MPI_ANY_TAG);
  ASSERT_EQ(count, 0);
  const Status empty;
  EXPECT_EQ(empty.source, any_source);
  EXPECT_EQ(empty.tag, any_tag);
  EXPECT_EQ(empty.bytes(), 0);
  EXPECT_FALSE(empty.cancelled());

  Request request;
  EXPECT_EQ(wait(request), empty);
  EXPECT_EQ(test(request), std::optional<Status>(empty));
  std::vector<Request> requests(3);
  EXPECT_EQ(wait_all(requests), std::vector<Status>(3, empty));
  EXPECT_EQ(test_all(requests), std::optional(std::vector<Status>(3, empty)));
  EXPECT_EQ(wait_any(requests).index, undefined);
  const std::optional<Completion> any = test_any(requests);
  ASSERT_TRUE(any.has_value());
  EXPECT_EQ(any->index, undefined);
  EXPECT_EQ(any->status, empty);
  EXPECT_EQ(wait_any(std::span<Request>()).index, undefined);
}

TEST_F(Requests, WaitAllMixesNullAndPendingRequests) {
  Ring ring;
  const int out = ring.rank;
  int in = -1;
  std::vector<Request> requests(4);
  requests[1] = irecv(ring.comm, std::span(&in, 1), ring.left, 24);
  requests[3] = isend(ring.comm, std::span(&out, 1), ring.right, 24);
  const std::vector<Status> statuses = wait_all(requests);
  EXPECT_EQ(statuses[0], Status{});
  EXPECT_EQ(statuses[1].source, ring.left);
  EXPECT_EQ(statuses[2], Status{});
  EXPECT_EQ(in, ring.left);
}

// ---- errors at completion ---------------------------------------------------

TEST_F(Requests, TruncationSurfacesInWait) {
  Ring ring;
  const std::array<int, 4> out = {1, 2, 3, 4};
  Request sending = isend(ring.comm, std::span(out), ring.right, 41);
  std::array<int, 2> in = {};
  Request receiving = irecv(ring.comm, std::span(in), ring.left, 41);
  expect_error_class([&] { wait(receiving); }, ErrorClass::truncate);
  EXPECT_TRUE(receiving.is_null());
  wait(sending);
}

TEST_F(Requests, TruncationSurfacesInWaitAll) {
  Ring ring;
  const std::array<int, 4> out = {1, 2, 3, 4};
  std::array<int, 2> short_in = {};
  std::array<int, 4> long_in = {};
  std::vector<Request> requests;
  requests.push_back(isend(ring.comm, std::span(out), ring.right, 42));
  requests.push_back(isend(ring.comm, std::span(out), ring.right, 43));
  requests.push_back(irecv(ring.comm, std::span(long_in), ring.left, 42));
  requests.push_back(irecv(ring.comm, std::span(short_in), ring.left, 43));
  expect_error([&] { wait_all(requests); }, ErrorClass::truncate,
               {"requests[3]"});
  wait_all(requests);  // whatever is left
  EXPECT_EQ(long_in, out);
}

// ---- request lifetimes ------------------------------------------------------

TEST_F(Requests, DestroyingAPendingReceiveWithdrawsIt) {
  const Comm world = Comm::world();
  const int me = world.rank();
  {
    int never = -1;
    Request abandoned = irecv(world, std::span(&never, 1), me, 55);
  }
  // Had the abandoned receive stayed posted, it would take this message.
  const int out = 7;
  Request sending = isend(world, std::span(&out, 1), me, 55);
  int in = -1;
  recv(world, std::span(&in, 1), me, 55);
  wait(sending);
  EXPECT_EQ(in, 7);
}

TEST_F(Requests, AssigningOverAPendingReceiveWithdrawsIt) {
  const Comm world = Comm::world();
  const int me = world.rank();
  int never = -1;
  Request receiving = irecv(world, std::span(&never, 1), me, 56);
  receiving = Request();
  EXPECT_TRUE(receiving.is_null());
  const int out = 8;
  Request sending = isend(world, std::span(&out, 1), me, 56);
  int in = -1;
  recv(world, std::span(&in, 1), me, 56);
  wait(sending);
  EXPECT_EQ(in, 8);
  EXPECT_EQ(never, -1);
}

TEST_F(Requests, DestroyingAPendingSendStillDeliversIt) {
  Ring ring;
  // Long enough for the transport's rendezvous protocol, so the send is
  // still pending when its request goes.
  constexpr std::size_t kLength = 1 << 16;
  const std::vector<int> out(kLength, ring.rank);  // outlives the send
  { Request dropped = isend(ring.comm, std::span(out), ring.right, 57); }
  std::vector<int> in(kLength, -1);
  recv(ring.comm, std::span(in), ring.left, 57);
  EXPECT_EQ(in, std::vector<int>(kLength, ring.left));
  testing_p2p::barrier(
      ring.comm);  // every send has been received before `out` goes
}

// MPI completes proc_null operations at once; their requests may be
// dropped unwaited.
TEST_F(Requests, DroppingProcNullRequestsIsHarmless) {
  const Comm world = Comm::world();
  int value = 1;
  { Request sending = isend(world, std::span(&value, 1), proc_null, 0); }
  { Request receiving = irecv(world, std::span(&value, 1), proc_null, 0); }
  EXPECT_EQ(value, 1);
}

TEST_F(Requests, CancelledReceiveSaysSo) {
  const Comm world = Comm::world();
  int never = -1;
  Request receiving = irecv(world, std::span(&never, 1), world.rank(), 58);
  receiving.cancel();
  const Status status = wait(receiving);
  EXPECT_TRUE(status.cancelled());
  EXPECT_TRUE(receiving.is_null());
  EXPECT_EQ(never, -1);
}

TEST_F(Requests, MovingARequestMovesTheOperation) {
  Ring ring;
  const int out = ring.rank;
  int in = -1;
  Request first = irecv(ring.comm, std::span(&in, 1), ring.left, 59);
  Request second = std::move(first);
  EXPECT_TRUE(first.is_null());  // NOLINT(bugprone-use-after-move)
  send(ring.comm, std::span(&out, 1), ring.right, 59);
  EXPECT_EQ(wait(second).source, ring.left);
  EXPECT_EQ(in, ring.left);
}

// A pending operation keeps its communicator: the last user handle going
// defers the free until the operation completes.
TEST_F(Requests, PendingRequestsKeepTheirCommAlive) {
  Ring ring;
  Comm copy = ring.comm.dup();
  const std::size_t live = Comm::live_count();
  const int out = ring.rank;
  int in = -1;
  Request sending = isend(copy, std::span(&out, 1), ring.right, 60);
  Request receiving = irecv(copy, std::span(&in, 1), ring.left, 60);
  copy = Comm();
  EXPECT_EQ(Comm::live_count(), live);
  wait(sending);
  EXPECT_EQ(Comm::live_count(), live);
  EXPECT_EQ(wait(receiving).source, ring.left);
  EXPECT_EQ(in, ring.left);
  EXPECT_EQ(Comm::live_count(), live - 1);
}

}  // namespace
}  // namespace classic
