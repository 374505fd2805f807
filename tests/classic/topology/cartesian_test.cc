// Tests of classic's Cartesian topologies (MPI-1 section 6.5) at any number
// of processes: constructors, inquiry, shifts, sub-grids, topo_test, the
// topology cache's accounting and one test per erroneous call. Expected
// values come from the standard's row-major rule written out here (division
// and remainder), never from classic itself.
#include "classic/topology/cartesian.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/comm/locality.h"
#include "classic/comm/typed_keyval.h"
#include "classic/groups/group.h"
#include "classic/intercomm/intercomm.h"
#include "classic/topology/internal/node_aware_order.h"
#include "classic/topology/internal/topology_cache.h"
#include "classic/topology/topology.h"
#include "tests/classic/testing/testing.h"

namespace classic {
namespace {

using testing::iota_vector;
using testing::thrown_class;
using testing::thrown_text;
using testing::world_rank;
using testing::world_size;

// A 2-d grid that fits the world: 2 rows once there are 4 processes.
std::array<int, 2> plane_dims() {
  const int rows = world_size() >= 4 ? 2 : 1;
  return {rows, world_size() / rows};
}

// A 3-d grid that fits the world (all of it at 1, 4 and 12 processes).
std::array<int, 3> box_dims() {
  const int n = world_size();
  if (n >= 12) return {2, 3, 2};
  if (n >= 8) return {2, 2, 2};
  if (n >= 4) return {2, 1, 2};
  if (n >= 2) return {2, 1, 1};
  return {1, 1, 1};
}

constexpr std::array<bool, 2> kPlanePeriods = {false, true};
constexpr std::array<bool, 3> kBoxPeriods = {true, false, true};

// Row-major coordinates of `rank` in a 3-d grid, written out.
std::array<int, 3> box_coords(int rank, const std::array<int, 3>& dims) {
  return {rank / (dims[1] * dims[2]), (rank / dims[2]) % dims[1],
          rank % dims[2]};
}

Comm make_plane() {
  return cart_create(Comm::world(), plane_dims(), kPlanePeriods, Reorder::no);
}

int product(std::span<const int> dims) {
  return std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<>());
}

// ---- constructors -----------------------------------------------------------

TEST(CartCreate, OneDimensionalRingOverTheWorld) {
  const std::array<int, 1> dims = {world_size()};
  const std::array<bool, 1> periods = {true};
  Comm ring = cart_create(Comm::world(), dims, periods, Reorder::no);
  ASSERT_FALSE(ring.is_null());
  EXPECT_EQ(ring.size(), world_size());
  EXPECT_EQ(ring.rank(), world_rank());
  EXPECT_EQ(ring.group().members(), iota_vector(world_size()));
  EXPECT_EQ(ring.compare(Comm::world()), Comparison::congruent);
  EXPECT_EQ(cartdim_get(ring), 1);
  const CartInfo info = cart_get(ring);
  EXPECT_EQ(info.dims, std::vector<int>{world_size()});
  EXPECT_EQ(info.periods, std::vector<bool>{true});
  EXPECT_EQ(info.coords, std::vector<int>{world_rank()});
}

TEST(CartCreate, TwoDimensionalGridIsRowMajor) {
  const std::array<int, 2> dims = plane_dims();
  Comm plane = make_plane();
  const bool in_grid = world_rank() < dims[0] * dims[1];
  ASSERT_EQ(plane.is_null(), !in_grid);
  if (!in_grid) return;
  EXPECT_EQ(plane.size(), dims[0] * dims[1]);
  EXPECT_EQ(plane.rank(), world_rank());
  EXPECT_EQ(cartdim_get(plane), 2);
  const CartInfo info = cart_get(plane);
  EXPECT_EQ(info.dims, (std::vector<int>{dims[0], dims[1]}));
  EXPECT_EQ(info.periods, (std::vector<bool>{false, true}));
  EXPECT_EQ(info.coords,
            (std::vector<int>{world_rank() / dims[1], world_rank() % dims[1]}));
}

// cart_get's std::vector<bool> periods go back into the constructors.
TEST(CartCreate, VectorOfBoolFlagsRebuildTheSameGrid) {
  Comm plane = make_plane();
  const bool in_grid = !plane.is_null();
  const std::array<int, 2> dims = plane_dims();
  // Every process of the world takes part, with the grid of make_plane().
  const std::vector<bool> periods = {false, true};
  Comm copy = cart_create(Comm::world(), dims, periods, Reorder::no);
  ASSERT_EQ(copy.is_null(), !in_grid);
  if (!in_grid) return;
  const CartInfo info = cart_get(plane);
  EXPECT_EQ(cart_get(copy).periods, info.periods);
  EXPECT_EQ(cart_map(Comm::world(), info.dims, info.periods), world_rank());
  Comm rows = cart_sub(copy, std::vector<bool>{false, true});
  EXPECT_EQ(rows.size(), dims[1]);
  EXPECT_EQ(cart_get(rows).periods, std::vector<bool>{true});
}

TEST(CartCreate, ProcessesBeyondTheGridGetTheNullCommunicator) {
  const int grid = (world_size() + 1) / 2;
  const std::array<int, 1> dims = {grid};
  const std::array<bool, 1> periods = {false};
  Comm line = cart_create(Comm::world(), dims, periods, Reorder::no);
  EXPECT_EQ(line.is_null(), world_rank() >= grid);
  if (line.is_null()) return;
  EXPECT_EQ(line.size(), grid);
  EXPECT_EQ(line.rank(), world_rank());
  EXPECT_EQ(line.group().members(), iota_vector(grid));
}

TEST(CartCreate, ReorderYesNumbersNodeAwareOrKeepsTheIdentity) {
  // On one host (as under Bazel) Reorder::yes gives what Reorder::no must;
  // on several (tools/test.sh --hosts N) a permutation that cuts no more
  // Cartesian edges between hosts than the identity.
  const std::array<int, 2> dims = plane_dims();
  Comm plane = cart_create(Comm::world(), dims, kPlanePeriods, Reorder::yes);
  // Collective: before any process leaves.
  const classic::Locality& hosts = classic::locality(Comm::world());
  if (world_rank() >= dims[0] * dims[1]) {
    EXPECT_TRUE(plane.is_null());
    return;
  }
  ASSERT_FALSE(plane.is_null());
  const int cells = dims[0] * dims[1];
  std::vector<int> members = plane.group().members();
  if (hosts.hosts() == 1 || cells != Comm::world().size()) {
    EXPECT_EQ(members, iota_vector(cells));
    return;
  }
  // members[c]: the world rank that took cell c.
  std::vector<int> mapped(static_cast<std::size_t>(cells));
  for (int c = 0; c < cells; ++c) {
    mapped[static_cast<std::size_t>(c)] =
        hosts.host_of_rank[static_cast<std::size_t>(
            members[static_cast<std::size_t>(c)])];
  }
  EXPECT_LE(classic::internal::cartesian_edges_between_hosts(
                dims, kPlanePeriods, mapped),
            classic::internal::cartesian_edges_between_hosts(
                dims, kPlanePeriods, hosts.host_of_rank));
  std::sort(members.begin(), members.end());
  EXPECT_EQ(members, iota_vector(cells));
}

TEST(CartCreate, ZeroDimensionalGridIsRankZeroAlone) {
  Comm point = cart_create(Comm::world(), std::span<const int>(),
                           std::span<const bool>(), Reorder::no);
  ASSERT_EQ(point.is_null(), world_rank() != 0);
  if (point.is_null()) return;
  EXPECT_EQ(point.size(), 1);
  EXPECT_EQ(topo_test(point), TopologyKind::cartesian);
  EXPECT_EQ(cartdim_get(point), 0);
  const CartInfo info = cart_get(point);
  EXPECT_TRUE(info.dims.empty());
  EXPECT_TRUE(info.periods.empty());
  EXPECT_TRUE(info.coords.empty());
  EXPECT_EQ(cart_rank(point, std::span<const int>()), 0);
  EXPECT_TRUE(cart_coords(point, 0).empty());
  EXPECT_EQ(thrown_class([&] { (void)cart_shift(point, 0, 1); }),
            ErrorClass::dims);
}

TEST(CartCreate, NoAttributeOfTheOldCommunicatorPropagates) {
  Comm old = Comm::world().dup();
  const Keyval<int> keyval;
  keyval.set(old, 42);
  const std::array<int, 1> dims = {world_size()};
  const std::array<bool, 1> periods = {false};
  Comm line = cart_create(old, dims, periods, Reorder::no);
  ASSERT_FALSE(line.is_null());
  EXPECT_EQ(keyval.get(line), nullptr);
  EXPECT_NE(keyval.get(old), nullptr);
}

TEST(CartCreate, CartesianCommunicatorHasItsOwnContext) {
  Comm plane = make_plane();
  if (plane.is_null()) return;
  EXPECT_EQ(plane.compare(Comm::world()), plane.size() == world_size()
                                              ? Comparison::congruent
                                              : Comparison::unequal);
  EXPECT_NE(plane.transport(), Comm::world().transport());
}

TEST(CartMap, NumbersByIdentity) {
  for (int grid = 1; grid <= world_size(); ++grid) {
    const std::array<int, 1> dims = {grid};
    const std::array<bool, 1> periods = {true};
    EXPECT_EQ(cart_map(Comm::world(), dims, periods),
              world_rank() < grid ? world_rank() : undefined);
  }
}

// ---- topo_test ------------------------------------------------------------

TEST(TopoTest, CartesianAfterCartCreateAndDup) {
  Comm plane = make_plane();
  if (plane.is_null()) return;
  EXPECT_EQ(topo_test(plane), TopologyKind::cartesian);
  Comm copy = plane.dup();
  EXPECT_EQ(topo_test(copy), TopologyKind::cartesian);
  const CartInfo original = cart_get(plane);
  const CartInfo duplicated = cart_get(copy);
  EXPECT_EQ(duplicated.dims, original.dims);
  EXPECT_EQ(duplicated.periods, original.periods);
  EXPECT_EQ(duplicated.coords, original.coords);
}

TEST(TopoTest, UndefinedAfterSplitAndCreateOfACartesianCommunicator) {
  Comm plane = make_plane();
  if (plane.is_null()) return;
  Comm split = plane.split(0, plane.rank());
  EXPECT_EQ(topo_test(split), TopologyKind::undefined);
  Comm created = plane.create(plane.group());
  EXPECT_EQ(topo_test(created), TopologyKind::undefined);
}

TEST(TopoTest, UndefinedForPlainCommunicators) {
  EXPECT_EQ(topo_test(Comm::world()), TopologyKind::undefined);
  EXPECT_EQ(topo_test(Comm::self()), TopologyKind::undefined);
  Comm copy = Comm::world().dup();
  EXPECT_EQ(topo_test(copy), TopologyKind::undefined);
}

TEST(TopoTest, NoTopologyLeaksAndNoneIsDestroyedTwice) {
  (void)Comm::world();
  (void)Comm::self();
  const std::size_t topologies = internal::live_topology_count();
  const std::size_t comms = Comm::live_count();
  {
    Comm plane = make_plane();
    if (!plane.is_null()) {
      Comm copy = plane.dup();
      const std::array<bool, 2> rows = {false, true};
      Comm row = cart_sub(copy, rows);
      EXPECT_EQ(internal::live_topology_count(), topologies + 3);
      copy.free();
      EXPECT_EQ(internal::live_topology_count(), topologies + 2);
      Comm row_copy = row;  // a second handle: one topology still
      row.free();
      EXPECT_EQ(internal::live_topology_count(), topologies + 1);
    }
    // `plane` goes with its last handle.
  }
  EXPECT_EQ(internal::live_topology_count(), topologies);
  EXPECT_EQ(Comm::live_count(), comms);
}

// ---- inquiry ------------------------------------------------------------

TEST(CartQueries, CoordsAndRankOfEveryProcess) {
  const std::array<int, 2> dims = plane_dims();
  Comm plane = make_plane();
  if (plane.is_null()) return;
  for (int rank = 0; rank < plane.size(); ++rank) {
    const std::vector<int> coords = {rank / dims[1], rank % dims[1]};
    EXPECT_EQ(cart_coords(plane, rank), coords);
    EXPECT_EQ(cart_rank(plane, coords), rank);
  }
}

TEST(CartQueries, RankWrapsPeriodicCoordinates) {
  const std::array<int, 2> dims = plane_dims();
  Comm plane = make_plane();
  if (plane.is_null()) return;
  for (int row = 0; row < dims[0]; ++row) {
    for (const int turns : {-1000, -1, 1, 7, INT_MAX / dims[1] - 1}) {
      const int column = 1 % dims[1];
      const std::array<int, 2> coords = {row, column + turns * dims[1]};
      EXPECT_EQ(cart_rank(plane, coords), row * dims[1] + column);
    }
  }
}

TEST(CartShift, NeighboursAlongBothDimensions) {
  const std::array<int, 2> dims = plane_dims();
  Comm plane = make_plane();
  if (plane.is_null()) return;
  const int row = plane.rank() / dims[1];
  const int column = plane.rank() % dims[1];
  for (int displacement = -3; displacement <= 3; ++displacement) {
    // Dimension 0 is not periodic: proc_null off the grid.
    const auto in_rows = [&](int r) {
      return r >= 0 && r < dims[0] ? r * dims[1] + column : proc_null;
    };
    const CartShift vertical = cart_shift(plane, 0, displacement);
    EXPECT_EQ(vertical.destination, in_rows(row + displacement));
    EXPECT_EQ(vertical.source, in_rows(row - displacement));
    // Dimension 1 is periodic: wraps.
    const auto around = [&](int c) {
      return row * dims[1] + ((c % dims[1]) + dims[1]) % dims[1];
    };
    const CartShift horizontal = cart_shift(plane, 1, displacement);
    EXPECT_EQ(horizontal.destination, around(column + displacement));
    EXPECT_EQ(horizontal.source, around(column - displacement));
  }
}

// ---- cart_sub -------------------------------------------------------------

// Checks cart_sub(box, remain) against the grid written out: the members are
// the box ranks that share this process's dropped coordinates, in increasing
// order (row-major over all dimensions orders them row-major over the kept
// ones).
void expect_sub_grid(const Comm& box, const std::array<bool, 3>& remain) {
  const std::array<int, 3> dims = box_dims();
  const std::array<int, 3> mine = box_coords(box.rank(), dims);
  std::vector<int> members;
  for (int rank = 0; rank < box.size(); ++rank) {
    const std::array<int, 3> theirs = box_coords(rank, dims);
    bool same_sub_grid = true;
    for (std::size_t i = 0; i < 3; ++i) {
      if (!remain[i] && theirs[i] != mine[i]) same_sub_grid = false;
    }
    if (same_sub_grid) members.push_back(rank);  // box rank == world rank
  }
  std::vector<int> kept_dims;
  std::vector<bool> kept_periods;
  std::vector<int> kept_coords;
  for (std::size_t i = 0; i < 3; ++i) {
    if (!remain[i]) continue;
    kept_dims.push_back(dims[i]);
    kept_periods.push_back(kBoxPeriods[i]);
    kept_coords.push_back(mine[i]);
  }
  Comm sub = cart_sub(box, remain);
  ASSERT_FALSE(sub.is_null());
  EXPECT_EQ(sub.group().members(), members);
  EXPECT_EQ(topo_test(sub), TopologyKind::cartesian);
  EXPECT_EQ(cartdim_get(sub), static_cast<int>(kept_dims.size()));
  const CartInfo info = cart_get(sub);
  EXPECT_EQ(info.dims, kept_dims);
  EXPECT_EQ(info.periods, kept_periods);
  EXPECT_EQ(info.coords, kept_coords);
  EXPECT_EQ(sub.size(), product(kept_dims));
}

TEST(CartSub, EveryChoiceOfKeptDimensions) {
  const std::array<int, 3> dims = box_dims();
  Comm box = cart_create(Comm::world(), dims, kBoxPeriods, Reorder::no);
  if (box.is_null()) return;
  for (int mask = 0; mask < 8; ++mask) {
    const std::array<bool, 3> remain = {(mask & 4) != 0, (mask & 2) != 0,
                                        (mask & 1) != 0};
    SCOPED_TRACE("remain_dims mask " + std::to_string(mask));
    expect_sub_grid(box, remain);
  }
}

TEST(CartSub, AllDimensionsDroppedGiveZeroDimensionalSelf) {
  Comm plane = make_plane();
  if (plane.is_null()) return;
  const std::array<bool, 2> none = {false, false};
  Comm alone = cart_sub(plane, none);
  ASSERT_FALSE(alone.is_null());
  EXPECT_EQ(alone.size(), 1);
  EXPECT_EQ(alone.group().members(), std::vector<int>{world_rank()});
  EXPECT_EQ(topo_test(alone), TopologyKind::cartesian);
  EXPECT_EQ(cartdim_get(alone), 0);
  // And again from the zero-dimensional grid.
  Comm still_alone = cart_sub(alone, std::span<const bool>());
  EXPECT_EQ(still_alone.size(), 1);
  EXPECT_EQ(cartdim_get(still_alone), 0);
}

TEST(CartSub, SubGridOfASubGridAndItsShifts) {
  const std::array<int, 3> dims = box_dims();
  Comm box = cart_create(Comm::world(), dims, kBoxPeriods, Reorder::no);
  if (box.is_null()) return;
  const std::array<bool, 3> drop_middle = {true, false, true};
  Comm slab = cart_sub(box, drop_middle);
  const std::array<bool, 2> keep_last = {false, true};
  Comm line = cart_sub(slab, keep_last);
  const std::array<int, 3> mine = box_coords(box.rank(), dims);
  EXPECT_EQ(line.size(), dims[2]);
  EXPECT_EQ(line.rank(), mine[2]);
  EXPECT_EQ(cart_get(line).periods, std::vector<bool>{true});
  // Periodic line: the destination of a +1 shift is the next box process.
  const CartShift shift = cart_shift(line, 0, 1);
  EXPECT_EQ(line.group().world_rank_of(shift.destination),
            box.rank() - mine[2] + (mine[2] + 1) % dims[2]);
}

// ---- errors, one test each -----------------------------------------------

const std::array<int, 1> kOne = {1};
const std::array<bool, 1> kNotPeriodic = {false};

TEST(CartErrors, NullCommunicator) {
  const Comm null;
  const std::array<bool, 0> none{};
  EXPECT_EQ(thrown_class([&] {
              (void)cart_create(null, kOne, kNotPeriodic, Reorder::no);
            }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { (void)cart_map(null, kOne, kNotPeriodic); }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { (void)cartdim_get(null); }), ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { (void)cart_get(null); }), ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { (void)cart_rank(null, std::array{0}); }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { (void)cart_coords(null, 0); }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { (void)cart_shift(null, 0, 1); }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { (void)cart_sub(null, none); }),
            ErrorClass::comm);
}

TEST(CartErrors, FreedCommunicator) {
  Comm plane = make_plane();
  if (plane.is_null()) return;
  Comm handle = plane;
  plane.free();
  EXPECT_EQ(thrown_class([&] { (void)cartdim_get(handle); }), ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { (void)cart_shift(handle, 0, 1); }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] {
              (void)cart_create(handle, kOne, kNotPeriodic, Reorder::no);
            }),
            ErrorClass::comm);
}

TEST(CartErrors, InterCommunicator) {
  if (world_size() < 2)
    GTEST_SKIP() << "an inter-communicator needs 2 processes";
  // Even and odd world ranks; their leaders are world ranks 0 and 1.
  const int parity = world_rank() % 2;
  Comm half = Comm::world().split(parity, world_rank());
  Comm inter = intercomm_create(half, 0, Comm::world(), 1 - parity, 0);
  ASSERT_TRUE(inter.is_inter());
  EXPECT_EQ(thrown_class([&] {
              (void)cart_create(inter, kOne, kNotPeriodic, Reorder::no);
            }),
            ErrorClass::comm);
  EXPECT_EQ(thrown_class([&] { (void)cart_map(inter, kOne, kNotPeriodic); }),
            ErrorClass::comm);
  // An inter-communicator has no topology to ask about.
  EXPECT_EQ(thrown_class([&] { (void)cartdim_get(inter); }),
            ErrorClass::topology);
  EXPECT_EQ(topo_test(inter), TopologyKind::undefined);
}

TEST(CartErrors, CommunicatorWithoutCartesianTopology) {
  const Comm world = Comm::world();
  const std::array<bool, 1> keep = {true};
  EXPECT_EQ(thrown_class([&] { (void)cartdim_get(world); }),
            ErrorClass::topology);
  EXPECT_EQ(thrown_class([&] { (void)cart_get(world); }), ErrorClass::topology);
  EXPECT_EQ(thrown_class([&] { (void)cart_rank(world, std::array{0}); }),
            ErrorClass::topology);
  EXPECT_EQ(thrown_class([&] { (void)cart_coords(world, 0); }),
            ErrorClass::topology);
  EXPECT_EQ(thrown_class([&] { (void)cart_shift(world, 0, 1); }),
            ErrorClass::topology);
  EXPECT_EQ(thrown_class([&] { (void)cart_sub(world, keep); }),
            ErrorClass::topology);
}

TEST(CartErrors, DimsEntryNotPositive) {
  const std::array<int, 2> zero = {1, 0};
  const std::array<int, 2> negative = {-1, 1};
  const std::array<bool, 2> periods = {false, false};
  EXPECT_EQ(thrown_class([&] {
              (void)cart_create(Comm::world(), zero, periods, Reorder::no);
            }),
            ErrorClass::dims);
  EXPECT_EQ(thrown_class([&] {
              (void)cart_create(Comm::world(), negative, periods, Reorder::no);
            }),
            ErrorClass::dims);
  EXPECT_EQ(thrown_class([&] { (void)cart_map(Comm::world(), zero, periods); }),
            ErrorClass::dims);
}

TEST(CartErrors, GridLargerThanTheCommunicator) {
  const std::array<int, 1> one_too_many = {world_size() + 1};
  // The product overflows int: must be caught, not wrapped.
  const std::array<int, 3> overflowing = {65536, 65536, 2};
  const std::array<bool, 3> periods = {false, false, false};
  EXPECT_EQ(thrown_class([&] {
              (void)cart_create(Comm::world(), one_too_many, kNotPeriodic,
                                Reorder::no);
            }),
            ErrorClass::arg);
  EXPECT_EQ(thrown_class([&] {
              (void)cart_create(Comm::world(), overflowing, periods,
                                Reorder::yes);
            }),
            ErrorClass::arg);
  EXPECT_EQ(thrown_class([&] {
              (void)cart_map(Comm::world(), one_too_many, kNotPeriodic);
            }),
            ErrorClass::arg);
}

TEST(CartErrors, PeriodsAndDimsOfDifferentLengths) {
  const std::array<bool, 2> two = {false, false};
  EXPECT_EQ(thrown_class([&] {
              (void)cart_create(Comm::world(), kOne, two, Reorder::no);
            }),
            ErrorClass::dims);
  EXPECT_EQ(thrown_class([&] { (void)cart_map(Comm::world(), kOne, two); }),
            ErrorClass::dims);
}

TEST(CartErrors, ReorderThatIsNoReorderValue) {
  EXPECT_EQ(thrown_class([&] {
              (void)cart_create(Comm::world(), kOne, kNotPeriodic,
                                static_cast<Reorder>(7));
            }),
            ErrorClass::arg);
}

TEST(CartErrors, RemainDimsOfTheWrongLength) {
  Comm plane = make_plane();
  if (plane.is_null()) return;
  const std::array<bool, 3> three = {true, true, true};
  const std::array<bool, 1> one = {true};
  EXPECT_EQ(thrown_class([&] { (void)cart_sub(plane, three); }),
            ErrorClass::dims);
  EXPECT_EQ(thrown_class([&] { (void)cart_sub(plane, one); }),
            ErrorClass::dims);
}

TEST(CartErrors, ShiftDirectionOutOfRange) {
  Comm plane = make_plane();
  if (plane.is_null()) return;
  EXPECT_EQ(thrown_class([&] { (void)cart_shift(plane, -1, 1); }),
            ErrorClass::dims);
  EXPECT_EQ(thrown_class([&] { (void)cart_shift(plane, 2, 1); }),
            ErrorClass::dims);
}

TEST(CartErrors, CoordsOfRankOutOfRange) {
  Comm plane = make_plane();
  if (plane.is_null()) return;
  EXPECT_EQ(thrown_class([&] { (void)cart_coords(plane, -1); }),
            ErrorClass::rank);
  EXPECT_EQ(thrown_class([&] { (void)cart_coords(plane, plane.size()); }),
            ErrorClass::rank);
  EXPECT_EQ(thrown_class([&] { (void)cart_coords(plane, proc_null); }),
            ErrorClass::rank);
}

TEST(CartErrors, RankOfCoordsOfTheWrongLength) {
  Comm plane = make_plane();
  if (plane.is_null()) return;
  EXPECT_EQ(thrown_class([&] { (void)cart_rank(plane, std::array{0}); }),
            ErrorClass::dims);
  EXPECT_EQ(thrown_class([&] {
              (void)cart_rank(plane, std::array{0, 0, 0});
            }),
            ErrorClass::dims);
}

TEST(CartErrors, RankOfCoordinateOffANonPeriodicDimension) {
  Comm plane = make_plane();
  if (plane.is_null()) return;
  const int rows = plane_dims()[0];
  EXPECT_EQ(thrown_class([&] {
              (void)cart_rank(plane, std::array{rows, 0});
            }),
            ErrorClass::arg);
  EXPECT_EQ(thrown_class([&] {
              (void)cart_rank(plane, std::array{-1, 0});
            }),
            ErrorClass::arg);
}

TEST(CartErrors, MessagesNameFunctionArgumentAndValue) {
  Comm plane = make_plane();
  if (plane.is_null()) return;
  const auto contains = [](const std::string& text, const char* part) {
    return text.find(part) != std::string::npos;
  };
  const std::string shift = thrown_text([&] { (void)cart_shift(plane, 5, 1); });
  EXPECT_TRUE(contains(shift, "classic::cart_shift")) << shift;
  EXPECT_TRUE(contains(shift, "direction = 5")) << shift;
  const std::string coords = thrown_text([&] { (void)cart_coords(plane, -4); });
  EXPECT_TRUE(contains(coords, "classic::cart_coords")) << coords;
  EXPECT_TRUE(contains(coords, "rank = -4")) << coords;
  const std::array<int, 2> bad = {2, -3};
  const std::array<bool, 2> periods = {false, false};
  const std::string dims = thrown_text(
      [&] { (void)cart_create(Comm::world(), bad, periods, Reorder::no); });
  EXPECT_TRUE(contains(dims, "classic::cart_create")) << dims;
  EXPECT_TRUE(contains(dims, "dims[1] = -3")) << dims;
  const std::array<bool, 1> one = {true};
  const std::string remain = thrown_text([&] { (void)cart_sub(plane, one); });
  EXPECT_TRUE(contains(remain, "classic::cart_sub")) << remain;
  EXPECT_TRUE(contains(remain, "remain_dims has 1")) << remain;
  const std::string topology =
      thrown_text([&] { (void)cartdim_get(Comm::world()); });
  EXPECT_TRUE(contains(topology, "classic::cartdim_get")) << topology;
}

}  // namespace
}  // namespace classic
