// Tests of Fox's algorithm on both grids (classic's Cartesian topology and
// naming's Cartesian naming): the grid's wiring, the product against
// Eigen's, the check that must catch a corrupted block, and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/p2p/point_to_point.h"
#include "experiments/fox/blocks.h"
#include "experiments/fox/grid.h"
#include "experiments/fox/multiply.h"
#include "experiments/fox/verify.h"
#include "tests/testing/errors.h"

namespace {

using classic::Comm;
using classic::ErrorClass;
using fox::BlockIndex;
using fox::FoxGrid;
using fox::Operand;
using fox::Problem;
using fox::Variant;
using orthocomm_test::expect_error_from;

constexpr int kTag = 0;

int world_q() { return fox::grid_order(Comm::world().size()); }

// The product block this process must end with, from Eigen's product.
Eigen::MatrixXd reference_block(const Problem& problem, const FoxGrid& grid) {
  const int nb = fox::block_order(problem.n, grid.q);
  const Eigen::MatrixXd c = fox::input_matrix(problem, Operand::a) *
                            fox::input_matrix(problem, Operand::b);
  return c.block(Eigen::Index{grid.position.row} * nb,
                 Eigen::Index{grid.position.column} * nb, nb, nb);
}

Eigen::MatrixXd fox_product(const Problem& problem, const FoxGrid& grid) {
  const int nb = fox::block_order(problem.n, grid.q);
  return fox::fox_multiply(
      grid, fox::input_block(problem, Operand::a, nb, grid.position),
      fox::input_block(problem, Operand::b, nb, grid.position));
}

class FoxTest : public testing::TestWithParam<Variant> {
 protected:
  FoxGrid grid() const { return fox::make_grid(GetParam(), Comm::world()); }
};

TEST_P(FoxTest, GridCoversEveryPositionOnce) {
  const FoxGrid fox = grid();
  EXPECT_EQ(fox.q, world_q());
  EXPECT_EQ(fox.grid.size(), Comm::world().size());
  ASSERT_EQ(fox.positions.size(), static_cast<std::size_t>(fox.q * fox.q));
  std::vector<int> seen(fox.grid.size(), 0);
  for (const BlockIndex p : fox.positions) ++seen[p.row * fox.q + p.column];
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), fox.q * fox.q);
  const BlockIndex mine = fox.positions[fox.grid.rank()];
  EXPECT_EQ(mine.row, fox.position.row);
  EXPECT_EQ(mine.column, fox.position.column);
}

// A broadcast from row_rank_of_column[k] reaches the whole row from the
// process in column k.
TEST_P(FoxTest, RowRootsSitInTheirColumns) {
  const FoxGrid fox = grid();
  ASSERT_EQ(fox.row.size(), fox.q);
  ASSERT_EQ(fox.row_rank_of_column.size(), static_cast<std::size_t>(fox.q));
  for (int k = 0; k < fox.q; ++k) {
    std::array<int, 2> position{fox.position.row, fox.position.column};
    classic::bcast(fox.row, std::span<int>(position),
                   fox.row_rank_of_column[k]);
    EXPECT_EQ(position[0], fox.position.row);
    EXPECT_EQ(position[1], k);
  }
}

// What goes to b_destination comes from b_source: the process one row down
// in the same column, cyclically.
TEST_P(FoxTest, BShiftComesFromOneRowDown) {
  const FoxGrid fox = grid();
  ASSERT_EQ(fox.column.size(), fox.q);
  std::array<int, 2> position{fox.position.row, fox.position.column};
  classic::sendrecv_replace(fox.column, std::span<int>(position),
                            fox.b_destination, kTag, fox.b_source, kTag);
  EXPECT_EQ(position[0], (fox.position.row + 1) % fox.q);
  EXPECT_EQ(position[1], fox.position.column);
}

TEST_P(FoxTest, ProductIsEigensExactly) {
  const FoxGrid fox = grid();
  for (const Problem problem :
       {Problem{fox.q, 1}, Problem{6 * fox.q, 2}, Problem{10 * fox.q, 3}}) {
    EXPECT_EQ(fox_product(problem, fox), reference_block(problem, fox))
        << "n = " << problem.n;
  }
}

TEST_P(FoxTest, RepeatedMultiplicationsAgree) {
  const FoxGrid fox = grid();
  const Problem problem{4 * fox.q, 5};
  const Eigen::MatrixXd first = fox_product(problem, fox);
  EXPECT_EQ(fox_product(problem, fox), first);
}

TEST_P(FoxTest, VerifyAcceptsTheProduct) {
  const FoxGrid fox = grid();
  const Problem problem{6 * fox.q, 4};
  const fox::Verdict verdict =
      fox::verify_product(fox, fox_product(problem, fox), problem);
  EXPECT_TRUE(verdict.correct) << verdict.detail;
  EXPECT_EQ(verdict.detail, "");
}

// The last rank's block is off by one in one entry: every process learns
// that the product is wrong, and rank 0 names the block.
TEST_P(FoxTest, VerifyCatchesACorruptedBlock) {
  const FoxGrid fox = grid();
  const Problem problem{6 * fox.q, 4};
  Eigen::MatrixXd c = fox_product(problem, fox);
  const int last = fox.grid.size() - 1;
  if (fox.grid.rank() == last) c(2, 3) += 1;
  const fox::Verdict verdict = fox::verify_product(fox, c, problem);
  EXPECT_FALSE(verdict.correct);
  if (fox.grid.rank() == 0) {
    const BlockIndex where = fox.positions[last];
    const std::string block = "block (" + std::to_string(where.row) + ", " +
                              std::to_string(where.column) + ")";
    EXPECT_NE(verdict.detail.find(block), std::string::npos) << verdict.detail;
  }
}

TEST_P(FoxTest, RefusesBlocksOfTheWrongShape) {
  const FoxGrid fox = grid();
  expect_error_from(
      [&] {
        fox::fox_multiply(fox, Eigen::MatrixXd::Zero(2, 3),
                          Eigen::MatrixXd::Zero(2, 3));
      },
      ErrorClass::arg, "fox::fox_multiply", "2 x 3");
  expect_error_from(
      [&] {
        fox::verify_product(fox, Eigen::MatrixXd::Zero(1, 1),
                            Problem{2 * fox.q, 1});
      },
      ErrorClass::count, "fox::verify_product", "1 x 1");
}

// Two processes split off the world (and the rest, unless square) are not
// a q x q grid: refused on every process, before any communication.
TEST_P(FoxTest, RefusesANonSquareCommunicator) {
  if (Comm::world().size() < 4) GTEST_SKIP() << "needs 4 or more processes";
  const int rank = Comm::world().rank();
  const Comm part = Comm::world().split(rank < 2 ? 0 : 1, rank);
  ASSERT_FALSE(part.size() == 1 || part.size() == 4 || part.size() == 9);
  expect_error_from([&] { fox::make_grid(GetParam(), part); }, ErrorClass::dims,
                    "fox::grid_order", "perfect square");
}

INSTANTIATE_TEST_SUITE_P(BothGrids, FoxTest,
                         testing::Values(Variant::cartesian, Variant::named),
                         [](const testing::TestParamInfo<Variant>& info) {
                           return std::string(fox::to_string(info.param));
                         });

}  // namespace
