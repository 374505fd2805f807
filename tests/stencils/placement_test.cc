#include "stencils/placement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "naming/geometry.h"
#include "stencils/stencil.h"
#include "tests/stencils/testing.h"
#include "tests/testing/errors.h"

namespace stencils {
namespace {

using classic::ErrorClass;
using orthocomm_test::expect_error_from;
using testing::from_vectors;
using testing::mesh;
using testing::torus;
using Weights = std::vector<std::int64_t>;

// The 2-d von Neumann stencil, in this order: (-1,0) (0,-1) (0,1) (1,0).
Stencil von_neumann() {
  return from_vectors(2, {{-1, 0}, {0, -1}, {0, 1}, {1, 0}});
}

// ---- Hand-counted costs. ----

// 4 x 4 torus, von Neumann, 4 hosts of 4. Identity = row strips: a cell's
// left and right neighbours are in its row (the row wraps onto itself), its
// up and down neighbours in other rows: 16 cells x 2 = 32 directed edges,
// 4 x 2 = 8 leaving each host. 2 x 2 blocks: along each dimension one
// neighbour is in the cell's block and the other (across the block edge or
// the wrap) is not: again 16 x 2 = 32, 8 per host. Column strips give 32 by
// symmetry, so every factorisation ties and the first, blocks {1, 4}, wins.
TEST(PlacementTest, TorusFourByFourStripsAndBlocksCrossThirtyTwo) {
  const naming::Geometry grid = torus({4, 4});
  const Stencil stencil = von_neumann();
  const std::vector<int> slots = {4, 4, 4, 4};
  const std::vector<int> identity = identity_placement(slots);
  const std::vector<int> blocks2x2 = {0, 0, 1, 1, 0, 0, 1, 1,
                                      2, 2, 3, 3, 2, 2, 3, 3};
  const CrossingCost expected{32, 32, 8};
  EXPECT_EQ(crossing_cost(grid, stencil, {}, identity), expected);
  EXPECT_EQ(crossing_cost(grid, stencil, {}, blocks2x2), expected);
  const auto best = best_block_placement(grid, stencil, {}, slots);
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->blocks, (std::vector<int>{1, 4}));
  EXPECT_EQ(best->cost, expected);
  const PlacementChoice choice =
      choose_placement(grid, stencil, {}, slots, identity);
  EXPECT_EQ(choice.chosen, Chosen::current);  // A tie keeps the current one.
  EXPECT_EQ(choice.host_of_cell, identity);
}

// 8 x 2 mesh on 2 hosts. Halves of 4 x 2 (cut across the long dimension):
// 2 columns cross the cut, each in both directions: 4 edges, 2 per host.
// Halves of 8 x 1: 8 rows cross, 16 edges, 8 per host.
TEST(PlacementTest, MeshEightByTwoCutsTheLongDimension) {
  const naming::Geometry grid = mesh({8, 2});
  const Stencil stencil = von_neumann();
  const std::vector<int> slots = {8, 8};
  std::vector<int> columns(16);
  for (int c = 0; c < 16; ++c) columns[c] = c % 2;
  EXPECT_EQ(crossing_cost(grid, stencil, {}, columns),
            (CrossingCost{16, 16, 8}));
  const auto best = best_block_placement(grid, stencil, {}, slots);
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->blocks, (std::vector<int>{2, 1}));
  EXPECT_EQ(best->cost, (CrossingCost{4, 4, 2}));
  EXPECT_EQ(best->host_of_cell, identity_placement(slots));
}

// von_neumann() order: (-1,0) (0,-1) (0,1) (1,0). With weight 10 along
// dimension 0 the 8 x 2 mesh prefers 8 x 1 halves: 16 x 1 = 16 against
// 4 x 10 = 40.
TEST(PlacementTest, WeightsDecideTheCut) {
  const naming::Geometry grid = mesh({8, 2});
  const Stencil stencil = von_neumann();
  const Weights weights = {10, 1, 1, 10};
  const auto best = best_block_placement(grid, stencil, weights, {{8, 8}});
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(best->blocks, (std::vector<int>{1, 2}));
  EXPECT_EQ(best->cost, (CrossingCost{16, 16, 8}));
  EXPECT_EQ(crossing_cost(grid, stencil, weights,
                          identity_placement(std::vector<int>{8, 8})),
            (CrossingCost{40, 4, 20}));
}

// 4 x 4 mesh, 4 hosts. Row strips: 3 cuts x 4 columns x 2 directions = 24,
// a middle strip sends 4 up and 4 down. 2 x 2 blocks: 2 cuts x 4 x 2 = 16,
// each corner block sends 2 right (or left) and 2 down (or up).
TEST(PlacementTest, ChoosesBlocksWhenStrictlyCheaper) {
  const naming::Geometry grid = mesh({4, 4});
  const Stencil stencil = von_neumann();
  const std::vector<int> slots = {4, 4, 4, 4};
  const std::vector<int> identity = identity_placement(slots);
  const PlacementChoice choice =
      choose_placement(grid, stencil, {}, slots, identity);
  EXPECT_EQ(choice.chosen, Chosen::block);
  EXPECT_EQ(choice.current_cost, (CrossingCost{24, 24, 8}));
  EXPECT_EQ(choice.block_cost, (CrossingCost{16, 16, 4}));
  EXPECT_EQ(choice.host_of_cell,
            (std::vector<int>{0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3}));
}

// A periodic extent of 2 reaches the same cell by +1 and -1: both edges
// count. An offset that leaves a mesh is dropped; one that wraps onto the
// cell itself never crosses.
TEST(PlacementTest, WrapsKeepRepeatsAndDropsLeaveTheMesh) {
  const Stencil ring = from_vectors(1, {{1}, {-1}});
  EXPECT_EQ(crossing_cost(torus({2}), ring, {}, {{0, 1}}),
            (CrossingCost{4, 4, 2}));
  EXPECT_EQ(crossing_cost(torus({1}), ring, {}, {{0}}),
            (CrossingCost{0, 0, 0}));
  const Stencil right = from_vectors(1, {{1}});
  EXPECT_EQ(crossing_cost(mesh({4}), right, {}, {{0, 0, 1, 1}}),
            (CrossingCost{1, 1, 1}));
}

TEST(PlacementTest, IdentityFillsHostsInCellOrder) {
  EXPECT_EQ(identity_placement(std::vector<int>{2, 3, 1}),
            (std::vector<int>{0, 0, 1, 1, 1, 2}));
}

TEST(PlacementTest, AssignRanksTakesTheLowestUnusedRankOfTheHost) {
  EXPECT_EQ(
      assign_ranks(std::vector<int>{1, 0, 1, 0}, std::vector<int>{0, 0, 1, 1}),
      (std::vector<int>{2, 0, 3, 1}));
}

TEST(PlacementTest, NoBlockPartitionWithoutAFactorisationOrEqualSlots) {
  const naming::Geometry grid = mesh({4, 4});
  const Stencil stencil = von_neumann();
  EXPECT_FALSE(best_block_placement(grid, stencil, {}, {{6, 5, 5}}));
  EXPECT_FALSE(best_block_placement(grid, stencil, {}, {{8, 4, 4}}));
  const std::vector<int> current =
      identity_placement(std::vector<int>{8, 4, 4});
  const PlacementChoice choice =
      choose_placement(grid, stencil, {}, {{8, 4, 4}}, current);
  EXPECT_EQ(choice.chosen, Chosen::current);
  EXPECT_FALSE(choice.block_cost.has_value());
  EXPECT_EQ(choice.host_of_cell, current);
}

// 64 processes: a 4 x 4 x 4 torus, weighted Moore stencil (26 offsets),
// 8 hosts of 8, from a random placement.
TEST(PlacementTest, ShuffledSixtyFourProcessesGetBlocks) {
  const naming::Geometry geometry = torus({4, 4, 4});
  std::vector<std::vector<int>> offsets;
  Weights weights;  // faces 4, edges 2, corners 1
  for (const auto& o : testing::box(3, 1)) {
    const int l1 = testing::l1(o);
    if (l1 == 0) continue;
    offsets.push_back(o);
    weights.push_back(l1 == 1 ? 4 : l1 == 2 ? 2 : 1);
  }
  const Stencil stencil = from_vectors(3, offsets);
  const std::vector<int> slots(8, 8);
  std::vector<int> current = identity_placement(slots);
  std::mt19937 random(7);
  std::shuffle(current.begin(), current.end(), random);
  const PlacementChoice choice =
      choose_placement(geometry, stencil, weights, slots, current);
  EXPECT_EQ(choice.chosen, Chosen::block);
  ASSERT_TRUE(choice.block_cost.has_value());
  EXPECT_LT(choice.block_cost->weight, choice.current_cost.weight);
}

// ---- Bad input. ----

TEST(PlacementTest, RejectsBadArguments) {
  const naming::Geometry geometry = mesh({2, 2});
  const Stencil stencil = von_neumann();
  const std::vector<int> slots = {2, 2};
  const std::vector<int> placement = {0, 0, 1, 1};
  const char* cost = "stencils::crossing_cost";
  const char* best = "stencils::best_block_placement";
  const char* choose = "stencils::choose_placement";
  const char* assign = "stencils::assign_ranks";
  expect_error_from(
      [&] {
        best_block_placement(geometry, stencil, {}, {{2, 1}});
      },
      ErrorClass::count, best, "slots add up to 3");
  expect_error_from(
      [&] {
        best_block_placement(geometry, stencil, {}, {{4, 0}});
      },
      ErrorClass::arg, best, "slots[1] = 0");
  expect_error_from([&] { identity_placement(std::vector<int>{-1}); },
                    ErrorClass::arg, "stencils::identity_placement",
                    "slots[0] = -1");
  // A grid with a zero or negative extent cannot be made at all.
  for (const int bad : {0, -2}) {
    expect_error_from(
        [&] {
          mesh({2, bad});
        },
        ErrorClass::dims, "naming::Geometry::Geometry",
        "dims[1] = " + std::to_string(bad));
  }
  expect_error_from([&] { crossing_cost(geometry, Stencil(3), {}, placement); },
                    ErrorClass::dims, cost, "stencil.ndims() = 3");
  expect_error_from(
      [&] { best_block_placement(geometry, Stencil(1), {}, slots); },
      ErrorClass::dims, best, "stencil.ndims() = 1");
  expect_error_from(
      [&] {
        crossing_cost(geometry, stencil, {}, {{0, 0, 4, 1}});
      },
      ErrorClass::arg, cost, "host_of_cell[2] = 4");
  expect_error_from(
      [&] {
        crossing_cost(geometry, stencil, {}, {{0, -1, 1, 1}});
      },
      ErrorClass::arg, cost, "host_of_cell[1] = -1");
  expect_error_from(
      [&] {
        crossing_cost(geometry, stencil, {}, {{0, 0, 1}});
      },
      ErrorClass::count, cost, "host_of_cell has 3 elements");
  expect_error_from(
      [&] {
        crossing_cost(geometry, stencil, Weights{1, 2}, placement);
      },
      ErrorClass::arg, cost, "weights has 2 elements");
  expect_error_from(
      [&] {
        crossing_cost(geometry, stencil, Weights{1, -1, 1, 1}, placement);
      },
      ErrorClass::arg, cost, "weights[1] = -1");
  const std::int64_t huge = std::numeric_limits<std::int64_t>::max() / 4;
  expect_error_from(
      [&] {
        crossing_cost(geometry, stencil, Weights{huge, 1, 1, 1}, placement);
      },
      ErrorClass::count, cost, "INT64_MAX");
  expect_error_from(
      [&] {
        choose_placement(geometry, stencil, {}, slots, {{0, 0, 0, 1}});
      },
      ErrorClass::arg, choose, "current places 3 cells on host 0");
  expect_error_from(
      [&] {
        choose_placement(geometry, stencil, {}, slots, {{0, 0, 2, 1}});
      },
      ErrorClass::arg, choose, "current[2] = 2");
  expect_error_from(
      [&] {
        choose_placement(geometry, stencil, {}, slots, {{0, 1}});
      },
      ErrorClass::count, choose, "current has 2 elements");
  expect_error_from(
      [&] {
        assign_ranks(std::vector<int>{0, 0, 1}, std::vector<int>{0, 1, 1});
      },
      ErrorClass::arg, assign, "host 0 holds 2 cells");
  expect_error_from(
      [&] {
        assign_ranks(std::vector<int>{0, 1}, std::vector<int>{0, 1, 1});
      },
      ErrorClass::count, assign, "host_of_cell has 2 elements");
  expect_error_from(
      [&] {
        assign_ranks(std::vector<int>{0, 3, 1}, std::vector<int>{0, 1, 1});
      },
      ErrorClass::arg, assign, "host_of_cell[1] = 3");
}

}  // namespace
}  // namespace stencils
