#include "stencils/checks.h"

#include <string>

#include "classic/base/error.h"
#include "classic/base/error_text.h"

namespace stencils::internal {

void check_ndims(const naming::Geometry& geometry, int ndims,
                 std::string_view stencil, std::string_view function) {
  if (ndims == geometry.ndims()) return;
  throw classic::Error(
      classic::ErrorClass::dims, function,
      classic::error_text::differs(std::string(stencil) + ".ndims()", ndims,
                                   "geometry.ndims()", geometry.ndims()));
}

}  // namespace stencils::internal
