// Unit tests of naming::Geometry against the seed's 3x4 table and against
// brute-force oracles that enumerate the grid in the documented order.
#include "naming/geometry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "tests/naming/cart_testing.h"
#include "tests/testing/errors.h"

namespace {

using cart_testing::enumerate;
using classic::ErrorClass;
using classic::proc_null;
using naming::Geometry;
using naming::Order;
using naming::Shift;
using orthocomm_test::Thrown;
using orthocomm_test::thrown_by;
using Coords = std::vector<int>;
using Flags = std::vector<bool>;

// std::vector<bool> has no contiguous storage; Geometry reads span<const bool>.
Geometry make(const Coords& dims, const Flags& periods, const Coords& order) {
  auto flags = std::make_unique<bool[]>(periods.size());
  std::copy(periods.begin(), periods.end(), flags.get());
  return Geometry(dims, std::span<const bool>(flags.get(), periods.size()),
                  order);
}

Geometry make(const Coords& dims, const Flags& periods, Order order) {
  auto flags = std::make_unique<bool[]>(periods.size());
  std::copy(periods.begin(), periods.end(), flags.get());
  return Geometry(dims, std::span<const bool>(flags.get(), periods.size()),
                  order);
}

Coords identity(std::size_t d) {
  Coords order(d);
  std::iota(order.begin(), order.end(), 0);
  return order;
}

int oracle_rank(const std::vector<Coords>& all, const Coords& coords) {
  const auto it = std::find(all.begin(), all.end(), coords);
  return it == all.end() ? proc_null : static_cast<int>(it - all.begin());
}

// The rank at all[source] + offset, stepping around periodic dimensions one
// lap at a time (small offsets only); proc_null when off the grid.
int oracle_relative(const Coords& dims, const Flags& periods,
                    const std::vector<Coords>& all, int source,
                    const Coords& offset) {
  Coords target = all[source];
  for (std::size_t i = 0; i < dims.size(); ++i) {
    target[i] += offset[i];
    if (periods[i]) {
      while (target[i] < 0) target[i] += dims[i];
      while (target[i] >= dims[i]) target[i] -= dims[i];
    }
  }
  return oracle_rank(all, target);
}

// Every offset vector with offset[i] in [-(dims[i] + 2), dims[i] + 2].
std::vector<Coords> offset_box(const Coords& dims) {
  Coords low(dims.size()), extent(dims.size());
  for (std::size_t i = 0; i < dims.size(); ++i) {
    low[i] = -(dims[i] + 2);
    extent[i] = 2 * dims[i] + 5;
  }
  std::vector<Coords> box = enumerate(extent, identity(dims.size()));
  for (Coords& offset : box) {
    for (std::size_t i = 0; i < dims.size(); ++i) offset[i] += low[i];
  }
  return box;
}

// The lecture's "12 processes arranged on a 3 x 4 grid", row-major
// (seeds/003, "Process coordinates begin with 0 Row-major numbering").
struct TableEntry {
  int rank, row, column;
};
constexpr TableEntry kLectureTable[] = {
    {0, 0, 0}, {1, 0, 1}, {2, 0, 2}, {3, 0, 3}, {4, 1, 0},  {5, 1, 1},
    {6, 1, 2}, {7, 1, 3}, {8, 2, 0}, {9, 2, 1}, {10, 2, 2}, {11, 2, 3},
};

TEST(GeometrySeedTable, RowMajor3x4MatchesLectureTable) {
  const Geometry grid = make({3, 4}, {false, false}, Order::row_major);
  ASSERT_EQ(grid.size(), 12);
  for (const TableEntry& entry : kLectureTable) {
    EXPECT_EQ(grid.rank(Coords{entry.row, entry.column}), entry.rank);
    EXPECT_EQ(grid.coordinates(entry.rank), (Coords{entry.row, entry.column}));
    EXPECT_EQ(entry.rank, entry.row * 4 + entry.column);
  }
}

TEST(GeometrySeedTable, ColumnMajor3x4NumbersDownColumns) {
  const Geometry grid = make({3, 4}, {false, false}, Order::column_major);
  for (const TableEntry& entry : kLectureTable) {
    const int fortran_rank = entry.column * 3 + entry.row;
    EXPECT_EQ(grid.rank(Coords{entry.row, entry.column}), fortran_rank);
    EXPECT_EQ(grid.coordinates(fortran_rank),
              (Coords{entry.row, entry.column}));
  }
}

void expect_matches_enumeration(const Geometry& grid, const Coords& dims,
                                const Coords& order) {
  const std::vector<Coords> all = enumerate(dims, order);
  ASSERT_EQ(grid.size(), static_cast<int>(all.size()));
  for (int rank = 0; rank < grid.size(); ++rank) {
    EXPECT_EQ(grid.rank(all[rank]), rank);
    EXPECT_EQ(grid.coordinates(rank), all[rank]);
  }
}

const std::vector<Coords> kShapes = {{},        {1},          {5},
                                     {2, 3},    {3, 4},       {1, 4, 1},
                                     {2, 3, 4}, {3, 1, 2, 2}, {2, 2, 2, 2, 2}};

TEST(GeometryOracle, RowAndColumnMajorMatchEnumeration) {
  for (const Coords& dims : kShapes) {
    const Flags periods(dims.size(), false);
    Coords reversed = identity(dims.size());
    std::reverse(reversed.begin(), reversed.end());
    expect_matches_enumeration(make(dims, periods, Order::row_major), dims,
                               identity(dims.size()));
    expect_matches_enumeration(make(dims, periods, Order::column_major), dims,
                               reversed);
  }
}

TEST(GeometryOracle, EveryPermutationMatchesEnumeration) {
  for (const Coords& dims : {Coords{2, 3, 4}, Coords{2, 1, 3, 2}}) {
    Coords order = identity(dims.size());
    do {
      const Geometry grid = make(dims, Flags(dims.size(), true), order);
      EXPECT_EQ(
          Coords(grid.dimension_order().begin(), grid.dimension_order().end()),
          order);
      expect_matches_enumeration(grid, dims, order);
    } while (std::next_permutation(order.begin(), order.end()));
  }
}

TEST(GeometryOracle, OrderEnumEqualsItsPermutation) {
  const Coords dims = {2, 3, 4};
  const Flags periods = {true, false, true};
  EXPECT_TRUE(make(dims, periods, Order::row_major) ==
              make(dims, periods, Coords{0, 1, 2}));
  EXPECT_TRUE(make(dims, periods, Order::column_major) ==
              make(dims, periods, Coords{2, 1, 0}));
  EXPECT_FALSE(make(dims, periods, Order::row_major) ==
               make(dims, periods, Order::column_major));
  EXPECT_FALSE(make(dims, periods, Order::row_major) ==
               make(dims, {true, true, true}, Order::row_major));
  EXPECT_EQ(naming::dimension_order_of(Order::column_major, 3),
            (Coords{2, 1, 0}));
}

TEST(GeometryOracle, PeriodicCoordinatesWrap) {
  const Coords dims = {3, 4};
  const Geometry grid = make(dims, {true, true}, Order::row_major);
  const std::vector<Coords> all = enumerate(dims, {0, 1});
  for (int rank = 0; rank < grid.size(); ++rank) {
    for (int laps : {-3, -1, 1, 5}) {
      const Coords moved = {all[rank][0] + laps * 3, all[rank][1] - laps * 4};
      EXPECT_EQ(grid.rank(moved), rank);
    }
  }
}

TEST(GeometryOracle, AccessorsReturnTheArguments) {
  const Geometry grid = make({2, 5, 3}, {true, false, true}, Coords{1, 2, 0});
  EXPECT_EQ(grid.ndims(), 3);
  EXPECT_EQ(grid.size(), 30);
  EXPECT_EQ(Coords(grid.dims().begin(), grid.dims().end()), (Coords{2, 5, 3}));
  EXPECT_EQ(Flags(grid.periods().begin(), grid.periods().end()),
            (Flags{true, false, true}));
  EXPECT_EQ(
      Coords(grid.dimension_order().begin(), grid.dimension_order().end()),
      (Coords{1, 2, 0}));
  EXPECT_TRUE(grid.periodic(0));
  EXPECT_FALSE(grid.periodic(1));
  EXPECT_TRUE(grid.periodic(2));
}

TEST(GeometryOracle, CopiesAndMovesStayValid) {
  Geometry original = make({3, 4}, {true, false}, Order::column_major);
  const Geometry copy = original;
  const Geometry moved = std::move(original);
  EXPECT_TRUE(copy == moved);
  // Moving copies (documented), so the source is still the same grid.
  EXPECT_TRUE(original == copy);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(original.rank(Coords{1, 1}), 4);
}

struct RelativeCase {
  Coords dims;
  Flags periods;
  Coords order;
};

const std::vector<RelativeCase> kRelativeCases = {
    {{5}, {true}, {0}},
    {{5}, {false}, {0}},
    {{1}, {true}, {0}},
    {{2}, {false}, {0}},
    {{3, 4}, {true, false}, {0, 1}},
    {{3, 4}, {false, true}, {1, 0}},
    {{2, 3}, {true, true}, {1, 0}},
    {{2, 1, 3}, {false, true, true}, {2, 0, 1}},
};

TEST(GeometryRelative, RelativeRankAndShiftMatchBruteForce) {
  for (const RelativeCase& c : kRelativeCases) {
    const Geometry grid = make(c.dims, c.periods, c.order);
    const std::vector<Coords> all = enumerate(c.dims, c.order);
    const std::vector<Coords> box = offset_box(c.dims);
    Coords flat;
    for (const Coords& offset : box)
      flat.insert(flat.end(), offset.begin(), offset.end());
    for (int source = 0; source < grid.size(); ++source) {
      const Coords together = grid.allranks_relative(source, flat);
      ASSERT_EQ(together.size(), box.size());
      for (std::size_t k = 0; k < box.size(); ++k) {
        const Coords& offset = box[k];
        Coords negated(offset.size());
        std::transform(offset.begin(), offset.end(), negated.begin(),
                       [](int x) { return -x; });
        const int expected =
            oracle_relative(c.dims, c.periods, all, source, offset);
        EXPECT_EQ(grid.relative_rank(source, offset), expected);
        EXPECT_EQ(together[k], expected);
        const Shift shift = grid.relative_shift(source, offset);
        EXPECT_EQ(shift.destination, expected);
        EXPECT_EQ(shift.source,
                  oracle_relative(c.dims, c.periods, all, source, negated));
      }
    }
  }
}

TEST(GeometryRelative, HugePeriodicOffsetsWrapWithoutOverflow) {
  // On a ring of 7: 2^31 = 2^(3*10+1) = 2 (mod 7), so INT_MAX = 1 and
  // INT_MIN = -2 = 5 (mod 7).
  const Geometry ring = make({7}, {true}, Order::row_major);
  EXPECT_EQ(ring.relative_rank(0, Coords{INT_MAX}), 1);
  EXPECT_EQ(ring.relative_rank(0, Coords{INT_MIN}), 5);
  EXPECT_EQ(ring.relative_rank(6, Coords{INT_MAX}), 0);
  EXPECT_EQ(ring.rank(Coords{INT_MAX}), 1);
  EXPECT_EQ(ring.rank(Coords{INT_MIN}), 5);
  const Shift shift = ring.relative_shift(0, Coords{INT_MIN});
  EXPECT_EQ(shift.destination, 5);
  EXPECT_EQ(shift.source, 2);  // 0 - INT_MIN = 2^31 = 2 (mod 7).
  EXPECT_EQ(ring.canonical_offset(Coords{INT_MAX}), Coords{1});
}

TEST(GeometryRelative, HugeNonPeriodicOffsetsLeaveTheGrid) {
  const Geometry line = make({7}, {false}, Order::row_major);
  EXPECT_EQ(line.relative_rank(3, Coords{INT_MAX}), proc_null);
  EXPECT_EQ(line.relative_rank(3, Coords{INT_MIN}), proc_null);
  const Shift shift = line.relative_shift(3, Coords{INT_MIN});
  EXPECT_EQ(shift.source, proc_null);
  EXPECT_EQ(shift.destination, proc_null);
}

TEST(GeometryCanonical, HandTablesForSizesOneToFive) {
  // expected[n][offset + 6] for offsets -6..6, worked out by hand from the
  // range -floor((n-1)/2) <= r <= floor(n/2).
  const std::vector<Coords> expected = {
      {},
      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
      {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0},
      {0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0},
      {2, -1, 0, 1, 2, -1, 0, 1, 2, -1, 0, 1, 2},
      {-1, 0, 1, 2, -2, -1, 0, 1, 2, -2, -1, 0, 1},
  };
  for (int n = 1; n <= 5; ++n) {
    const Geometry ring = make({n}, {true}, Order::row_major);
    for (int offset = -6; offset <= 6; ++offset) {
      EXPECT_EQ(ring.canonical_offset(Coords{offset}),
                Coords{expected[n][offset + 6]})
          << "n = " << n << ", offset = " << offset;
    }
  }
}

TEST(GeometryCanonical, HugeOffsetsByHand) {
  // INT_MAX = 2147483647 and 2^31 = 2147483648 reduced by hand.
  struct Case {
    int n, offset, canonical;
  };
  const Case cases[] = {
      {1, INT_MAX, 0}, {1, INT_MIN, 0}, {2, INT_MAX, 1},  {2, INT_MIN, 0},
      {3, INT_MAX, 1}, {3, INT_MIN, 1}, {4, INT_MAX, -1}, {4, INT_MIN, 0},
      {5, INT_MAX, 2}, {5, INT_MIN, 2},
  };
  for (const Case& c : cases) {
    const Geometry ring = make({c.n}, {true}, Order::row_major);
    EXPECT_EQ(ring.canonical_offset(Coords{c.offset}), Coords{c.canonical})
        << "n = " << c.n << ", offset = " << c.offset;
  }
}

TEST(GeometryCanonical, NonPeriodicComponentsAreUnchanged) {
  const Geometry grid = make({3, 4}, {false, true}, Order::row_major);
  EXPECT_EQ(grid.canonical_offset(Coords{INT_MIN, 3}), (Coords{INT_MIN, -1}));
  EXPECT_EQ(grid.canonical_offset(Coords{7, -6}), (Coords{7, 2}));
}

TEST(GeometryCanonical, RingRelativeCoordinatesAreTranslationInvariant) {
  for (int n = 1; n <= 5; ++n) {
    const Geometry ring = make({n}, {true}, Order::row_major);
    for (int source = 0; source < n; ++source) {
      for (int dest = 0; dest < n; ++dest) {
        const Coords relative = ring.relative_coordinates(source, dest);
        ASSERT_EQ(relative.size(), 1u);
        EXPECT_GE(relative[0], -((n - 1) / 2));
        EXPECT_LE(relative[0], n / 2);
        EXPECT_EQ(((source + relative[0]) % n + n) % n, dest);
        EXPECT_EQ(ring.relative_rank(source, relative), dest);
        for (int shift = 1; shift < n; ++shift) {
          EXPECT_EQ(ring.relative_coordinates((source + shift) % n,
                                              (dest + shift) % n),
                    relative);
        }
      }
    }
  }
}

TEST(GeometryCanonical, NonPeriodicRelativeCoordinatesArePlainDifferences) {
  const Coords dims = {3, 4};
  const Geometry grid = make(dims, {false, false}, Order::column_major);
  const std::vector<Coords> all = enumerate(dims, {1, 0});
  for (int source = 0; source < grid.size(); ++source) {
    for (int dest = 0; dest < grid.size(); ++dest) {
      const Coords expected = {all[dest][0] - all[source][0],
                               all[dest][1] - all[source][1]};
      EXPECT_EQ(grid.relative_coordinates(source, dest), expected);
    }
  }
}

TEST(GeometryAllranks, MatchesRankOfEachVector) {
  const Coords dims = {3, 4};
  const Geometry grid = make(dims, {true, false}, Coords{1, 0});
  const Coords flat = {0, 0, 2, 3, -1, 1, 4, 2, 1, 0};
  const Coords expected = {grid.rank(Coords{0, 0}), grid.rank(Coords{2, 3}),
                           grid.rank(Coords{-1, 1}), grid.rank(Coords{4, 2}),
                           grid.rank(Coords{1, 0})};
  EXPECT_EQ(grid.allranks(flat), expected);
  Coords out(5);
  grid.allranks(flat, out);
  EXPECT_EQ(out, expected);
  EXPECT_TRUE(grid.allranks(Coords{}).empty());
}

TEST(GeometryAllranks, OffGridCoordinateNamesItsPosition) {
  const Geometry grid = make({3, 4}, {true, false}, Order::row_major);
  const Thrown thrown = thrown_by([&] { grid.allranks(Coords{0, 0, 1, 4}); });
  EXPECT_EQ(thrown.error_class, ErrorClass::rank);
  EXPECT_NE(thrown.message.find("flat_coords[3] = 4"), std::string::npos)
      << thrown.message;
}

TEST(GeometryZeroDims, IsOneProcessWithEmptyCoordinates) {
  const Geometry point = make({}, {}, Order::row_major);
  EXPECT_EQ(point.ndims(), 0);
  EXPECT_EQ(point.size(), 1);
  EXPECT_EQ(point.rank(Coords{}), 0);
  EXPECT_TRUE(point.coordinates(0).empty());
  EXPECT_EQ(point.relative_rank(0, Coords{}), 0);
  EXPECT_EQ(point.relative_rank(1, Coords{}), proc_null);
  EXPECT_TRUE(point.relative_coordinates(0, 0).empty());
  EXPECT_TRUE(point.allranks(Coords{}).empty());
  Coords three(3, -7);
  point.allranks_relative(0, Coords{}, three);
  EXPECT_EQ(three, (Coords{0, 0, 0}));
  point.allranks(Coords{}, three);
  EXPECT_EQ(three, (Coords{0, 0, 0}));
}

TEST(GeometryUnnamed, RankValuedResultsAreProcNull) {
  const Geometry grid = make({2, 3}, {true, true}, Order::row_major);
  for (int unnamed : {6, 7, 100, INT_MAX}) {
    EXPECT_EQ(grid.relative_rank(unnamed, Coords{0, 0}), proc_null);
    EXPECT_EQ(grid.relative_rank(unnamed, Coords{1, -1}), proc_null);
    const Shift shift = grid.relative_shift(unnamed, Coords{0, 1});
    EXPECT_EQ(shift.source, proc_null);
    EXPECT_EQ(shift.destination, proc_null);
    EXPECT_EQ(grid.allranks_relative(unnamed, Coords{0, 0, 1, 1}),
              (Coords{proc_null, proc_null}));
  }
}

TEST(GeometryUnnamed, CoordinatesOfAnUnnamedRankThrowRank) {
  const Geometry grid = make({2, 3}, {true, true}, Order::row_major);
  EXPECT_EQ(thrown_by([&] { grid.coordinates(6); }).error_class,
            ErrorClass::rank);
  EXPECT_EQ(thrown_by([&] { grid.relative_coordinates(6, 0); }).error_class,
            ErrorClass::rank);
  EXPECT_EQ(thrown_by([&] { grid.relative_coordinates(0, 6); }).error_class,
            ErrorClass::rank);
}

TEST(GeometryProcNull, RankValuedResultsAreProcNull) {
  const Geometry grid = make({2, 3}, {true, false}, Order::row_major);
  EXPECT_EQ(grid.relative_rank(proc_null, Coords{0, 0}), proc_null);
  const Shift shift = grid.relative_shift(proc_null, Coords{1, 0});
  EXPECT_EQ(shift.source, proc_null);
  EXPECT_EQ(shift.destination, proc_null);
  EXPECT_EQ(grid.allranks_relative(proc_null, Coords{0, 0}), Coords{proc_null});
}

TEST(GeometryProcNull, CoordinatesOfProcNullThrowRank) {
  const Geometry grid = make({2, 3}, {true, false}, Order::row_major);
  EXPECT_EQ(thrown_by([&] { grid.coordinates(proc_null); }).error_class,
            ErrorClass::rank);
  EXPECT_EQ(
      thrown_by([&] { grid.relative_coordinates(proc_null, 0); }).error_class,
      ErrorClass::rank);
}

TEST(GeometryProcNull, NonPeriodicEdgesGiveProcNull) {
  const Geometry grid = make({2, 3}, {true, false}, Order::row_major);
  // Rank 2 is (0, 2): +1 in the non-periodic dimension 1 leaves the grid.
  const Shift shift = grid.relative_shift(2, Coords{0, 1});
  EXPECT_EQ(shift.destination, proc_null);
  EXPECT_EQ(shift.source, 1);
  EXPECT_EQ(grid.relative_rank(2, Coords{1, 0}), 5);
  EXPECT_EQ(grid.relative_rank(2, Coords{-1, 0}), 5);
}

// ---- Rejected inputs: one test each, checking the error class. ----

const Flags kTwoPeriods = {true, false};

TEST(GeometryRejects, ZeroDimension) {
  const Thrown thrown = thrown_by([] {
    make({3, 0}, kTwoPeriods, Order::row_major);
  });
  EXPECT_EQ(thrown.error_class, ErrorClass::dims);
  EXPECT_NE(thrown.message.find("dims[1] = 0"), std::string::npos)
      << thrown.message;
}

TEST(GeometryRejects, NegativeDimension) {
  EXPECT_EQ(thrown_by([] {
              make({-2, 3}, kTwoPeriods, Order::row_major);
            }).error_class,
            ErrorClass::dims);
}

TEST(GeometryRejects, SizeOverflowingInt) {
  EXPECT_EQ(thrown_by([] {
              make({65536, 32768}, kTwoPeriods, Order::row_major);
            }).error_class,
            ErrorClass::dims);
}

TEST(GeometryRejects, SizeOverflowingIntAcrossManyDimensions) {
  EXPECT_EQ(thrown_by([] {
              make(Coords(40, 2), Flags(40, false), Order::column_major);
            }).error_class,
            ErrorClass::dims);
}

TEST(GeometryRejects, LargestIntSizeIsAccepted) {
  EXPECT_EQ(make({INT_MAX}, {false}, Order::row_major).size(), INT_MAX);
  EXPECT_EQ(make({INT_MAX, 1}, kTwoPeriods, Order::row_major)
                .coordinates(INT_MAX - 1),
            (Coords{INT_MAX - 1, 0}));
}

TEST(GeometryRejects, PeriodsOfWrongLength) {
  EXPECT_EQ(thrown_by([] {
              make({3, 4}, {true}, Order::row_major);
            }).error_class,
            ErrorClass::arg);
}

TEST(GeometryRejects, OrderThatIsNotAnOrder) {
  EXPECT_EQ(thrown_by([] {
              make({3, 4}, kTwoPeriods, static_cast<Order>(7));
            }).error_class,
            ErrorClass::arg);
}

TEST(GeometryRejects, DimensionOrderOfWrongLength) {
  EXPECT_EQ(thrown_by([] {
              make({3, 4}, kTwoPeriods, Coords{0});
            }).error_class,
            ErrorClass::arg);
}

TEST(GeometryRejects, DimensionOrderValueOutOfRange) {
  const Thrown thrown = thrown_by([] {
    make({3, 4}, kTwoPeriods, Coords{0, 2});
  });
  EXPECT_EQ(thrown.error_class, ErrorClass::arg);
  EXPECT_NE(thrown.message.find("dimension_order[1] = 2"), std::string::npos)
      << thrown.message;
}

TEST(GeometryRejects, DimensionOrderNegativeValue) {
  EXPECT_EQ(thrown_by([] {
              make({3, 4}, kTwoPeriods, Coords{-1, 0});
            }).error_class,
            ErrorClass::arg);
}

TEST(GeometryRejects, DimensionOrderWithRepeat) {
  const Thrown thrown = thrown_by([] {
    make({3, 4, 5}, {true, true, true}, Coords{1, 0, 1});
  });
  EXPECT_EQ(thrown.error_class, ErrorClass::arg);
  EXPECT_NE(thrown.message.find("dimension_order[2] = 1 repeats "
                                "dimension_order[0]"),
            std::string::npos)
      << thrown.message;
}

TEST(GeometryRejects, NegativeNdimsForDimensionOrderOf) {
  EXPECT_EQ(thrown_by([] {
              naming::dimension_order_of(Order::row_major, -1);
            }).error_class,
            ErrorClass::dims);
}

class GeometryRejectsCall : public ::testing::Test {
 protected:
  // 3 x 4, periodic in dimension 0 only; size 12.
  const Geometry grid_ = make({3, 4}, kTwoPeriods, Order::row_major);
};

TEST_F(GeometryRejectsCall, PeriodicDimensionIndexNegative) {
  EXPECT_EQ(thrown_by([&] { grid_.periodic(-1); }).error_class,
            ErrorClass::dims);
}

TEST_F(GeometryRejectsCall, PeriodicDimensionIndexTooLarge) {
  EXPECT_EQ(thrown_by([&] { grid_.periodic(2); }).error_class,
            ErrorClass::dims);
}

TEST_F(GeometryRejectsCall, RankWithTooFewCoordinates) {
  EXPECT_EQ(thrown_by([&] { grid_.rank(Coords{1}); }).error_class,
            ErrorClass::arg);
}

TEST_F(GeometryRejectsCall, RankWithTooManyCoordinates) {
  EXPECT_EQ(thrown_by([&] {
              grid_.rank(Coords{1, 1, 1});
            }).error_class,
            ErrorClass::arg);
}

TEST_F(GeometryRejectsCall, RankBelowNonPeriodicDimension) {
  EXPECT_EQ(thrown_by([&] {
              grid_.rank(Coords{0, -1});
            }).error_class,
            ErrorClass::rank);
}

TEST_F(GeometryRejectsCall, RankBeyondNonPeriodicDimension) {
  const Thrown thrown = thrown_by([&] { grid_.rank(Coords{0, 4}); });
  EXPECT_EQ(thrown.error_class, ErrorClass::rank);
  EXPECT_NE(thrown.message.find("coords[1] = 4 in non-periodic dimension 1 "
                                "is outside [0, 4)"),
            std::string::npos)
      << thrown.message;
}

TEST_F(GeometryRejectsCall, CoordinatesOfNegativeRank) {
  EXPECT_EQ(thrown_by([&] { grid_.coordinates(-1); }).error_class,
            ErrorClass::rank);
}

TEST_F(GeometryRejectsCall, CoordinatesOfRankAtSize) {
  const Thrown thrown = thrown_by([&] { grid_.coordinates(12); });
  EXPECT_EQ(thrown.error_class, ErrorClass::rank);
  EXPECT_NE(thrown.message.find("rank = 12"), std::string::npos)
      << thrown.message;
}

TEST_F(GeometryRejectsCall, CoordinatesIntoOutputOfWrongLength) {
  Coords out(3);
  EXPECT_EQ(thrown_by([&] { grid_.coordinates(0, out); }).error_class,
            ErrorClass::arg);
}

TEST_F(GeometryRejectsCall, RelativeRankWithOffsetOfWrongLength) {
  EXPECT_EQ(thrown_by([&] { grid_.relative_rank(0, Coords{1}); }).error_class,
            ErrorClass::arg);
}

TEST_F(GeometryRejectsCall, RelativeRankOfProcNullWithOffsetOfWrongLength) {
  // A malformed offset is an error even when the source names no process.
  EXPECT_EQ(thrown_by([&] {
              grid_.relative_rank(proc_null, Coords{1, 2, 3});
            }).error_class,
            ErrorClass::arg);
}

TEST_F(GeometryRejectsCall, RelativeRankFromNegativeSource) {
  EXPECT_EQ(thrown_by([&] {
              grid_.relative_rank(-1, Coords{0, 0});
            }).error_class,
            ErrorClass::rank);
}

TEST_F(GeometryRejectsCall, RelativeShiftWithOffsetOfWrongLength) {
  EXPECT_EQ(thrown_by([&] { grid_.relative_shift(0, Coords{}); }).error_class,
            ErrorClass::arg);
}

TEST_F(GeometryRejectsCall, RelativeShiftFromNegativeRank) {
  EXPECT_EQ(thrown_by([&] {
              grid_.relative_shift(INT_MIN, Coords{0, 1});
            }).error_class,
            ErrorClass::rank);
}

TEST_F(GeometryRejectsCall, RelativeCoordinatesFromNegativeSource) {
  EXPECT_EQ(thrown_by([&] { grid_.relative_coordinates(-5, 0); }).error_class,
            ErrorClass::rank);
}

TEST_F(GeometryRejectsCall, RelativeCoordinatesIntoOutputOfWrongLength) {
  Coords out(1);
  EXPECT_EQ(
      thrown_by([&] { grid_.relative_coordinates(0, 1, out); }).error_class,
      ErrorClass::arg);
}

TEST_F(GeometryRejectsCall, CanonicalOffsetOfWrongLength) {
  EXPECT_EQ(thrown_by([&] {
              grid_.canonical_offset(Coords{1, 2, 3});
            }).error_class,
            ErrorClass::arg);
}

TEST_F(GeometryRejectsCall, CanonicalOffsetIntoOutputOfWrongLength) {
  Coords out(3);
  EXPECT_EQ(thrown_by([&] {
              grid_.canonical_offset(Coords{1, 2}, out);
            }).error_class,
            ErrorClass::arg);
}

TEST_F(GeometryRejectsCall, AllranksWithIncompleteVector) {
  EXPECT_EQ(thrown_by([&] {
              grid_.allranks(Coords{0, 0, 1});
            }).error_class,
            ErrorClass::count);
}

TEST_F(GeometryRejectsCall, AllranksWithOffGridCoordinate) {
  EXPECT_EQ(thrown_by([&] {
              grid_.allranks(Coords{0, 0, 1, -1});
            }).error_class,
            ErrorClass::rank);
}

TEST_F(GeometryRejectsCall, AllranksIntoOutputOfWrongLength) {
  Coords out(3);
  EXPECT_EQ(thrown_by([&] {
              grid_.allranks(Coords{0, 0, 1, 1}, out);
            }).error_class,
            ErrorClass::count);
}

TEST_F(GeometryRejectsCall, AllranksRelativeWithIncompleteVector) {
  EXPECT_EQ(
      thrown_by([&] { grid_.allranks_relative(0, Coords{1}); }).error_class,
      ErrorClass::count);
}

TEST_F(GeometryRejectsCall, AllranksRelativeIntoOutputOfWrongLength) {
  Coords out(1);
  EXPECT_EQ(thrown_by([&] {
              grid_.allranks_relative(0, Coords{0, 0, 1, 1}, out);
            }).error_class,
            ErrorClass::count);
}

TEST_F(GeometryRejectsCall, AllranksRelativeFromNegativeSource) {
  EXPECT_EQ(thrown_by([&] {
              grid_.allranks_relative(-3, Coords{0, 0});
            }).error_class,
            ErrorClass::rank);
}

TEST(GeometryRejects, AllranksOnZeroDimsWithNonEmptyList) {
  const Geometry point = make({}, {}, Order::row_major);
  EXPECT_EQ(thrown_by([&] { point.allranks(Coords{0}); }).error_class,
            ErrorClass::count);
}

TEST(GeometryRejects, AllranksRelativeOnZeroDimsWithNonEmptyList) {
  const Geometry point = make({}, {}, Order::row_major);
  EXPECT_EQ(
      thrown_by([&] { point.allranks_relative(0, Coords{1}); }).error_class,
      ErrorClass::count);
}

}  // namespace
