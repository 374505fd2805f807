// Tests of the stencil experiments' MPI-free models: the Game of Life rule
// and board, the 9-point Jacobi sweep, the serial reference run, the
// periodic halo, and the exact comparison that must catch one changed bit.
#include <gtest/gtest.h>

#include <cstdint>

#include "experiments/halo/grid.h"
#include "experiments/jacobi/stencil.h"
#include "experiments/life/board.h"

namespace {

using life::Board;

// A rows x columns model whose initial board has alive cells at `cells`.
halo::Model<std::uint8_t> pattern(
    int rows, int columns, std::initializer_list<std::array<int, 2>> cells) {
  halo::Model<std::uint8_t> model = life::model(1, rows, columns);
  Board board = Board::Zero(rows, columns);
  for (const auto& cell : cells) board(cell[0], cell[1]) = 1;
  model.initial = [=](int row, int column) -> std::uint8_t {
    if (row < 0 || row >= rows || column < 0 || column >= columns) return 0;
    return board(row, column);
  };
  return model;
}

Board run(const halo::Model<std::uint8_t>& model, int rows, int columns,
          halo::Borders borders, int generations) {
  return halo::serial_run(model, rows, columns, borders, generations).interior;
}

TEST(Life, NextStateIsListingSevensRule) {
  EXPECT_EQ(life::next_state(1, 1), 0);
  EXPECT_EQ(life::next_state(1, 2), 1);
  EXPECT_EQ(life::next_state(0, 2), 0);
  EXPECT_EQ(life::next_state(0, 3), 1);
  EXPECT_EQ(life::next_state(1, 3), 1);
  EXPECT_EQ(life::next_state(1, 4), 0);
}

TEST(Life, BlinkerOscillates) {
  const auto blinker = pattern(5, 5, {{{2, 1}}, {{2, 2}}, {{2, 3}}});
  const Board start = run(blinker, 5, 5, halo::Borders::fixed, 0);
  const Board one = run(blinker, 5, 5, halo::Borders::fixed, 1);
  EXPECT_EQ(one(1, 2) + one(2, 2) + one(3, 2), 3);
  EXPECT_EQ(one.cast<int>().sum(), 3);
  EXPECT_TRUE((run(blinker, 5, 5, halo::Borders::fixed, 2) == start).all());
}

TEST(Life, GliderCrossesATorus) {
  // A glider moves one cell diagonally every 4 generations: on an 8 x 8
  // torus it is back after 32, and elsewhere before.
  const auto glider =
      pattern(8, 8, {{{0, 1}}, {{1, 2}}, {{2, 0}}, {{2, 1}}, {{2, 2}}});
  const Board start = run(glider, 8, 8, halo::Borders::periodic, 0);
  EXPECT_FALSE((run(glider, 8, 8, halo::Borders::periodic, 16) == start).all());
  EXPECT_TRUE((run(glider, 8, 8, halo::Borders::periodic, 32) == start).all());
  // With fixed borders it ends as a block in the corner.
  EXPECT_EQ(run(glider, 8, 8, halo::Borders::fixed, 40).cast<int>().sum(), 4);
}

TEST(Life, SerialRunStopsWhenAllDie) {
  const auto lonely = pattern(4, 4, {{{1, 1}}});
  const auto result =
      halo::serial_run(lonely, 4, 4, halo::Borders::fixed, 10);
  EXPECT_EQ(result.iterations, 1);
  EXPECT_EQ(result.value, 0);
}

TEST(Life, InitialBoardIsDeterministicAndDeadOutside) {
  EXPECT_EQ(life::initial_cell(3, 35, 10, 10, 4, 7),
            life::initial_cell(3, 35, 10, 10, 4, 7));
  EXPECT_EQ(life::initial_cell(3, 100, 10, 10, -1, 7), 0);
  EXPECT_EQ(life::initial_cell(3, 100, 10, 10, 4, 10), 0);
  EXPECT_EQ(life::initial_cell(3, 100, 10, 10, 4, 9), 1);
  int alive = 0;
  for (int i = 0; i < 100; ++i) {
    for (int j = 0; j < 100; ++j) alive += life::initial_cell(3, 35, 100, 100, i, j);
  }
  EXPECT_NEAR(alive, 3500, 300);
}

TEST(PeriodicHalo, IsTheOppositeEdge) {
  halo::Grid<int> a(5, 5);
  a.setZero();
  for (int r = 1; r <= 3; ++r) {
    for (int c = 1; c <= 3; ++c) a(r, c) = 10 * r + c;
  }
  halo::fill_periodic_halo(a);
  EXPECT_EQ(a(0, 2), 32);
  EXPECT_EQ(a(4, 2), 12);
  EXPECT_EQ(a(2, 0), 23);
  EXPECT_EQ(a(2, 4), 21);
  EXPECT_EQ(a(0, 0), 33);
  EXPECT_EQ(a(4, 4), 11);
  EXPECT_EQ(a(0, 4), 31);
  EXPECT_EQ(a(4, 0), 13);
}

TEST(Jacobi, ConstantFieldIsAFixedPoint) {
  jacobi::Matrix u = jacobi::Matrix::Constant(6, 7, 0.75);
  jacobi::Matrix next = u;
  EXPECT_EQ(jacobi::step(u, next), 0.0);
  EXPECT_TRUE((next == u).all());
}

TEST(Jacobi, NinePointWeights) {
  jacobi::Matrix u = jacobi::Matrix::Zero(3, 3);
  u(0, 1) = 1;  // north: weight 4/20
  u(0, 0) = 1;  // north-west: weight 1/20
  jacobi::Matrix next = u;
  EXPECT_EQ(jacobi::step(u, next), 0.25);
  EXPECT_EQ(next(1, 1), 0.25);
}

TEST(Jacobi, SerialRunConvergesToTheBoundary) {
  const auto model = jacobi::model(1, 6, 1e-3);
  const auto result = halo::serial_run(model, 6, 6, halo::Borders::fixed, 1000);
  EXPECT_LT(result.iterations, 1000);
  EXPECT_LE(result.value, 1e-3);
  // Hot on the top row, cold at the bottom.
  EXPECT_GT(result.interior(0, 3), result.interior(5, 3));
}

TEST(Jacobi, InitialValuesAreExactFractionsAndBoundary) {
  EXPECT_EQ(jacobi::initial_value(1, 8, -1, 3), 1.0);
  EXPECT_EQ(jacobi::initial_value(1, 8, 8, 3), 0.0);
  EXPECT_EQ(jacobi::initial_value(1, 8, 3, -1), 0.0);
  const double v = jacobi::initial_value(1, 8, 3, 4);
  EXPECT_EQ(v * 1024, static_cast<int>(v * 1024));
}

TEST(FirstDifference, FindsOneChangedBit) {
  jacobi::Matrix a = jacobi::Matrix::Constant(4, 5, 0.1);
  jacobi::Matrix b = a;
  EXPECT_FALSE(halo::first_difference(a, b));
  EXPECT_EQ(halo::checksum(a), halo::checksum(b));
  b(3, 4) = halo::perturbed(b(3, 4));
  const auto where = halo::first_difference(b, a);
  ASSERT_TRUE(where);
  EXPECT_EQ(where->row, 3);
  EXPECT_EQ(where->column, 4);
  EXPECT_NE(halo::checksum(a), halo::checksum(b));
  EXPECT_EQ(halo::describe_difference(b, a, *where),
            "cell (3, 4) = 0.10000000000000002 where the serial run has "
            "0.10000000000000001");
  // 0.0 and -0.0 compare equal as doubles but not as bits.
  jacobi::Matrix zero = jacobi::Matrix::Zero(1, 1);
  jacobi::Matrix negative = -zero;
  EXPECT_TRUE(halo::first_difference(zero, negative));
  // Shapes.
  EXPECT_EQ(halo::first_difference(a, jacobi::Matrix(4, 4))->row, -1);
}

TEST(FirstDifference, LifeCells) {
  Board a = Board::Zero(3, 3);
  Board b = a;
  b(1, 2) = halo::perturbed(b(1, 2));
  EXPECT_EQ(halo::describe_difference(b, a, *halo::first_difference(b, a)),
            "cell (1, 2) = 1 where the serial run has 0");
}

}  // namespace
