#include "classic/topology/dims_create.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "classic/base/error.h"

namespace classic {
namespace {

constexpr std::string_view kFunction = "classic::dims_create";

// What is left for the free entries once the fixed ones are divided out.
struct FreePart {
  int nodes;          // m: the product the free entries must reach
  std::size_t count;  // k: the number of free entries
};

[[noreturn]] void fail(ErrorClass error_class, const std::string& detail) {
  throw Error(error_class, kFunction, detail);
}

// The product of the fixed entries, for messages only; it is saturated once
// it passes nnodes so that it cannot overflow.
std::string fixed_product_text(int nnodes, std::span<const int> dims) {
  std::int64_t product = 1;
  for (int entry : dims) {
    if (entry > 0) product *= entry;
    if (product > nnodes) return "more than " + std::to_string(nnodes);
  }
  return std::to_string(product);
}

// Argument validation, kept apart from the algorithm it guards. Dividing the
// fixed entries out one at a time is exact and cannot overflow: their product
// divides nnodes exactly when every step divides.
FreePart free_part(int nnodes, std::span<const int> dims) {
  if (nnodes < 1) {
    fail(ErrorClass::arg,
         "nnodes = " + std::to_string(nnodes) + " must be positive");
  }
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      fail(ErrorClass::dims, "dims[" + std::to_string(i) + "] = " +
                                 std::to_string(dims[i]) + " is negative");
    }
  }
  FreePart part{nnodes, 0};
  for (int entry : dims) {
    if (entry == 0) {
      ++part.count;
    } else if (part.nodes % entry != 0) {
      fail(ErrorClass::dims,
           "nnodes = " + std::to_string(nnodes) +
               " is not a multiple of the product of the fixed entries of "
               "dims (" +
               fixed_product_text(nnodes, dims) + ")");
    } else {
      part.nodes /= entry;
    }
  }
  if (part.count == 0 && part.nodes != 1) {
    fail(ErrorClass::dims,
         "no entry of dims is free (ndims = " + std::to_string(dims.size()) +
             ") and the fixed entries multiply to " +
             fixed_product_text(nnodes, dims) +
             ", not nnodes = " + std::to_string(nnodes));
  }
  return part;
}

// Prime factors of m >= 1, non-decreasing, by trial division with 2, 3 and
// then 6i - 1, 6i + 1 up to sqrt(m): under 16,000 divisions for any int.
std::vector<int> prime_factors(int m) {
  std::vector<int> primes;
  auto divide_out = [&](int p) {
    while (m % p == 0) {
      primes.push_back(p);
      m /= p;
    }
  };
  divide_out(2);
  divide_out(3);
  for (int p = 5; std::int64_t{p} * p <= m; p += 6) {
    divide_out(p);
    divide_out(p + 2);
  }
  if (m > 1) primes.push_back(m);
  return primes;
}

// All divisors of the number whose prime factors are given, ascending.
std::vector<int> divisors(std::span<const int> primes) {
  std::vector<int> result = {1};
  for (std::size_t i = 0; i < primes.size();) {
    const int p = primes[i];
    std::size_t multiplicity = 0;
    while (i < primes.size() && primes[i] == p) ++multiplicity, ++i;
    const std::size_t previous = result.size();
    int power = 1;
    for (std::size_t e = 0; e < multiplicity; ++e) {
      power *= p;
      for (std::size_t j = 0; j < previous; ++j) {
        result.push_back(result[j] * power);
      }
    }
  }
  std::sort(result.begin(), result.end());
  return result;
}

// True when x^j > limit (x >= 1); stops multiplying as soon as it is, so
// nothing overflows for x, limit < 2^31.
bool power_exceeds(std::int64_t x, int j, std::int64_t limit) {
  std::int64_t power = 1;
  for (int i = 0; i < j; ++i) {
    power *= x;
    if (power > limit) return true;
  }
  return false;
}

// The largest x with x^j <= r (r, j >= 1): a floating-point guess, corrected
// exactly.
std::int64_t floor_root(std::int64_t r, int j) {
  if (j == 1) return r;
  auto x = static_cast<std::int64_t>(
      std::pow(static_cast<double>(r), 1.0 / static_cast<double>(j)));
  x = std::max<std::int64_t>(x, 1);
  while (x > 1 && power_exceeds(x, j, r)) --x;
  while (!power_exceeds(x + 1, j, r)) ++x;
  return x;
}

// The smallest x with x^j >= r (r, j >= 1).
std::int64_t ceil_root(std::int64_t r, int j) {
  const std::int64_t x = floor_root(r, j);
  const bool exact = power_exceeds(x, j, r - 1);  // x^j <= r, so x^j == r
  return exact ? x : x + 1;
}

// Exact branch and bound for the most balanced non-increasing k-tuple with
// product m (the order defined in dims_create.h), for 1 <= k < (number of
// prime factors of m).
//
// Why the answer is the optimum: the depth-first search picks the entries
// f_1, f_2, ... in turn, each level trying divisors in ascending order, so it
// meets complete tuples in lexicographic order. It records a tuple only when
// its spread is strictly smaller than the best recorded so far. It skips a
// candidate f only when no completion exists (f^slots < remaining, f above
// the previous entry, or a prime factor of remaining / f above f, which could
// sit in no entry <= f), or when every completion has spread >= the best
// recorded spread: the last entry of a completion is at most the
// (slots - 1)-th root of remaining / f, so its spread is at least
// f_1 - that root. That bound grows with f, which is why the loop may stop.
// Let T* be the lexicographically first tuple of minimal spread S*. The
// bound never exceeds S* along T*'s path, and before T* no tuple of spread
// S* was recorded, so T*'s path is never cut; T* is recorded when met
// (everything earlier has spread > S*) and nothing later beats it.
class BalancedSearch {
 public:
  BalancedSearch(int m, int k, std::span<const int> primes)
      : m_(m),
        k_(k),
        divisors_(divisors(primes)),
        distinct_primes_(primes.begin(), primes.end()) {
    distinct_primes_.erase(
        std::unique(distinct_primes_.begin(), distinct_primes_.end()),
        distinct_primes_.end());
    current_.reserve(static_cast<std::size_t>(k));
  }

  std::vector<int> most_balanced() {
    extend(m_, k_, m_);
    return best_;
  }

 private:
  void extend(std::int64_t remaining, int slots, std::int64_t cap) {
    if (slots == 0) {
      record();
      return;
    }
    const std::int64_t lowest = ceil_root(remaining, slots);
    auto it = std::lower_bound(divisors_.begin(), divisors_.end(), lowest);
    for (; it != divisors_.end() && *it <= cap; ++it) {
      const std::int64_t f = *it;
      if (remaining % f != 0) continue;
      const std::int64_t rest = remaining / f;
      const std::int64_t first = current_.empty() ? f : current_.front();
      const std::int64_t last_at_most =
          slots == 1 ? f : floor_root(rest, slots - 1);
      if (first - last_at_most >= best_spread_) break;
      if (has_prime_above(rest, f)) continue;
      current_.push_back(static_cast<int>(f));
      extend(rest, slots - 1, f);
      current_.pop_back();
    }
  }

  bool has_prime_above(std::int64_t value, std::int64_t bound) const {
    return std::any_of(distinct_primes_.begin(), distinct_primes_.end(),
                       [&](int p) { return p > bound && value % p == 0; });
  }

  void record() {
    const std::int64_t spread = current_.front() - current_.back();
    if (spread < best_spread_) {
      best_spread_ = spread;
      best_ = current_;
    }
  }

  int m_;
  int k_;
  std::vector<int> divisors_;
  std::vector<int> distinct_primes_;
  std::vector<int> current_;
  std::vector<int> best_;
  std::int64_t best_spread_ = std::numeric_limits<std::int64_t>::max();
};

// The most balanced non-increasing tuple of part.count entries with product
// part.nodes.
std::vector<int> most_balanced(FreePart part) {
  if (part.count == 0) return {};
  const std::vector<int> primes = prime_factors(part.nodes);
  // With an entry for every prime factor, the largest prime alone is the
  // smallest possible largest entry, the next prime the smallest possible
  // second entry, and so on; any other tuple holds a 1 (or, with exactly as
  // many entries as primes, is this one), so none has a smaller spread.
  if (part.count >= primes.size()) {
    std::vector<int> tuple(primes.rbegin(), primes.rend());
    tuple.resize(part.count, 1);
    return tuple;
  }
  return BalancedSearch(part.nodes, static_cast<int>(part.count), primes)
      .most_balanced();
}

}  // namespace

std::vector<int> dims_create(int nnodes, std::span<const int> dims) {
  const FreePart part = free_part(nnodes, dims);
  const std::vector<int> free_entries = most_balanced(part);
  std::vector<int> result(dims.begin(), dims.end());
  auto next = free_entries.begin();
  for (int& entry : result) {
    if (entry == 0) entry = *next++;
  }
  return result;
}

}  // namespace classic
