// Tests of naming a classic communicator (paper section 3, Listings 3-4):
// cart_name, cart_test, cart_get, cart_testall and the communicator forms of
// the rank <-> coordinate maps, against an odometer oracle and the lecture's
// 3 x 4 table (lecture notes). Every rank runs every test; each test names
// a fresh duplicate of the world so that no naming leaks from one test to
// the next.
#include "naming/cart_name.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "naming/cart_maps.h"
#include "naming/geometry.h"
#include "tests/naming/cart_testing.h"

namespace {

using cart_testing::Coords;
using cart_testing::enumerate;
using cart_testing::Grid;
using cart_testing::thrown_by;
using classic::Comm;
using classic::ErrorClass;
using classic::proc_null;
using naming::Geometry;
using naming::Order;

class CartName : public ::testing::Test {
 protected:
  void SetUp() override {
    baseline_ = naming::live_naming_count();
    comm_ = Comm::world().dup();
    size_ = comm_.size();
    rank_ = comm_.rank();
  }
  void TearDown() override {
    if (!comm_.is_null()) comm_.free();
    EXPECT_EQ(naming::live_naming_count(), baseline_) << "a naming leaked";
  }

  // A 2-d grid of all processes, mixed periods.
  Grid full_grid(Coords order = {0, 1}) const {
    return {cart_testing::two_factors(size_), {true, false}, order};
  }
  int name(const Grid& grid) {
    return naming::cart_name(comm_, grid.dims, grid.periods(), grid.order);
  }

  Comm comm_;
  int size_ = 0;
  int rank_ = 0;
  std::size_t baseline_ = 0;
};

// Skips tests that need a process that differs from the others.
#define SKIP_ON_ONE_PROCESS() \
  if (size_ == 1) GTEST_SKIP() << "needs at least two processes"

// ---- cart_name, cart_test, cart_get ---------------------------------------

TEST_F(CartName, ReturnsTheGridSizeInEveryOrder) {
  const Coords dims = cart_testing::two_factors(size_);
  const std::array<bool, 2> periods = {false, true};
  EXPECT_EQ(naming::cart_name(comm_, dims, periods, Order::row_major), size_);
  EXPECT_EQ(naming::cart_name(comm_, dims, periods, Order::column_major),
            size_);
  EXPECT_EQ(naming::cart_name(comm_, dims, periods, Coords{1, 0}), size_);
  const naming::CartTest test = naming::cart_test(comm_);
  EXPECT_TRUE(test.named);
  EXPECT_EQ(test.ndims, 2);
  EXPECT_EQ(test.size, size_);
}

TEST_F(CartName, UnnamedCommunicatorTestsUnnamed) {
  const naming::CartTest test = naming::cart_test(comm_);
  EXPECT_FALSE(test.named);
  EXPECT_EQ(test.ndims, 0);
  EXPECT_EQ(test.size, 0);
}

TEST_F(CartName, CartGetReturnsTheArguments) {
  const Grid grid{
      cart_testing::three_factors(size_), {true, false, true}, {2, 0, 1}};
  name(grid);
  const Geometry naming = naming::cart_get(comm_);
  EXPECT_EQ(Coords(naming.dims().begin(), naming.dims().end()), grid.dims);
  EXPECT_TRUE(std::ranges::equal(naming.periods(), grid.periods()));
  EXPECT_EQ(
      Coords(naming.dimension_order().begin(), naming.dimension_order().end()),
      grid.order);
  EXPECT_TRUE(naming == Geometry(grid.dims, grid.periods(), grid.order));
}

TEST_F(CartName, OrderEnumMeansItsPermutation) {
  const Coords dims = cart_testing::three_factors(size_);
  const std::array<bool, 3> periods = {false, true, false};
  naming::cart_name(comm_, dims, periods, Order::column_major);
  const Geometry by_enum = naming::cart_get(comm_);
  naming::cart_name(comm_, dims, periods, Coords{2, 1, 0});
  EXPECT_TRUE(by_enum == naming::cart_get(comm_));
}

TEST_F(CartName, GridMaybeSmallerThanTheCommunicator) {
  const std::array<bool, 1> periods = {false};
  EXPECT_EQ(naming::cart_name(comm_, Coords{1}, periods, Order::row_major), 1);
  EXPECT_EQ(naming::cart_test(comm_).size, 1);
}

TEST_F(CartName, NamingBelongsToTheCommunicatorNotTheHandle) {
  const Comm other_handle = comm_;
  name(full_grid());
  EXPECT_TRUE(naming::cart_test(other_handle).named);
}

// ---- the maps against the oracle ------------------------------------------

TEST_F(CartName, CoordinatesFollowEveryDimensionOrder) {
  const Coords dims = cart_testing::three_factors(size_);
  Coords order = cart_testing::identity(3);
  do {
    SCOPED_TRACE(::testing::Message()
                 << "order " << order[0] << order[1] << order[2]);
    name({dims, {false, true, false}, order});
    const std::vector<Coords> all = enumerate(dims, order);
    std::vector<int> flat;
    for (int r = 0; r < size_; ++r) {
      EXPECT_EQ(naming::cart_coordinates(comm_, r), all[r]);
      EXPECT_EQ(naming::cart_rank(comm_, all[r]), r);
      flat.insert(flat.end(), all[r].begin(), all[r].end());
    }
    std::vector<int> expected(static_cast<std::size_t>(size_));
    std::iota(expected.begin(), expected.end(), 0);
    EXPECT_EQ(naming::cart_allranks(comm_, flat), expected);
  } while (std::next_permutation(order.begin(), order.end()));
}

// The lecture's "12 processes arranged on a 3 x 4 grid", row-major.
TEST_F(CartName, SeedLectureTableOnTwelveProcesses) {
  if (size_ != 12) GTEST_SKIP() << "the table has 12 processes";
  const std::array<bool, 2> periods = {false, false};
  ASSERT_EQ(naming::cart_name(comm_, Coords{3, 4}, periods, Order::row_major),
            12);
  const std::array<std::array<int, 3>, 12> table = {{{0, 0, 0},
                                                     {1, 0, 1},
                                                     {2, 0, 2},
                                                     {3, 0, 3},
                                                     {4, 1, 0},
                                                     {5, 1, 1},
                                                     {6, 1, 2},
                                                     {7, 1, 3},
                                                     {8, 2, 0},
                                                     {9, 2, 1},
                                                     {10, 2, 2},
                                                     {11, 2, 3}}};
  for (const auto& [rank, row, column] : table) {
    EXPECT_EQ(naming::cart_coordinates(comm_, rank), (Coords{row, column}));
    EXPECT_EQ(naming::cart_rank(comm_, Coords{row, column}), rank);
  }
}

// The rank at all[source] + offset, stepping around periodic dimensions one
// lap at a time; proc_null off the grid.
int oracle_relative(const Grid& grid, const std::vector<Coords>& all,
                    int source, const Coords& offset) {
  Coords target = all[source];
  for (std::size_t i = 0; i < grid.dims.size(); ++i) {
    target[i] += offset[i];
    if (grid.period_flags[i]) {
      while (target[i] < 0) target[i] += grid.dims[i];
      while (target[i] >= grid.dims[i]) target[i] -= grid.dims[i];
    }
  }
  const auto it = std::find(all.begin(), all.end(), target);
  return it == all.end() ? proc_null : static_cast<int>(it - all.begin());
}

TEST_F(CartName, RelativeMapsMatchBruteForce) {
  const Grid grid = full_grid({1, 0});
  name(grid);
  const std::vector<Coords> all = enumerate(grid.dims, grid.order);
  const std::vector<Coords> offsets = [] {
    std::vector<Coords> box = enumerate({7, 7}, {0, 1});
    for (Coords& offset : box) offset = {offset[0] - 3, offset[1] - 3};
    return box;
  }();
  std::vector<int> flat_offsets;
  for (const Coords& offset : offsets) {
    flat_offsets.insert(flat_offsets.end(), offset.begin(), offset.end());
  }
  for (int source = 0; source < size_; ++source) {
    std::vector<int> expected;
    for (const Coords& offset : offsets) {
      const int out = oracle_relative(grid, all, source, offset);
      expected.push_back(out);
      EXPECT_EQ(naming::cart_relative_rank(comm_, source, offset), out);
      const naming::Shift shift =
          naming::cart_relative_shift(comm_, source, offset);
      EXPECT_EQ(shift.destination, out);
      EXPECT_EQ(shift.source,
                oracle_relative(grid, all, source, {-offset[0], -offset[1]}));
    }
    EXPECT_EQ(naming::cart_allranks_relative(comm_, source, flat_offsets),
              expected);
    for (int dest = 0; dest < size_; ++dest) {
      const Coords relative =
          naming::cart_relative_coordinates(comm_, source, dest);
      EXPECT_EQ(naming::cart_relative_rank(comm_, source, relative), dest);
      EXPECT_EQ(relative[1], all[dest][1] - all[source][1])
          << "non-periodic dimension 1 is a plain difference";
    }
  }
}

TEST_F(CartName, ZeroDimensionalNamingNamesRankZeroOnly) {
  EXPECT_EQ(naming::cart_name(comm_, Coords{}, std::span<const bool>(),
                              Order::row_major),
            1);
  EXPECT_EQ(naming::cart_coordinates(comm_, 0), Coords{});
  EXPECT_EQ(naming::cart_rank(comm_, Coords{}), 0);
  if (size_ > 1) {
    EXPECT_EQ(naming::cart_relative_rank(comm_, 1, Coords{}), proc_null);
  }
}

// ---- unnamed ranks, proc_null, ranks outside the communicator -------------

class CartNameShortGrid : public CartName {
 protected:
  // A ring of size_ - 1 processes: the last rank of comm is unnamed.
  void SetUp() override {
    CartName::SetUp();
    if (size_ == 1) GTEST_SKIP() << "needs an unnamed rank";
    const std::array<bool, 1> periods = {true};
    ASSERT_EQ(
        naming::cart_name(comm_, Coords{size_ - 1}, periods, Order::row_major),
        size_ - 1);
    unnamed_ = size_ - 1;
  }
  int unnamed_ = 0;
};

TEST_F(CartNameShortGrid, CoordinatesOfUnnamedRankIsRankError) {
  EXPECT_EQ(
      thrown_by([&] { naming::cart_coordinates(comm_, unnamed_); }).error_class,
      ErrorClass::rank);
}

TEST_F(CartNameShortGrid, RelativeCoordinatesToUnnamedRankIsRankError) {
  EXPECT_EQ(thrown_by([&] {
              naming::cart_relative_coordinates(comm_, 0, unnamed_);
            }).error_class,
            ErrorClass::rank);
}

TEST_F(CartNameShortGrid, RankValuedMapsOfUnnamedRankAreProcNull) {
  EXPECT_EQ(naming::cart_relative_rank(comm_, unnamed_, Coords{0}), proc_null);
  const naming::Shift shift =
      naming::cart_relative_shift(comm_, unnamed_, Coords{1});
  EXPECT_EQ(shift.source, proc_null);
  EXPECT_EQ(shift.destination, proc_null);
  EXPECT_EQ(naming::cart_allranks_relative(comm_, unnamed_, Coords{1, 0, -1}),
            (std::vector<int>{proc_null, proc_null, proc_null}));
}

TEST_F(CartNameShortGrid, NamedRanksWrapWithinTheGrid) {
  EXPECT_EQ(naming::cart_relative_rank(comm_, unnamed_ - 1, Coords{1}), 0);
}

TEST_F(CartName, ProcNullSourceGivesProcNull) {
  name(full_grid());
  EXPECT_EQ(naming::cart_relative_rank(comm_, proc_null, Coords{0, 0}),
            proc_null);
  EXPECT_EQ(naming::cart_relative_shift(comm_, proc_null, Coords{1, 0}).source,
            proc_null);
}

TEST_F(CartName, CoordinatesOfProcNullIsRankError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] {
              naming::cart_coordinates(comm_, proc_null);
            }).error_class,
            ErrorClass::rank);
}

TEST_F(CartName, CoordinatesOfNegativeRankIsRankError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] { naming::cart_coordinates(comm_, -7); }).error_class,
            ErrorClass::rank);
}

TEST_F(CartName, CoordinatesOfRankAtCommSizeIsRankError) {
  name(full_grid());
  EXPECT_EQ(
      thrown_by([&] { naming::cart_coordinates(comm_, size_); }).error_class,
      ErrorClass::rank);
}

TEST_F(CartName, RelativeRankFromRankAtCommSizeIsRankError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] {
              naming::cart_relative_rank(comm_, size_, Coords{0, 0});
            }).error_class,
            ErrorClass::rank);
}

TEST_F(CartName, RelativeRankFromNegativeRankIsRankError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] {
              naming::cart_relative_rank(comm_, -7, Coords{0, 0});
            }).error_class,
            ErrorClass::rank);
}

TEST_F(CartName, RelativeCoordinatesFromRankAtCommSizeIsRankError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] {
              naming::cart_relative_coordinates(comm_, size_, 0);
            }).error_class,
            ErrorClass::rank);
}

TEST_F(CartName, RelativeCoordinatesToRankAtCommSizeIsRankError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] {
              naming::cart_relative_coordinates(comm_, 0, size_);
            }).error_class,
            ErrorClass::rank);
}

TEST_F(CartName, RelativeShiftFromRankAtCommSizeIsRankError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] {
              naming::cart_relative_shift(comm_, size_, Coords{1, 0});
            }).error_class,
            ErrorClass::rank);
}

TEST_F(CartName, AllranksRelativeFromRankAtCommSizeIsRankError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] {
              naming::cart_allranks_relative(comm_, size_, Coords{1, 0});
            }).error_class,
            ErrorClass::rank);
}

// ---- renaming, freeing, inheritance ---------------------------------------

TEST_F(CartName, RenamingOverwritesAndDestroysTheOldNamingOnce) {
  name(full_grid());
  EXPECT_EQ(naming::live_naming_count(), baseline_ + 1);
  const std::array<bool, 1> periods = {true};
  EXPECT_EQ(naming::cart_name(comm_, Coords{size_}, periods, Order::row_major),
            size_);
  EXPECT_EQ(naming::live_naming_count(), baseline_ + 1)
      << "the old naming must go exactly when the new one comes";
  EXPECT_TRUE(naming::cart_get(comm_) ==
              Geometry(Coords{size_}, periods, Order::row_major));
  EXPECT_EQ(naming::cart_coordinates(comm_, size_ - 1), Coords{size_ - 1});
}

TEST_F(CartName, FailedRenameKeepsTheOldNaming) {
  const Grid grid = full_grid();
  name(grid);
  const std::array<bool, 1> periods = {false};
  EXPECT_EQ(thrown_by([&] {
              naming::cart_name(comm_, Coords{0}, periods, Order::row_major);
            }).error_class,
            ErrorClass::dims);
  EXPECT_EQ(thrown_by([&] {
              naming::cart_name(comm_, Coords{size_ + 1}, periods,
                                Order::row_major);
            }).error_class,
            ErrorClass::dims);
  EXPECT_TRUE(naming::cart_get(comm_) ==
              Geometry(grid.dims, grid.periods(), grid.order));
  EXPECT_EQ(naming::live_naming_count(), baseline_ + 1);
}

TEST_F(CartName, FreeDestroysTheNaming) {
  name(full_grid());
  ASSERT_EQ(naming::live_naming_count(), baseline_ + 1);
  comm_.free();
  EXPECT_EQ(naming::live_naming_count(), baseline_);
}

TEST_F(CartName, LastHandleGoingDestroysTheNaming) {
  {
    const Comm scoped = comm_.dup();
    naming::cart_name(scoped, Coords{size_}, std::array<bool, 1>{false},
                      Order::row_major);
    EXPECT_EQ(naming::live_naming_count(), baseline_ + 1);
  }
  EXPECT_EQ(naming::live_naming_count(), baseline_);
}

TEST_F(CartName, DupGivesAnUnnamedCommunicator) {
  name(full_grid());
  Comm duplicate = comm_.dup();
  EXPECT_FALSE(naming::cart_test(duplicate).named);
  EXPECT_TRUE(naming::cart_test(comm_).named);
  EXPECT_EQ(naming::live_naming_count(), baseline_ + 1);
  duplicate.free();
}

TEST_F(CartName, SplitGivesAnUnnamedCommunicator) {
  name(full_grid());
  Comm part = comm_.split(rank_ % 2, rank_);
  EXPECT_FALSE(naming::cart_test(part).named);
  part.free();
}

TEST_F(CartName, CreateGivesAnUnnamedCommunicator) {
  name(full_grid());
  Comm same = comm_.create(comm_.group());
  EXPECT_FALSE(naming::cart_test(same).named);
  same.free();
}

// ---- cart_testall -----------------------------------------------------------

TEST_F(CartName, TestallTrueWhenAllNameAlike) {
  for (const Coords& order : {Coords{0, 1}, Coords{1, 0}}) {
    name(full_grid(order));
    EXPECT_TRUE(naming::cart_testall(comm_));
  }
}

TEST_F(CartName, TestallFalseWhenNoneIsNamed) {
  EXPECT_FALSE(naming::cart_testall(comm_));
}

TEST_F(CartName, TestallFalseWhenOneProcessIsUnnamed) {
  SKIP_ON_ONE_PROCESS();
  if (rank_ != size_ - 1) name(full_grid());
  EXPECT_FALSE(naming::cart_testall(comm_));
}

TEST_F(CartName, TestallFalseWhenOneProcessDiffersInPeriods) {
  SKIP_ON_ONE_PROCESS();
  Grid grid = full_grid();
  if (rank_ == 0) grid.period_flags[1] = true;
  name(grid);
  EXPECT_FALSE(naming::cart_testall(comm_));
}

TEST_F(CartName, TestallFalseWhenOneProcessDiffersInOrder) {
  SKIP_ON_ONE_PROCESS();
  name(full_grid(rank_ == 0 ? Coords{1, 0} : Coords{0, 1}));
  EXPECT_FALSE(naming::cart_testall(comm_));
}

TEST_F(CartName, TestallFalseWhenOneProcessDiffersInDims) {
  SKIP_ON_ONE_PROCESS();
  Grid grid = full_grid();
  // Same size, other shape: two_factors(n) is {a, b} with a <= b.
  if (rank_ == 0) grid.dims = {size_, 1};
  name(grid);
  EXPECT_FALSE(naming::cart_testall(comm_));
}

TEST_F(CartName, TestallFalseWhenOneProcessDiffersInNdims) {
  SKIP_ON_ONE_PROCESS();
  if (rank_ == 0) {
    naming::cart_name(comm_, Coords{size_}, std::array<bool, 1>{true},
                      Order::row_major);
  } else {
    name(full_grid());
  }
  EXPECT_FALSE(naming::cart_testall(comm_));
}

// In one dimension row- and column-major are the same numbering.
TEST_F(CartName, TestallTrueForOneDimensionalRowAndColumnMajor) {
  naming::cart_name(comm_, Coords{size_}, std::array<bool, 1>{false},
                    rank_ % 2 == 0 ? Order::row_major : Order::column_major);
  EXPECT_TRUE(naming::cart_testall(comm_));
}

// ---- rejected inputs
// ----------------------------------------------------------

TEST_F(CartName, CartNameOnNullCommIsCommError) {
  EXPECT_EQ(thrown_by([&] {
              naming::cart_name(Comm(), Coords{1}, std::array<bool, 1>{false},
                                Order::row_major);
            }).error_class,
            ErrorClass::comm);
}

TEST_F(CartName, CartNameOnFreedCommIsCommError) {
  Comm freed = comm_.dup();
  const Comm stale = freed;
  freed.free();
  EXPECT_EQ(thrown_by([&] {
              naming::cart_name(stale, Coords{1}, std::array<bool, 1>{false},
                                Order::row_major);
            }).error_class,
            ErrorClass::comm);
}

TEST_F(CartName, CartTestOnNullCommIsCommError) {
  EXPECT_EQ(thrown_by([&] { naming::cart_test(Comm()); }).error_class,
            ErrorClass::comm);
}

TEST_F(CartName, CartGetOnNullCommIsCommError) {
  EXPECT_EQ(thrown_by([&] { naming::cart_get(Comm()); }).error_class,
            ErrorClass::comm);
}

TEST_F(CartName, CartTestallOnNullCommIsCommError) {
  EXPECT_EQ(thrown_by([&] { naming::cart_testall(Comm()); }).error_class,
            ErrorClass::comm);
}

TEST_F(CartName, MapsOnNullCommAreCommErrors) {
  const Comm null;
  const Coords two = {0, 0};
  EXPECT_EQ(thrown_by([&] { naming::cart_rank(null, two); }).error_class,
            ErrorClass::comm);
  EXPECT_EQ(thrown_by([&] { naming::cart_coordinates(null, 0); }).error_class,
            ErrorClass::comm);
  EXPECT_EQ(
      thrown_by([&] { naming::cart_relative_rank(null, 0, two); }).error_class,
      ErrorClass::comm);
  EXPECT_EQ(thrown_by([&] {
              naming::cart_relative_coordinates(null, 0, 0);
            }).error_class,
            ErrorClass::comm);
  EXPECT_EQ(
      thrown_by([&] { naming::cart_relative_shift(null, 0, two); }).error_class,
      ErrorClass::comm);
  EXPECT_EQ(thrown_by([&] { naming::cart_allranks(null, two); }).error_class,
            ErrorClass::comm);
  EXPECT_EQ(thrown_by([&] {
              naming::cart_allranks_relative(null, 0, two);
            }).error_class,
            ErrorClass::comm);
}

TEST_F(CartName, CartGetOnUnnamedCommIsTopologyError) {
  EXPECT_EQ(thrown_by([&] { naming::cart_get(comm_); }).error_class,
            ErrorClass::topology);
}

TEST_F(CartName, MapsOnUnnamedCommAreTopologyErrors) {
  const Coords two = {0, 0};
  EXPECT_EQ(thrown_by([&] { naming::cart_rank(comm_, two); }).error_class,
            ErrorClass::topology);
  EXPECT_EQ(thrown_by([&] { naming::cart_coordinates(comm_, 0); }).error_class,
            ErrorClass::topology);
  EXPECT_EQ(
      thrown_by([&] { naming::cart_relative_rank(comm_, 0, two); }).error_class,
      ErrorClass::topology);
  EXPECT_EQ(thrown_by([&] {
              naming::cart_relative_coordinates(comm_, 0, 0);
            }).error_class,
            ErrorClass::topology);
  EXPECT_EQ(thrown_by([&] {
              naming::cart_relative_shift(comm_, 0, two);
            }).error_class,
            ErrorClass::topology);
  EXPECT_EQ(thrown_by([&] { naming::cart_allranks(comm_, two); }).error_class,
            ErrorClass::topology);
  EXPECT_EQ(thrown_by([&] {
              naming::cart_allranks_relative(comm_, 0, two);
            }).error_class,
            ErrorClass::topology);
}

TEST_F(CartName, ZeroExtentIsDimsError) {
  EXPECT_EQ(thrown_by([&] {
              naming::cart_name(comm_, Coords{1, 0},
                                std::array<bool, 2>{false, false},
                                Order::row_major);
            }).error_class,
            ErrorClass::dims);
  EXPECT_FALSE(naming::cart_test(comm_).named);
}

TEST_F(CartName, NegativeExtentIsDimsError) {
  EXPECT_EQ(thrown_by([&] {
              naming::cart_name(comm_, Coords{-2}, std::array<bool, 1>{false},
                                Order::row_major);
            }).error_class,
            ErrorClass::dims);
}

TEST_F(CartName, GridLargerThanTheCommunicatorIsDimsError) {
  EXPECT_EQ(thrown_by([&] {
              naming::cart_name(comm_, Coords{size_ + 1},
                                std::array<bool, 1>{false}, Order::row_major);
            }).error_class,
            ErrorClass::dims);
  EXPECT_FALSE(naming::cart_test(comm_).named);
}

TEST_F(CartName, GridLargerThanTheCommunicatorAsGeometryIsDimsError) {
  const Geometry big(Coords{size_, 2}, std::array<bool, 2>{false, false},
                     Order::row_major);
  EXPECT_EQ(thrown_by([&] { naming::cart_name(comm_, big); }).error_class,
            ErrorClass::dims);
}

TEST_F(CartName, PeriodsOfWrongLengthIsArgError) {
  EXPECT_EQ(thrown_by([&] {
              naming::cart_name(comm_, Coords{1, 1}, std::array<bool, 1>{false},
                                Order::row_major);
            }).error_class,
            ErrorClass::arg);
}

TEST_F(CartName, OrderThatIsNotAnOrderIsArgError) {
  EXPECT_EQ(thrown_by([&] {
              naming::cart_name(comm_, Coords{1}, std::array<bool, 1>{false},
                                static_cast<Order>(7));
            }).error_class,
            ErrorClass::arg);
}

TEST_F(CartName, DimensionOrderWithRepeatIsArgError) {
  EXPECT_EQ(thrown_by([&] {
              naming::cart_name(comm_, Coords{1, 1},
                                std::array<bool, 2>{false, false},
                                Coords{0, 0});
            }).error_class,
            ErrorClass::arg);
}

TEST_F(CartName, DimensionOrderOutOfRangeIsArgError) {
  EXPECT_EQ(thrown_by([&] {
              naming::cart_name(comm_, Coords{1, 1},
                                std::array<bool, 2>{false, false},
                                Coords{0, 2});
            }).error_class,
            ErrorClass::arg);
}

TEST_F(CartName, DimensionOrderOfWrongLengthIsArgError) {
  EXPECT_EQ(thrown_by([&] {
              naming::cart_name(comm_, Coords{1, 1},
                                std::array<bool, 2>{false, false}, Coords{0});
            }).error_class,
            ErrorClass::arg);
}

TEST_F(CartName, CoordsOfWrongLengthIsArgError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] { naming::cart_rank(comm_, Coords{0}); }).error_class,
            ErrorClass::arg);
}

TEST_F(CartName, CoordinateOutsideNonPeriodicDimensionIsRankError) {
  const Grid grid = full_grid();  // dimension 1 is not periodic
  name(grid);
  EXPECT_EQ(thrown_by([&] {
              naming::cart_rank(comm_, Coords{0, grid.dims[1]});
            }).error_class,
            ErrorClass::rank);
}

TEST_F(CartName, RelativeRankOffsetOfWrongLengthIsArgError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] {
              naming::cart_relative_rank(comm_, 0, Coords{1, 0, 0});
            }).error_class,
            ErrorClass::arg);
}

TEST_F(CartName, RelativeShiftOffsetOfWrongLengthIsArgError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] {
              naming::cart_relative_shift(comm_, 0, Coords{1});
            }).error_class,
            ErrorClass::arg);
}

TEST_F(CartName, FlatCoordsNotAMultipleOfNdimsIsCountError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] {
              naming::cart_allranks(comm_, Coords{0, 0, 0});
            }).error_class,
            ErrorClass::count);
}

TEST_F(CartName, FlatOffsetsNotAMultipleOfNdimsIsCountError) {
  name(full_grid());
  EXPECT_EQ(thrown_by([&] {
              naming::cart_allranks_relative(comm_, 0, Coords{0, 0, 0});
            }).error_class,
            ErrorClass::count);
}

TEST_F(CartName, MessagesNameTheFunctionCalled) {
  name(full_grid());
  const cart_testing::Thrown thrown =
      thrown_by([&] { naming::cart_rank(comm_, Coords{0}); });
  EXPECT_EQ(thrown.message.rfind("naming::cart_rank: ", 0), 0u)
      << thrown.message;
  const cart_testing::Thrown unnamed =
      thrown_by([&] { naming::cart_get(Comm::world().dup()); });
  EXPECT_EQ(unnamed.message.rfind("naming::cart_get: ", 0), 0u)
      << unnamed.message;
}

}  // namespace
