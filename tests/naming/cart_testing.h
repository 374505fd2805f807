// Helpers shared by the tests of naming's communicator part: grids that fit
// the process count, an odometer oracle for rank order, error capture.
#ifndef ORTHOCOMM_TESTS_NAMING_CART_TESTING_H_
#define ORTHOCOMM_TESTS_NAMING_CART_TESTING_H_

#include <array>
#include <cstddef>
#include <functional>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "tests/testing/errors.h"

namespace cart_testing {

using Coords = std::vector<int>;

// A grid spelled as cart_name takes it. periods() views the first
// dims.size() flags (std::vector<bool> cannot give a span<const bool>).
struct Grid {
  Coords dims;
  std::array<bool, 4> period_flags{};
  Coords order;  // dimension order, slowest- to fastest-varying

  std::span<const bool> periods() const {
    return {period_flags.data(), dims.size()};
  }
  int size() const {
    return std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<>());
  }
};

inline Coords identity(std::size_t d) {
  Coords order(d);
  std::iota(order.begin(), order.end(), 0);
  return order;
}

inline Coords reversed(std::size_t d) {
  Coords order(d);
  std::iota(order.rbegin(), order.rend(), 0);
  return order;
}

// The largest divisor a of n with a * a <= n, and n / a.
inline Coords two_factors(int n) {
  int a = 1;
  for (int f = 1; f * f <= n; ++f) {
    if (n % f == 0) a = f;
  }
  return {a, n / a};
}

// Three extents whose product is n: two_factors of n's larger factor, after
// the smaller one (1x1x1, 2x1x2, 2x1x3, 3x2x2 for 1, 4, 6, 12).
inline Coords three_factors(int n) {
  const Coords outer = two_factors(n);
  const Coords inner = two_factors(outer[1]);
  return {outer[0], inner[0], inner[1]};
}

// Every coordinate vector of the grid in rank order: an odometer whose
// fastest wheel is order.back(). Independent of naming::Geometry.
inline std::vector<Coords> enumerate(const Coords& dims, const Coords& order) {
  std::vector<Coords> all;
  Coords wheel(dims.size(), 0);
  while (true) {
    all.push_back(wheel);
    int k = static_cast<int>(order.size()) - 1;
    for (; k >= 0; --k) {
      const int dim = order[static_cast<std::size_t>(k)];
      if (++wheel[dim] < dims[dim]) break;
      wheel[dim] = 0;
    }
    if (k < 0) return all;
  }
}

using orthocomm_test::Thrown;
using orthocomm_test::thrown_by;

}  // namespace cart_testing

#endif  // ORTHOCOMM_TESTS_NAMING_CART_TESTING_H_
