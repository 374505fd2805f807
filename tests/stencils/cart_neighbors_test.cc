// Listing 6 on a named world communicator, as Listing 7 (Game of Life) uses
// it: Moore neighbours as offsets, then ranks via cart_allranks_relative.
#include "stencils/cart_neighbors.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "naming/cart_maps.h"
#include "naming/cart_name.h"
#include "tests/testing/errors.h"

namespace {

using orthocomm_test::expect_error_class;
using stencils::Metric;

class CartNeighbors : public testing::Test {
 protected:
  void SetUp() override {
    // A 1 x p torus names every process.
    const std::array<int, 2> dims{1, world_.size()};
    const std::array<bool, 2> periods{true, true};
    naming::cart_name(world_, dims, periods, naming::Order::row_major);
  }
  classic::Comm world_ = classic::Comm::world();
};

TEST_F(CartNeighbors, MooreOffsetsAndRanksFollowTheNaming) {
  const int rank = world_.rank();
  const stencils::Stencil offsets =
      stencils::cart_neighbors(world_, rank, Metric::chebyshev, 1, 1);
  // Moore depth 1 in 2-d: (2 * 1 + 1)^2 - 1 offsets, none of them zero.
  ASSERT_EQ(offsets.size(), 8);
  EXPECT_EQ(
      stencils::cart_neighbors_count(world_, rank, Metric::chebyshev, 1, 1), 8);
  const std::vector<int> flat(offsets.flat().begin(), offsets.flat().end());
  EXPECT_EQ(
      stencils::cart_neighbor_ranks(world_, rank, Metric::chebyshev, 1, 1),
      naming::cart_allranks_relative(world_, rank, flat));
  // On a 1 x p torus the neighbour at (i, j) is rank + j wrapped.
  const int p = world_.size();
  for (int i = 0; i < offsets.size(); ++i) {
    const int expected = ((rank + offsets.offset(i)[1]) % p + p) % p;
    EXPECT_EQ(naming::cart_relative_rank(world_, rank, offsets.offset(i)),
              expected);
  }
}

TEST_F(CartNeighbors, UnnamedCommunicatorIsATopologyError) {
  const classic::Comm unnamed = world_.dup();
  expect_error_class(
      [&] {
        (void)stencils::cart_neighbors(unnamed, 0, Metric::manhattan, 1, 1);
      },
      classic::ErrorClass::topology);
}

TEST_F(CartNeighbors, RankOutsideTheGridIsARankError) {
  expect_error_class(
      [&] {
        (void)stencils::cart_neighbors_count(world_, world_.size(),
                                             Metric::manhattan, 1, 1);
      },
      classic::ErrorClass::rank);
}

}  // namespace
