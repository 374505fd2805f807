// classic's typed calls take any contiguous range as a buffer: std::vector
// (const or not), std::array, C arrays and std::span, in the blocking,
// non-blocking and persistent collectives, point to point and the
// neighbourhood collectives. Each result is checked against the values
// every process's rank determines.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "classic/collectives/collectives.h"
#include "classic/collectives/nonblocking_collectives.h"
#include "classic/collectives/persistent_collectives.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/point_to_point.h"
#include "classic/p2p/request.h"

namespace classic {
namespace {

// The sum over the ranks of the world of (rank + 1) * factor.
int rank_sum(const Comm& comm, int factor) {
  const int n = comm.size();
  return factor * n * (n + 1) / 2;
}

TEST(BufferRanges, BlockingCollectivesTakeVectorsArraysAndCArrays) {
  const Comm comm = Comm::world();
  const int me = comm.rank() + 1;

  const std::vector<int> send_vector{me, 2 * me};
  std::vector<int> recv_vector(2);
  allreduce(comm, send_vector, recv_vector, MPI_SUM);
  EXPECT_EQ(recv_vector,
            (std::vector<int>{rank_sum(comm, 1), rank_sum(comm, 2)}));

  const std::array<std::int64_t, 3> send_array{me, me, std::int64_t{3} * me};
  std::array<std::int64_t, 3> recv_array{};
  allreduce(comm, send_array, recv_array, MPI_MAX);
  EXPECT_EQ(recv_array[2], std::int64_t{3} * comm.size());

  double c_array[2] = {1.0 * me, 0.5};
  allreduce(comm, in_place, c_array, MPI_SUM);
  EXPECT_EQ(c_array[0], rank_sum(comm, 1));
  EXPECT_EQ(c_array[1], 0.5 * comm.size());

  std::vector<int> gathered(comm.size());
  const std::array<int, 1> mine{me};
  allgather(comm, mine, gathered);
  for (int r = 0; r < comm.size(); ++r) EXPECT_EQ(gathered[r], r + 1);

  std::vector<char> word{'a', 'b'};
  if (comm.rank() != 0) word.assign(2, '?');
  bcast(comm, word, 0);
  EXPECT_EQ(word, (std::vector<char>{'a', 'b'}));
}

TEST(BufferRanges, NonblockingAndPersistentCollectivesTakeVectors) {
  const Comm comm = Comm::world();
  const std::vector<int> send{comm.rank() + 1};
  std::vector<int> recv(1);
  Request nonblocking = iallreduce(comm, send, recv, MPI_SUM);
  (void)wait(nonblocking);
  EXPECT_EQ(recv[0], rank_sum(comm, 1));

  std::vector<int> gathered(comm.size());
  Request persistent = allgather_init(comm, send, gathered);
  for (int run = 0; run < 2; ++run) {
    gathered.assign(gathered.size(), -1);
    start(persistent);
    (void)wait(persistent);
    for (int r = 0; r < comm.size(); ++r) EXPECT_EQ(gathered[r], r + 1);
  }
}

TEST(BufferRanges, PointToPointTakesVectorsAndArrays) {
  const Comm comm = Comm::world();
  const int right = (comm.rank() + 1) % comm.size();
  const int left = (comm.rank() + comm.size() - 1) % comm.size();
  const std::vector<int> send{comm.rank(), 7};
  std::array<int, 2> recv{-1, -1};
  (void)sendrecv(comm, send, right, 3, recv, left, 3);
  EXPECT_EQ(recv, (std::array<int, 2>{left, 7}));

  std::vector<int> buffer{comm.rank()};
  Request receive = irecv(comm, recv, left, 4);
  Request sent = isend(comm, buffer, right, 4);
  (void)wait(sent);
  (void)wait(receive);
  EXPECT_EQ(recv[0], left);
}

TEST(BufferRanges, NeighbourhoodCollectivesTakeVectors) {
  const Comm world = Comm::world();
  const int right = (world.rank() + 1) % world.size();
  const int left = (world.rank() + world.size() - 1) % world.size();
  const std::vector<int> sources{left};
  const std::vector<int> destinations{right};
  const Comm ring = dist_graph_create_adjacent(world, sources, unweighted,
                                               destinations, unweighted);
  const std::vector<int> send{10 * world.rank()};
  std::vector<int> recv(1, -1);
  neighbor_alltoall(ring, send, recv);
  EXPECT_EQ(recv[0], 10 * left);

  Request persistent = neighbor_allgather_init(ring, send, recv);
  recv[0] = -1;
  start(persistent);
  (void)wait(persistent);
  EXPECT_EQ(recv[0], 10 * left);
}

}  // namespace
}  // namespace classic
