#include "naming/geometry.h"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>

#include "classic/base/constants.h"
#include "classic/base/error.h"

namespace naming {
namespace {

using classic::ErrorClass;

[[noreturn]] void fail(ErrorClass error_class, const char* function,
                       const std::string& detail) {
  throw classic::Error(error_class, function, detail);
}

std::string element(const char* name, std::size_t index) {
  return std::string(name) + "[" + std::to_string(index) + "]";
}

std::string range(std::int64_t end) {
  return "[0, " + std::to_string(end) + ")";
}

// `value` modulo `n` in [0, n); 64-bit so that no int offset overflows.
std::int64_t wrap(std::int64_t value, int n) {
  const std::int64_t remainder = value % n;
  return remainder < 0 ? remainder + n : remainder;
}

// Validation of the constructor's arguments, kept apart from the layout.
void check_dims(std::span<const int> dims, std::span<const bool> periods) {
  constexpr const char* kFunction = "naming::Geometry::Geometry";
  if (dims.size() > static_cast<std::size_t>(INT_MAX)) {
    fail(ErrorClass::dims, kFunction,
         "ndims = " + std::to_string(dims.size()) + " does not fit in int");
  }
  if (periods.size() != dims.size()) {
    fail(ErrorClass::arg, kFunction,
         "periods has " + std::to_string(periods.size()) +
             " elements but dims has " + std::to_string(dims.size()));
  }
  std::int64_t product = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 1) {
      fail(ErrorClass::dims, kFunction,
           element("dims", i) + " = " + std::to_string(dims[i]) +
               " is not positive");
    }
    product *= dims[i];  // Both factors <= INT_MAX: fits in std::int64_t.
    if (product > INT_MAX) {
      fail(ErrorClass::dims, kFunction,
           "the product of dims[0.." + std::to_string(i) +
               "] exceeds INT_MAX = " + std::to_string(INT_MAX));
    }
  }
}

void check_permutation(std::span<const int> dimension_order,
                       std::size_t ndims) {
  constexpr const char* kFunction = "naming::Geometry::Geometry";
  if (dimension_order.size() != ndims) {
    fail(ErrorClass::arg, kFunction,
         "dimension_order has " + std::to_string(dimension_order.size()) +
             " elements but dims has " + std::to_string(ndims));
  }
  // first_seen[v]: where value v first appeared, or ndims if not yet.
  std::vector<std::size_t> first_seen(ndims, ndims);
  for (std::size_t i = 0; i < ndims; ++i) {
    const int value = dimension_order[i];
    const std::string name =
        element("dimension_order", i) + " = " + std::to_string(value);
    if (value < 0 || static_cast<std::size_t>(value) >= ndims) {
      fail(ErrorClass::arg, kFunction,
           name + " is outside " + range(static_cast<std::int64_t>(ndims)));
    }
    if (first_seen[value] != ndims) {
      fail(ErrorClass::arg, kFunction,
           name + " repeats " + element("dimension_order", first_seen[value]));
    }
    first_seen[value] = i;
  }
}

}  // namespace

std::vector<int> dimension_order_of(Order order, int ndims) {
  constexpr const char* kFunction = "naming::dimension_order_of";
  if (ndims < 0) {
    fail(ErrorClass::dims, kFunction,
         "ndims = " + std::to_string(ndims) + " is negative");
  }
  std::vector<int> permutation(ndims);
  std::iota(permutation.begin(), permutation.end(), 0);
  switch (order) {
    case Order::row_major:
      return permutation;
    case Order::column_major:
      std::reverse(permutation.begin(), permutation.end());
      return permutation;
  }
  fail(ErrorClass::arg, kFunction,
       "order = " + std::to_string(static_cast<int>(order)) +
           " is neither row_major nor column_major");
}

Geometry::Geometry(std::span<const int> dims, std::span<const bool> periods,
                   Order order) {
  check_dims(dims, periods);  // Before ndims is trusted to fit in int.
  const std::vector<int> permutation =
      dimension_order_of(order, static_cast<int>(dims.size()));
  build(dims, periods, permutation);
}

Geometry::Geometry(std::span<const int> dims, std::span<const bool> periods,
                   std::span<const int> dimension_order) {
  check_dims(dims, periods);
  check_permutation(dimension_order, dims.size());
  build(dims, periods, dimension_order);
}

void Geometry::build(std::span<const int> dims, std::span<const bool> periods,
                     std::span<const int> dimension_order) {
  dims_.assign(dims.begin(), dims.end());
  auto period_copy = std::make_shared<bool[]>(dims.size());
  std::copy(periods.begin(), periods.end(), period_copy.get());
  periods_ = std::move(period_copy);
  dimension_order_.assign(dimension_order.begin(), dimension_order.end());
  // Mixed radix: the fastest dimension (listed last) has stride 1.
  stride_.assign(dims_.size(), 1);
  int stride = 1;
  for (auto it = dimension_order_.rbegin(); it != dimension_order_.rend();
       ++it) {
    stride_[*it] = stride;
    stride *= dims_[*it];
  }
  size_ = stride;
}

bool Geometry::periodic(int dim) const {
  if (dim < 0 || dim >= ndims()) {
    fail(ErrorClass::dims, "naming::Geometry::periodic",
         "dim = " + std::to_string(dim) + " is outside " + range(ndims()));
  }
  return periods_[dim];
}

int Geometry::rank(std::span<const int> coords) const {
  constexpr const char* kFunction = "naming::Geometry::rank";
  check_length(coords.size(), "coords", kFunction);
  return rank_of(coords, "coords", 0, kFunction);
}

std::vector<int> Geometry::coordinates(int rank) const {
  std::vector<int> coords(dims_.size());
  coordinates(rank, coords);
  return coords;
}

void Geometry::coordinates(int rank, std::span<int> out) const {
  constexpr const char* kFunction = "naming::Geometry::coordinates";
  check_length(out.size(), "out", kFunction);
  check_named(rank, "rank", kFunction);
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    out[i] = rank / stride_[i] % dims_[i];
  }
}

int Geometry::relative_rank(int source, std::span<const int> offset) const {
  constexpr const char* kFunction = "naming::Geometry::relative_rank";
  check_length(offset.size(), "offset", kFunction);
  return moved_rank(source, offset, +1, kFunction);
}

std::vector<int> Geometry::relative_coordinates(int source, int dest) const {
  std::vector<int> relative(dims_.size());
  relative_coordinates(source, dest, relative);
  return relative;
}

void Geometry::relative_coordinates(int source, int dest,
                                    std::span<int> out) const {
  constexpr const char* kFunction = "naming::Geometry::relative_coordinates";
  check_length(out.size(), "out", kFunction);
  check_named(source, "source", kFunction);
  check_named(dest, "dest", kFunction);
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    const int difference =
        dest / stride_[i] % dims_[i] - source / stride_[i] % dims_[i];
    out[i] = canonical_component(i, difference);
  }
}

std::vector<int> Geometry::canonical_offset(std::span<const int> offset) const {
  std::vector<int> canonical(dims_.size());
  canonical_offset(offset, canonical);
  return canonical;
}

void Geometry::canonical_offset(std::span<const int> offset,
                                std::span<int> out) const {
  constexpr const char* kFunction = "naming::Geometry::canonical_offset";
  check_length(offset.size(), "offset", kFunction);
  check_length(out.size(), "out", kFunction);
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    out[i] = canonical_component(i, offset[i]);
  }
}

Shift Geometry::relative_shift(int rank, std::span<const int> offset) const {
  constexpr const char* kFunction = "naming::Geometry::relative_shift";
  check_length(offset.size(), "offset", kFunction);
  return {moved_rank(rank, offset, -1, kFunction),
          moved_rank(rank, offset, +1, kFunction)};
}

std::vector<int> Geometry::allranks(std::span<const int> flat_coords) const {
  std::vector<int> ranks(flat_count(flat_coords.size(), "flat_coords",
                                    "naming::Geometry::allranks"));
  allranks(flat_coords, ranks);
  return ranks;
}

void Geometry::allranks(std::span<const int> flat_coords,
                        std::span<int> ranks) const {
  constexpr const char* kFunction = "naming::Geometry::allranks";
  check_flat(flat_coords.size(), "flat_coords", ranks.size(), kFunction);
  const std::size_t d = dims_.size();
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    ranks[k] =
        rank_of(flat_coords.subspan(k * d, d), "flat_coords", k * d, kFunction);
  }
}

std::vector<int> Geometry::allranks_relative(
    int source, std::span<const int> flat_offsets) const {
  std::vector<int> ranks(flat_count(flat_offsets.size(), "flat_offsets",
                                    "naming::Geometry::allranks_relative"));
  allranks_relative(source, flat_offsets, ranks);
  return ranks;
}

void Geometry::allranks_relative(int source, std::span<const int> flat_offsets,
                                 std::span<int> ranks) const {
  constexpr const char* kFunction = "naming::Geometry::allranks_relative";
  check_flat(flat_offsets.size(), "flat_offsets", ranks.size(), kFunction);
  if (!is_named_source(source, kFunction)) {
    std::fill(ranks.begin(), ranks.end(), classic::proc_null);
    return;
  }
  const std::size_t d = dims_.size();
  for (std::size_t k = 0; k < ranks.size(); ++k) {
    ranks[k] =
        moved_rank(source, flat_offsets.subspan(k * d, d), +1, kFunction);
  }
}

bool operator==(const Geometry& a, const Geometry& b) {
  return a.dims_ == b.dims_ && a.dimension_order_ == b.dimension_order_ &&
         std::ranges::equal(a.periods(), b.periods());
}

int Geometry::rank_of(std::span<const int> coords, const char* name,
                      std::size_t first, const char* function) const {
  int rank = 0;
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    std::int64_t coordinate = coords[i];
    if (periods()[i]) {
      coordinate = wrap(coordinate, dims_[i]);
    } else if (coordinate < 0 || coordinate >= dims_[i]) {
      fail(ErrorClass::rank, function,
           element(name, first + i) + " = " + std::to_string(coordinate) +
               " in non-periodic dimension " + std::to_string(i) +
               " is outside " + range(dims_[i]));
    }
    rank += static_cast<int>(coordinate) * stride_[i];
  }
  return rank;
}

int Geometry::moved_rank(int source, std::span<const int> offset,
                         std::int64_t sign, const char* function) const {
  if (!is_named_source(source, function)) return classic::proc_null;
  int rank = 0;
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    // |sign * offset| <= 2^31: the sum cannot overflow std::int64_t.
    std::int64_t coordinate = source / stride_[i] % dims_[i] + sign * offset[i];
    if (periods()[i]) {
      coordinate = wrap(coordinate, dims_[i]);
    } else if (coordinate < 0 || coordinate >= dims_[i]) {
      return classic::proc_null;
    }
    rank += static_cast<int>(coordinate) * stride_[i];
  }
  return rank;
}

bool Geometry::is_named_source(int source, const char* function) const {
  if (source == classic::proc_null) return false;
  if (source < 0) {
    fail(ErrorClass::rank, function,
         "source = " + std::to_string(source) +
             " is negative and not proc_null");
  }
  return source < size_;
}

void Geometry::check_named(int rank, const char* name,
                           const char* function) const {
  if (rank >= 0 && rank < size_) return;
  std::string detail = std::string(name) + " = " + std::to_string(rank);
  if (rank == classic::proc_null) {
    detail += " (proc_null) has no coordinates";
  } else if (rank >= size_) {
    detail += " is unnamed: outside " + range(size_);
  } else {
    detail += " is outside " + range(size_);
  }
  fail(ErrorClass::rank, function, detail);
}

void Geometry::check_length(std::size_t length, const char* name,
                            const char* function) const {
  if (length == dims_.size()) return;
  fail(ErrorClass::arg, function,
       std::string(name) + " has " + std::to_string(length) +
           " elements but ndims = " + std::to_string(dims_.size()));
}

std::size_t Geometry::flat_count(std::size_t flat_length, const char* name,
                                 const char* function) const {
  const std::size_t d = dims_.size();
  if (d == 0 ? flat_length != 0 : flat_length % d != 0) {
    fail(ErrorClass::count, function,
         std::string(name) + " has " + std::to_string(flat_length) +
             " elements, not a multiple of ndims = " + std::to_string(d));
  }
  return d == 0 ? 0 : flat_length / d;
}

void Geometry::check_flat(std::size_t flat_length, const char* name,
                          std::size_t n, const char* function) const {
  const std::size_t d = dims_.size();
  // n * d must not wrap around before the comparison.
  const bool fits = d == 0 || n <= flat_length / d;
  if (fits && n * d == flat_length) return;
  fail(ErrorClass::count, function,
       std::string(name) + " has " + std::to_string(flat_length) +
           " elements but " + std::to_string(n) +
           " results of ndims = " + std::to_string(d) + " need " +
           (fits ? std::to_string(n * d) : std::string("more")));
}

int Geometry::canonical_component(std::size_t dim, std::int64_t offset) const {
  const int n = dims_[dim];
  if (!periods()[dim]) return static_cast<int>(offset);
  const std::int64_t representative = wrap(offset, n);
  return static_cast<int>(representative > n / 2 ? representative - n
                                                 : representative);
}

}  // namespace naming
