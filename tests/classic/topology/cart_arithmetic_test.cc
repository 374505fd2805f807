// classic's MPI-free Cartesian arithmetic (coords_of, rank_of, shift_of,
// grid_size) against a brute-force oracle: the grid enumerated in row-major
// order by an odometer, and shifts walked one unit step at a time.
#include "classic/topology/internal/cart_arithmetic.h"

#include <gtest/gtest.h>

#include <climits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "tests/testing/errors.h"

namespace classic::internal {
namespace {

using orthocomm_test::expect_error;
using orthocomm_test::thrown_text;

constexpr const char* kFunction = "test";
constexpr int kRandomGrids = 300;

int uniform(std::mt19937& random, int low, int high) {
  return std::uniform_int_distribution<int>(low, high)(random);
}

// A random grid of 0..5 dimensions of extent 1..5, mixed periodicity.
CartTopology random_grid(std::mt19937& random) {
  CartTopology grid;
  const int ndims = uniform(random, 0, 5);
  for (int i = 0; i < ndims; ++i) {
    grid.dims.push_back(uniform(random, 1, 5));
    grid.periods.push_back(uniform(random, 0, 1) == 1);
  }
  return grid;
}

// Every coordinate vector of the grid in row-major order, counted like an
// odometer: the last wheel turns fastest and carries into the one before.
std::vector<std::vector<int>> odometer(const std::vector<int>& dims) {
  std::vector<std::vector<int>> all;
  std::vector<int> wheels(dims.size(), 0);
  while (true) {
    all.push_back(wheels);
    int i = static_cast<int>(dims.size()) - 1;
    for (; i >= 0; --i) {
      const auto at = static_cast<std::size_t>(i);
      if (++wheels[at] < dims[at]) break;
      wheels[at] = 0;
    }
    if (i < 0) return all;
  }
}

// The rank `steps` unit moves (each one step up or down, wrapping in a
// periodic dimension) away from `coords` along `dim`, or proc_null once a
// move leaves a non-periodic dimension.
int walk(const CartTopology& grid,
         const std::map<std::vector<int>, int>& rank_at,
         std::vector<int> coords, std::size_t dim, long long steps) {
  const int extent = grid.dims[dim];
  for (long long n = 0; n < (steps < 0 ? -steps : steps); ++n) {
    int& c = coords[dim];
    c += steps < 0 ? -1 : 1;
    if (c < 0 || c >= extent) {
      if (!grid.periods[dim]) return proc_null;
      c = c < 0 ? extent - 1 : 0;
    }
  }
  return rank_at.at(coords);
}

// The representative of `value` modulo `extent` in [0, extent), by
// truncating division and a correction (another route than the code's).
long long modulo(long long value, int extent) {
  const long long remainder = value - (value / extent) * extent;
  return remainder < 0 ? remainder + extent : remainder;
}

TEST(CartArithmetic, GridSizeIsTheNumberOfGridPoints) {
  std::mt19937 random(101);
  for (int round = 0; round < kRandomGrids; ++round) {
    const CartTopology grid = random_grid(random);
    EXPECT_EQ(grid_size(grid), static_cast<int>(odometer(grid.dims).size()));
  }
  EXPECT_EQ(grid_size(CartTopology{}), 1);
}

TEST(CartArithmetic, RanksAndCoordinatesFollowTheOdometer) {
  std::mt19937 random(202);
  for (int round = 0; round < kRandomGrids; ++round) {
    const CartTopology grid = random_grid(random);
    const auto all = odometer(grid.dims);
    for (std::size_t rank = 0; rank < all.size(); ++rank) {
      const int r = static_cast<int>(rank);
      EXPECT_EQ(coords_of(grid, r, kFunction), all[rank]);
      EXPECT_EQ(rank_of(grid, all[rank], kFunction), r);
    }
  }
}

TEST(CartArithmetic, PeriodicDimensionsWrapAnyCoordinate) {
  std::mt19937 random(303);
  for (int round = 0; round < kRandomGrids; ++round) {
    const CartTopology grid = random_grid(random);
    const auto all = odometer(grid.dims);
    for (std::size_t rank = 0; rank < all.size(); ++rank) {
      std::vector<int> coords = all[rank];
      for (std::size_t i = 0; i < coords.size(); ++i) {
        if (!grid.periods[i]) continue;
        // Any multiple of the extent that keeps the coordinate an int.
        const long long most = (INT_MAX - coords[i]) / grid.dims[i];
        const long long least = (INT_MIN + grid.dims[i]) / grid.dims[i];
        const long long turns =
            std::uniform_int_distribution<long long>(least, most)(random);
        coords[i] = static_cast<int>(coords[i] + turns * grid.dims[i]);
      }
      EXPECT_EQ(rank_of(grid, coords, kFunction), static_cast<int>(rank));
    }
  }
}

TEST(CartArithmetic, ShiftsMatchUnitStepWalks) {
  std::mt19937 random(404);
  std::map<std::vector<int>, int> rank_at;
  for (int round = 0; round < kRandomGrids; ++round) {
    const CartTopology grid = random_grid(random);
    if (grid.dims.empty()) continue;
    const auto all = odometer(grid.dims);
    rank_at.clear();
    for (std::size_t r = 0; r < all.size(); ++r) {
      rank_at[all[r]] = static_cast<int>(r);
    }
    for (std::size_t rank = 0; rank < all.size(); ++rank) {
      const auto dim = static_cast<std::size_t>(
          uniform(random, 0, static_cast<int>(grid.dims.size()) - 1));
      const int extent = grid.dims[dim];
      const int displacement = uniform(random, -3 * extent, 3 * extent);
      const ShiftRanks got =
          shift_of(grid, static_cast<int>(rank), static_cast<int>(dim),
                   displacement, kFunction);
      EXPECT_EQ(got.destination,
                walk(grid, rank_at, all[rank], dim, displacement));
      EXPECT_EQ(got.source, walk(grid, rank_at, all[rank], dim,
                                 -static_cast<long long>(displacement)));
    }
  }
}

TEST(CartArithmetic, HugeDisplacementsWrapOrLeaveTheGrid) {
  std::mt19937 random(505);
  std::map<std::vector<int>, int> rank_at;
  for (int round = 0; round < kRandomGrids; ++round) {
    const CartTopology grid = random_grid(random);
    if (grid.dims.empty()) continue;
    const auto all = odometer(grid.dims);
    rank_at.clear();
    for (std::size_t r = 0; r < all.size(); ++r) {
      rank_at[all[r]] = static_cast<int>(r);
    }
    const auto dim = static_cast<std::size_t>(
        uniform(random, 0, static_cast<int>(grid.dims.size()) - 1));
    const int extent = grid.dims[dim];
    const int rank = uniform(random, 0, static_cast<int>(all.size()) - 1);
    const std::size_t at = static_cast<std::size_t>(rank);
    for (const int displacement :
         {INT_MAX, INT_MIN, INT_MIN + 1, INT_MAX - 1, 1 << 30, -(1 << 30),
          uniform(random, INT_MIN, INT_MAX)}) {
      const ShiftRanks got =
          shift_of(grid, rank, static_cast<int>(dim), displacement, kFunction);
      if (grid.periods[dim]) {
        // Walk only the remainder: a full turn comes back to the start.
        EXPECT_EQ(got.destination, walk(grid, rank_at, all[at], dim,
                                        modulo(displacement, extent)));
        EXPECT_EQ(got.source,
                  walk(grid, rank_at, all[at], dim,
                       modulo(-static_cast<long long>(displacement), extent)));
      } else {
        // |displacement| >= extent: no process on either side.
        EXPECT_EQ(got.destination, proc_null) << displacement;
        EXPECT_EQ(got.source, proc_null) << displacement;
      }
    }
  }
}

TEST(CartArithmetic, ZeroDimensionalGridHasOneProcess) {
  const CartTopology point;
  EXPECT_EQ(coords_of(point, 0, kFunction), std::vector<int>{});
  EXPECT_EQ(rank_of(point, std::vector<int>{}, kFunction), 0);
  expect_error([&] { coords_of(point, 1, kFunction); }, ErrorClass::rank,
               {kFunction});
  expect_error([&] { shift_of(point, 0, 0, 1, kFunction); }, ErrorClass::dims,
               {kFunction});
}

TEST(CartArithmetic, SeedNumberingOfThreeByFour) {
  // Lecture 10 of the lecture notes: 12 processes on a 3 x 4 grid, row-major.
  const CartTopology grid{{3, 4}, {false, false}};
  for (int rank = 0; rank < 12; ++rank) {
    EXPECT_EQ(coords_of(grid, rank, kFunction),
              (std::vector<int>{rank / 4, rank % 4}));
  }
}

// ---- errors
// ------------------------------------------------------------------

const CartTopology kMixed{{3, 4, 2}, {true, false, true}};

TEST(CartArithmeticErrors, CoordsOfRankOutsideTheGrid) {
  expect_error([] { coords_of(kMixed, -1, kFunction); }, ErrorClass::rank,
               {kFunction});
  expect_error([] { coords_of(kMixed, 24, kFunction); }, ErrorClass::rank,
               {kFunction});
}

TEST(CartArithmeticErrors, RankOfCoordsOfTheWrongLength) {
  expect_error(
      [] {
        rank_of(kMixed, std::vector<int>{0, 0}, kFunction);
      },
      ErrorClass::dims, {kFunction});
  expect_error(
      [] {
        rank_of(kMixed, std::vector<int>{0, 0, 0, 0}, kFunction);
      },
      ErrorClass::dims, {kFunction});
}

TEST(CartArithmeticErrors, RankOfOffGridCoordinateInNonPeriodicDimension) {
  expect_error(
      [] {
        rank_of(kMixed, std::vector<int>{0, 4, 0}, kFunction);
      },
      ErrorClass::arg, {kFunction});
  expect_error(
      [] {
        rank_of(kMixed, std::vector<int>{0, -1, 0}, kFunction);
      },
      ErrorClass::arg, {kFunction});
  expect_error(
      [] {
        rank_of(kMixed, std::vector<int>{0, INT_MIN, 0}, kFunction);
      },
      ErrorClass::arg, {kFunction});
}

TEST(CartArithmeticErrors, ShiftDirectionOutsideTheDimensions) {
  expect_error([] { shift_of(kMixed, 0, -1, 1, kFunction); }, ErrorClass::dims,
               {kFunction});
  expect_error([] { shift_of(kMixed, 0, 3, 1, kFunction); }, ErrorClass::dims,
               {kFunction});
}

TEST(CartArithmeticErrors, ShiftOfRankOutsideTheGrid) {
  expect_error([] { shift_of(kMixed, 24, 0, 1, kFunction); }, ErrorClass::rank,
               {kFunction});
  expect_error([] { shift_of(kMixed, -1, 0, 1, kFunction); }, ErrorClass::rank,
               {kFunction});
}

TEST(CartArithmeticErrors, MessagesNameTheArgumentAndValue) {
  const std::string coords_text = thrown_text([] {
    rank_of(kMixed, std::vector<int>{0, 7, 0}, kFunction);
  });
  EXPECT_NE(coords_text.find("coords[1] = 7"), std::string::npos)
      << coords_text;
  const std::string direction_text =
      thrown_text([] { shift_of(kMixed, 0, 5, 1, kFunction); });
  EXPECT_NE(direction_text.find("direction = 5"), std::string::npos)
      << direction_text;
}

}  // namespace
}  // namespace classic::internal
