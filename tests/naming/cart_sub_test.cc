// Tests of naming::cart_create_sub (paper Listing 5) and sub_geometry: seed
// 003's Cart_sub row/column broadcast, the paper's promise that remaining
// coordinates survive renaming (every order, every subset of dimensions),
// Open MPI's MPI_Cart_sub as an oracle for row-major grids, and the rejected
// inputs, which must fail on every process instead of hanging.
#include "naming/cart_sub.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <memory>
#include <random>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "naming/cart_maps.h"
#include "naming/cart_name.h"
#include "naming/geometry.h"
#include "tests/naming/cart_testing.h"

namespace {

using cart_testing::Coords;
using cart_testing::Grid;
using cart_testing::thrown_by;
using classic::Comm;
using classic::ErrorClass;
using naming::Geometry;
using naming::Order;

// remain_dims as cart_create_sub reads it (std::vector<bool> has no span).
struct Remain {
  std::array<bool, 4> flags{};
  std::size_t ndims = 0;
  std::span<const bool> span() const { return {flags.data(), ndims}; }
};

Remain remain_from_mask(unsigned mask, std::size_t ndims) {
  Remain remain;
  remain.ndims = ndims;
  for (std::size_t i = 0; i < ndims; ++i) remain.flags[i] = (mask >> i) & 1u;
  return remain;
}

// The naming the paper tells the user to put on a sub-communicator, worked
// out by hand: the remaining dimensions, in the same relative order.
Grid remaining_grid(const Grid& grid, const Remain& remain) {
  Grid sub;
  Coords new_index(grid.dims.size(), -1);
  for (std::size_t i = 0; i < grid.dims.size(); ++i) {
    if (!remain.flags[i]) continue;
    new_index[i] = static_cast<int>(sub.dims.size());
    sub.period_flags[sub.dims.size()] = grid.period_flags[i];
    sub.dims.push_back(grid.dims[i]);
  }
  for (const int dim : grid.order) {
    if (remain.flags[dim]) sub.order.push_back(new_index[dim]);
  }
  return sub;
}

Coords kept(const Coords& coords, const Remain& remain, bool keep) {
  Coords out;
  for (std::size_t i = 0; i < coords.size(); ++i) {
    if (remain.flags[i] == keep) out.push_back(coords[i]);
  }
  return out;
}

// Every member of `sub` has the same coordinates in the dropped dimensions
// as this process (gathered over the sub-communicator's own context).
bool dropped_coordinates_agree(const Comm& sub, const Coords& dropped) {
  const int n = static_cast<int>(dropped.size());
  if (n == 0) return true;
  std::vector<int> all(static_cast<std::size_t>(n * sub.size()));
  MPI_Allgather(dropped.data(), n, MPI_INT, all.data(), n, MPI_INT,
                sub.transport());
  for (std::size_t k = 0; k < all.size(); ++k) {
    if (all[k] != dropped[k % dropped.size()]) return false;
  }
  return true;
}

class CartSub : public ::testing::Test {
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
  void name(const Grid& grid) {
    naming::cart_name(comm_, grid.dims, grid.periods(), grid.order);
  }

  Comm comm_;
  int size_ = 0;
  int rank_ = 0;
  std::size_t baseline_ = 0;
};

// The lecture's top_fcns.c: a periodic q x q grid (here a x b), Cart_sub into
// rows and columns, broadcast from each row's and column's rank 0.
TEST_F(CartSub, SeedRowAndColumnBroadcast) {
  const Coords dims = cart_testing::two_factors(size_);
  const std::array<bool, 2> wrap_around = {true, true};
  naming::cart_name(comm_, dims, wrap_around, Order::row_major);
  const Coords coordinates = naming::cart_coordinates(comm_, rank_);

  const std::array<bool, 2> row_free = {false, true};
  Comm row_comm = naming::cart_create_sub(comm_, row_free);
  int row_test = coordinates[1] == 0 ? coordinates[0] : -1;
  MPI_Bcast(&row_test, 1, MPI_INT, 0, row_comm.transport());
  EXPECT_EQ(row_test, coordinates[0]);
  EXPECT_EQ(row_comm.size(), dims[1]);
  naming::cart_name(row_comm, Coords{dims[1]}, std::array<bool, 1>{true},
                    Order::row_major);
  EXPECT_EQ(naming::cart_coordinates(row_comm, row_comm.rank()),
            Coords{coordinates[1]});

  const std::array<bool, 2> column_free = {true, false};
  Comm col_comm = naming::cart_create_sub(comm_, column_free);
  int col_test = coordinates[0] == 0 ? coordinates[1] : -1;
  MPI_Bcast(&col_test, 1, MPI_INT, 0, col_comm.transport());
  EXPECT_EQ(col_test, coordinates[1]);
  EXPECT_EQ(col_comm.size(), dims[0]);
  naming::cart_name(col_comm, Coords{dims[0]}, std::array<bool, 1>{true},
                    Order::row_major);
  EXPECT_EQ(naming::cart_coordinates(col_comm, col_comm.rank()),
            Coords{coordinates[0]});
  row_comm.free();
  col_comm.free();
}

// Paper: "a process rank with d coordinates in the original communicator
// will have the same coordinates for the remaining d' dimensions".
TEST_F(CartSub, RemainingCoordinatesSurviveEveryOrderAndSubset) {
  const Coords dims = cart_testing::three_factors(size_);
  for (const Coords& order :
       {Coords{0, 1, 2}, Coords{2, 1, 0}, Coords{1, 2, 0}, Coords{2, 0, 1}}) {
    const Grid grid{dims, {true, false, true}, order};
    name(grid);
    const Coords mine = naming::cart_coordinates(comm_, rank_);
    for (unsigned mask = 0; mask < 8; ++mask) {
      const Remain remain = remain_from_mask(mask, 3);
      SCOPED_TRACE(::testing::Message()
                   << "order " << order[0] << order[1] << order[2]
                   << ", remain mask " << mask);
      Comm sub = naming::cart_create_sub(comm_, remain.span());
      ASSERT_FALSE(sub.is_null());
      EXPECT_FALSE(naming::cart_test(sub).named) << "the result is unnamed";
      const Grid sub_grid = remaining_grid(grid, remain);
      EXPECT_EQ(sub.size(), sub_grid.size());
      EXPECT_TRUE(dropped_coordinates_agree(sub, kept(mine, remain, false)));
      EXPECT_TRUE(
          naming::sub_geometry(naming::cart_get(comm_), remain.span()) ==
          Geometry(sub_grid.dims, sub_grid.periods(), sub_grid.order));
      EXPECT_EQ(naming::cart_name(sub, sub_grid.dims, sub_grid.periods(),
                                  sub_grid.order),
                sub.size());
      EXPECT_EQ(naming::cart_coordinates(sub, sub.rank()),
                kept(mine, remain, true));
      sub.free();
    }
  }
}

// Open MPI numbers Cartesian grids row-major: its MPI_Cart_sub must put the
// same processes in the same order into each sub-communicator.
TEST_F(CartSub, AgreesWithOpenMpiCartSubOnRowMajorGrids) {
  std::mt19937 random(20240607);
  for (int trial = 0; trial < 40; ++trial) {
    Grid grid;
    const int ndims = std::uniform_int_distribution<int>(1, 3)(random);
    int points = 1;
    for (int i = 0; i < ndims; ++i) {
      const int extent =
          std::uniform_int_distribution<int>(1, size_ / points)(random);
      grid.dims.push_back(extent);
      grid.period_flags[static_cast<std::size_t>(i)] =
          std::bernoulli_distribution(0.5)(random);
      points *= extent;
    }
    grid.order = cart_testing::identity(grid.dims.size());
    const unsigned mask =
        std::uniform_int_distribution<unsigned>(0, (1u << ndims) - 1)(random);
    const Remain remain = remain_from_mask(mask, grid.dims.size());
    SCOPED_TRACE(::testing::Message() << "trial " << trial);

    name(grid);
    Comm sub = naming::cart_create_sub(comm_, remain.span());

    std::vector<int> periods(grid.dims.size());
    std::vector<int> remain_ints(grid.dims.size());
    for (std::size_t i = 0; i < grid.dims.size(); ++i) {
      periods[i] = grid.period_flags[i] ? 1 : 0;
      remain_ints[i] = remain.flags[i] ? 1 : 0;
    }
    MPI_Comm cart = MPI_COMM_NULL;
    MPI_Cart_create(comm_.transport(), ndims, grid.dims.data(), periods.data(),
                    0, &cart);
    MPI_Comm oracle = MPI_COMM_NULL;
    if (cart != MPI_COMM_NULL) {
      MPI_Cart_sub(cart, remain_ints.data(), &oracle);
      MPI_Comm_free(&cart);
    }
    EXPECT_EQ(sub.is_null(), oracle == MPI_COMM_NULL);
    if (oracle != MPI_COMM_NULL && !sub.is_null()) {
      MPI_Group ours = MPI_GROUP_NULL;
      MPI_Group theirs = MPI_GROUP_NULL;
      MPI_Comm_group(sub.transport(), &ours);
      MPI_Comm_group(oracle, &theirs);
      int result = MPI_UNEQUAL;
      MPI_Group_compare(ours, theirs, &result);
      EXPECT_EQ(result, MPI_IDENT);
      MPI_Group_free(&ours);
      MPI_Group_free(&theirs);
    }
    if (oracle != MPI_COMM_NULL) MPI_Comm_free(&oracle);
    if (!sub.is_null()) sub.free();
  }
}

TEST_F(CartSub, UnnamedProcessesGetTheNullCommunicator) {
  if (size_ == 1) GTEST_SKIP() << "needs an unnamed rank";
  naming::cart_name(comm_, Coords{size_ - 1}, std::array<bool, 1>{false},
                    Order::row_major);
  Comm sub = naming::cart_create_sub(comm_, std::array<bool, 1>{true});
  EXPECT_EQ(sub.is_null(), rank_ == size_ - 1);
  if (!sub.is_null()) {
    EXPECT_EQ(sub.size(), size_ - 1);
    EXPECT_EQ(sub.rank(), rank_);
    sub.free();
  }
}

TEST_F(CartSub, NoRemainingDimensionGivesOneProcessEach) {
  name({cart_testing::two_factors(size_), {false, true}, {1, 0}});
  Comm sub = naming::cart_create_sub(comm_, std::array<bool, 2>{false, false});
  EXPECT_EQ(sub.size(), 1);
  EXPECT_EQ(naming::cart_name(
                sub, naming::sub_geometry(naming::cart_get(comm_),
                                          std::array<bool, 2>{false, false})),
            1);
  sub.free();
}

TEST_F(CartSub, AllDimensionsRemainingKeepsTheOrder) {
  const Grid grid{cart_testing::three_factors(size_), {}, {1, 2, 0}};
  name(grid);
  Comm sub =
      naming::cart_create_sub(comm_, std::array<bool, 3>{true, true, true});
  EXPECT_EQ(sub.size(), size_);
  EXPECT_EQ(sub.rank(), rank_);
  sub.free();
}

TEST(CartSubGeometry, KeepsExtentsPeriodsAndRelativeOrder) {
  const Geometry naming(Coords{2, 3, 4}, std::array<bool, 3>{true, false, true},
                        Coords{2, 0, 1});
  const Geometry sub =
      naming::sub_geometry(naming, std::array<bool, 3>{true, false, true});
  EXPECT_TRUE(sub == Geometry(Coords{2, 4}, std::array<bool, 2>{true, true},
                              Coords{1, 0}));
}

// ---- rejected inputs: every process must throw, none may hang -----------

TEST_F(CartSub, UnnamedCommIsTopologyError) {
  EXPECT_EQ(thrown_by([&] {
              (void)naming::cart_create_sub(comm_, std::array<bool, 1>{true});
            }).error_class,
            ErrorClass::topology);
}

TEST_F(CartSub, RemainDimsOfWrongLengthIsArgError) {
  name({cart_testing::two_factors(size_), {}, {0, 1}});
  EXPECT_EQ(thrown_by([&] {
              (void)naming::cart_create_sub(comm_, std::array<bool, 1>{true});
            }).error_class,
            ErrorClass::arg);
}

TEST_F(CartSub, OneUnnamedProcessFailsEverywhere) {
  if (size_ == 1) GTEST_SKIP() << "needs two processes";
  if (rank_ != 0) name({cart_testing::two_factors(size_), {}, {0, 1}});
  EXPECT_EQ(
      thrown_by([&] {
        (void)naming::cart_create_sub(comm_, std::array<bool, 2>{true, false});
      }).error_class,
      ErrorClass::topology);
}

TEST_F(CartSub, DifferentNamingsFailEverywhere) {
  if (size_ == 1) GTEST_SKIP() << "needs two processes";
  Grid grid{cart_testing::two_factors(size_), {}, {0, 1}};
  if (rank_ == size_ - 1) grid.order = {1, 0};
  name(grid);
  EXPECT_EQ(
      thrown_by([&] {
        (void)naming::cart_create_sub(comm_, std::array<bool, 2>{true, false});
      }).error_class,
      ErrorClass::topology);
}

TEST_F(CartSub, DifferentRemainDimsFailEverywhere) {
  if (size_ == 1) GTEST_SKIP() << "needs two processes";
  name({cart_testing::two_factors(size_), {}, {0, 1}});
  const std::array<bool, 2> remain = {rank_ == 0, true};
  EXPECT_EQ(thrown_by([&] {
              (void)naming::cart_create_sub(comm_, remain);
            }).error_class,
            ErrorClass::topology);
}

TEST_F(CartSub, CommStillWorksAfterRejectedCalls) {
  EXPECT_EQ(thrown_by([&] {
              (void)naming::cart_create_sub(comm_, std::array<bool, 1>{true});
            }).error_class,
            ErrorClass::topology);
  name({cart_testing::two_factors(size_), {}, {0, 1}});
  Comm sub = naming::cart_create_sub(comm_, std::array<bool, 2>{true, true});
  EXPECT_EQ(sub.size(), size_);
  sub.free();
}

TEST_F(CartSub, NullCommIsCommError) {
  EXPECT_EQ(thrown_by([&] {
              (void)naming::cart_create_sub(Comm(), std::array<bool, 1>{true});
            }).error_class,
            ErrorClass::comm);
}

TEST(CartSubGeometry, RemainDimsOfWrongLengthIsArgError) {
  const Geometry naming(Coords{2, 3}, std::array<bool, 2>{false, false},
                        Order::row_major);
  EXPECT_EQ(thrown_by([&] {
              naming::sub_geometry(naming, std::array<bool, 3>{});
            }).error_class,
            ErrorClass::arg);
}

}  // namespace
