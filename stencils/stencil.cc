#include "stencils/stencil.h"

#include <climits>
#include <string>
#include <utility>

#include "classic/base/error.h"

namespace stencils {
namespace {

using classic::ErrorClass;

void check_nonnegative(int ndims, const char* function) {
  if (ndims < 0) {
    throw classic::Error(ErrorClass::dims, function,
                         "ndims = " + std::to_string(ndims) + " is negative");
  }
}

int offset_count(int ndims, std::size_t flat_length) {
  constexpr const char* kFunction = "stencils::Stencil::Stencil";
  if (ndims == 0 ? flat_length != 0 : flat_length % ndims != 0) {
    throw classic::Error(
        ErrorClass::count, kFunction,
        "flat has " + std::to_string(flat_length) +
            " elements, not a multiple of ndims = " + std::to_string(ndims));
  }
  const std::size_t count = ndims == 0 ? 0 : flat_length / ndims;
  if (count > static_cast<std::size_t>(INT_MAX)) {
    throw classic::Error(ErrorClass::count, kFunction,
                         std::to_string(count) + " offsets exceed INT_MAX");
  }
  return static_cast<int>(count);
}

}  // namespace

Stencil::Stencil(int ndims) : ndims_(ndims) {
  check_nonnegative(ndims, "stencils::Stencil::Stencil");
}

Stencil::Stencil(int ndims, std::vector<int> flat) : ndims_(ndims) {
  check_nonnegative(ndims, "stencils::Stencil::Stencil");
  size_ = offset_count(ndims, flat.size());
  flat_ = std::move(flat);
}

std::span<const int> Stencil::offset(int i) const {
  if (i < 0 || i >= size_) {
    throw classic::Error(ErrorClass::arg, "stencils::Stencil::offset",
                         "i = " + std::to_string(i) + " is outside [0, " +
                             std::to_string(size_) + ")");
  }
  return std::span<const int>(flat_).subspan(
      static_cast<std::size_t>(i) * ndims_, ndims_);
}

void Stencil::push_back(std::span<const int> offset) {
  constexpr const char* kFunction = "stencils::Stencil::push_back";
  if (offset.size() != static_cast<std::size_t>(ndims_)) {
    throw classic::Error(ErrorClass::arg, kFunction,
                         "offset has " + std::to_string(offset.size()) +
                             " elements but ndims = " + std::to_string(ndims_));
  }
  if (size_ == INT_MAX) {
    throw classic::Error(ErrorClass::count, kFunction,
                         "the stencil already holds INT_MAX offsets");
  }
  flat_.insert(flat_.end(), offset.begin(), offset.end());
  ++size_;
}

std::string offset_string(std::span<const int> offset) {
  std::string text = "(";
  for (std::size_t k = 0; k < offset.size(); ++k) {
    if (k > 0) text += ",";
    text += std::to_string(offset[k]);
  }
  return text + ")";
}

}  // namespace stencils
