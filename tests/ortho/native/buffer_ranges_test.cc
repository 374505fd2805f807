// ortho's typed collectives take any contiguous range as a buffer:
// std::vector (const or not), std::array, C arrays and std::span, in all
// three modes and in the by-value forms, on the world and on a directed
// ring. Each result is checked against the values every process's rank
// determines.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"

namespace ortho {
namespace {

using classic::Comm;

int rank_sum(const Comm& comm) {
  const int n = comm.size();
  return n * (n + 1) / 2;
}

// The directed ring rank -> rank + 1, made by ortho.
Comm ring(const Comm& world) {
  const std::array<int, 1> sources{(world.rank() + world.size() - 1) %
                                   world.size()};
  const std::array<int, 1> destinations{(world.rank() + 1) % world.size()};
  return ortho::dist_graph_create_adjacent(world, sources, classic::unweighted,
                                           destinations, classic::unweighted);
}

TEST(BufferRanges, ThreeModesTakeVectorsArraysAndCArrays) {
  const Comm world = Comm::world();
  const std::vector<int> send{world.rank() + 1};
  std::array<int, 1> sum{};
  allreduce(world, send, sum, MPI_SUM);
  EXPECT_EQ(sum[0], rank_sum(world));

  int c_array[1] = {world.rank() + 1};
  classic::Request nonblocking =
      iallreduce(world, classic::in_place, c_array, MPI_MAX);
  (void)classic::wait(nonblocking);
  EXPECT_EQ(c_array[0], world.size());

  std::vector<int> gathered(world.size());
  classic::Request persistent = allgather_init(world, send, gathered);
  for (int run = 0; run < 2; ++run) {
    gathered.assign(gathered.size(), -1);
    classic::start(persistent);
    (void)classic::wait(persistent);
    for (int r = 0; r < world.size(); ++r) EXPECT_EQ(gathered[r], r + 1);
  }
}

TEST(BufferRanges, ByValueFormsTakeVectorsAndCArrays) {
  const Comm world = Comm::world();
  const std::vector<std::int64_t> send{world.rank() + std::int64_t{1}, 5};
  const std::vector<std::int64_t> gathered = allgather(world, send);
  ASSERT_EQ(gathered.size(), 2 * static_cast<std::size_t>(world.size()));
  for (std::size_t r = 0; r < gathered.size() / 2; ++r) {
    EXPECT_EQ(gathered[2 * r], static_cast<std::int64_t>(r) + 1);
    EXPECT_EQ(gathered[2 * r + 1], 5);
  }
  const double c_array[2] = {1.0, 1.0 * world.rank()};
  const std::vector<double> sums = allreduce(world, c_array, MPI_SUM);
  EXPECT_EQ(sums, (std::vector<double>{1.0 * world.size(),
                                       rank_sum(world) - 1.0 * world.size()}));
}

TEST(BufferRanges, NeighbourhoodOperationsTakeVectors) {
  const Comm world = Comm::world();
  const Comm graph = ring(world);
  const int left = (world.rank() + world.size() - 1) % world.size();
  const std::vector<int> send{10 * world.rank(), 1};
  std::vector<int> recv(2, -1);
  alltoall(graph, send, recv);
  EXPECT_EQ(recv, (std::vector<int>{10 * left, 1}));

  classic::Request persistent = allgather_init(graph, send, recv);
  recv.assign(2, -1);
  classic::start(persistent);
  (void)classic::wait(persistent);
  EXPECT_EQ(recv, (std::vector<int>{10 * left, 1}));
  EXPECT_EQ(alltoall(graph, std::span(send)), (std::vector<int>{10 * left, 1}));
}

}  // namespace
}  // namespace ortho
