// Differential tests: classic's Cartesian topologies against Open MPI's
// MPI_Cart_create (reorder = 0), MPI_Cart_map, MPI_Cartdim_get,
// MPI_Cart_get, MPI_Cart_coords, MPI_Cart_rank, MPI_Cart_shift and
// MPI_Cart_sub on random grids. Every process draws from the same seed, so
// all agree on the grids; displacements stay within what Open MPI computes
// without int overflow (it adds them to a coordinate in int).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/comm/comm.h"
#include "classic/groups/group.h"
#include "classic/topology/cartesian.h"
#include "tests/classic/testing/testing.h"

namespace classic {
namespace {

constexpr unsigned kSeed = 0xca27u;
constexpr int kGrids = 150;
constexpr int kShiftsPerDimension = 12;
constexpr int kWrappedRanks = 20;

using testing::mpi_world_ranks;
using testing::world_size;

int uniform(std::mt19937& random, int low, int high) {
  return std::uniform_int_distribution<int>(low, high)(random);
}

constexpr std::size_t kMostDims = 4;

// A grid of at most kMostDims dimensions. Flags live in std::array<bool>, as
// std::vector<bool> has no contiguous storage to view as a span.
struct Grid {
  std::vector<int> dims;
  std::array<bool, kMostDims> periods{};

  std::span<const bool> period_span() const {
    return {periods.data(), dims.size()};
  }
  // MPI's arrays, padded so that none is empty.
  std::vector<int> mpi_dims() const {
    std::vector<int> values = dims;
    values.push_back(1);
    return values;
  }
  std::vector<int> mpi_periods() const {
    std::vector<int> values(periods.begin(), periods.begin() + dims.size());
    values.push_back(0);
    return values;
  }
  int ndims() const { return static_cast<int>(dims.size()); }
  int size() const {
    return std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<>());
  }
  std::string text() const {
    std::ostringstream out;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      out << (i ? " x " : "") << dims[i] << (periods[i] ? "p" : "");
    }
    return dims.empty() ? "0-d" : out.str();
  }
};

// 1-4 dimensions (sometimes 0) whose product is at most the world size:
// each extent is drawn up to what the remaining processes allow, then the
// dimensions are shuffled so large extents are not always first.
Grid random_grid(std::mt19937& random) {
  Grid grid;
  const int ndims = uniform(random, 0, 9) == 0 ? 0 : uniform(random, 1, 4);
  int room = world_size();
  for (int i = 0; i < ndims; ++i) {
    const int extent = uniform(random, 1, room);
    grid.dims.push_back(extent);
    room /= extent;
  }
  std::shuffle(grid.dims.begin(), grid.dims.end(), random);
  for (int i = 0; i < ndims; ++i) {
    grid.periods[static_cast<std::size_t>(i)] = uniform(random, 0, 1) == 1;
  }
  return grid;
}

int from_mpi_rank(int rank) {
  if (rank == MPI_PROC_NULL) return proc_null;
  if (rank == MPI_UNDEFINED) return undefined;
  return rank;
}

// cartdim_get and cart_get of both communicators.
void expect_same_grid(const Comm& ours, MPI_Comm theirs) {
  int ndims = -1;
  MPI_Cartdim_get(theirs, &ndims);
  ASSERT_EQ(cartdim_get(ours), ndims);
  const auto n = static_cast<std::size_t>(ndims);
  std::vector<int> dims(n + 1), periods(n + 1), coords(n + 1);
  MPI_Cart_get(theirs, ndims, dims.data(), periods.data(), coords.data());
  dims.resize(n);
  periods.resize(n);
  coords.resize(n);
  const CartInfo info = cart_get(ours);
  EXPECT_EQ(info.dims, dims);
  EXPECT_EQ(std::vector<int>(info.periods.begin(), info.periods.end()),
            periods);
  EXPECT_EQ(info.coords, coords);
}

// cart_coords of every rank, cart_rank of every grid point and of wrapped
// points in the periodic dimensions.
void expect_same_numbering(const Comm& ours, MPI_Comm theirs, const Grid& grid,
                           std::mt19937& random) {
  const int ndims = static_cast<int>(grid.dims.size());
  std::vector<int> coords(grid.dims.size() + 1);
  for (int rank = 0; rank < grid.size(); ++rank) {
    MPI_Cart_coords(theirs, rank, ndims, coords.data());
    const std::vector<int> expected(coords.begin(), coords.begin() + ndims);
    EXPECT_EQ(cart_coords(ours, rank), expected) << "rank " << rank;
    int mpi_rank = -1;
    MPI_Cart_rank(theirs, coords.data(), &mpi_rank);
    EXPECT_EQ(cart_rank(ours, expected), mpi_rank);
  }
  for (int round = 0; round < kWrappedRanks; ++round) {
    std::vector<int> point(grid.dims.size());
    for (std::size_t i = 0; i < point.size(); ++i) {
      point[i] = grid.periods[i] ? uniform(random, -1000 * grid.dims[i],
                                           1000 * grid.dims[i])
                                 : uniform(random, 0, grid.dims[i] - 1);
    }
    int mpi_rank = -1;
    MPI_Cart_rank(theirs, point.data(), &mpi_rank);
    EXPECT_EQ(cart_rank(ours, point), mpi_rank);
  }
}

void expect_same_shifts(const Comm& ours, MPI_Comm theirs, const Grid& grid,
                        std::mt19937& random) {
  for (int direction = 0; direction < static_cast<int>(grid.dims.size());
       ++direction) {
    const int extent = grid.dims[static_cast<std::size_t>(direction)];
    for (int round = 0; round < kShiftsPerDimension; ++round) {
      const int displacement =
          round % 3 == 0 ? uniform(random, -1'000'000'000, 1'000'000'000)
                         : uniform(random, -2 * extent - 1, 2 * extent + 1);
      int source = -1;
      int destination = -1;
      MPI_Cart_shift(theirs, direction, displacement, &source, &destination);
      const CartShift shift = cart_shift(ours, direction, displacement);
      EXPECT_EQ(shift.source, from_mpi_rank(source))
          << "direction " << direction << " displacement " << displacement;
      EXPECT_EQ(shift.destination, from_mpi_rank(destination))
          << "direction " << direction << " displacement " << displacement;
    }
  }
}

using Remain = std::array<bool, kMostDims>;

void expect_same_sub(const Comm& ours, MPI_Comm theirs, const Grid& grid,
                     const Remain& remain) {
  std::vector<int> mpi_remain(remain.begin(), remain.begin() + grid.ndims());
  mpi_remain.push_back(0);  // never an empty array
  MPI_Comm mpi_sub = MPI_COMM_NULL;
  MPI_Cart_sub(theirs, mpi_remain.data(), &mpi_sub);
  Comm sub =
      cart_sub(ours, std::span<const bool>(remain.data(), grid.dims.size()));
  ASSERT_NE(mpi_sub, MPI_COMM_NULL);
  ASSERT_FALSE(sub.is_null());
  EXPECT_EQ(sub.group().members(), mpi_world_ranks(mpi_sub));
  expect_same_grid(sub, mpi_sub);
  MPI_Comm_free(&mpi_sub);
}

Remain random_remain(std::mt19937& random) {
  Remain remain{};
  for (bool& keep : remain) keep = uniform(random, 0, 1) == 1;
  return remain;
}

// Everything that needs a grid communicator, on the processes in the grid.
// `random` is this round's own stream, so the processes left out of the
// grid, which draw nothing from it, stay in step with the others.
void expect_same_cartesian_communicator(const Comm& cart, MPI_Comm mpi_cart,
                                        const Grid& grid,
                                        std::mt19937& random) {
  EXPECT_EQ(cart.group().members(), mpi_world_ranks(mpi_cart));
  expect_same_grid(cart, mpi_cart);
  expect_same_numbering(cart, mpi_cart, grid, random);
  expect_same_shifts(cart, mpi_cart, grid, random);
  Remain none{};
  Remain all{};
  all.fill(true);
  for (const Remain& remain :
       {none, all, random_remain(random), random_remain(random)}) {
    SCOPED_TRACE("remain_dims " + std::to_string(remain[0]) +
                 std::to_string(remain[1]) + std::to_string(remain[2]) +
                 std::to_string(remain[3]));
    expect_same_sub(cart, mpi_cart, grid, remain);
  }
}

TEST(CartesianVsOpenMpi, RandomGrids) {
  std::mt19937 grids(kSeed);
  for (int round = 0; round < kGrids; ++round) {
    const Grid grid = random_grid(grids);
    SCOPED_TRACE("grid " + grid.text());
    std::vector<int> mpi_dims = grid.mpi_dims();
    std::vector<int> mpi_periods = grid.mpi_periods();

    int mpi_map = -1;
    MPI_Cart_map(MPI_COMM_WORLD, grid.ndims(), mpi_dims.data(),
                 mpi_periods.data(), &mpi_map);
    // Open MPI 4.1 returns the caller's rank even outside the grid, where
    // the standard says MPI_UNDEFINED (cf. open-mpi/ompi#11444, the same for
    // MPI_Graph_map): compare inside the grid only.
    const int map = cart_map(Comm::world(), grid.dims, grid.period_span());
    if (mpi_map < grid.size()) {
      EXPECT_EQ(map, from_mpi_rank(mpi_map));
    } else {
      EXPECT_EQ(map, undefined);
    }

    MPI_Comm mpi_cart = MPI_COMM_NULL;
    MPI_Cart_create(MPI_COMM_WORLD, grid.ndims(), mpi_dims.data(),
                    mpi_periods.data(), 0, &mpi_cart);
    Comm cart =
        cart_create(Comm::world(), grid.dims, grid.period_span(), Reorder::no);
    ASSERT_EQ(cart.is_null(), mpi_cart == MPI_COMM_NULL);
    if (cart.is_null()) continue;
    std::mt19937 random(kSeed + 1 + static_cast<unsigned>(round));
    expect_same_cartesian_communicator(cart, mpi_cart, grid, random);
    MPI_Comm_free(&mpi_cart);
  }
}

}  // namespace
}  // namespace classic
