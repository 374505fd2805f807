// The halo exchange of every implementation (Figure 1a on Open MPI, 1b on
// orthocomm, blocking and persistent, each algorithm): after an exchange
// every halo cell holds the value of the global cell it stands for (the
// other side of a torus; untouched beyond a fixed border), on both arrays,
// for uneven blocks, meshes and tori (with the repeated neighbours of
// periodic dimensions of extent 1 and 2).
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/topology/dims_create.h"
#include "experiments/halo/decomposition.h"
#include "experiments/halo/exchange.h"
#include "experiments/halo/grid.h"

namespace {

using halo::Borders;
using halo::Grid;

constexpr int kN = 7;  // uneven blocks on 2, 4 and 6 processes

double global_value(int row, int column) { return 1000.0 * row + column + 1; }

// What halo cell (row, column) of the whole grid must hold after an
// exchange: the cell it stands for, or the marker -1 past a fixed border.
double expected(int row, int column, Borders borders) {
  if (borders == Borders::periodic) {
    return global_value((row + kN) % kN, (column + kN) % kN);
  }
  if (row < 0 || row >= kN || column < 0 || column >= kN) return -1;
  return global_value(row, column);
}

// The local array: the interior from global_value, the halo -1.
Grid<double> local_array(const halo::Block& block) {
  Grid<double> array = Grid<double>::Constant(block.rows + 2,
                                              block.columns + 2, -1.0);
  for (int r = 1; r <= block.rows; ++r) {
    for (int c = 1; c <= block.columns; ++c) {
      array(r, c) = global_value(block.row0 + r - 1, block.column0 + c - 1);
    }
  }
  return array;
}

// The number of cells of `array` that differ from what they should hold.
int wrong_cells(const Grid<double>& array, const halo::Block& block,
                Borders borders) {
  int wrong = 0;
  for (int r = 0; r < block.rows + 2; ++r) {
    for (int c = 0; c < block.columns + 2; ++c) {
      const int row = block.row0 + r - 1;
      const int column = block.column0 + c - 1;
      const bool inside =
          r >= 1 && r <= block.rows && c >= 1 && c <= block.columns;
      const double want =
          inside ? global_value(row, column) : expected(row, column, borders);
      if (array(r, c) != want) ++wrong;
    }
  }
  return wrong;
}

class HaloExchange
    : public testing::TestWithParam<std::tuple<halo::Implementation, Borders>> {
};

TEST_P(HaloExchange, FillsEveryHaloCellWithItsNeighboursEdge) {
  const auto [implementation, borders] = GetParam();
  const int size = classic::Comm::world().size();
  const std::vector<int> dims = classic::dims_create(size, std::array{0, 0});
  const halo::GridSpec spec{kN, {dims[0], dims[1]}, borders};
  const auto exchange = halo::make_exchange(implementation, spec);
  const halo::Block block =
      halo::block_of(kN, dims, exchange->coordinates());
  std::array<Grid<double>, 2> arrays{local_array(block), local_array(block)};
  arrays[1] *= 2;  // a different picture in the second array
  const std::array<void*, 2> exchange_addresses{arrays[0].data(),
                                                arrays[1].data()};
  exchange->bind(block.rows, block.columns, MPI_DOUBLE, exchange_addresses);
  for (int round = 0; round < 2; ++round) {
    // Copied, not moved: a moved-in Eigen array would bring its own storage,
    // and the exchange is bound to the addresses above.
    const Grid<double> fresh = local_array(block);
    arrays[0] = fresh;
    ASSERT_EQ(arrays[0].data(), exchange_addresses[0]);
    exchange->exchange(0);
    EXPECT_EQ(wrong_cells(arrays[0], block, borders), 0)
        << halo::name(implementation) << " round " << round;
  }
  exchange->exchange(1);
  arrays[1] /= 2;  // -2 marks become -1, values their own
  EXPECT_EQ(wrong_cells(arrays[1], block, borders), 0);
  // The global check goes over all processes.
  EXPECT_EQ(exchange->allreduce(1.0, MPI_SUM), size);
  EXPECT_EQ(exchange->allreduce(classic::Comm::world().rank(), MPI_MAX),
            size - 1);
}

TEST_P(HaloExchange, ReportsItsAlgorithmAndTraffic) {
  const auto [implementation, borders] = GetParam();
  const int size = classic::Comm::world().size();
  const std::vector<int> dims = classic::dims_create(size, std::array{0, 0});
  const halo::GridSpec spec{kN, {dims[0], dims[1]}, borders};
  const auto exchange = halo::make_exchange(implementation, spec);
  const halo::Block block =
      halo::block_of(kN, dims, exchange->coordinates());
  std::array<Grid<double>, 2> arrays{local_array(block), local_array(block)};
  exchange->bind(block.rows, block.columns, MPI_DOUBLE,
                 {arrays[0].data(), arrays[1].data()});
  const halo::Traffic traffic = exchange->traffic();
  // A measured count ran an exchange of array 0; the model ran nothing.
  if (traffic.measured) {
    EXPECT_EQ(wrong_cells(arrays[0], block, borders), 0);
  }
  EXPECT_GE(traffic.messages, 0);
  EXPECT_LE(traffic.messages, 8 * 3);
  const std::string algorithm = exchange->algorithm();
  if (implementation.library == halo::Library::openmpi) {
    EXPECT_EQ(algorithm, "open-mpi");
    EXPECT_FALSE(traffic.measured);
  } else {
    EXPECT_TRUE(traffic.measured);
  }
  if (implementation.algorithm == halo::Algorithm::direct) {
    EXPECT_EQ(algorithm, "direct");
  }
  if (implementation.algorithm == halo::Algorithm::combining &&
      algorithm != "combining") {
    EXPECT_EQ(exchange->note(),
              "(combining not available for alltoallw: " + algorithm + ")");
  }
}

std::string case_name(
    const testing::TestParamInfo<std::tuple<halo::Implementation, Borders>>&
        info) {
  std::string text = halo::name(std::get<0>(info.param)) + "_" +
                     std::string(halo::to_string(std::get<1>(info.param)));
  for (char& c : text) {
    if (c == '-') c = '_';
  }
  return text;
}

INSTANTIATE_TEST_SUITE_P(
    Implementations, HaloExchange,
    testing::Combine(testing::ValuesIn(halo::all_implementations()),
                     testing::Values(Borders::fixed, Borders::periodic)),
    case_name);

}  // namespace
