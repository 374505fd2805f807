#include "stencils/neighborhood.h"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "classic/base/error.h"

namespace stencils {
namespace {

using classic::ErrorClass;

// The shell shadow <= distance <= depth, validated.
struct Shell {
  Metric metric;
  std::int64_t shadow;
  std::int64_t depth;
};

// Inclusive bounds on one component of an offset.
struct Range {
  std::int64_t low;
  std::int64_t high;
};

void check_metric(Metric metric, const char* function) {
  if (metric == Metric::manhattan || metric == Metric::chebyshev) return;
  throw classic::Error(ErrorClass::arg, function,
                       "metric = " + std::to_string(static_cast<int>(metric)) +
                           " is neither manhattan nor chebyshev");
}

Shell checked_shell(int ndims, Metric metric, int shadow, int depth,
                    const char* function) {
  if (ndims < 0) {
    throw classic::Error(ErrorClass::dims, function,
                         "ndims = " + std::to_string(ndims) + " is negative");
  }
  check_metric(metric, function);
  if (depth < 0) {
    throw classic::Error(ErrorClass::arg, function,
                         "depth = " + std::to_string(depth) + " is negative");
  }
  if (shadow < 0) {
    throw classic::Error(ErrorClass::arg, function,
                         "shadow = " + std::to_string(shadow) + " is negative");
  }
  return {metric, shadow, depth};
}

[[noreturn]] void fail_too_many(const char* function) {
  throw classic::Error(ErrorClass::count, function,
                       "the neighbourhood has more than INT_MAX = " +
                           std::to_string(INT_MAX) + " offsets");
}

// The distance of a prefix extended by one component.
std::int64_t extend(Metric metric, std::int64_t used, std::int64_t component) {
  const std::int64_t magnitude = component < 0 ? -component : component;
  return metric == Metric::manhattan ? used + magnitude
                                     : std::max(used, magnitude);
}

// ---- Closed-form ball sizes, saturating at kCap. ----
// If a ball of radius depth (<= INT_MAX) holds kCap = 2^64 points or more,
// every non-empty shell of that depth holds more than INT_MAX: its outer
// layer has at least ball / (2 depth + 1) > 2^32 points. So saturation loses
// nothing that could be returned as an int.
using Wide = unsigned __int128;
constexpr Wide kCap = Wide{1} << 64;

Wide chebyshev_ball(int ndims, std::int64_t radius) {
  Wide points = 1;
  for (int k = 0; k < ndims && points < kCap; ++k) {
    points *= static_cast<Wide>(2 * radius + 1);  // <= 2^64 * 2^32.
  }
  return std::min(points, kCap);
}

// sum over k of 2^k C(d,k) C(r,k): choose k non-zero components and their
// signs, then split the remaining distance budget among them.
Wide manhattan_ball(int ndims, std::int64_t radius) {
  Wide sum = 1;
  Wide term = 1;
  const std::int64_t last = std::min<std::int64_t>(ndims, radius);
  for (std::int64_t k = 1; k <= last && sum < kCap; ++k) {
    // term_k = term_{k-1} * 2 (d-k+1) (r-k+1) / k^2, exactly; the product is
    // below 2^64 * 2^63 and so fits.
    term = term * 2 * static_cast<Wide>(ndims - k + 1) *
           static_cast<Wide>(radius - k + 1) / static_cast<Wide>(k * k);
    sum += std::min(term, kCap);
  }
  return std::min(sum, kCap);
}

Wide ball(int ndims, Metric metric, std::int64_t radius) {
  if (radius < 0) return 0;
  return metric == Metric::manhattan ? manhattan_ball(ndims, radius)
                                     : chebyshev_ball(ndims, radius);
}

// ---- Enumeration of a shell clipped to per-dimension ranges. ----

// Calls on_run(prefix, low, high) for each maximal run [low, high] of valid
// last components, in ascending order; stops early when on_run returns false.
template <class OnRun>
bool last_dimension_runs(const Shell& shell, Range range, std::int64_t used,
                         OnRun& on_run) {
  // Valid last components x: band_low <= |x| <= band_high.
  std::int64_t band_low;
  std::int64_t band_high;
  if (shell.metric == Metric::manhattan) {
    band_low = std::max(std::int64_t{0}, shell.shadow - used);
    band_high = shell.depth - used;
  } else {
    band_low = used >= shell.shadow ? 0 : shell.shadow;
    band_high = shell.depth;
  }
  auto run = [&](std::int64_t low, std::int64_t high) {
    low = std::max(low, range.low);
    high = std::min(high, range.high);
    return low > high || on_run(low, high);
  };
  if (band_low > band_high) return true;
  if (band_low == 0) return run(-band_high, band_high);
  return run(-band_high, -band_low) && run(band_low, band_high);
}

// Walks the offsets x with x_k in ranges[k] and x in the shell, in
// lexicographic order; on_run(prefix, low, high) receives the first d-1
// components and a run of last components. Iterative, so a huge ndims cannot
// exhaust the stack. Requires ranges.size() >= 1.
template <class OnRun>
void walk_shell(const Shell& shell, std::span<const Range> ranges,
                OnRun on_run) {
  const int d = static_cast<int>(ranges.size());
  std::vector<int> prefix(d - 1);
  std::vector<std::int64_t> high(d - 1);
  std::vector<std::int64_t> used(d, 0);  // used[k]: distance of prefix[0, k).
  // Opens level k at its lowest value; false if it has no value.
  auto enter = [&](int k) {
    const std::int64_t reach =
        shell.metric == Metric::manhattan ? shell.depth - used[k] : shell.depth;
    const std::int64_t low = std::max(ranges[k].low, -reach);
    high[k] = std::min(ranges[k].high, reach);
    if (low > high[k]) return false;
    prefix[k] = static_cast<int>(low);
    used[k + 1] = extend(shell.metric, used[k], low);
    return true;
  };
  auto emit = [&](std::int64_t low, std::int64_t high_end) {
    return on_run(std::span<const int>(prefix), low, high_end);
  };
  int k = 0;
  while (true) {
    bool entered = true;
    while (entered && k < d - 1) {
      entered = enter(k);
      if (entered) ++k;
    }
    if (entered &&
        !last_dimension_runs(shell, ranges[d - 1], used[d - 1], emit)) {
      return;
    }
    // Backtrack to the deepest open level that has a next value.
    do {
      if (--k < 0) return;
    } while (prefix[k] >= high[k]);
    ++prefix[k];
    used[k + 1] = extend(shell.metric, used[k], prefix[k]);
    ++k;
  }
}

// Number of offsets in the clipped shell; throws count above INT_MAX.
int count_clipped(const Shell& shell, std::span<const Range> ranges,
                  const char* function) {
  if (ranges.empty()) return shell.shadow == 0 ? 1 : 0;
  std::int64_t count = 0;
  walk_shell(shell, ranges,
             [&](std::span<const int>, std::int64_t low, std::int64_t high) {
               count += high - low + 1;
               return count <= INT_MAX;
             });
  if (count > INT_MAX) fail_too_many(function);
  return static_cast<int>(count);
}

Stencil enumerate_clipped(const Shell& shell, std::span<const Range> ranges,
                          int count, const char* function) {
  const int d = static_cast<int>(ranges.size());
  if (static_cast<std::int64_t>(count) * d > INT_MAX) {
    // An MPI-style caller could not even size an int array for it.
    throw classic::Error(ErrorClass::count, function,
                         std::to_string(count) +
                             " offsets of ndims = " + std::to_string(d) +
                             " need more than INT_MAX ints");
  }
  Stencil stencil(d);
  if (d == 0) {
    if (count == 1) stencil.push_back({});
    return stencil;
  }
  std::vector<int> flat;
  flat.reserve(static_cast<std::size_t>(count) * d);
  walk_shell(
      shell, ranges,
      [&](std::span<const int> prefix, std::int64_t low, std::int64_t high) {
        for (std::int64_t x = low; x <= high; ++x) {
          flat.insert(flat.end(), prefix.begin(), prefix.end());
          flat.push_back(static_cast<int>(x));
        }
        return true;
      });
  return Stencil(d, std::move(flat));
}

// The per-dimension ranges that keep rank's neighbours on the grid.
std::vector<Range> grid_ranges(const naming::Geometry& geometry, int rank,
                               std::int64_t depth, const char* function) {
  if (rank < 0 || rank >= geometry.size()) {
    throw classic::Error(ErrorClass::rank, function,
                         "rank = " + std::to_string(rank) + " is outside [0, " +
                             std::to_string(geometry.size()) + ")");
  }
  const std::vector<int> coords = geometry.coordinates(rank);
  std::vector<Range> ranges(geometry.ndims(), Range{-depth, depth});
  for (int k = 0; k < geometry.ndims(); ++k) {
    if (geometry.periodic(k)) continue;
    ranges[k].low =
        std::max(ranges[k].low, -static_cast<std::int64_t>(coords[k]));
    ranges[k].high = std::min<std::int64_t>(
        ranges[k].high, geometry.dims()[k] - std::int64_t{1} - coords[k]);
  }
  return ranges;
}

}  // namespace

std::int64_t distance(Metric metric, std::span<const int> offset) {
  check_metric(metric, "stencils::distance");
  std::int64_t result = 0;
  for (int component : offset) result = extend(metric, result, component);
  return result;
}

int cart_neighbors_count(int ndims, Metric metric, int shadow, int depth) {
  constexpr const char* kFunction = "stencils::cart_neighbors_count";
  const Shell shell = checked_shell(ndims, metric, shadow, depth, kFunction);
  if (shell.shadow > shell.depth) return 0;
  const Wide outer = ball(ndims, metric, shell.depth);
  if (outer >= kCap) fail_too_many(kFunction);
  const Wide points = outer - ball(ndims, metric, shell.shadow - 1);
  if (points > static_cast<Wide>(INT_MAX)) fail_too_many(kFunction);
  return static_cast<int>(points);
}

Stencil cart_stencil(int ndims, Metric metric, int shadow, int depth) {
  constexpr const char* kFunction = "stencils::cart_stencil";
  const Shell shell = checked_shell(ndims, metric, shadow, depth, kFunction);
  const int count = cart_neighbors_count(ndims, metric, shadow, depth);
  const std::vector<Range> ranges(ndims, Range{-shell.depth, shell.depth});
  return enumerate_clipped(shell, ranges, count, kFunction);
}

Stencil stencil_difference(const Stencil& a, const Stencil& b) {
  if (a.ndims() != b.ndims()) {
    throw classic::Error(
        ErrorClass::dims, "stencils::stencil_difference",
        "a.ndims() = " + std::to_string(a.ndims()) +
            " differs from b.ndims() = " + std::to_string(b.ndims()));
  }
  std::set<std::vector<int>> removed;
  for (int i = 0; i < b.size(); ++i) {
    const auto offset = b.offset(i);
    removed.emplace(offset.begin(), offset.end());
  }
  Stencil result(a.ndims());
  for (int i = 0; i < a.size(); ++i) {
    const auto offset = a.offset(i);
    if (!removed.contains(std::vector<int>(offset.begin(), offset.end()))) {
      result.push_back(offset);
    }
  }
  return result;
}

Stencil cart_neighbors(const naming::Geometry& geometry, int rank,
                       Metric metric, int shadow, int depth) {
  constexpr const char* kFunction = "stencils::cart_neighbors";
  const Shell shell =
      checked_shell(geometry.ndims(), metric, shadow, depth, kFunction);
  const auto ranges = grid_ranges(geometry, rank, depth, kFunction);
  if (shell.shadow > shell.depth) return Stencil(geometry.ndims());
  return enumerate_clipped(shell, ranges,
                           count_clipped(shell, ranges, kFunction), kFunction);
}

std::vector<int> cart_neighbor_ranks(const naming::Geometry& geometry, int rank,
                                     Metric metric, int shadow, int depth) {
  const Stencil offsets = cart_neighbors(geometry, rank, metric, shadow, depth);
  std::vector<int> ranks(offsets.size());
  geometry.allranks_relative(rank, offsets.flat(), ranks);
  return ranks;
}

int cart_neighbors_count(const naming::Geometry& geometry, int rank,
                         Metric metric, int shadow, int depth) {
  constexpr const char* kFunction = "stencils::cart_neighbors_count";
  const Shell shell =
      checked_shell(geometry.ndims(), metric, shadow, depth, kFunction);
  const auto ranges = grid_ranges(geometry, rank, depth, kFunction);
  if (shell.shadow > shell.depth) return 0;
  return count_clipped(shell, ranges, kFunction);
}

}  // namespace stencils
