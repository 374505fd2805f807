// Differential test: naming::Geometry against Open MPI's MPI_Cart_coords,
// MPI_Cart_rank and MPI_Cart_shift on random grids with mixed periodicity.
// Column-major and permuted orders are checked against Open MPI's row-major
// numbering of the correspondingly permuted grid.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <numeric>
#include <random>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "naming/geometry.h"

namespace {

constexpr int kGridsPerOrder = 60;

struct RandomGrid {
  std::vector<int> dims;
  std::array<bool, 4> periods{};     // the first dims.size() are used
  std::vector<int> dimension_order;  // slowest to fastest varying

  std::span<const bool> period_span() const {
    return {periods.data(), dims.size()};
  }
};

// A grid of at most `max_size` processes with 0 to 4 dimensions. Every
// process draws the same grids (same seed), as MPI_Cart_create requires.
RandomGrid random_grid(std::mt19937& random, int max_size) {
  RandomGrid grid;
  const int ndims = std::uniform_int_distribution<int>(0, 4)(random);
  int size = 1;
  for (int i = 0; i < ndims; ++i) {
    const int extent = std::uniform_int_distribution<int>(
        1, std::max(1, max_size / size))(random);
    grid.dims.push_back(extent);
    grid.periods[static_cast<std::size_t>(i)] =
        std::bernoulli_distribution(0.5)(random);
    size *= extent;
  }
  grid.dimension_order.resize(static_cast<std::size_t>(ndims));
  std::iota(grid.dimension_order.begin(), grid.dimension_order.end(), 0);
  std::shuffle(grid.dimension_order.begin(), grid.dimension_order.end(),
               random);
  return grid;
}

// Open MPI's view of the grid: dimensions listed slowest-varying first, so
// its row-major numbering is our numbering in `dimension_order`.
class OpenMpiCart {
 public:
  explicit OpenMpiCart(const RandomGrid& grid) : order_(grid.dimension_order) {
    std::vector<int> dims;
    std::vector<int> periods;
    for (int dim : order_) {
      dims.push_back(grid.dims[static_cast<std::size_t>(dim)]);
      periods.push_back(grid.periods[static_cast<std::size_t>(dim)] ? 1 : 0);
    }
    MPI_Cart_create(MPI_COMM_WORLD, static_cast<int>(dims.size()), dims.data(),
                    periods.data(), /*reorder=*/0, &comm_);
    if (comm_ != MPI_COMM_NULL) {
      MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    }
  }
  ~OpenMpiCart() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  OpenMpiCart(const OpenMpiCart&) = delete;
  OpenMpiCart& operator=(const OpenMpiCart&) = delete;

  bool member() const { return comm_ != MPI_COMM_NULL; }
  int rank() const {
    int rank = 0;
    MPI_Comm_rank(comm_, &rank);
    return rank;
  }

  // Coordinates indexed by our dimensions.
  std::vector<int> coords(int rank) const {
    std::vector<int> permuted(order_.size());
    MPI_Cart_coords(comm_, rank, static_cast<int>(permuted.size()),
                    permuted.data());
    return unpermute(permuted);
  }

  // MPI_Cart_rank of coordinates indexed by our dimensions; false when Open
  // MPI rejects them.
  bool rank_of(const std::vector<int>& coords, int* rank) const {
    std::vector<int> permuted;
    for (int dim : order_)
      permuted.push_back(coords[static_cast<std::size_t>(dim)]);
    return MPI_Cart_rank(comm_, permuted.data(), rank) == MPI_SUCCESS;
  }

  // MPI_Cart_shift of the calling process along our dimension `dim`.
  naming::Shift shift(int dim, int displacement) const {
    const auto position = std::find(order_.begin(), order_.end(), dim);
    const int direction = static_cast<int>(position - order_.begin());
    naming::Shift shift{};
    MPI_Cart_shift(comm_, direction, displacement, &shift.source,
                   &shift.destination);
    return {to_classic(shift.source), to_classic(shift.destination)};
  }

 private:
  static int to_classic(int rank) {
    return rank == MPI_PROC_NULL ? classic::proc_null : rank;
  }
  std::vector<int> unpermute(const std::vector<int>& permuted) const {
    std::vector<int> coords(permuted.size());
    for (std::size_t k = 0; k < order_.size(); ++k) {
      coords[static_cast<std::size_t>(order_[k])] = permuted[k];
    }
    return coords;
  }

  std::vector<int> order_;
  MPI_Comm comm_ = MPI_COMM_NULL;
};

naming::Geometry geometry_of(const RandomGrid& grid) {
  return naming::Geometry(grid.dims, grid.period_span(), grid.dimension_order);
}

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// Draws grids in one of three numbering orders (0: row-major, 1:
// column-major, 2: random permutation) and compares every query.
void compare_random_grids(int order_kind, unsigned seed) {
  std::mt19937 random(seed);
  for (int trial = 0; trial < kGridsPerOrder; ++trial) {
    RandomGrid grid = random_grid(random, world_size());
    if (order_kind == 0) {
      std::sort(grid.dimension_order.begin(), grid.dimension_order.end());
    } else if (order_kind == 1) {
      std::sort(grid.dimension_order.rbegin(), grid.dimension_order.rend());
    }
    const naming::Geometry geometry = geometry_of(grid);
    if (order_kind == 1) {
      EXPECT_EQ(geometry, naming::Geometry(grid.dims, grid.period_span(),
                                           naming::Order::column_major));
    }
    const OpenMpiCart cart(grid);
    if (!cart.member()) continue;
    SCOPED_TRACE(testing::Message() << "trial " << trial);

    for (int rank = 0; rank < geometry.size(); ++rank) {
      ASSERT_EQ(geometry.coordinates(rank), cart.coords(rank)) << rank;
    }

    // MPI_Cart_rank on coordinates inside and outside the grid.
    std::uniform_int_distribution<int> step(-9, 9);
    for (int sample = 0; sample < 20; ++sample) {
      std::vector<int> coords;
      for (int extent : grid.dims) {
        coords.push_back(std::uniform_int_distribution<int>(
            -2 * extent, 3 * extent)(random));
      }
      int expected = 0;
      if (cart.rank_of(coords, &expected)) {
        EXPECT_EQ(geometry.rank(coords), expected);
      } else {
        EXPECT_THROW(geometry.rank(coords), classic::Error);
      }
    }

    // MPI_Cart_shift of the calling process along every dimension.
    for (int dim = 0; dim < geometry.ndims(); ++dim) {
      const int displacement = step(random);
      std::vector<int> offset(static_cast<std::size_t>(geometry.ndims()), 0);
      offset[static_cast<std::size_t>(dim)] = displacement;
      const naming::Shift ours = geometry.relative_shift(cart.rank(), offset);
      const naming::Shift theirs = cart.shift(dim, displacement);
      EXPECT_EQ(ours.source, theirs.source) << "dim " << dim;
      EXPECT_EQ(ours.destination, theirs.destination) << "dim " << dim;
    }
  }
}

TEST(GeometryVsOpenMpi, RowMajorMatchesCartFunctions) {
  compare_random_grids(0, 20261121);
}

TEST(GeometryVsOpenMpi, ColumnMajorMatchesReversedCartFunctions) {
  compare_random_grids(1, 7);
}

TEST(GeometryVsOpenMpi, PermutedOrderMatchesPermutedCartFunctions) {
  compare_random_grids(2, 1234);
}

}  // namespace
