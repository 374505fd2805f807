#include "stencils/cartesianness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "classic/base/error.h"
#include "stencils/neighborhood.h"
#include "tests/stencils/testing.h"
#include "tests/testing/errors.h"

namespace stencils {
namespace {

using classic::ErrorClass;
using orthocomm_test::expect_error_class;
using testing::from_vectors;
using testing::mesh;
using testing::to_vectors;
using testing::torus;

// What the protocol does at process `rank`: translate its neighbour ranks
// to canonical offsets from itself.
Stencil own_offsets(const naming::Geometry& geometry, int rank,
                    const std::vector<int>& ranks) {
  Stencil own(geometry.ndims());
  for (int neighbour : ranks) {
    own.push_back(geometry.relative_coordinates(rank, neighbour));
  }
  return own;
}

TEST(CanonicalSortedTest, CanonicalisesThenSorts) {
  const auto geometry = torus({4, 5});
  const Stencil stencil(2, {3, 0, -1, 7, 2, -3});
  // (3,0) -> (-1,0); (-1,7) -> (-1,2); (2,-3) -> (2,2).
  EXPECT_EQ(canonical_sorted(geometry, stencil),
            Stencil(2, {-1, 0, -1, 2, 2, 2}));
}

TEST(CanonicalSortedTest, LeavesNonPeriodicComponents) {
  const auto geometry = testing::grid({3, 3}, {false, true});
  EXPECT_EQ(canonical_sorted(geometry, Stencil(2, {5, 2, -4, 0})),
            Stencil(2, {-4, 0, 5, -1}));
}

TEST(RestrictToGridTest, KeepsOffsetsThatStayOnTheMesh) {
  const auto geometry = mesh({3, 2});
  const Stencil moore = cart_stencil(2, Metric::chebyshev, 1, 1);
  EXPECT_EQ(restrict_to_grid(geometry, moore, std::vector<int>{0, 0}),
            Stencil(2, {0, 1, 1, 0, 1, 1}));
  EXPECT_EQ(restrict_to_grid(torus({3, 2}), moore, std::vector<int>{0, 0}),
            moore);
}

TEST(IsCartesianTest, EveryProcessOfATorusMatchesTheReference) {
  const auto geometry = torus({4, 3, 5});
  const Stencil stencil = cart_stencil(3, Metric::chebyshev, 1, 1);
  const int reference = 7;
  const Stencil candidate =
      own_offsets(geometry, reference,
                  geometry.allranks_relative(reference, stencil.flat()));
  for (int rank = 0; rank < geometry.size(); ++rank) {
    const Stencil own = own_offsets(
        geometry, rank, geometry.allranks_relative(rank, stencil.flat()));
    EXPECT_TRUE(is_cartesian_neighborhood(geometry, candidate,
                                          geometry.coordinates(rank), own));
  }
}

TEST(IsCartesianTest, OrderDoesNotMatter) {
  const auto geometry = torus({5, 5});
  const Stencil candidate(2, {1, 0, 0, 1, -1, -1});
  const Stencil own(2, {-1, -1, 1, 0, 0, 1});
  EXPECT_TRUE(is_cartesian_neighborhood(geometry, candidate,
                                        std::vector<int>{2, 3}, own));
}

TEST(IsCartesianTest, DifferentOffsetIsRejected) {
  const auto geometry = torus({5, 5});
  const Stencil candidate(2, {1, 0, 0, 1});
  EXPECT_FALSE(is_cartesian_neighborhood(
      geometry, candidate, std::vector<int>{0, 0}, Stencil(2, {1, 0, 0, -1})));
  EXPECT_FALSE(is_cartesian_neighborhood(
      geometry, candidate, std::vector<int>{0, 0}, Stencil(2, {1, 0})));
  // Same set, different multiplicities.
  EXPECT_FALSE(is_cartesian_neighborhood(torus({5}), Stencil(1, {1, 1, 2}),
                                         std::vector<int>{0},
                                         Stencil(1, {1, 2, 2})));
}

TEST(IsCartesianTest, WrappedSpellingsOfTheSameNeighbourMatch) {
  const auto geometry = torus({4});
  EXPECT_TRUE(is_cartesian_neighborhood(
      geometry, Stencil(1, {-1, 2}), std::vector<int>{1}, Stencil(1, {-2, 3})));
}

TEST(IsCartesianTest, MeshBordersCompareWithTheRestriction) {
  const auto geometry = mesh({5, 5});
  const int interior = geometry.rank(std::vector<int>{2, 2});
  ASSERT_EQ(cart_neighbors_count(geometry, interior, Metric::manhattan, 1, 2),
            12);
  const Stencil candidate = own_offsets(
      geometry, interior,
      cart_neighbor_ranks(geometry, interior, Metric::manhattan, 1, 2));
  for (int rank = 0; rank < geometry.size(); ++rank) {
    const auto ranks =
        cart_neighbor_ranks(geometry, rank, Metric::manhattan, 1, 2);
    Stencil own = own_offsets(geometry, rank, ranks);
    const auto coords = geometry.coordinates(rank);
    EXPECT_TRUE(is_cartesian_neighborhood(geometry, candidate, coords, own))
        << "rank " << rank;
    // One extra neighbour (the mirror image, or itself) breaks it.
    const int far =
        geometry.rank(std::vector<int>{4 - coords[0], 4 - coords[1]});
    own.push_back(geometry.relative_coordinates(rank, far));
    EXPECT_FALSE(is_cartesian_neighborhood(geometry, candidate, coords, own))
        << "rank " << rank;
  }
}

TEST(IsCartesianTest, MissingBorderNeighbourIsRejected) {
  const auto geometry = mesh({3, 3});
  const Stencil candidate = cart_stencil(2, Metric::chebyshev, 1, 1);
  // Corner (0,0) should have (0,1), (1,0), (1,1).
  EXPECT_TRUE(is_cartesian_neighborhood(geometry, candidate,
                                        std::vector<int>{0, 0},
                                        Stencil(2, {1, 1, 0, 1, 1, 0})));
  EXPECT_FALSE(is_cartesian_neighborhood(
      geometry, candidate, std::vector<int>{0, 0}, Stencil(2, {0, 1, 1, 0})));
}

TEST(IsCartesianTest, OwnOffsetOffTheGridMatchesNothing) {
  const auto geometry = mesh({3});
  // Hypothetical input: (-1) from coordinate 0 leaves the mesh.
  EXPECT_FALSE(is_cartesian_neighborhood(
      geometry, Stencil(1, {-1, 1}), std::vector<int>{0}, Stencil(1, {-1, 1})));
}

TEST(IsCartesianTest, ClippedReferenceGivesASafeNo) {
  // Mesh of 2 with stencil {-1, +1}: nobody sees the whole stencil; the
  // reference (rank 0) has {+1}, rank 1 has {-1}: "not Cartesian".
  const auto geometry = mesh({2});
  const Stencil candidate(1, {1});
  EXPECT_TRUE(is_cartesian_neighborhood(geometry, candidate,
                                        std::vector<int>{0}, Stencil(1, {1})));
  EXPECT_FALSE(is_cartesian_neighborhood(
      geometry, candidate, std::vector<int>{1}, Stencil(1, {-1})));
}

TEST(SlotMapTest, MapsCandidateSlotsToOwnSlots) {
  const auto geometry = mesh({3, 3});
  const Stencil candidate(2, {1, 0, -1, 0, 0, 1, 0, -1});
  const auto map = slot_map(geometry, candidate, std::vector<int>{0, 1},
                            Stencil(2, {0, -1, 1, 0, 0, 1}));
  ASSERT_TRUE(map.has_value());
  EXPECT_EQ(*map, (std::vector<int>{1, -1, 2, 0}));
}

TEST(SlotMapTest, RepeatedNeighboursPairInOrder) {
  // Torus of 2: +1 and -1 are the same neighbour.
  const auto geometry = torus({2});
  const auto map = slot_map(geometry, Stencil(1, {-1, 0, 1}),
                            std::vector<int>{0}, Stencil(1, {1, 1, 0}));
  ASSERT_TRUE(map.has_value());
  EXPECT_EQ(*map, (std::vector<int>{0, 2, 1}));
}

TEST(SlotMapTest, NulloptWhenNotCartesian) {
  const auto geometry = torus({5});
  EXPECT_FALSE(
      slot_map(geometry, Stencil(1, {1}), std::vector<int>{0}, Stencil(1, {2}))
          .has_value());
}

TEST(CartesiannessErrorsTest, RejectsNdimsMismatch) {
  const auto geometry = torus({3, 3});
  expect_error_class(
      [&] {
        is_cartesian_neighborhood(geometry, Stencil(1), std::vector<int>{0, 0},
                                  Stencil(2));
      },
      ErrorClass::dims);
  expect_error_class(
      [&] {
        slot_map(geometry, Stencil(2), std::vector<int>{0, 0}, Stencil(3));
      },
      ErrorClass::dims);
  expect_error_class([&] { canonical_sorted(geometry, Stencil(1)); },
                     ErrorClass::dims);
}

TEST(CartesiannessErrorsTest, RejectsCoordsOfWrongLength) {
  const auto geometry = torus({3, 3});
  expect_error_class(
      [&] { restrict_to_grid(geometry, Stencil(2), std::vector<int>{0}); },
      ErrorClass::arg);
}

TEST(CartesiannessErrorsTest, RejectsCoordsOffTheGrid) {
  const auto geometry = testing::grid({3, 3}, {true, false});
  for (const auto& coords : {std::vector<int>{3, 0}, std::vector<int>{0, -1}}) {
    expect_error_class(
        [&] {
          is_cartesian_neighborhood(geometry, Stencil(2), coords, Stencil(2));
        },
        ErrorClass::rank);
  }
}

}  // namespace
}  // namespace stencils
