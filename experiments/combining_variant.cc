#include "experiments/combining_variant.h"

#include <string_view>

namespace experiments::combining {

const char* name_of(Variant variant) {
  switch (variant) {
    case Variant::openmpi:
      return "openmpi";
    case Variant::openmpi_persistent:
      return "openmpi_persistent";
    case Variant::raw:
      return "raw";
    case Variant::raw_persistent:
      return "raw_persistent";
    case Variant::ortho_direct:
      return "ortho_direct";
    case Variant::ortho_direct_persistent:
      return "ortho_direct_persistent";
    case Variant::ortho_combining:
      return "ortho_combining";
    case Variant::ortho_combining_persistent:
      return "ortho_combining_persistent";
    case Variant::raw_combining:
      return "raw_combining";
    case Variant::raw_combining_persistent:
      return "raw_combining_persistent";
    case Variant::ortho_mpi:
      return "ortho_mpi";
    case Variant::ortho_mpi_persistent:
      return "ortho_mpi_persistent";
    case Variant::ortho_selected:
      return "ortho_selected";
    case Variant::ortho_selected_persistent:
      return "ortho_selected_persistent";
  }
  return "";
}

const char* stem_of(Variant variant) {
  constexpr std::string_view kOrtho = "ortho_";
  const char* name = name_of(variant);
  return std::string_view(name).starts_with(kOrtho) ? name + kOrtho.size()
                                                    : name;
}

}  // namespace experiments::combining
