// Collectives on inter-communicators (MPI-2 semantics) with results worked
// out from the sides' members: each group's result comes from the other
// group; the root passes mpi_root, the rest of its group proc_null (their
// buffers are not touched), the other group names the root. Then the
// errors. Random inputs against Open MPI:
// intercomm_collectives_vs_openmpi_test.cc.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <span>
#include <thread>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/intercomm/intercomm.h"
#include "tests/classic/testing/intercomm_testing.h"
#include "tests/testing/errors.h"

namespace classic {
namespace {

using intercomm_testing::build;
using intercomm_testing::Built;
using intercomm_testing::halves;
using intercomm_testing::IntercommTest;
using intercomm_testing::interleaved_reversed;
using intercomm_testing::world_rank;
using intercomm_testing::world_size;
using orthocomm_test::expect_error_class;

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// What a process passes as root when the root is local rank `rank` of side
// A (root_in_a) or B.
int root_arg(const Built& built, bool root_in_a, int rank) {
  if (built.sides.in_a != root_in_a) return rank;
  return built.inter.rank() == rank ? mpi_root : proc_null;
}

class IntercommCollectives : public IntercommTest {};

TEST_F(IntercommCollectives, BcastReachesTheOtherSideOnly) {
  for (const bool root_in_a : {true, false}) {
    const Built built = build(interleaved_reversed());
    const std::vector<int>& root_side =
        root_in_a ? built.sides.a : built.sides.b;
    const int root = static_cast<int>(root_side.size()) - 1;
    const int root_world = root_side.back();
    const int arg = root_arg(built, root_in_a, root);
    std::vector<int> buffer(3, -1);
    if (arg == mpi_root) buffer = {root_world, root_world + 1, root_world + 2};
    bcast(built.inter, std::span(buffer), arg);
    if (arg == proc_null) {
      EXPECT_EQ(buffer, std::vector<int>(3, -1));
    } else {
      EXPECT_EQ(buffer,
                (std::vector<int>{root_world, root_world + 1, root_world + 2}));
    }
  }
}

TEST_F(IntercommCollectives, GatherCollectsTheOtherSideInRankOrder) {
  const Built built = build(interleaved_reversed());
  const int arg = root_arg(built, true, 0);  // root: A's rank 0
  const std::vector<int> send = {world_rank(), -world_rank()};
  std::vector<int> recv(arg == mpi_root ? 2 * built.sides.b.size() : 0, 99);
  gather(built.inter, std::span(send), std::span(recv), arg);
  if (arg == mpi_root) {
    std::vector<int> expected;
    for (int w : built.sides.b) {
      expected.push_back(w);
      expected.push_back(-w);
    }
    EXPECT_EQ(recv, expected);
  }
}

TEST_F(IntercommCollectives, ScatterDealsBlocksInRankOrder) {
  const Built built = build(halves());
  const int arg = root_arg(built, false, 0);  // root: B's rank 0
  std::vector<int> send;
  if (arg == mpi_root) {
    for (std::size_t j = 0; j < built.sides.a.size(); ++j) {
      send.push_back(static_cast<int>(j) * 10);
      send.push_back(static_cast<int>(j) * 10 + 1);
    }
  }
  std::vector<int> recv(built.sides.in_a ? 2 : 0, 99);
  scatter(built.inter, std::span(send), std::span(recv), arg);
  if (built.sides.in_a) {
    EXPECT_EQ(recv, (std::vector<int>{built.inter.rank() * 10,
                                      built.inter.rank() * 10 + 1}));
  }
}

TEST_F(IntercommCollectives, AllgatherGivesEachSideTheOthersBlocks) {
  // A sends one element, B two: a process receives the other side's.
  const Built built = build(interleaved_reversed());
  const std::vector<int> send =
      built.sides.in_a ? std::vector<int>{world_rank()}
                       : std::vector<int>{world_rank(), 100 + world_rank()};
  const std::size_t block = built.sides.in_a ? 2 : 1;
  std::vector<int> recv(block * built.sides.theirs().size(), 99);
  allgather(built.inter, std::span(send), std::span(recv));
  std::vector<int> expected;
  for (int w : built.sides.theirs()) {
    expected.push_back(w);
    if (block == 2) expected.push_back(100 + w);
  }
  EXPECT_EQ(recv, expected);
}

TEST_F(IntercommCollectives, AlltoallPairsEveryProcessWithEveryRemoteOne) {
  const Built built = build(halves());
  const int remote = built.inter.remote_size();
  std::vector<int> send(at(remote));
  for (int j = 0; j < remote; ++j) send[at(j)] = 1000 * world_rank() + j;
  std::vector<int> recv(at(remote), 99);
  alltoall(built.inter, std::span(send), std::span(recv));
  for (int j = 0; j < remote; ++j) {
    EXPECT_EQ(recv[at(j)],
              1000 * built.sides.theirs()[at(j)] + built.inter.rank());
  }
}

int sum(const std::vector<int>& values) {
  return std::accumulate(values.begin(), values.end(), 0);
}

TEST_F(IntercommCollectives, ReductionsCombineTheOtherSide) {
  const Built built = build(interleaved_reversed());
  const std::vector<int> send = {world_rank(), 1};
  // allreduce: every process gets the other side's sums.
  std::vector<int> all(2, 99);
  allreduce(built.inter, std::span(send), std::span(all), MPI_SUM);
  EXPECT_EQ(all,
            (std::vector<int>{sum(built.sides.theirs()),
                              static_cast<int>(built.sides.theirs().size())}));
  // reduce to B's last rank: it gets A's maximum world rank.
  const int root = static_cast<int>(built.sides.b.size()) - 1;
  const int arg = root_arg(built, false, root);
  std::vector<int> max(arg == mpi_root ? 2 : 0, 99);
  reduce(built.inter, std::span(send), std::span(max), MPI_MAX, arg);
  if (arg == mpi_root) {
    EXPECT_EQ(
        max,
        (std::vector<int>{
            *std::max_element(built.sides.a.begin(), built.sides.a.end()), 1}));
  }
}

TEST_F(IntercommCollectives, ReduceScatterBlockCutsTheOtherSidesSum) {
  // Equal totals: A's blocks are |B| long, B's |A| long; element k of
  // every vector is world rank * 100 + k.
  const Built built = build(halves());
  const int n = built.inter.size();
  const int block = built.inter.remote_size();
  std::vector<int> send(at(n * block));
  for (std::size_t k = 0; k < send.size(); ++k) {
    send[k] = world_rank() * 100 + static_cast<int>(k);
  }
  std::vector<int> recv(at(block), 99);
  reduce_scatter_block(built.inter, std::span(send), std::span(recv), MPI_SUM);
  const int others = static_cast<int>(built.sides.theirs().size());
  for (int k = 0; k < block; ++k) {
    const int element = built.inter.rank() * block + k;
    EXPECT_EQ(recv[at(k)], 100 * sum(built.sides.theirs()) + others * element);
  }
}

TEST_F(IntercommCollectives, ReduceScatterUsesEachSidesCounts) {
  // Both sides reduce vectors of 6 elements; local rank 0 gets them all.
  const Built built = build(interleaved_reversed());
  std::vector<int> counts(at(built.inter.size()), 0);
  counts[0] = 6;
  const std::vector<int> send = {1, 2, 3, 4, 5, world_rank()};
  std::vector<int> recv(at(counts[at(built.inter.rank())]), 99);
  reduce_scatter(built.inter, std::span(send), std::span(recv), counts,
                 MPI_SUM);
  if (built.inter.rank() == 0) {
    const int m = static_cast<int>(built.sides.theirs().size());
    EXPECT_EQ(recv, (std::vector<int>{m, 2 * m, 3 * m, 4 * m, 5 * m,
                                      sum(built.sides.theirs())}));
  }
}

TEST_F(IntercommCollectives, BarrierWaitsForEveryProcessOfTheOtherSide) {
  using Clock = std::chrono::steady_clock;  // one clock for the machine
  const Built built = build(halves());
  // B's last process enters late; nobody in A may leave before it entered.
  const bool late =
      !built.sides.in_a && built.inter.rank() == built.inter.size() - 1;
  if (late) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const long long entered =
      std::chrono::duration_cast<std::chrono::microseconds>(
          Clock::now().time_since_epoch())
          .count();
  barrier(built.inter);
  const long long left = std::chrono::duration_cast<std::chrono::microseconds>(
                             Clock::now().time_since_epoch())
                             .count();
  // The last entry into the barrier on side B.
  const long long entry_on_b = built.sides.in_a ? 0 : entered;
  long long last_entry = 0;
  MPI_Allreduce(&entry_on_b, &last_entry, 1, MPI_LONG_LONG, MPI_MAX,
                MPI_COMM_WORLD);
  if (built.sides.in_a) {
    EXPECT_GE(left, last_entry);
  }
}

TEST_F(IntercommCollectives, WorkOnDuplicatesAndSplits) {
  const Built built = build(interleaved_reversed());
  const Comm copy = built.inter.dup();
  const Comm part = built.inter.split(0, -built.inter.rank());
  for (const Comm* comm : {&copy, &part}) {
    const std::vector<int> send = {world_rank()};
    std::vector<int> recv(1, 99);
    allreduce(*comm, std::span(send), std::span(recv), MPI_SUM);
    EXPECT_EQ(recv[0], sum(built.sides.theirs()));
  }
}

// ---- errors (every process passes the same wrong argument) -----------------

TEST_F(IntercommCollectives, RootOutsideTheConventionsRaisesRoot) {
  const Built built = build(halves());
  std::vector<int> buffer(1);
  for (const int root : {built.inter.remote_size(), -1, -3, undefined}) {
    expect_error_class([&] { bcast(built.inter, std::span(buffer), root); },
                       ErrorClass::root);
  }
}

TEST_F(IntercommCollectives, InPlaceRaisesBuffer) {
  const Built built = build(halves());
  std::vector<int> buffer(at(built.inter.remote_size()));
  expect_error_class(
      [&] { allreduce(built.inter, in_place, std::span(buffer), MPI_SUM); },
      ErrorClass::buffer);
  expect_error_class(
      [&] { allgather(built.inter, in_place, std::span(buffer)); },
      ErrorClass::buffer);
  expect_error_class(
      [&] {
        allreduce(built.inter, MPI_IN_PLACE, buffer.data(), 1, MPI_INT,
                  MPI_SUM);
      },
      ErrorClass::buffer);
}

TEST_F(IntercommCollectives, ScanAndExscanRaiseComm) {
  const Built built = build(halves());
  std::vector<int> send(1), recv(1);
  expect_error_class(
      [&] { scan(built.inter, std::span(send), std::span(recv), MPI_SUM); },
      ErrorClass::comm);
  expect_error_class(
      [&] {
        exscan(built.inter, send.data(), recv.data(), 1, MPI_INT, MPI_SUM);
      },
      ErrorClass::comm);
}

TEST_F(IntercommCollectives, BadCountsOpsAndSpansRaiseTheirClasses) {
  const Built built = build(halves());
  const int remote = built.inter.remote_size();
  std::vector<int> send(at(remote)), recv(at(remote));
  expect_error_class(
      [&] {
        allreduce(built.inter, std::span(send), std::span(recv), MPI_OP_NULL);
      },
      ErrorClass::op);
  // Counts arrays describe the remote group.
  const std::vector<int> ones(at(remote + 1), 1), displs(at(remote + 1), 0);
  expect_error_class(
      [&] {
        alltoallv(built.inter, send.data(), ones, displs, MPI_INT, recv.data(),
                  ones, displs, MPI_INT);
      },
      ErrorClass::count);
  // A typed span too short for the blocks its counts place in it.
  std::vector<int> blocks(at(remote)), short_recv(at(remote) - 1);
  std::iota(blocks.begin(), blocks.end(), 0);
  const std::vector<int> one_each(at(remote), 1);
  expect_error_class(
      [&] {
        alltoallv(built.inter, std::span(send), one_each, blocks,
                  std::span(short_recv), one_each, blocks);
      },
      ErrorClass::buffer);
  expect_error_class(
      [&] {
        allgather(built.inter, send.data(), -1, MPI_INT, recv.data(), 1,
                  MPI_INT);
      },
      ErrorClass::count);
}

TEST_F(IntercommCollectives, FreedInterCommunicatorRaisesComm) {
  Built built = build(halves());
  const Comm other = built.inter;
  built.inter.free();
  expect_error_class([&] { barrier(other); }, ErrorClass::comm);
}

}  // namespace
}  // namespace classic
