// Argument checks that several stencils functions share. Internal to stencils.
#ifndef ORTHOCOMM_STENCILS_CHECKS_H_
#define ORTHOCOMM_STENCILS_CHECKS_H_

#include <string_view>

#include "naming/geometry.h"

namespace stencils::internal {

// ErrorClass::dims naming `function` unless a stencil's `ndims` equals the
// grid's: "targets.ndims() = 3 differs from geometry.ndims() = 2", where
// `stencil` ("targets") names the argument.
void check_ndims(const naming::Geometry& geometry, int ndims,
                 std::string_view stencil, std::string_view function);

}  // namespace stencils::internal

#endif  // ORTHOCOMM_STENCILS_CHECKS_H_
