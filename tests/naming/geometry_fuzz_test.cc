// Randomized tests of naming::Geometry: random grids, numberings and offsets
// (huge ones included) checked against coordinate arithmetic, and random
// invalid inputs that must throw classic::Error of the right class.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "naming/geometry.h"
#include "tests/testing/errors.h"

namespace {

using classic::ErrorClass;
using classic::proc_null;
using naming::Geometry;
using naming::Order;
using naming::Shift;
using orthocomm_test::thrown_class;
using Coords = std::vector<int>;

// Valid cases are cheap; each invalid case throws, which costs far more, so
// fewer of them keep the whole test near a second even unoptimised.
constexpr int kValidCases = 100000;
constexpr int kInvalidCases = 25000;

struct Grid {
  Coords dims;
  std::unique_ptr<bool[]> periods;
  Coords order;
  std::span<const bool> period_span() const {
    return {periods.get(), dims.size()};
  }
  std::string describe() const {
    std::ostringstream text;
    text << "dims/periodic/order:";
    for (std::size_t i = 0; i < dims.size(); ++i) {
      text << ' ' << dims[i] << (periods[i] ? 'p' : 'n') << order[i];
    }
    return text.str();
  }
};

int uniform(std::mt19937& rng, int low, int high) {
  return std::uniform_int_distribution<int>(low, high)(rng);
}

Grid random_grid(std::mt19937& rng) {
  Grid grid;
  const int d = uniform(rng, 0, 5);
  grid.periods = std::make_unique<bool[]>(d);
  for (int i = 0; i < d; ++i) {
    grid.dims.push_back(uniform(rng, 1, 7));
    grid.periods[i] = uniform(rng, 0, 1) == 1;
  }
  switch (uniform(rng, 0, 2)) {
    case 0:
      grid.order = naming::dimension_order_of(Order::row_major, d);
      break;
    case 1:
      grid.order = naming::dimension_order_of(Order::column_major, d);
      break;
    default:
      grid.order = naming::dimension_order_of(Order::row_major, d);
      std::shuffle(grid.order.begin(), grid.order.end(), rng);
  }
  return grid;
}

// Mostly small offsets, sometimes anything an int can hold.
int random_offset(std::mt19937& rng) {
  const int kind = uniform(rng, 0, 19);
  if (kind < 12) return uniform(rng, -10, 10);
  if (kind < 15) return uniform(rng, -1000, 1000);
  if (kind < 19) return uniform(rng, INT_MIN, INT_MAX);
  constexpr int kEdges[] = {INT_MIN, INT_MIN + 1, INT_MAX - 1, INT_MAX};
  return kEdges[uniform(rng, 0, 3)];
}

Coords random_offsets(std::mt19937& rng, std::size_t d) {
  Coords offset(d);
  for (int& component : offset) component = random_offset(rng);
  return offset;
}

long long modulo(long long value, long long n) { return ((value % n) + n) % n; }

// Rank by Horner's rule over the dimension order: an independent formula for
// the documented numbering (the slowest dimension first).
int horner_rank(const Grid& grid, const Coords& coords) {
  long long rank = 0;
  for (int dim : grid.order) rank = rank * grid.dims[dim] + coords[dim];
  return static_cast<int>(rank);
}

// The rank at coords + sign * offset by plain arithmetic, or proc_null.
int arithmetic_relative(const Grid& grid, const Coords& coords,
                        const Coords& offset, long long sign) {
  Coords target(coords.size());
  for (std::size_t i = 0; i < coords.size(); ++i) {
    long long moved = coords[i] + sign * offset[i];
    if (grid.periods[i]) {
      moved = modulo(moved, grid.dims[i]);
    } else if (moved < 0 || moved >= grid.dims[i]) {
      return proc_null;
    }
    target[i] = static_cast<int>(moved);
  }
  return horner_rank(grid, target);
}

bool has_int_min(const Coords& offset) {
  return std::find(offset.begin(), offset.end(), INT_MIN) != offset.end();
}

void check_round_trip(const Grid& grid, const Geometry& geometry, int rank,
                      std::mt19937& rng) {
  const Coords coords = geometry.coordinates(rank);
  ASSERT_EQ(coords.size(), grid.dims.size());
  for (std::size_t i = 0; i < coords.size(); ++i) {
    ASSERT_GE(coords[i], 0);
    ASSERT_LT(coords[i], grid.dims[i]);
  }
  ASSERT_EQ(horner_rank(grid, coords), rank);
  ASSERT_EQ(geometry.rank(coords), rank);
  // Whole laps around periodic dimensions name the same process.
  Coords lapped = coords;
  for (std::size_t i = 0; i < coords.size(); ++i) {
    if (grid.periods[i]) lapped[i] += uniform(rng, -1000, 1000) * grid.dims[i];
  }
  ASSERT_EQ(geometry.rank(lapped), rank);
}

void check_relative(const Grid& grid, const Geometry& geometry, int rank,
                    const Coords& offset) {
  const Coords coords = geometry.coordinates(rank);
  const int destination = geometry.relative_rank(rank, offset);
  ASSERT_EQ(destination, arithmetic_relative(grid, coords, offset, +1));
  const Shift shift = geometry.relative_shift(rank, offset);
  ASSERT_EQ(shift.destination, destination);
  ASSERT_EQ(shift.source, arithmetic_relative(grid, coords, offset, -1));
  // Shifting back along the same offset returns to `rank`.
  if (shift.source != proc_null) {
    ASSERT_EQ(geometry.relative_shift(shift.source, offset).destination, rank);
  }
  if (destination != proc_null) {
    ASSERT_EQ(geometry.relative_shift(destination, offset).source, rank);
    if (!has_int_min(offset)) {
      Coords negated(offset.size());
      std::transform(offset.begin(), offset.end(), negated.begin(),
                     [](int x) { return -x; });
      ASSERT_EQ(geometry.relative_rank(destination, negated), rank);
    }
  }
  // The canonical form of an offset reaches the same process.
  const Coords canonical = geometry.canonical_offset(offset);
  ASSERT_EQ(geometry.relative_rank(rank, canonical), destination);
}

void check_canonical(const Grid& grid, const Geometry& geometry, int source,
                     int dest, const Coords& offset) {
  const Coords relative = geometry.relative_coordinates(source, dest);
  ASSERT_EQ(geometry.relative_rank(source, relative), dest);
  const Coords canonical = geometry.canonical_offset(offset);
  for (std::size_t i = 0; i < grid.dims.size(); ++i) {
    const int n = grid.dims[i];
    if (!grid.periods[i]) {
      ASSERT_EQ(canonical[i], offset[i]);
      continue;
    }
    for (int value : {relative[i], canonical[i]}) {
      ASSERT_GE(value, -((n - 1) / 2));
      ASSERT_LE(value, n / 2);
    }
    ASSERT_EQ(modulo(static_cast<long long>(canonical[i]) - offset[i], n), 0);
  }
}

void check_unnamed(const Geometry& geometry, const Coords& offset,
                   std::mt19937& rng) {
  const int unnamed = geometry.size() + uniform(rng, 0, 100);
  ASSERT_EQ(geometry.relative_rank(unnamed, offset), proc_null);
  const Shift shift = geometry.relative_shift(unnamed, offset);
  ASSERT_EQ(shift.source, proc_null);
  ASSERT_EQ(shift.destination, proc_null);
  ASSERT_EQ(geometry.relative_rank(proc_null, offset), proc_null);
}

void check_lists(const Geometry& geometry, int rank, std::mt19937& rng) {
  const std::size_t d = geometry.dims().size();
  const int n = uniform(rng, 0, 4);
  Coords flat_offsets, flat_coords, expected_relative, expected_absolute;
  for (int k = 0; k < n; ++k) {
    const Coords offset = random_offsets(rng, d);
    flat_offsets.insert(flat_offsets.end(), offset.begin(), offset.end());
    expected_relative.push_back(geometry.relative_rank(rank, offset));
    const Coords coords =
        geometry.coordinates(uniform(rng, 0, geometry.size() - 1));
    flat_coords.insert(flat_coords.end(), coords.begin(), coords.end());
    expected_absolute.push_back(geometry.rank(coords));
  }
  Coords out(n);
  geometry.allranks_relative(rank, flat_offsets, out);
  ASSERT_EQ(out, expected_relative);
  geometry.allranks(flat_coords, out);
  ASSERT_EQ(out, expected_absolute);
  if (d > 0) {
    ASSERT_EQ(geometry.allranks_relative(rank, flat_offsets),
              expected_relative);
    ASSERT_EQ(geometry.allranks(flat_coords), expected_absolute);
  }
}

void check_valid_case(const Grid& grid, std::mt19937& rng) {
  const Geometry geometry(grid.dims, grid.period_span(), grid.order);
  const long long product = std::accumulate(grid.dims.begin(), grid.dims.end(),
                                            1LL, std::multiplies<>());
  ASSERT_EQ(geometry.size(), product);
  const int rank = uniform(rng, 0, geometry.size() - 1);
  const Coords offset = random_offsets(rng, grid.dims.size());
  check_round_trip(grid, geometry, rank, rng);
  check_relative(grid, geometry, rank, offset);
  check_canonical(grid, geometry, rank, uniform(rng, 0, geometry.size() - 1),
                  offset);
  check_unnamed(geometry, offset, rng);
  // The list forms only loop over the checked single forms: sample them.
  if (uniform(rng, 0, 3) == 0) check_lists(geometry, rank, rng);
}

TEST(GeometryFuzz, ValidInputsAgreeWithCoordinateArithmetic) {
  std::mt19937 rng(20210501);
  for (int i = 0; i < kValidCases; ++i) {
    const Grid grid = random_grid(rng);
    check_valid_case(grid, rng);
    // Described only on failure: building the text every case costs seconds.
    if (HasFatalFailure()) {
      FAIL() << "case " << i << ", " << grid.describe();
    }
  }
}

// ---- Invalid inputs ----

// A grid argument set that the constructor must reject, and the class.
struct BadGrid {
  Coords dims;
  std::unique_ptr<bool[]> periods;
  std::size_t periods_length;
  Coords order;
  ErrorClass expected;
};

BadGrid random_bad_grid(std::mt19937& rng) {
  Grid grid = random_grid(rng);
  BadGrid bad{grid.dims, std::move(grid.periods), grid.dims.size(), grid.order,
              ErrorClass::arg};
  const int d = static_cast<int>(bad.dims.size());
  switch (uniform(rng, 0, 4)) {
    case 0:  // A dimension that is not positive.
      bad.dims.push_back(uniform(rng, INT_MIN, 0));
      std::shuffle(bad.dims.begin(), bad.dims.end(), rng);
      bad.periods = std::make_unique<bool[]>(d + 1);
      bad.periods_length = d + 1;
      bad.order = naming::dimension_order_of(Order::row_major, d + 1);
      bad.expected = ErrorClass::dims;
      break;
    case 1:  // A product beyond INT_MAX: any two of these overflow.
      bad.dims.assign(uniform(rng, 2, 5), 0);
      for (int& n : bad.dims) n = uniform(rng, 46341, INT_MAX);
      bad.periods = std::make_unique<bool[]>(bad.dims.size());
      bad.periods_length = bad.dims.size();
      bad.order = naming::dimension_order_of(Order::column_major,
                                             static_cast<int>(bad.dims.size()));
      bad.expected = ErrorClass::dims;
      break;
    case 2:  // periods of the wrong length.
      bad.periods_length = d + 1;
      bad.periods = std::make_unique<bool[]>(d + 1);
      break;
    case 3:  // dimension_order of the wrong length.
      bad.order.push_back(static_cast<int>(d));
      break;
    default: {  // dimension_order with a value out of range or repeated.
      const int at = uniform(rng, 0, std::max(d, 1) - 1);
      const int choice = uniform(rng, 0, d > 1 ? 2 : 1);
      const int value = choice == 0   ? uniform(rng, INT_MIN, -1)
                        : choice == 1 ? uniform(rng, d, INT_MAX)
                                      : bad.order[(at + 1) % d];
      if (d == 0) {
        bad.order.push_back(value);
      } else {
        bad.order[at] = value;
      }
    }
  }
  return bad;
}

TEST(GeometryFuzz, InvalidGridsThrowTheirErrorClass) {
  std::mt19937 rng(424242);
  for (int i = 0; i < kInvalidCases; ++i) {
    const BadGrid bad = random_bad_grid(rng);
    const auto made = thrown_class([&] {
      Geometry(bad.dims,
               std::span<const bool>(bad.periods.get(), bad.periods_length),
               bad.order);
    });
    ASSERT_EQ(made, bad.expected) << "case " << i;
  }
}

// One random malformed call on a valid grid; returns the class it must throw.
ErrorClass random_bad_call(const Grid& grid, const Geometry& geometry,
                           std::mt19937& rng,
                           std::optional<ErrorClass>& thrown) {
  const int d = static_cast<int>(grid.dims.size());
  const int size = geometry.size();
  Coords wrong_length = random_offsets(rng, d + uniform(rng, 1, 3));
  if (d > 0 && uniform(rng, 0, 1) == 0)
    wrong_length.resize(uniform(rng, 0, d - 1));
  const int outside = uniform(rng, 0, 1) == 0 ? uniform(rng, INT_MIN, -1)
                                              : uniform(rng, size, INT_MAX);
  const int negative = uniform(rng, 0, 1) == 0 ? uniform(rng, INT_MIN, -3)
                                               : -1;  // Not proc_null (-2).
  switch (uniform(rng, 0, 8)) {
    case 0:
      thrown = thrown_class([&] { geometry.rank(wrong_length); });
      return ErrorClass::arg;
    case 1:
      thrown = thrown_class([&] { geometry.coordinates(outside); });
      return ErrorClass::rank;
    case 2:
      thrown = thrown_class([&] { geometry.relative_rank(0, wrong_length); });
      return ErrorClass::arg;
    case 3:
      thrown = thrown_class(
          [&] { geometry.relative_shift(negative, random_offsets(rng, d)); });
      return ErrorClass::rank;
    case 4:
      thrown = thrown_class([&] {
        geometry.relative_coordinates(uniform(rng, 0, 1) ? outside : 0,
                                      uniform(rng, 0, 1) ? outside : proc_null);
      });
      return ErrorClass::rank;
    case 5:
      thrown = thrown_class([&] { geometry.canonical_offset(wrong_length); });
      return ErrorClass::arg;
    case 6:
      thrown = thrown_class([&] {
        geometry.periodic(uniform(rng, 0, 1) ? uniform(rng, INT_MIN, -1)
                                             : uniform(rng, d, INT_MAX));
      });
      return ErrorClass::dims;
    case 7: {
      // A flat list one element short of (or past) a whole number of vectors.
      Coords flat = random_offsets(rng, d * uniform(rng, 1, 3) + 1);
      if (d == 1) {
        Coords out(flat.size() + 1);
        thrown =
            thrown_class([&] { geometry.allranks_relative(0, flat, out); });
      } else {
        thrown = thrown_class([&] { geometry.allranks_relative(0, flat); });
      }
      return ErrorClass::count;
    }
    default: {
      // An off-grid coordinate in a non-periodic dimension, if there is one.
      Coords coords = geometry.coordinates(uniform(rng, 0, size - 1));
      for (int i = 0; i < d; ++i) {
        if (grid.periods[i]) continue;
        coords[i] = uniform(rng, 0, 1) ? uniform(rng, INT_MIN, -1)
                                       : uniform(rng, grid.dims[i], INT_MAX);
        thrown = thrown_class([&] { geometry.allranks(coords); });
        return ErrorClass::rank;
      }
      thrown = thrown_class([&] { geometry.rank(wrong_length); });
      return ErrorClass::arg;
    }
  }
}

TEST(GeometryFuzz, InvalidCallsThrowTheirErrorClass) {
  std::mt19937 rng(777);
  for (int i = 0; i < kInvalidCases; ++i) {
    const Grid grid = random_grid(rng);
    const Geometry geometry(grid.dims, grid.period_span(), grid.order);
    std::optional<ErrorClass> thrown;
    const ErrorClass expected = random_bad_call(grid, geometry, rng, thrown);
    ASSERT_EQ(thrown, expected) << "case " << i << ", " << grid.describe();
  }
}

}  // namespace
