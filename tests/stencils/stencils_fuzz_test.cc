// Randomized checks (fixed seed) of neighbourhood generation and of the
// Cartesianness predicate against brute-force and rank-level oracles.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "classic/base/constants.h"
#include "stencils/cartesianness.h"
#include "stencils/neighborhood.h"
#include "tests/stencils/testing.h"

namespace stencils {
namespace {

using testing::box;
using testing::from_vectors;
using testing::to_vectors;
using Offsets = std::vector<std::vector<int>>;

constexpr int kCasesPerKind = 34000;  // Three kinds: > 100000 cases.

int random_int(std::mt19937& rng, int low, int high) {
  return std::uniform_int_distribution<int>(low, high)(rng);
}

Metric random_metric(std::mt19937& rng) {
  return rng() % 2 == 0 ? Metric::manhattan : Metric::chebyshev;
}

int oracle_distance(Metric metric, const std::vector<int>& offset) {
  return metric == Metric::manhattan ? testing::l1(offset)
                                     : testing::linf(offset);
}

naming::Geometry random_grid(std::mt19937& rng, int d) {
  std::vector<int> dims(d);
  std::vector<bool> periods(d);
  for (int k = 0; k < d; ++k) {
    dims[k] = random_int(rng, 1, 4);
    periods[k] = rng() % 2 == 0;
  }
  return testing::grid(dims, periods);
}

bool on_grid(const naming::Geometry& geometry, const std::vector<int>& coords,
             std::span<const int> offset) {
  return geometry.relative_rank(geometry.rank(coords), offset) !=
         classic::proc_null;
}

TEST(StencilsFuzzTest, GenerationMatchesBruteForce) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < kCasesPerKind; ++trial) {
    const int d = random_int(rng, 0, 3);
    const Metric metric = random_metric(rng);
    const int depth = random_int(rng, 0, 2);
    const int shadow = random_int(rng, 0, 3);
    Offsets expected;
    for (const auto& offset : box(d, depth)) {
      const int distance = oracle_distance(metric, offset);
      if (shadow <= distance && distance <= depth) expected.push_back(offset);
    }
    const Stencil stencil = cart_stencil(d, metric, shadow, depth);
    ASSERT_EQ(to_vectors(stencil), expected)
        << "trial " << trial << " d " << d << " shadow " << shadow << " depth "
        << depth;
    ASSERT_EQ(cart_neighbors_count(d, metric, shadow, depth),
              static_cast<int>(expected.size()));
  }
}

TEST(StencilsFuzzTest, GridNeighboursMatchBruteForce) {
  std::mt19937 rng(2);
  for (int trial = 0; trial < kCasesPerKind; ++trial) {
    const auto geometry = random_grid(rng, random_int(rng, 1, 3));
    const int rank = random_int(rng, 0, geometry.size() - 1);
    const Metric metric = random_metric(rng);
    const int depth = random_int(rng, 0, 2);
    const int shadow = random_int(rng, 0, 2);
    const auto coords = geometry.coordinates(rank);
    Offsets expected;
    std::vector<int> ranks;
    for (const auto& offset : box(geometry.ndims(), depth)) {
      const int distance = oracle_distance(metric, offset);
      if (distance < shadow || distance > depth) continue;
      if (!on_grid(geometry, coords, offset)) continue;
      expected.push_back(offset);
      ranks.push_back(geometry.relative_rank(rank, offset));
    }
    ASSERT_EQ(to_vectors(cart_neighbors(geometry, rank, metric, shadow, depth)),
              expected)
        << "trial " << trial;
    ASSERT_EQ(cart_neighbor_ranks(geometry, rank, metric, shadow, depth),
              ranks);
    ASSERT_EQ(cart_neighbors_count(geometry, rank, metric, shadow, depth),
              static_cast<int>(ranks.size()));
  }
}

// The rank-level oracle: the neighbour multisets agree.
bool same_neighbour_ranks(const naming::Geometry& geometry, int rank,
                          const Stencil& candidate, const Stencil& own) {
  std::vector<int> expected;
  for (int i = 0; i < candidate.size(); ++i) {
    const int neighbour = geometry.relative_rank(rank, candidate.offset(i));
    if (neighbour != classic::proc_null) expected.push_back(neighbour);
  }
  std::vector<int> actual = geometry.allranks_relative(rank, own.flat());
  std::sort(expected.begin(), expected.end());
  std::sort(actual.begin(), actual.end());
  return expected == actual;
}

// own[map[i]] names the same process as candidate[i]; the map is a bijection
// onto own's slots (-1 exactly for off-grid candidate offsets).
void expect_valid_map(const naming::Geometry& geometry, int rank,
                      const Stencil& candidate, const Stencil& own,
                      const std::vector<int>& map) {
  ASSERT_EQ(static_cast<int>(map.size()), candidate.size());
  std::set<int> used;
  for (int i = 0; i < candidate.size(); ++i) {
    const int neighbour = geometry.relative_rank(rank, candidate.offset(i));
    if (neighbour == classic::proc_null) {
      ASSERT_EQ(map[i], -1);
      continue;
    }
    ASSERT_GE(map[i], 0);
    ASSERT_EQ(geometry.relative_rank(rank, own.offset(map[i])), neighbour);
    used.insert(map[i]);
  }
  ASSERT_EQ(static_cast<int>(used.size()), own.size());
}

// own = the on-grid part of candidate, spelled differently and shuffled;
// then perhaps one offset is added, dropped or changed.
Stencil own_neighbourhood(std::mt19937& rng, const naming::Geometry& geometry,
                          const std::vector<int>& coords,
                          const Stencil& candidate) {
  Offsets own;
  for (const auto& offset : to_vectors(candidate)) {
    if (!on_grid(geometry, coords, offset)) continue;
    auto spelled = offset;
    for (int k = 0; k < geometry.ndims(); ++k) {
      if (geometry.periodic(k) && rng() % 3 == 0) {
        spelled[k] += geometry.dims()[k] * random_int(rng, -2, 2);
      }
    }
    own.push_back(spelled);
  }
  std::shuffle(own.begin(), own.end(), rng);
  switch (rng() % 4) {
    case 0: {
      const Offsets pool = box(geometry.ndims(), 2);
      own.push_back(pool[rng() % pool.size()]);
      break;
    }
    case 1:
      if (!own.empty()) own.pop_back();
      break;
    case 2:
      if (!own.empty()) own[0][0] += random_int(rng, -2, 2);
      break;
    default:
      break;
  }
  return from_vectors(geometry.ndims(), own);
}

TEST(StencilsFuzzTest, PredicateAgreesWithRankMultisets) {
  std::mt19937 rng(3);
  int positives = 0;
  int negatives = 0;
  for (int trial = 0; trial < kCasesPerKind; ++trial) {
    const auto geometry = random_grid(rng, random_int(rng, 1, 3));
    const Stencil candidate = testing::random_stencil(rng, geometry.ndims(), 2,
                                                      random_int(rng, 0, 8));
    const int rank = random_int(rng, 0, geometry.size() - 1);
    const auto coords = geometry.coordinates(rank);
    const Stencil own = own_neighbourhood(rng, geometry, coords, candidate);
    const bool expected = same_neighbour_ranks(geometry, rank, candidate, own);
    ASSERT_EQ(is_cartesian_neighborhood(geometry, candidate, coords, own),
              expected)
        << "trial " << trial;
    const auto map = slot_map(geometry, candidate, coords, own);
    ASSERT_EQ(map.has_value(), expected);
    if (map) expect_valid_map(geometry, rank, candidate, own, *map);
    (expected ? positives : negatives)++;
  }
  // Both answers must be exercised.
  EXPECT_GT(positives, kCasesPerKind / 4);
  EXPECT_GT(negatives, kCasesPerKind / 10);
}

}  // namespace
}  // namespace stencils
