// Tests of classic's collectives against MPI-1 chapter 4's definitions, at
// any number of processes: every expected buffer is computed from the
// standard's description (who holds what after the call), never by classic.
#include "classic/collectives/collectives.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <chrono>
#include <numeric>
#include <span>
#include <thread>
#include <vector>

#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "tests/classic/testing/testing.h"

namespace classic {
namespace {

using testing::in;
using testing::out;

std::size_t at(int index) { return static_cast<std::size_t>(index); }

constexpr int kUntouched = -1;

// ---- barrier and bcast ----------------------------------------------------

// The last process enters late; nobody may leave before it entered. The
// tests run on one host, whose monotonic clock all processes share.
TEST(Collectives, NoProcessLeavesTheBarrierBeforeTheLastEnters) {
  const Comm world = Comm::world();
  const int last = world.size() - 1;
  barrier(world);
  long long entered = 0;
  if (world.rank() == last) {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    entered = std::chrono::steady_clock::now().time_since_epoch().count();
  }
  barrier(world);
  const long long left =
      std::chrono::steady_clock::now().time_since_epoch().count();
  // Independent of classic: the transport's own broadcast.
  MPI_Bcast(&entered, 1, MPI_LONG_LONG, last, MPI_COMM_WORLD);
  EXPECT_GE(left, entered);
}

TEST(Collectives, BcastCopiesTheRootsBufferFromEveryRoot) {
  const Comm world = Comm::world();
  for (int root = 0; root < world.size(); ++root) {
    std::vector<int> buffer(3, kUntouched);
    if (world.rank() == root) buffer = {root, 2 * root, 3 * root};
    bcast(world, out(buffer), root);
    EXPECT_EQ(buffer, (std::vector<int>{root, 2 * root, 3 * root}));
  }
}

// ---- gather and scatter ---------------------------------------------------

// Block of process r: {10 r, 10 r + 1}.
std::vector<int> block_of(int r) { return {10 * r, 10 * r + 1}; }

std::vector<int> all_blocks(int n) {
  std::vector<int> result;
  for (int r = 0; r < n; ++r) {
    for (const int value : block_of(r)) result.push_back(value);
  }
  return result;
}

TEST(Collectives, GatherPutsBlocksInRankOrderAtTheRootOnly) {
  const Comm world = Comm::world();
  const int n = world.size();
  for (int root = 0; root < n; ++root) {
    std::vector<int> recv(at(2 * n), kUntouched);
    gather(world, in(block_of(world.rank())), out(recv), root);
    EXPECT_EQ(recv, world.rank() == root
                        ? all_blocks(n)
                        : std::vector<int>(at(2 * n), kUntouched));
  }
}

TEST(Collectives, GatherInPlaceTakesTheRootsBlockFromRecv) {
  const Comm world = Comm::world();
  const int n = world.size();
  const int root = n / 2;
  std::vector<int> recv(at(2 * n), kUntouched);
  if (world.rank() == root) {
    recv[at(2 * root)] = 10 * root;
    recv[at(2 * root + 1)] = 10 * root + 1;
    gather(world, in_place, out(recv), root);
    EXPECT_EQ(recv, all_blocks(n));
  } else {
    gather(world, in(block_of(world.rank())), std::span<int>(), root);
  }
}

TEST(Collectives, GathervPlacesEachBlockAtItsDisplacement) {
  const Comm world = Comm::world();
  const int n = world.size();
  // Process r sends r % 3 elements {r, r, ...}; blocks are stored in
  // reverse rank order with one free element after each.
  std::vector<int> counts(at(n));
  std::vector<int> displs(at(n));
  int offset = 0;
  for (int r = n - 1; r >= 0; --r) {
    counts[at(r)] = r % 3;
    displs[at(r)] = offset;
    offset += counts[at(r)] + 1;
  }
  std::vector<int> expected(at(offset), kUntouched);
  for (int r = 0; r < n; ++r) {
    for (int k = 0; k < counts[at(r)]; ++k) expected[at(displs[at(r)] + k)] = r;
  }
  const int root = n - 1;
  const std::vector<int> send(at(world.rank() % 3), world.rank());
  std::vector<int> recv(at(offset), kUntouched);
  gatherv(world, in(send), out(recv), counts, displs, root);
  if (world.rank() == root) {
    EXPECT_EQ(recv, expected);
  }
}

TEST(Collectives, ScatterHandsBlockIToProcessI) {
  const Comm world = Comm::world();
  const int n = world.size();
  for (int root = 0; root < n; ++root) {
    const std::vector<int> send =
        world.rank() == root ? all_blocks(n) : std::vector<int>();
    std::vector<int> recv(2, kUntouched);
    scatter(world, in(send), out(recv), root);
    EXPECT_EQ(recv, block_of(world.rank()));
  }
}

TEST(Collectives, ScatterInPlaceLeavesTheRootsBlockInSend) {
  const Comm world = Comm::world();
  const int n = world.size();
  const int root = 0;
  if (world.rank() == root) {
    const std::vector<int> send = all_blocks(n);
    scatter(world, in(send), in_place, root);
    EXPECT_EQ(send, all_blocks(n));
  } else {
    std::vector<int> recv(2, kUntouched);
    scatter(world, std::span<const int>(), out(recv), root);
    EXPECT_EQ(recv, block_of(world.rank()));
  }
}

TEST(Collectives, ScattervSendsCountsFromDisplacements) {
  const Comm world = Comm::world();
  const int n = world.size();
  // Root's send is 0, 1, 2, ...; process r gets r + 1 elements starting at
  // element 2 r (blocks overlap, which a send buffer may).
  std::vector<int> counts(at(n));
  std::vector<int> displs(at(n));
  for (int r = 0; r < n; ++r) {
    counts[at(r)] = r + 1;
    displs[at(r)] = 2 * r;
  }
  std::vector<int> send(at(3 * n));
  std::iota(send.begin(), send.end(), 0);
  std::vector<int> recv(at(world.rank() + 1), kUntouched);
  scatterv(world, in(send), counts, displs, out(recv), 0);
  std::vector<int> expected(recv.size());
  std::iota(expected.begin(), expected.end(), 2 * world.rank());
  EXPECT_EQ(recv, expected);
}

// ---- allgather and alltoall -----------------------------------------------

TEST(Collectives, AllgatherGivesEveryProcessEveryBlock) {
  const Comm world = Comm::world();
  std::vector<int> recv(at(2 * world.size()), kUntouched);
  allgather(world, in(block_of(world.rank())), out(recv));
  EXPECT_EQ(recv, all_blocks(world.size()));
}

TEST(Collectives, AllgatherInPlaceFillsInTheOtherBlocks) {
  const Comm world = Comm::world();
  std::vector<int> buffer(at(2 * world.size()), kUntouched);
  buffer[at(2 * world.rank())] = 10 * world.rank();
  buffer[at(2 * world.rank() + 1)] = 10 * world.rank() + 1;
  allgather(world, in_place, out(buffer));
  EXPECT_EQ(buffer, all_blocks(world.size()));
}

TEST(Collectives, AllgathervConcatenatesBlocksOfDifferentSizes) {
  const Comm world = Comm::world();
  const int n = world.size();
  std::vector<int> counts(at(n));
  std::vector<int> displs(at(n));
  std::vector<int> expected;
  for (int r = 0; r < n; ++r) {
    counts[at(r)] = r + 1;
    displs[at(r)] = static_cast<int>(expected.size());
    for (int k = 0; k <= r; ++k) expected.push_back(100 * r + k);
  }
  std::vector<int> send(at(world.rank() + 1));
  std::iota(send.begin(), send.end(), 100 * world.rank());
  std::vector<int> recv(expected.size(), kUntouched);
  allgatherv(world, in(send), out(recv), counts, displs);
  EXPECT_EQ(recv, expected);
}

TEST(Collectives, AlltoallTransposesBlocks) {
  const Comm world = Comm::world();
  const int n = world.size();
  const int me = world.rank();
  std::vector<int> send(at(n));
  std::vector<int> expected(at(n));
  for (int j = 0; j < n; ++j) {
    send[at(j)] = 100 * me + j;      // to process j
    expected[at(j)] = 100 * j + me;  // from process j
  }
  std::vector<int> recv(at(n), kUntouched);
  alltoall(world, in(send), out(recv));
  EXPECT_EQ(recv, expected);
  alltoall(world, in_place, out(send));
  EXPECT_EQ(send, expected);
}

TEST(Collectives, AlltoallvMovesBlocksOfPairwiseCounts) {
  const Comm world = Comm::world();
  const int n = world.size();
  const int me = world.rank();
  // Process i sends (i + j) % 3 elements {i, j, k} encoded as 100 i + 10 j +
  // k to process j; blocks are packed in rank order on both sides.
  auto count = [](int i, int j) { return (i + j) % 3; };
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls, send, expected;
  for (int j = 0; j < n; ++j) {
    sendcounts.push_back(count(me, j));
    sdispls.push_back(static_cast<int>(send.size()));
    for (int k = 0; k < count(me, j); ++k)
      send.push_back(100 * me + 10 * j + k);
    recvcounts.push_back(count(j, me));
    rdispls.push_back(static_cast<int>(expected.size()));
    for (int k = 0; k < count(j, me); ++k) {
      expected.push_back(100 * j + 10 * me + k);
    }
  }
  std::vector<int> recv(expected.size(), kUntouched);
  alltoallv(world, in(send), sendcounts, sdispls, out(recv), recvcounts,
            rdispls);
  EXPECT_EQ(recv, expected);
}

// Each process holds an n x n matrix A (row-major) with A[i][j] = 1000 me +
// n i + j and sends column j to process j as one strided vector; it
// receives process i's column `me` as row i.
std::vector<int> transposed_columns(const Comm& comm) {
  const int n = comm.size();
  const int me = comm.rank();
  MPI_Datatype column = MPI_DATATYPE_NULL;
  MPI_Type_vector(n, 1, n, MPI_INT, &column);
  MPI_Type_commit(&column);
  std::vector<int> matrix(at(n * n));
  std::iota(matrix.begin(), matrix.end(), 1000 * me);
  std::vector<int> ones(at(n), 1), rows(at(n), n);
  std::vector<int> column_bytes(at(n)), row_bytes(at(n));
  for (int j = 0; j < n; ++j) {
    column_bytes[at(j)] = j * static_cast<int>(sizeof(int));
    row_bytes[at(j)] = j * n * static_cast<int>(sizeof(int));
  }
  const std::vector<MPI_Datatype> send_types(at(n), column);
  const std::vector<MPI_Datatype> recv_types(at(n), MPI_INT);
  // One spare element on each side shows nothing is written past the end.
  std::vector<int> recv(at(n * n + 1), kUntouched);
  alltoallw(comm, matrix.data(), ones, column_bytes, send_types, recv.data(),
            rows, row_bytes, recv_types);
  MPI_Type_free(&column);
  return recv;
}

TEST(Collectives, AlltoallwSendsStridedColumnsAsRows) {
  const Comm world = Comm::world();
  const int n = world.size();
  const std::vector<int> recv = transposed_columns(world);
  std::vector<int> expected(at(n * n + 1), kUntouched);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k) {
      expected[at(i * n + k)] = 1000 * i + n * k + world.rank();
    }
  }
  EXPECT_EQ(recv, expected);
}

// Open MPI 4.1's one-process alltoallw scales byte displacements by the
// extent; classic must copy correctly and stay inside the buffers.
TEST(Collectives, AlltoallwOnOneProcessUsesByteDisplacements) {
  const Comm self = Comm::self();
  const std::vector<int> send = {1, 2, 3, 4, 5, 6};
  std::vector<int> recv(6, kUntouched);
  const std::array<int, 1> count = {2};
  const std::array<int, 1> send_bytes = {3 * static_cast<int>(sizeof(int))};
  const std::array<int, 1> recv_bytes = {static_cast<int>(sizeof(int))};
  const std::array<MPI_Datatype, 1> types = {MPI_INT};
  alltoallw(self, send.data(), count, send_bytes, types, recv.data(), count,
            recv_bytes, types);
  EXPECT_EQ(recv, (std::vector<int>{kUntouched, 4, 5, kUntouched, kUntouched,
                                    kUntouched}));
  EXPECT_EQ(transposed_columns(self), (std::vector<int>{0, kUntouched}));
}

// ---- reductions -----------------------------------------------------------

int sum_of_ranks(int n) { return n * (n - 1) / 2; }

TEST(Collectives, ReduceSumsAtTheRootOnly) {
  const Comm world = Comm::world();
  const int n = world.size();
  for (int root = 0; root < n; ++root) {
    const std::vector<long long> send = {world.rank(), 1, -world.rank()};
    std::vector<long long> recv(3, kUntouched);
    reduce(world, in(send), out(recv), MPI_SUM, root);
    EXPECT_EQ(recv, world.rank() == root
                        ? (std::vector<long long>{sum_of_ranks(n), n,
                                                  -sum_of_ranks(n)})
                        : std::vector<long long>(3, kUntouched));
  }
}

TEST(Collectives, ReduceInPlaceUsesTheRootsRecvAsOperand) {
  const Comm world = Comm::world();
  const int root = world.size() - 1;
  std::vector<double> mine = {static_cast<double>(world.rank())};
  if (world.rank() == root) {
    reduce(world, in_place, out(mine), MPI_MAX, root);
    EXPECT_EQ(mine[0], world.size() - 1.0);
  } else {
    reduce(world, in(mine), std::span<double>(), MPI_MAX, root);
  }
}

TEST(Collectives, AllreduceGivesEveryProcessTheResult) {
  const Comm world = Comm::world();
  const int n = world.size();
  const std::vector<int> send = {world.rank(), -world.rank()};
  std::vector<int> recv(2, kUntouched);
  allreduce(world, in(send), out(recv), MPI_MIN);
  EXPECT_EQ(recv, (std::vector<int>{0, 1 - n}));
  std::vector<int> buffer = {world.rank() + 1};
  allreduce(world, in_place, out(buffer), MPI_SUM);
  EXPECT_EQ(buffer[0], n * (n + 1) / 2);
}

TEST(Collectives, ReduceScatterHandsOutBlocksOfTheReduction) {
  const Comm world = Comm::world();
  const int n = world.size();
  // Element e of every process is e; block i has i + 1 elements.
  std::vector<int> counts(at(n));
  std::iota(counts.begin(), counts.end(), 1);
  const int total = n * (n + 1) / 2;
  std::vector<int> send(at(total));
  std::iota(send.begin(), send.end(), 0);
  const int me = world.rank();
  const int first = me * (me + 1) / 2;
  std::vector<int> expected(at(me + 1));
  for (int k = 0; k <= me; ++k) expected[at(k)] = n * (first + k);
  std::vector<int> recv(at(me + 1), kUntouched);
  reduce_scatter(world, in(send), out(recv), counts, MPI_SUM);
  EXPECT_EQ(recv, expected);
  reduce_scatter(world, in_place, out(send), counts, MPI_SUM);
  EXPECT_EQ(std::vector<int>(send.begin(), send.begin() + me + 1), expected);
}

TEST(Collectives, ReduceScatterBlockHandsOutEqualBlocks) {
  const Comm world = Comm::world();
  const int n = world.size();
  std::vector<int> send(at(2 * n));
  std::iota(send.begin(), send.end(), 0);
  std::vector<int> recv(2, kUntouched);
  reduce_scatter_block(world, in(send), out(recv), MPI_SUM);
  const int me = world.rank();
  EXPECT_EQ(recv, (std::vector<int>{n * 2 * me, n * (2 * me + 1)}));
}

TEST(Collectives, ScanIsInclusiveAndExscanExclusive) {
  const Comm world = Comm::world();
  const int me = world.rank();
  const std::vector<int> send = {me + 1};
  std::vector<int> inclusive = {kUntouched};
  scan(world, in(send), out(inclusive), MPI_SUM);
  EXPECT_EQ(inclusive[0], (me + 1) * (me + 2) / 2);
  std::vector<int> exclusive = {kUntouched};
  exscan(world, in(send), out(exclusive), MPI_SUM);
  if (me > 0) {  // rank 0's result is undefined
    EXPECT_EQ(exclusive[0], me * (me + 1) / 2);
  }
  std::vector<int> buffer = {me + 1};
  scan(world, in_place, out(buffer), MPI_PROD);
  int factorial = 1;
  for (int k = 2; k <= me + 1; ++k) factorial *= k;
  EXPECT_EQ(buffer[0], factorial);
}

// A non-commutative user op: elements are affine maps x -> m x + c stored
// as (m, c); a op b is "a, then b". MPI combines in rank order, so the
// result is process 0's map, then process 1's, ...
struct Affine {
  long long m;
  long long c;
};

void compose(void* in, void* inout, int* count, MPI_Datatype*) {
  auto* a = static_cast<Affine*>(in);
  auto* b = static_cast<Affine*>(inout);
  for (int k = 0; k < *count; ++k) {
    b[k] = {a[k].m * b[k].m, b[k].m * a[k].c + b[k].c};
  }
}

TEST(Collectives, UserOpsOnDerivedDatatypesCombineInRankOrder) {
  const Comm world = Comm::world();
  MPI_Op op = MPI_OP_NULL;
  MPI_Op_create(&compose, /*commute=*/0, &op);
  MPI_Datatype affine = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_LONG_LONG, &affine);
  MPI_Type_commit(&affine);
  auto map_of = [](int r) { return Affine{1 + r % 2, r + 1}; };
  const Affine mine = map_of(world.rank());
  Affine result{0, 0};
  allreduce(world, &mine, &result, 1, affine, op);
  Affine expected{1, 0};  // the identity, then each map in rank order
  for (int r = 0; r < world.size(); ++r) {
    const Affine next = map_of(r);
    expected = {next.m * expected.m, next.m * expected.c + next.c};
  }
  EXPECT_EQ(result.m, expected.m);
  EXPECT_EQ(result.c, expected.c);
  MPI_Type_free(&affine);
  MPI_Op_free(&op);
}

// ---- communicators --------------------------------------------------------

// Evens and odds, ranked in reverse: ranks and roots are the split's own.
TEST(Collectives, RanksAndRootsAreThoseOfTheCommunicator) {
  const int world_rank = Environment::world_rank();
  const int world_size = Environment::world_size();
  const Comm half = Comm::world().split(world_rank % 2, -world_rank);
  std::vector<int> members;  // world ranks of this color, descending
  for (int r = world_size - 1; r >= 0; --r) {
    if (r % 2 == world_rank % 2) members.push_back(r);
  }
  const std::vector<int> send = {world_rank};
  std::vector<int> recv(members.size(), kUntouched);
  allgather(half, in(send), out(recv));
  EXPECT_EQ(recv, members);
  // Root 0 of the split is the highest world rank of the color.
  std::vector<int> from_root = {world_rank};
  bcast(half, out(from_root), 0);
  EXPECT_EQ(from_root[0], members.front());
  const std::vector<int> ranks = {half.rank()};
  std::vector<int> prefix = {kUntouched};
  scan(half, in(ranks), out(prefix), MPI_SUM);
  EXPECT_EQ(prefix[0], half.rank() * (half.rank() + 1) / 2);
}

TEST(Collectives, ZeroCountsMoveNothing) {
  const Comm world = Comm::world();
  const int n = world.size();
  std::vector<int> empty;
  std::vector<int> zeros(at(n), 0);
  bcast(world, out(empty), 0);
  gather(world, in(empty), out(empty), 0);
  allgather(world, in(empty), out(empty));
  alltoall(world, in(empty), out(empty));
  alltoallv(world, in(empty), zeros, zeros, out(empty), zeros, zeros);
  allreduce(world, in(empty), out(empty), MPI_SUM);
  reduce_scatter(world, in(empty), out(empty), zeros, MPI_SUM);
  scan(world, in(empty), out(empty), MPI_SUM);
  EXPECT_TRUE(empty.empty());
}

TEST(Collectives, TypedFormsTakeStaticExtentsAndConstElements) {
  const Comm world = Comm::world();
  const std::array<const double, 2> send = {1.5, -2.0};
  std::array<double, 2> recv = {0, 0};
  allreduce(world, std::span(send), std::span(recv), MPI_SUM);
  EXPECT_EQ(recv[0], 1.5 * world.size());
  EXPECT_EQ(recv[1], -2.0 * world.size());
  std::vector<double> mutable_send = {0.5};  // a send span of non-const T
  allreduce(world, std::span(mutable_send), std::span(recv).first(1), MPI_MAX);
  EXPECT_EQ(recv[0], 0.5);
}

}  // namespace
}  // namespace classic
