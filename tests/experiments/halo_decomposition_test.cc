// Tests of the blocked grids' MPI-free decomposition: blocks of an N x N
// grid over a process grid, the regions of Figure 1's datatypes in the
// local array, and the neighbour lists that alltoallw takes.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "classic/base/error.h"
#include "experiments/halo/decomposition.h"
#include "experiments/halo/implementation.h"
#include "tests/testing/errors.h"

namespace {

using halo::Block;
using halo::Offset;
using halo::Piece;
using halo::Region;

TEST(Split, NearEqualPartsFirstOnesLonger) {
  EXPECT_EQ(halo::split(10, 3, 0).first, 0);
  EXPECT_EQ(halo::split(10, 3, 0).length, 4);
  EXPECT_EQ(halo::split(10, 3, 1).first, 4);
  EXPECT_EQ(halo::split(10, 3, 1).length, 3);
  EXPECT_EQ(halo::split(10, 3, 2).first, 7);
  EXPECT_EQ(halo::split(10, 3, 2).length, 3);
}

TEST(BlockOf, CoversTheGridOnce) {
  const std::array<int, 2> dims{3, 2};
  std::vector<int> covered(11 * 11, 0);
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 2; ++c) {
      const Block b = halo::block_of(11, dims, std::array{r, c});
      for (int i = b.row0; i < b.row0 + b.rows; ++i) {
        for (int j = b.column0; j < b.column0 + b.columns; ++j) {
          covered[static_cast<std::size_t>(i * 11 + j)] += 1;
        }
      }
    }
  }
  EXPECT_EQ(covered, std::vector<int>(11 * 11, 1));
  EXPECT_EQ(halo::block_of(11, dims, std::array{2, 1}), (Block{8, 6, 3, 5}));
}

TEST(BlockOf, RefusesAGridSmallerThanTheProcessGrid) {
  EXPECT_EQ(orthocomm_test::thrown_class([] {
              halo::block_of(2, std::array{3, 1}, std::array{0, 0});
            }),
            classic::ErrorClass::arg);
}

// Figure 1's displacements for an n x n interior in (n+2) x (n+2):
// senddisp[0] = 1*(n+2)+n (COL), recvdisp[0] = 1*(n+2)+n+1 (COL) for
// target (0,1); senddisp[2] = 1*(n+2)+1 (ROW), recvdisp[2] = 1 (ROW) for
// target (-1,0); and the corner pair senddisp[4] = n*(n+2)+1, recvdisp[4] =
// (n+1)*(n+2) (COR), which are the south-west corner and halo corner: the
// offset (1,-1), not the figure's target[4] = (-1,1).
TEST(Regions, AreFigureOnesDisplacements) {
  const int n = 5;
  EXPECT_EQ(halo::edge(n, n, {0, 1}), (Region{Piece::column, 1 * (n + 2) + n}));
  EXPECT_EQ(halo::halo_region(n, n, {0, 1}),
            (Region{Piece::column, 1 * (n + 2) + n + 1}));
  EXPECT_EQ(halo::edge(n, n, {-1, 0}), (Region{Piece::row, 1 * (n + 2) + 1}));
  EXPECT_EQ(halo::halo_region(n, n, {-1, 0}), (Region{Piece::row, 1}));
  EXPECT_EQ(halo::edge(n, n, {1, -1}), (Region{Piece::corner, n * (n + 2) + 1}));
  EXPECT_EQ(halo::halo_region(n, n, {1, -1}),
            (Region{Piece::corner, (n + 1) * (n + 2)}));
}

TEST(Regions, RectangularBlocks) {
  // 2 x 4 interior in a 4 x 6 array.
  EXPECT_EQ(halo::edge(2, 4, {1, 0}), (Region{Piece::row, 2 * 6 + 1}));
  EXPECT_EQ(halo::halo_region(2, 4, {1, 0}), (Region{Piece::row, 3 * 6 + 1}));
  EXPECT_EQ(halo::edge(2, 4, {0, -1}), (Region{Piece::column, 6 + 1}));
  EXPECT_EQ(halo::halo_region(2, 4, {0, -1}), (Region{Piece::column, 6}));
  EXPECT_EQ(halo::edge(2, 4, {-1, 1}), (Region{Piece::corner, 6 + 4}));
  EXPECT_EQ(halo::halo_region(2, 4, {-1, 1}), (Region{Piece::corner, 5}));
}

TEST(MooreNeighbours, DestinationsAtPlusSourcesAtMinus) {
  // Ranks 10 + i at +kMoore[i], 20 + i at -kMoore[i].
  std::array<int, 8> plus{};
  std::array<int, 8> minus{};
  for (int i = 0; i < 8; ++i) {
    plus[static_cast<std::size_t>(i)] = 10 + i;
    minus[static_cast<std::size_t>(i)] = 20 + i;
  }
  const halo::Neighbours n = halo::moore_neighbours(plus, minus);
  EXPECT_EQ(n.destinations, (std::vector{10, 11, 12, 13, 14, 15, 16, 17}));
  EXPECT_EQ(n.sources, (std::vector{20, 21, 22, 23, 24, 25, 26, 27}));
  EXPECT_EQ(n.destination_offsets, (std::vector{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(MooreNeighbours, OffGridNeighboursAreLeftOut) {
  // The north-west corner of a mesh: only east, south and south-east.
  const std::array<int, 8> plus{1, -2, -2, 3, -2, 4, -2, -2};
  // -kMoore[i] is west, east, south, north, south-west, north-west,
  // north-east, south-east.
  const std::array<int, 8> minus{-2, 1, 3, -2, -2, -2, -2, 4};
  const halo::Neighbours n = halo::moore_neighbours(plus, minus);
  EXPECT_EQ(n.destinations, (std::vector{1, 3, 4}));
  EXPECT_EQ(n.destination_offsets, (std::vector{0, 3, 5}));
  EXPECT_EQ(n.sources, (std::vector{1, 3, 4}));
  EXPECT_EQ(n.source_offsets, (std::vector{1, 2, 7}));
}

TEST(Implementations, NamesRoundTrip) {
  const auto all = halo::all_implementations();
  ASSERT_EQ(all.size(), 8u);
  EXPECT_EQ(halo::name(all[0]), "openmpi");
  EXPECT_EQ(halo::name(all[1]), "openmpi-persistent");
  EXPECT_EQ(halo::name(all[2]), "ortho-direct");
  EXPECT_EQ(halo::name(all[5]), "ortho-combining-persistent");
  for (const halo::Implementation& implementation : all) {
    EXPECT_EQ(halo::implementation_named(halo::name(implementation)),
              implementation);
  }
  EXPECT_FALSE(halo::implementation_named("ortho"));
}

}  // namespace
