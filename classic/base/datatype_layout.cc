#include "classic/base/datatype_layout.h"

#include "classic/base/error.h"
#include "classic/base/internal/transport_error.h"

namespace classic {

DatatypeLayout datatype_layout(MPI_Datatype datatype,
                               std::string_view function) {
  if (datatype == MPI_DATATYPE_NULL) {
    throw Error(ErrorClass::datatype, function,
                "the datatype is MPI_DATATYPE_NULL");
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
  return layout;
}

}  // namespace classic
