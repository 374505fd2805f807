#include "stencils/neighborhood.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <set>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "tests/stencils/testing.h"
#include "tests/testing/errors.h"

namespace stencils {
namespace {

using classic::ErrorClass;
using orthocomm_test::expect_error_class;
using testing::box;
using testing::l1;
using testing::linf;
using testing::mesh;
using testing::to_vectors;
using testing::torus;
using Offsets = std::vector<std::vector<int>>;

// Oracle: filter the full box, which is already in lexicographic order.
Offsets brute_force(int ndims, Metric metric, int shadow, int depth) {
  Offsets result;
  for (const auto& offset : box(ndims, depth)) {
    const int d = metric == Metric::manhattan ? l1(offset) : linf(offset);
    if (shadow <= d && d <= depth) result.push_back(offset);
  }
  return result;
}

int power(int base, int exponent) {
  int result = 1;
  for (int k = 0; k < exponent; ++k) result *= base;
  return result;
}

TEST(CartStencilTest, MooreCountIsCubeMinusOne) {
  for (int d = 1; d <= 4; ++d) {
    for (int r = 1; r <= 3; ++r) {
      EXPECT_EQ(cart_neighbors_count(d, Metric::chebyshev, 1, r),
                power(2 * r + 1, d) - 1)
          << "d = " << d << ", r = " << r;
      EXPECT_EQ(cart_stencil(d, Metric::chebyshev, 1, r).size(),
                power(2 * r + 1, d) - 1);
    }
  }
}

TEST(CartStencilTest, VonNeumannDepthThreeIn2dHas24Neighbours) {
  EXPECT_EQ(cart_neighbors_count(2, Metric::manhattan, 1, 3), 24);
  EXPECT_EQ(cart_stencil(2, Metric::manhattan, 1, 3).size(), 24);
  // 3-d depth 1: the 6 face neighbours (D3Q7 without the centre).
  EXPECT_EQ(cart_neighbors_count(3, Metric::manhattan, 1, 1), 6);
}

TEST(CartStencilTest, MatchesBruteForceInContentAndOrder) {
  for (Metric metric : {Metric::manhattan, Metric::chebyshev}) {
    for (int d = 0; d <= 4; ++d) {
      for (int depth = 0; depth <= 3; ++depth) {
        for (int shadow = 0; shadow <= depth + 1; ++shadow) {
          const Offsets expected = brute_force(d, metric, shadow, depth);
          const Stencil stencil = cart_stencil(d, metric, shadow, depth);
          EXPECT_EQ(to_vectors(stencil), expected)
              << "d = " << d << ", shadow = " << shadow
              << ", depth = " << depth;
          EXPECT_EQ(cart_neighbors_count(d, metric, shadow, depth),
                    static_cast<int>(expected.size()));
        }
      }
    }
  }
}

TEST(CartStencilTest, DocumentedMooreOrder) {
  const Stencil stencil = cart_stencil(2, Metric::chebyshev, 1, 1);
  EXPECT_EQ(stencil,
            Stencil(2, {-1, -1, -1, 0, -1, 1, 0, -1, 0, 1, 1, -1, 1, 0, 1, 1}));
}

TEST(CartStencilTest, OffsetsAreStrictlyIncreasingHenceUnique) {
  const Offsets offsets = to_vectors(cart_stencil(3, Metric::manhattan, 0, 3));
  EXPECT_TRUE(std::is_sorted(offsets.begin(), offsets.end()));
  EXPECT_EQ(std::set<std::vector<int>>(offsets.begin(), offsets.end()).size(),
            offsets.size());
}

TEST(CartStencilTest, ShadowZeroIncludesTheProcessItself) {
  const Stencil stencil = cart_stencil(2, Metric::manhattan, 0, 1);
  EXPECT_EQ(stencil, Stencil(2, {-1, 0, 0, -1, 0, 0, 0, 1, 1, 0}));
}

TEST(CartStencilTest, ShadowRemovesTheInnerBall) {
  for (Metric metric : {Metric::manhattan, Metric::chebyshev}) {
    for (int s = 1; s <= 3; ++s) {
      const Stencil shell = cart_stencil(3, metric, s, 3);
      const Stencil expected = stencil_difference(
          cart_stencil(3, metric, 0, 3), cart_stencil(3, metric, 0, s - 1));
      EXPECT_EQ(shell, expected) << "shadow = " << s;
    }
  }
}

TEST(CartStencilTest, ShadowBeyondDepthIsEmpty) {
  EXPECT_TRUE(cart_stencil(2, Metric::chebyshev, 3, 2).empty());
  EXPECT_EQ(cart_neighbors_count(2, Metric::manhattan, 3, 2), 0);
}

TEST(CartStencilTest, ZeroDimensionsHaveOnlyTheEmptyOffset) {
  EXPECT_EQ(cart_stencil(0, Metric::chebyshev, 0, 5).size(), 1);
  EXPECT_EQ(cart_stencil(0, Metric::chebyshev, 1, 5).size(), 0);
}

TEST(CartStencilTest, ClosedFormMatchesAFormulaForLargeArguments) {
  // Manhattan 2-d shell: 4 r points at distance r, so 2 r (r + 1) in the
  // punctured ball.
  EXPECT_EQ(cart_neighbors_count(2, Metric::manhattan, 1, 30000),
            2 * 30000 * 30001);
  // A thin Chebyshev shell of a large radius fits in int.
  const long long r = 1000000;
  EXPECT_EQ(cart_neighbors_count(2, Metric::chebyshev, r, r),
            (2 * r + 1) * (2 * r + 1) - (2 * r - 1) * (2 * r - 1));
  // Depth 0 in many dimensions: only the zero offset.
  EXPECT_EQ(cart_neighbors_count(100000, Metric::manhattan, 0, 0), 1);
}

TEST(CartStencilTest, ManyDimensionsDoNotExhaustTheStack) {
  const Stencil stencil = cart_stencil(1000000, Metric::manhattan, 0, 0);
  ASSERT_EQ(stencil.size(), 1);
  EXPECT_EQ(std::count(stencil.flat().begin(), stencil.flat().end(), 0),
            1000000);
  EXPECT_EQ(cart_stencil(2000, Metric::manhattan, 1, 1).size(), 4000);
}

TEST(CartStencilTest, RejectsNegativeNdims) {
  expect_error_class([] { cart_stencil(-1, Metric::manhattan, 0, 1); },
                     ErrorClass::dims);
  expect_error_class([] { cart_neighbors_count(-1, Metric::manhattan, 0, 1); },
                     ErrorClass::dims);
}

TEST(CartStencilTest, RejectsNegativeDepth) {
  expect_error_class([] { cart_stencil(2, Metric::manhattan, 0, -1); },
                     ErrorClass::arg);
  expect_error_class([] { cart_neighbors_count(2, Metric::chebyshev, 0, -1); },
                     ErrorClass::arg);
}

TEST(CartStencilTest, RejectsNegativeShadow) {
  expect_error_class([] { cart_stencil(2, Metric::manhattan, -1, 1); },
                     ErrorClass::arg);
  expect_error_class([] { cart_neighbors_count(2, Metric::chebyshev, -1, 1); },
                     ErrorClass::arg);
}

TEST(CartStencilTest, RejectsAnInvalidMetric) {
  expect_error_class([] { cart_stencil(2, static_cast<Metric>(7), 0, 1); },
                     ErrorClass::arg);
  expect_error_class(
      [] { distance(static_cast<Metric>(7), std::vector<int>{1}); },
      ErrorClass::arg);
}

TEST(CartStencilTest, RejectsNeighbourhoodsLargerThanInt) {
  expect_error_class(
      [] { cart_neighbors_count(3, Metric::chebyshev, 0, 1000); },
      ErrorClass::count);
  expect_error_class([] { cart_stencil(2, Metric::manhattan, 0, INT_MAX); },
                     ErrorClass::count);
  expect_error_class(
      [] { cart_neighbors_count(40, Metric::chebyshev, INT_MAX, INT_MAX); },
      ErrorClass::count);
  expect_error_class(
      [] { cart_neighbors_count(INT_MAX, Metric::manhattan, 0, INT_MAX); },
      ErrorClass::count);
  // 2 * 10^5 offsets of 10^5 ints each: the count fits, the flat list not.
  EXPECT_EQ(cart_neighbors_count(100000, Metric::manhattan, 1, 1), 200000);
  expect_error_class([] { cart_stencil(100000, Metric::manhattan, 1, 1); },
                     ErrorClass::count);
}

TEST(DistanceTest, ManhattanAndChebyshev) {
  const std::vector<int> offset{3, -4, 1};
  EXPECT_EQ(distance(Metric::manhattan, offset), 8);
  EXPECT_EQ(distance(Metric::chebyshev, offset), 4);
  const std::vector<int> extreme{INT_MIN, INT_MIN};
  EXPECT_EQ(distance(Metric::manhattan, extreme), -2LL * INT_MIN);
}

TEST(StencilDifferenceTest, KeepsTheOrderOfTheFirstAndRemovesAllCopies) {
  const Stencil a(1, {3, -1, 2, -1, 0});
  const Stencil b(1, {-1, 7});
  EXPECT_EQ(stencil_difference(a, b), Stencil(1, {3, 2, 0}));
  EXPECT_EQ(stencil_difference(a, Stencil(1)), a);
  EXPECT_TRUE(stencil_difference(a, a).empty());
}

TEST(StencilDifferenceTest, RejectsDifferentNdims) {
  expect_error_class([] { stencil_difference(Stencil(1), Stencil(2)); },
                     ErrorClass::dims);
}

// ---- Rank-taking forms on a geometry. ----

TEST(CartNeighborsTest, InteriorOfAMeshGetsTheWholeStencil) {
  const auto geometry = mesh({5, 5});
  const int centre = geometry.rank(std::vector<int>{2, 2});
  const Stencil moore = cart_stencil(2, Metric::chebyshev, 1, 1);
  EXPECT_EQ(cart_neighbors(geometry, centre, Metric::chebyshev, 1, 1), moore);
  EXPECT_EQ(cart_neighbor_ranks(geometry, centre, Metric::chebyshev, 1, 1),
            geometry.allranks_relative(centre, moore.flat()));
}

TEST(CartNeighborsTest, MeshBordersDropOffsetsThatLeaveTheGrid) {
  const auto geometry = mesh({4, 3});
  for (int rank = 0; rank < geometry.size(); ++rank) {
    const auto coords = geometry.coordinates(rank);
    Offsets expected;
    for (const auto& offset : brute_force(2, Metric::manhattan, 1, 2)) {
      const int x = coords[0] + offset[0];
      const int y = coords[1] + offset[1];
      if (x >= 0 && x < 4 && y >= 0 && y < 3) expected.push_back(offset);
    }
    EXPECT_EQ(
        to_vectors(cart_neighbors(geometry, rank, Metric::manhattan, 1, 2)),
        expected)
        << "rank " << rank;
    EXPECT_EQ(cart_neighbors_count(geometry, rank, Metric::manhattan, 1, 2),
              static_cast<int>(expected.size()));
    const auto ranks =
        cart_neighbor_ranks(geometry, rank, Metric::manhattan, 1, 2);
    EXPECT_EQ(std::count(ranks.begin(), ranks.end(), classic::proc_null), 0);
  }
  // The corner of Listing 7's 9-point stencil has 3 neighbours.
  EXPECT_EQ(cart_neighbors_count(geometry, 0, Metric::chebyshev, 1, 1), 3);
}

TEST(CartNeighborsTest, SmallTorusKeepsRepeatedRanks) {
  // Extent 2: offsets -1 and +1 reach the same process; extent 1: itself.
  const auto geometry = torus({2, 1});
  const auto ranks = cart_neighbor_ranks(geometry, 0, Metric::chebyshev, 1, 1);
  ASSERT_EQ(ranks.size(), 8u);
  EXPECT_EQ(std::count(ranks.begin(), ranks.end(), 0), 2);  // (0,+-1)
  EXPECT_EQ(std::count(ranks.begin(), ranks.end(), 1), 6);
  EXPECT_EQ(cart_neighbors_count(geometry, 0, Metric::chebyshev, 1, 1), 8);
}

TEST(CartNeighborsTest, OffsetsAreNotCanonicalised) {
  const auto geometry = torus({3});
  EXPECT_EQ(cart_neighbors(geometry, 0, Metric::manhattan, 2, 2),
            Stencil(1, {-2, 2}));
  EXPECT_EQ(cart_neighbor_ranks(geometry, 0, Metric::manhattan, 2, 2),
            (std::vector<int>{1, 2}));
}

TEST(CartNeighborsTest, LargeDepthOnASmallMeshIsClipped) {
  const auto geometry = mesh({3, 3});
  EXPECT_EQ(cart_neighbors_count(geometry, 4, Metric::chebyshev, 1, INT_MAX),
            8);
  EXPECT_EQ(
      cart_neighbors(geometry, 0, Metric::manhattan, 0, INT_MAX - 1).size(), 9);
}

TEST(CartNeighborsTest, RejectsRankOutsideTheGrid) {
  const auto geometry = torus({2, 2});
  for (int rank : {-1, 4, classic::proc_null}) {
    expect_error_class(
        [&] { cart_neighbor_ranks(geometry, rank, Metric::manhattan, 1, 1); },
        ErrorClass::rank);
    expect_error_class(
        [&] { cart_neighbors_count(geometry, rank, Metric::manhattan, 1, 1); },
        ErrorClass::rank);
  }
}

TEST(CartNeighborsTest, RejectsNegativeDepthAndShadow) {
  const auto geometry = torus({3});
  expect_error_class(
      [&] { cart_neighbor_ranks(geometry, 0, Metric::manhattan, 0, -1); },
      ErrorClass::arg);
  expect_error_class(
      [&] { cart_neighbors(geometry, 0, Metric::manhattan, -1, 1); },
      ErrorClass::arg);
}

TEST(CartNeighborsTest, RejectsTooManyOnALargeTorus) {
  const auto geometry = torus({2, 2});
  expect_error_class(
      [&] { cart_neighbors_count(geometry, 0, Metric::chebyshev, 0, 100000); },
      ErrorClass::count);
}

}  // namespace
}  // namespace stencils
