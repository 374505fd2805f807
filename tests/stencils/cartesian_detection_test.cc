// The collective Cartesianness check on the world communicator: stencil
// neighbourhoods on tori and meshes are recognised (in any neighbour order),
// and one deviating process makes every process answer "no".
#include "stencils/cartesian_detection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <random>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "naming/geometry.h"
#include "stencils/cartesianness.h"
#include "stencils/neighborhood.h"
#include "tests/testing/errors.h"

namespace {

using orthocomm_test::expect_error_class;
using stencils::Metric;

// A 2-d grid of exactly `processes` points (a p x q with p >= q).
naming::Geometry grid_of(int processes, bool periodic) {
  int rows = processes;
  int columns = 1;
  for (int q = 1; q * q <= processes; ++q) {
    if (processes % q == 0) {
      rows = processes / q;
      columns = q;
    }
  }
  const std::array<int, 2> dims{rows, columns};
  const std::array<bool, 2> periods{periodic, periodic};
  return naming::Geometry(dims, periods, naming::Order::row_major);
}

// The ranks at -o for every offset o of the whole stencil, i.e. the processes
// that have this one as a target (dropping those off the grid).
std::vector<int> sources_of(const naming::Geometry& geometry, int rank,
                            Metric metric, int depth) {
  const stencils::Stencil offsets =
      stencils::cart_stencil(geometry.ndims(), metric, 1, depth);
  std::vector<int> sources;
  for (int i = 0; i < offsets.size(); ++i) {
    std::vector<int> negated(offsets.offset(i).begin(),
                             offsets.offset(i).end());
    for (int& component : negated) component = -component;
    const int source = geometry.relative_rank(rank, negated);
    if (source >= 0) sources.push_back(source);
  }
  return sources;
}

// The offsets of `stencil` that some grid point can take without leaving a
// non-periodic dimension.
stencils::Stencil reachable(const naming::Geometry& geometry,
                            const stencils::Stencil& stencil) {
  stencils::Stencil result(stencil.ndims());
  for (int i = 0; i < stencil.size(); ++i) {
    bool fits = true;
    for (int k = 0; k < geometry.ndims(); ++k) {
      const int extent = geometry.dims()[static_cast<std::size_t>(k)];
      const int component = stencil.offset(i)[static_cast<std::size_t>(k)];
      fits = fits && (geometry.periodic(k) || std::abs(component) < extent);
    }
    if (fits) result.push_back(stencil.offset(i));
  }
  return result;
}

// Every slot map entry names the own neighbour at the stencil's offset.
void expect_slots_match(const naming::Geometry& geometry, int rank,
                        const stencils::CartesianNeighborhood& found,
                        const std::vector<int>& targets) {
  for (int i = 0; i < found.targets.size(); ++i) {
    const int expected = geometry.relative_rank(rank, found.targets.offset(i));
    const int slot = found.target_slots[static_cast<std::size_t>(i)];
    if (expected < 0) {
      EXPECT_EQ(slot, -1) << "offset " << i << " leaves the grid";
    } else {
      ASSERT_GE(slot, 0) << "offset " << i;
      EXPECT_EQ(targets[static_cast<std::size_t>(slot)], expected);
    }
  }
}

class CartesianDetection : public testing::TestWithParam<bool> {
 protected:
  classic::Comm world_ = classic::Comm::world();
};

TEST_P(CartesianDetection, MooreAndVonNeumannStencilsAreCartesian) {
  const naming::Geometry geometry = grid_of(world_.size(), GetParam());
  const int rank = world_.rank();
  for (Metric metric : {Metric::chebyshev, Metric::manhattan}) {
    for (int depth : {1, 2}) {
      const std::vector<int> targets =
          stencils::cart_neighbor_ranks(geometry, rank, metric, 1, depth);
      const std::vector<int> sources =
          sources_of(geometry, rank, metric, depth);
      const auto found =
          stencils::detect_cartesian(world_, geometry, targets, sources);
      ASSERT_TRUE(found.has_value()) << "depth " << depth;
      // The whole stencil, also where no single process sees all of it.
      EXPECT_EQ(stencils::canonical_sorted(geometry, found->targets),
                stencils::canonical_sorted(
                    geometry, reachable(geometry, stencils::cart_stencil(
                                                      2, metric, 1, depth))));
      expect_slots_match(geometry, rank, *found, targets);
    }
  }
}

TEST_P(CartesianDetection, AnyNeighbourOrderIsCartesian) {
  const naming::Geometry geometry = grid_of(world_.size(), GetParam());
  const int rank = world_.rank();
  std::vector<int> targets =
      stencils::cart_neighbor_ranks(geometry, rank, Metric::chebyshev, 1, 1);
  std::vector<int> sources = sources_of(geometry, rank, Metric::chebyshev, 1);
  std::mt19937 random(static_cast<unsigned>(rank) + 11);
  std::shuffle(targets.begin(), targets.end(), random);
  std::shuffle(sources.begin(), sources.end(), random);
  const auto found =
      stencils::detect_cartesian(world_, geometry, targets, sources);
  ASSERT_TRUE(found.has_value());
  expect_slots_match(geometry, rank, *found, targets);
}

TEST_P(CartesianDetection, OneDeviatingProcessMakesEveryoneSayNo) {
  if (world_.size() < 4) GTEST_SKIP() << "needs a grid with distinct rows";
  const naming::Geometry geometry = grid_of(world_.size(), GetParam());
  const int rank = world_.rank();
  std::vector<int> targets =
      stencils::cart_neighbor_ranks(geometry, rank, Metric::manhattan, 1, 1);
  const std::vector<int> sources =
      sources_of(geometry, rank, Metric::manhattan, 1);
  // The last process forgets one of its targets.
  if (rank == world_.size() - 1) targets.pop_back();
  EXPECT_FALSE(stencils::detect_cartesian(world_, geometry, targets, sources)
                   .has_value());
}

TEST_P(CartesianDetection, ProcessesBeyondTheGridTakeNoPart) {
  if (world_.size() < 2) GTEST_SKIP() << "needs a process beyond the grid";
  // A ring of all but the last process; the last one is unnamed.
  const std::array<int, 1> dims{world_.size() - 1};
  const std::array<bool, 1> periods{GetParam()};
  const naming::Geometry ring(dims, periods, naming::Order::row_major);
  const int rank = world_.rank();
  std::vector<int> targets;
  std::vector<int> sources;
  if (rank < ring.size()) {
    targets =
        stencils::cart_neighbor_ranks(ring, rank, Metric::manhattan, 1, 1);
    sources = sources_of(ring, rank, Metric::manhattan, 1);
  }
  EXPECT_TRUE(
      stencils::detect_cartesian(world_, ring, targets, sources).has_value());

  // ... unless it has neighbours.
  if (rank == ring.size()) targets = {0};
  EXPECT_FALSE(
      stencils::detect_cartesian(world_, ring, targets, sources).has_value());
}

INSTANTIATE_TEST_SUITE_P(TorusAndMesh, CartesianDetection, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& info) {
                           return info.param ? "torus" : "mesh";
                         });

TEST(CartesianDetectionErrors, NeighbourOutsideTheCommunicatorIsARankError) {
  const classic::Comm world = classic::Comm::world();
  const naming::Geometry geometry = grid_of(world.size(), true);
  const std::vector<int> targets{world.size()};
  expect_error_class(
      [&] { (void)stencils::detect_cartesian(world, geometry, targets, {}); },
      classic::ErrorClass::rank);
}

TEST(CartesianDetectionErrors, GridLargerThanTheCommunicatorIsADimsError) {
  const classic::Comm world = classic::Comm::world();
  const naming::Geometry geometry = grid_of(world.size() + 1, true);
  expect_error_class(
      [&] { (void)stencils::detect_cartesian(world, geometry, {}, {}); },
      classic::ErrorClass::dims);
}

TEST(CartesianDetectionErrors, NullCommunicatorIsACommError) {
  const naming::Geometry geometry = grid_of(1, true);
  expect_error_class(
      [&] {
        (void)stencils::detect_cartesian(classic::Comm(), geometry, {}, {});
      },
      classic::ErrorClass::comm);
}

}  // namespace
