// Checked mode for classic's own collectives (classic/collectives/checked.h):
// processes calling different collectives, roots, reduction ops or block
// sizes that differ, an argument error on one process, and a block size
// that differs along an edge of a topology must raise on every process
// (the erring one its own error) and name what differs, on
// intra-communicators, inter-communicators and process topologies, in the
// blocking, non-blocking and persistent forms; blocking neighbourhood
// collectives, checked along their edges, raise on the processes that
// receive from one that differs. The communicator stays usable, and
// correct programs deliver what they deliver unchecked.
#include "classic/collectives/checked.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/collectives/nonblocking_collectives.h"
#include "classic/collectives/persistent_collectives.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/intercomm/intercomm.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/request.h"
#include "tests/testing/errors.h"

namespace {

using classic::Comm;
using classic::ErrorClass;
// Each erroneous call must raise on this process: the class, and a message
// naming each part.
using orthocomm_test::expect_error;

class ClassicChecked : public ::testing::Test {
 protected:
  void SetUp() override { classic::set_checked(true); }
  void TearDown() override { classic::set_checked(false); }

  const Comm world_ = Comm::world();
  int me() const { return world_.rank(); }
  bool alone() const { return world_.size() < 2; }

  // A correct allreduce afterwards: the communicator still works.
  void expect_usable(const Comm& comm) {
    const int in = 1;
    int sum = 0;
    classic::allreduce(comm, &in, &sum, 1, MPI_INT, MPI_SUM);
    EXPECT_EQ(sum, comm.size());
  }
};

TEST(ClassicCheckedSwitch, OffByDefaultAndOffInsideCheckedAbove) {
  EXPECT_FALSE(classic::checked());
  classic::set_checked(true);
  EXPECT_TRUE(classic::checked());
  {
    const classic::CheckedAbove above;
    EXPECT_FALSE(classic::checked());
  }
  EXPECT_TRUE(classic::checked());
  classic::set_checked(false);
}

TEST_F(ClassicChecked, CorrectCallsDeliverAsUnchecked) {
  const auto n = static_cast<std::size_t>(world_.size());
  std::vector<int> send(n);
  for (std::size_t i = 0; i < n; ++i) {
    send[i] = 100 * me() + static_cast<int>(i);
  }
  const auto run = [&] {
    // alltoall, allgather and gather results, then ibcast's and the
    // persistent allreduce's.
    std::vector<int> result(3 * n + 2, -1);
    classic::alltoall(world_, send.data(), 1, MPI_INT, &result[0], 1, MPI_INT);
    classic::allgather(world_, &send[0], 1, MPI_INT, &result[n], 1, MPI_INT);
    classic::gather(world_, &send[0], 1, MPI_INT, &result[2 * n], 1, MPI_INT,
                    world_.size() - 1);
    int value = me() == 0 ? 42 : 0;
    classic::Request request = classic::ibcast(world_, &value, 1, MPI_INT, 0);
    classic::wait(request);
    result[3 * n] = value;
    int total = 0;
    classic::Request persistent =
        classic::allreduce_init(world_, &send[0], &total, 1, MPI_INT, MPI_SUM);
    classic::start(persistent);
    classic::wait(persistent);
    result[3 * n + 1] = total;
    return result;
  };
  const std::vector<int> checked = run();
  classic::set_checked(false);
  const std::vector<int> unchecked = run();
  EXPECT_EQ(checked, unchecked);
  EXPECT_EQ(checked[3 * n], 42);
}

TEST_F(ClassicChecked, DifferentCollectivesRaiseEverywhere) {
  if (alone()) GTEST_SKIP() << "one process calls one collective";
  int in = 1;
  int out = 0;
  expect_error(
      [&] {
        if (me() == 0) {
          classic::barrier(world_);
        } else {
          classic::allreduce(world_, &in, &out, 1, MPI_INT, MPI_SUM);
        }
      },
      ErrorClass::other,
      {"called different collectives", "rank 0 classic::barrier",
       "classic::allreduce"});
  expect_usable(world_);
}

TEST_F(ClassicChecked, RootsThatDifferRaiseEverywhere) {
  if (alone()) GTEST_SKIP() << "a process agrees with itself";
  std::vector<int> data(4, me());
  expect_error(
      [&] {
        classic::bcast(world_, data.data(), 4, MPI_INT, me() == 0 ? 0 : 1);
      },
      ErrorClass::other, {"disagree on the root", "rank 0 0", "1"});
  expect_usable(world_);
}

TEST_F(ClassicChecked, ReductionOpsThatDifferRaiseEverywhere) {
  if (alone()) GTEST_SKIP() << "a process agrees with itself";
  int in = me();
  int out = 0;
  expect_error(
      [&] {
        classic::allreduce(world_, &in, &out, 1, MPI_INT,
                           me() == 0 ? MPI_MAX : MPI_SUM);
      },
      ErrorClass::other,
      {"disagree on the reduction op", "rank 0 MPI_MAX", "MPI_SUM"});
  expect_usable(world_);
}

TEST_F(ClassicChecked, BlockSizesThatDifferRaiseEverywhere) {
  if (alone()) GTEST_SKIP() << "a process agrees with itself";
  std::vector<double> data(2, 1.0);
  expect_error(
      [&] {
        classic::bcast(world_, data.data(), me() == 0 ? 2 : 1, MPI_DOUBLE, 0);
      },
      ErrorClass::other,
      {"disagree on the bytes of a block", "rank 0 16", "8"});
  expect_usable(world_);
}

TEST_F(ClassicChecked, SendAndReceiveBlocksOfOneProcessMustAgree) {
  // One process alone too: its allgather sends 4 bytes a block and
  // receives 8.
  std::vector<int> send(2, me());
  std::vector<int> recv(static_cast<std::size_t>(2 * world_.size()), -1);
  expect_error(
      [&] {
        classic::allgather(world_, send.data(), 1, MPI_INT, recv.data(),
                           me() == 0 ? 2 : 1, MPI_INT);
      },
      ErrorClass::other, {"disagree on the bytes of a block", "4 and 8"});
  expect_usable(world_);
}

TEST_F(ClassicChecked, AnArgumentErrorOnOneProcessRaisesEverywhere) {
  int in = 1;
  int out = 0;
  try {
    classic::allreduce(world_, &in, &out, me() == 0 ? -1 : 1, MPI_INT, MPI_SUM);
    ADD_FAILURE() << "returned on rank " << me();
  } catch (const classic::Error& error) {
    if (me() == 0) {
      EXPECT_EQ(error.error_class(), ErrorClass::count) << error.what();
    } else {
      EXPECT_EQ(error.error_class(), ErrorClass::other) << error.what();
      EXPECT_NE(std::string(error.what()).find("rank 0 raised an error"),
                std::string::npos)
          << error.what();
    }
  }
  expect_usable(world_);
}

TEST_F(ClassicChecked, NonBlockingCallsCheckWhenMade) {
  if (alone()) GTEST_SKIP() << "a process agrees with itself";
  std::vector<int> data(2, 0);
  expect_error(
      [&] {
        classic::Request request =
            classic::ibcast(world_, data.data(), me() == 0 ? 2 : 1, MPI_INT, 0);
      },
      ErrorClass::other, {"classic::ibcast", "bytes of a block"});
  expect_usable(world_);
}

TEST_F(ClassicChecked, PersistentCallsCheckAtInit) {
  if (alone()) GTEST_SKIP() << "a process agrees with itself";
  int in = 1;
  int out = 0;
  expect_error(
      [&] {
        classic::Request request = classic::allreduce_init(
            world_, &in, &out, 1, MPI_INT, me() == 0 ? MPI_MIN : MPI_SUM);
      },
      ErrorClass::other, {"classic::allreduce_init", "reduction op"});
  expect_usable(world_);
}

TEST_F(ClassicChecked, InterCommunicatorsAgreeOverBothGroups) {
  if (world_.size() < 2) GTEST_SKIP() << "two groups need two processes";
  const bool low = me() < world_.size() / 2;
  const Comm half = world_.split(low ? 0 : 1, me());
  const Comm inter = classic::intercomm_create(
      half, 0, world_, low ? world_.size() / 2 : 0, /*tag=*/7);
  // Every process of the higher group agrees with the others of its group;
  // the lower group's rank 0 differs.
  int in = 1;
  int out = 0;
  expect_error(
      [&] {
        classic::allreduce(inter, &in, &out, 1, MPI_INT,
                           me() == 0 ? MPI_MAX : MPI_SUM);
      },
      ErrorClass::other, {"disagree on the reduction op", "MPI_MAX"});
  classic::allreduce(inter, &in, &out, 1, MPI_INT, MPI_SUM);
  EXPECT_EQ(out, low ? world_.size() - world_.size() / 2 : world_.size() / 2);
}

// A ring: each process sends to the next and receives from the previous.
Comm ring(const Comm& world) {
  const int n = world.size();
  const std::vector<int> sources = {(world.rank() + n - 1) % n};
  const std::vector<int> destinations = {(world.rank() + 1) % n};
  return classic::dist_graph_create_adjacent(
      world, sources, classic::unweighted, destinations, classic::unweighted);
}

// Blocking neighbourhood collectives are checked along their edges: the
// processes that receive from one that differs raise, the others deliver.
TEST_F(ClassicChecked, ABlockSizeThatDiffersAlongAnEdgeRaisesWhereItArrives) {
  if (alone()) GTEST_SKIP() << "a process agrees with itself";
  const Comm graph = ring(world_);
  const int n = world_.size();
  // Process 0 sends and expects 2 doubles, the others 1.
  const int count = me() == 0 ? 2 : 1;
  const std::vector<double> send = {10.0 + me(), 20.0 + me()};
  std::vector<double> recv(2, 0.0);
  const auto call = [&] {
    classic::neighbor_alltoall(graph, send.data(), count, MPI_DOUBLE,
                               recv.data(), count, MPI_DOUBLE);
  };
  if (me() == 0) {
    // 8 bytes arrive from rank n - 1 where it expects 16.
    expect_error(call, ErrorClass::other,
                 {"classic::neighbor_alltoall", "the sizes of an edge differ",
                  "rank " + std::to_string(n - 1) + " sends 8 bytes to rank 0",
                  "holds 16 bytes"});
    EXPECT_EQ(recv, std::vector<double>(2, 0.0)) << "data arrived";
  } else if (me() == 1) {
    // 16 bytes arrive from rank 0 where 8 fit.
    expect_error(call, ErrorClass::truncate,
                 {"classic::neighbor_alltoall",
                  "rank 0 sends more than 8 bytes to rank 1", "holds 8 bytes"});
    EXPECT_EQ(recv, std::vector<double>(2, 0.0)) << "data arrived";
  } else {
    call();
    EXPECT_EQ(recv[0], 10.0 + me() - 1);
  }
  expect_usable(graph);
}

TEST_F(ClassicChecked, DifferentNeighbourCollectivesRaiseWhereTheyArrive) {
  if (alone()) GTEST_SKIP() << "one process calls one collective";
  const Comm graph = ring(world_);
  const int n = world_.size();
  const int send = me();
  int recv = -1;
  const auto call = [&] {
    if (me() == 0) {
      classic::neighbor_allgather(graph, &send, 1, MPI_INT, &recv, 1, MPI_INT);
    } else {
      classic::neighbor_alltoall(graph, &send, 1, MPI_INT, &recv, 1, MPI_INT);
    }
  };
  if (me() == 0 || me() == 1) {
    expect_error(call, ErrorClass::other,
                 {"neighbours called different collectives",
                  me() == 0 ? "rank " + std::to_string(n - 1) +
                                  " classic::neighbor_alltoall, rank 0 "
                                  "classic::neighbor_allgather"
                            : "rank 0 classic::neighbor_allgather, rank 1 "
                              "classic::neighbor_alltoall"});
    EXPECT_EQ(recv, -1) << "data arrived";
  } else {
    call();
    EXPECT_EQ(recv, me() - 1);
  }
  expect_usable(graph);
}

TEST_F(ClassicChecked, AnArgumentErrorInANeighbourCallRaisesAtItsDestinations) {
  const Comm graph = ring(world_);
  const int n = world_.size();
  const int last = n - 1;
  const std::vector<int> send = {me(), me()};
  std::vector<int> recv(2, -1);
  const auto call = [&](int count) {
    classic::neighbor_alltoall(graph, send.data(), count, MPI_INT, recv.data(),
                               count < 0 ? 1 : count, MPI_INT);
  };
  if (me() == last) {
    expect_error([&] { call(-1); }, ErrorClass::count,
                 {"classic::neighbor_alltoall"});
  } else if (me() == 0) {
    // Its source is the erring process.
    expect_error(
        [&] { call(1); }, ErrorClass::other,
        {"rank " + std::to_string(last) + " raised an error for its arguments",
         "sent nothing"});
  } else {
    call(1);
    EXPECT_EQ(recv[0], me() - 1);
  }
  expect_usable(graph);
}

TEST_F(ClassicChecked, MoreBytesThanAReceiveBlockHoldsIsATruncation) {
  if (alone()) GTEST_SKIP() << "a process agrees with itself";
  const Comm graph = ring(world_);
  std::vector<int> send(2, 1);
  std::vector<int> recv(1, 0);
  expect_error(
      [&] {
        classic::Request request = classic::neighbor_alltoall_init(
            graph, send.data(), me() == 0 ? 2 : 1, MPI_INT, recv.data(), 1,
            MPI_INT);
      },
      ErrorClass::truncate,
      {"classic::neighbor_alltoall_init", "rank 0 sends 8 bytes",
       "holds 4 bytes"});
  expect_usable(graph);
}

TEST_F(ClassicChecked, CorrectNeighbourCallsDeliverAsUnchecked) {
  const Comm graph = ring(world_);
  const int n = world_.size();
  const std::vector<int> send = {me(), 10 * me()};
  const auto run = [&] {
    std::vector<int> recv(2, -1);
    classic::neighbor_alltoall(graph, send.data(), 2, MPI_INT, recv.data(), 2,
                               MPI_INT);
    return recv;
  };
  const std::vector<int> checked = run();
  classic::set_checked(false);
  EXPECT_EQ(run(), checked);
  const int previous = (me() + n - 1) % n;
  EXPECT_EQ(checked, (std::vector<int>{previous, 10 * previous}));
}

}  // namespace
