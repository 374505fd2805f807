#include "experiments/fox/grid.h"

namespace fox {

std::string_view to_string(Variant variant) {
  return variant == Variant::cartesian ? "cartesian" : "named";
}

FoxGrid make_grid(Variant variant, const classic::Comm& comm) {
  return variant == Variant::cartesian ? cartesian_grid(comm)
                                       : named_grid(comm);
}

}  // namespace fox
