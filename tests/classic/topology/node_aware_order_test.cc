// cart_create's node-aware numbering (Reorder::yes) on hand-counted cases,
// the hosts given directly (white-box): the edges between hosts before and
// after, the exact numbering of a small mesh, and the identity wherever a
// block partition gains nothing or the hosts are unequal. MPI-free.
#include "classic/topology/internal/node_aware_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

namespace {

using classic::internal::cartesian_edges_between_hosts;
using classic::internal::node_aware_ranks;

std::vector<int> round_robin(int processes, int hosts) {
  std::vector<int> host(static_cast<std::size_t>(processes));
  for (int r = 0; r < processes; ++r) {
    host[static_cast<std::size_t>(r)] = r % hosts;
  }
  return host;
}

std::vector<int> identity(int processes) {
  std::vector<int> ranks(static_cast<std::size_t>(processes));
  std::iota(ranks.begin(), ranks.end(), 0);
  return ranks;
}

// The host of each cell once rank r has taken cell new_rank[r].
std::vector<int> hosts_of_cells(const std::vector<int>& new_rank,
                                const std::vector<int>& host_of_rank) {
  std::vector<int> host(new_rank.size());
  for (std::size_t r = 0; r < new_rank.size(); ++r) {
    host[static_cast<std::size_t>(new_rank[r])] = host_of_rank[r];
  }
  return host;
}

// 4 x 2 mesh, 2 hosts round-robin: host r % 2 is the column, so every
// horizontal edge crosses (4 rows x 2 directions = 8). Rows 0-1 on one
// host, 2-3 on the other cut 2 columns x 2 directions = 4. Host 0's ranks
// 0, 2, 4, 6 take cells 0-3, host 1's ranks 1, 3, 5, 7 cells 4-7.
TEST(NodeAwareOrder, MeshOnTwoHostsIsCutBetweenItsRows) {
  const std::vector<int> dims = {4, 2};
  const bool periods[2] = {false, false};
  const std::vector<int> hosts = round_robin(8, 2);
  EXPECT_EQ(cartesian_edges_between_hosts(dims, periods, hosts), 8);
  const std::vector<int> new_rank = node_aware_ranks(dims, periods, hosts);
  EXPECT_EQ(new_rank, (std::vector<int>{0, 4, 1, 5, 2, 6, 3, 7}));
  EXPECT_EQ(cartesian_edges_between_hosts(dims, periods,
                                          hosts_of_cells(new_rank, hosts)),
            4);
}

// 4 x 4 torus, 2 hosts round-robin: horizontal neighbours differ in
// parity: 16 x 2 = 32. Two halves of 2 rows: 2 cuts (it wraps) x 4
// columns x 2 directions = 16.
TEST(NodeAwareOrder, TorusOnTwoHostsHalvesTheEdgesBetweenHosts) {
  const std::vector<int> dims = {4, 4};
  const bool periods[2] = {true, true};
  const std::vector<int> hosts = round_robin(16, 2);
  EXPECT_EQ(cartesian_edges_between_hosts(dims, periods, hosts), 32);
  const std::vector<int> new_rank = node_aware_ranks(dims, periods, hosts);
  std::vector<int> sorted = new_rank;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, identity(16));
  EXPECT_EQ(cartesian_edges_between_hosts(dims, periods,
                                          hosts_of_cells(new_rank, hosts)),
            16);
}

// 4 x 4 torus, 4 hosts round-robin: every cell's left and right neighbours
// are elsewhere (32); 2 x 2 blocks and strips also cut 32: nothing to gain.
TEST(NodeAwareOrder, NoGainKeepsTheIdentity) {
  const std::vector<int> dims = {4, 4};
  const bool periods[2] = {true, true};
  const std::vector<int> hosts = round_robin(16, 4);
  EXPECT_EQ(cartesian_edges_between_hosts(dims, periods, hosts), 32);
  EXPECT_EQ(node_aware_ranks(dims, periods, hosts), identity(16));
}

TEST(NodeAwareOrder, OneHostOrUnequalHostsKeepTheIdentity) {
  const std::vector<int> dims = {4, 2};
  const bool periods[2] = {false, false};
  EXPECT_EQ(node_aware_ranks(dims, periods, std::vector<int>(8, 0)),
            identity(8));
  const std::vector<int> unequal = {0, 1, 0, 1, 0, 1, 0, 0};
  EXPECT_EQ(node_aware_ranks(dims, periods, unequal), identity(8));
}

}  // namespace
