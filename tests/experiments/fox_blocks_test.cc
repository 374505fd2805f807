// Tests of the Fox experiment's MPI-free part: sizes, the deterministic
// inputs, assembly from blocks, and the exact check that must catch a
// corrupted block.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "classic/base/error.h"
#include "experiments/fox/blocks.h"
#include "tests/testing/errors.h"

namespace {

using classic::ErrorClass;
using fox::BlockIndex;
using fox::Operand;
using fox::Problem;
using orthocomm_test::expect_error_from;

constexpr Problem kProblem{12, 7};

// C's blocks of order nb in the order `where` lists them, as a gather
// would deliver them.
std::vector<double> blocks_of(const Eigen::MatrixXd& c,
                              const std::vector<BlockIndex>& where, int nb) {
  std::vector<double> values;
  for (const BlockIndex index : where) {
    const Eigen::MatrixXd block = c.block(
        Eigen::Index{index.row} * nb, Eigen::Index{index.column} * nb, nb, nb);
    values.insert(values.end(), block.data(), block.data() + block.size());
  }
  return values;
}

// Row-major positions of a q x q grid, as rank r sits at (r / q, r % q).
std::vector<BlockIndex> row_major(int q) {
  std::vector<BlockIndex> where;
  where.reserve(static_cast<std::size_t>(q) * q);
  for (int r = 0; r < q * q; ++r) where.push_back({r / q, r % q});
  return where;
}

TEST(GridOrder, SquaresGiveTheirRoot) {
  EXPECT_EQ(fox::grid_order(1), 1);
  EXPECT_EQ(fox::grid_order(4), 2);
  EXPECT_EQ(fox::grid_order(9), 3);
  EXPECT_EQ(fox::grid_order(46340 * 46340), 46340);
}

TEST(GridOrder, NonSquaresAreRefused) {
  for (const int processes : {0, -4, 2, 3, 8, 12, 2147483647}) {
    expect_error_from([&] { fox::grid_order(processes); }, ErrorClass::dims,
                      "fox::grid_order", "perfect square");
  }
}

TEST(BlockOrder, DividesOrRefuses) {
  EXPECT_EQ(fox::block_order(12, 3), 4);
  EXPECT_EQ(fox::block_order(5, 1), 5);
  expect_error_from([] { fox::block_order(10, 3); }, ErrorClass::dims,
                    "fox::block_order", "n = 10");
  expect_error_from([] { fox::block_order(0, 1); }, ErrorClass::dims,
                    "fox::block_order", "n = 0");
}

TEST(InputEntry, SmallIntegersThatDependOnEveryArgument) {
  int differ_by_seed = 0;
  int differ_by_operand = 0;
  for (int i = 0; i < 20; ++i) {
    for (int j = 0; j < 20; ++j) {
      const double x = fox::input_entry(1, Operand::a, i, j);
      EXPECT_EQ(x, std::round(x));
      EXPECT_LE(std::abs(x), 4.0);
      EXPECT_EQ(x, fox::input_entry(1, Operand::a, i, j));
      differ_by_seed += x != fox::input_entry(2, Operand::a, i, j);
      differ_by_operand += x != fox::input_entry(1, Operand::b, i, j);
    }
  }
  EXPECT_GT(differ_by_seed, 200);
  EXPECT_GT(differ_by_operand, 200);
}

TEST(InputBlock, IsTheBlockOfTheWholeMatrix) {
  const Eigen::MatrixXd whole = fox::input_matrix(kProblem, Operand::b);
  ASSERT_EQ(whole.rows(), 12);
  const Eigen::MatrixXd block =
      fox::input_block(kProblem, Operand::b, 4, BlockIndex{2, 1});
  EXPECT_EQ(block, whole.block(8, 4, 4, 4));
}

TEST(Assemble, InvertsTheSplitIntoBlocksInAnyOrder) {
  const Eigen::MatrixXd c = fox::input_matrix(kProblem, Operand::a);
  const std::vector<BlockIndex> shuffled{{1, 2}, {0, 0}, {2, 2}, {0, 1}, {2, 0},
                                         {1, 1}, {0, 2}, {1, 0}, {2, 1}};
  EXPECT_EQ(fox::assemble(blocks_of(c, shuffled, 4), shuffled, 4, 3), c);
}

TEST(Assemble, RefusesWrongCountsAndIndices) {
  const std::vector<double> values(64);  // 4 blocks of order 4
  const std::vector<BlockIndex> three{{0, 0}, {0, 1}, {1, 0}};
  expect_error_from([&] { fox::assemble(values, three, 4, 2); },
                    ErrorClass::count, "fox::assemble");
  const std::vector<BlockIndex> outside{{0, 0}, {0, 1}, {1, 0}, {2, 0}};
  expect_error_from([&] { fox::assemble(values, outside, 4, 2); },
                    ErrorClass::arg, "fox::assemble", "(2, 0)");
}

TEST(FirstMismatch, NoneForTheProduct) {
  const Eigen::MatrixXd c = fox::input_matrix(kProblem, Operand::a) *
                            fox::input_matrix(kProblem, Operand::b);
  EXPECT_FALSE(fox::first_mismatch(c, c).has_value());
}

// A gathered C whose block (2, 1) is off in one entry by the smallest
// amount a double can be: the check names that entry and block.
TEST(FirstMismatch, CatchesACorruptedBlock) {
  const Eigen::MatrixXd c = fox::input_matrix(kProblem, Operand::a) *
                            fox::input_matrix(kProblem, Operand::b);
  const std::vector<BlockIndex> where = row_major(3);
  std::vector<double> gathered = blocks_of(c, where, 4);
  const int rank_of_block_2_1 = 7;
  const int entry_1_3 = 3 * 4 + 1;  // column-major within the block
  double& corrupted = gathered[rank_of_block_2_1 * 16 + entry_1_3];
  corrupted = std::nextafter(corrupted, 1e9);

  const auto mismatch =
      fox::first_mismatch(c, fox::assemble(gathered, where, 4, 3));
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_EQ(mismatch->row, 9);
  EXPECT_EQ(mismatch->column, 7);
  EXPECT_EQ(mismatch->expected, c(9, 7));
  EXPECT_EQ(mismatch->actual, corrupted);
  EXPECT_NE(fox::describe(*mismatch, 4).find("C(9, 7)"), std::string::npos);
  EXPECT_NE(fox::describe(*mismatch, 4).find("block (2, 1)"),
            std::string::npos);
}

TEST(FirstMismatch, RefusesDifferentShapes) {
  expect_error_from(
      [] { fox::first_mismatch(Eigen::MatrixXd(2, 2), Eigen::MatrixXd(2, 3)); },
      ErrorClass::arg, "fox::first_mismatch", "2 x 3");
}

TEST(Describe, NamesEntryValuesAndBlock) {
  EXPECT_EQ(fox::describe({5, 7, 3, 4}, 4),
            "C(5, 7) = 4 where Eigen's product has 3, in block (1, 1)");
}

}  // namespace
