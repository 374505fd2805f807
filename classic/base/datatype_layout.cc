#include "classic/base/datatype_layout.h"

#include <array>
#include <cstddef>
#include <utility>

#include "classic/base/error.h"
#include "classic/base/internal/transport_error.h"

namespace classic {
namespace {

// The layouts of the predefined datatypes asked for so far (a call's plan
// asks for each of its blocks' at every call; four transport queries
// each). A predefined handle never comes to mean another layout; a derived
// one may, once freed, so only predefined ones are kept.
class PredefinedLayouts {
 public:
  const DatatypeLayout* find(MPI_Datatype datatype) const {
    for (std::size_t i = 0; i < count_; ++i) {
      if (known_[i].first == datatype) return &known_[i].second;
    }
    return nullptr;
  }
  void keep(MPI_Datatype datatype, const DatatypeLayout& layout) {
    if (count_ < known_.size()) known_[count_++] = {datatype, layout};
  }

 private:
  std::array<std::pair<MPI_Datatype, DatatypeLayout>, 16> known_{};
  std::size_t count_ = 0;
};

thread_local PredefinedLayouts predefined_layouts;

}  // namespace

DatatypeLayout datatype_layout(MPI_Datatype datatype,
                               std::string_view function) {
  if (datatype == MPI_DATATYPE_NULL) {
    throw Error(ErrorClass::datatype, function,
                "the datatype is MPI_DATATYPE_NULL");
  }
  if (const DatatypeLayout* known = predefined_layouts.find(datatype)) {
    return *known;
  }
  DatatypeLayout layout;
  transport::check_code(
      MPI_Type_get_extent(datatype, &layout.lower_bound, &layout.extent),
      function);
  transport::check_code(
      MPI_Type_get_true_extent(datatype, &layout.true_lower_bound,
                               &layout.true_extent),
      function);
  transport::check_code(MPI_Type_size_x(datatype, &layout.size), function);
  int integers = 0;
  int addresses = 0;
  int datatypes = 0;
  int combiner = 0;
  transport::check_code(MPI_Type_get_envelope(datatype, &integers, &addresses,
                                              &datatypes, &combiner),
                        function);
  layout.predefined = combiner == MPI_COMBINER_NAMED;
  if (layout.predefined) predefined_layouts.keep(datatype, layout);
  return layout;
}

}  // namespace classic
