// Where message combining's messages go when a grid spans hosts
// (ortho/algorithms/combining/combining_loads.h), worked out by hand on a 4 x 4
// grid of 16 ranks (row-major: rank = 4 x + y) whose rows x = 0, 1 sit on host
// 0 and x = 2, 3 on host 1. allgather on Moore depth 1 relays along x first:
// round 0 sends one block to x - 1 and x + 1, round 1 three blocks to
// y - 1 and y + 1 (its own and those that came along x).
//  - Periodic: in round 0 every process has one neighbour row on its own
//    host and one on the other (x = 0's x - 1 is x = 3); round 1 stays in
//    the row, so on its host.
//  - Not periodic: the corner (0, 0) sends one block to (1, 0) in round 0
//    and in round 1 one message to (0, 1) with two blocks (its own and the
//    one from (1, 0); none comes from x = -1); nothing leaves the grid.
#include "ortho/algorithms/combining/combining_loads.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "naming/geometry.h"
#include "stencils/neighborhood.h"
#include "stencils/schedule.h"

namespace ortho::algorithms::combining_loads {
namespace {

stencils::Stencil negated(const stencils::Stencil& stencil) {
  std::vector<int> flat(stencil.flat().begin(), stencil.flat().end());
  for (int& x : flat) x = -x;
  return stencils::Stencil(stencil.ndims(), flat);
}

Rounds allgather_messages(bool periodic) {
  const std::array<int, 2> dims = {4, 4};
  const std::array<bool, 2> periods = {periodic, periodic};
  const naming::Geometry geometry(dims, periods, naming::Order::row_major);
  const stencils::Stencil moore =
      stencils::cart_stencil(2, stencils::Metric::chebyshev, 1, 1);
  const auto schedule =
      stencils::allgather_schedule(geometry, moore, negated(moore));
  std::vector<int> host_of_rank(16);
  for (int r = 0; r < 16; ++r) host_of_rank[r] = r < 8 ? 0 : 1;
  return messages_of(schedule.rounds, geometry, host_of_rank);
}

std::vector<Message> sorted(std::vector<Message> messages) {
  std::sort(messages.begin(), messages.end(),
            [](const Message& a, const Message& b) {
              if (a.blocks != b.blocks) return a.blocks < b.blocks;
              if (a.between_hosts != b.between_hosts) return !a.between_hosts;
              return a.to < b.to;
            });
  return messages;
}

// The rank at (x, y) of the 4 x 4 torus.
int at(int x, int y) { return 4 * ((x + 4) % 4) + (y + 4) % 4; }

TEST(CombiningLoads, PeriodicGridOnTwoHosts) {
  const Rounds rounds = allgather_messages(true);
  ASSERT_EQ(rounds.size(), 2u);
  for (int p = 0; p < 16; ++p) {
    SCOPED_TRACE("rank " + std::to_string(p));
    const int x = p / 4;
    const int y = p % 4;
    // The neighbour row on its own host: rows pair as 0-1 and 2-3.
    const int own_row = x ^ 1;
    const int other_row = own_row == x + 1 ? x - 1 : x + 1;
    ASSERT_EQ(rounds[0].size(), 16u);
    EXPECT_EQ(
        sorted(rounds[0][p]),
        (std::vector<Message>{
            {.blocks = 1, .between_hosts = false, .to = at(own_row, y)},
            {.blocks = 1, .between_hosts = true, .to = at(other_row, y)}}));
    EXPECT_EQ(
        sorted(rounds[1][p]),
        sorted({{.blocks = 3, .between_hosts = false, .to = at(x, y - 1)},
                {.blocks = 3, .between_hosts = false, .to = at(x, y + 1)}}));
  }
}

TEST(CombiningLoads, NonPeriodicGridDropsWhatLeavesIt) {
  const Rounds rounds = allgather_messages(false);
  ASSERT_EQ(rounds.size(), 2u);
  // The corner (0, 0), rank 0.
  EXPECT_EQ(
      rounds[0][0],
      (std::vector<Message>{{.blocks = 1, .between_hosts = false, .to = 4}}));
  EXPECT_EQ(
      rounds[1][0],
      (std::vector<Message>{{.blocks = 2, .between_hosts = false, .to = 1}}));
  // (1, 1), rank 5: one block to x = 0 (host 0) and to x = 2 (host 1), then
  // three to each of y = 0 and y = 2.
  EXPECT_EQ(
      sorted(rounds[0][5]),
      (std::vector<Message>{{.blocks = 1, .between_hosts = false, .to = 1},
                            {.blocks = 1, .between_hosts = true, .to = 9}}));
  EXPECT_EQ(
      sorted(rounds[1][5]),
      (std::vector<Message>{{.blocks = 3, .between_hosts = false, .to = 4},
                            {.blocks = 3, .between_hosts = false, .to = 6}}));
  // (3, 3), rank 15: to x = 2 only (its host), then two blocks to y = 2.
  EXPECT_EQ(
      rounds[0][15],
      (std::vector<Message>{{.blocks = 1, .between_hosts = false, .to = 11}}));
  EXPECT_EQ(
      rounds[1][15],
      (std::vector<Message>{{.blocks = 2, .between_hosts = false, .to = 14}}));
}

}  // namespace
}  // namespace ortho::algorithms::combining_loads
