// The layout of a transport datatype (extent, true extent, size), for code
// that places blocks of derived datatypes in memory: plans, ortho's
// algorithms, experiments.
#ifndef ORTHOCOMM_CLASSIC_BASE_DATATYPE_LAYOUT_H_
#define ORTHOCOMM_CLASSIC_BASE_DATATYPE_LAYOUT_H_

#include <mpi.h>

#include <string_view>

namespace classic {

// MPI_Type_get_extent, MPI_Type_get_true_extent and MPI_Type_size_x of one
// datatype. n elements occupy the bytes [true_lower_bound, true_lower_bound
// + (n - 1) * extent + true_extent) from their start (for n > 0 and a
// non-negative extent).
struct DatatypeLayout {
  MPI_Aint lower_bound = 0;
  MPI_Aint extent = 0;
  MPI_Aint true_lower_bound = 0;
  MPI_Aint true_extent = 0;
  MPI_Count size = 0;
  // A predefined datatype (MPI_INT, ...): its handle never comes to mean
  // another layout, as a freed derived datatype's handle may.
  bool predefined = false;
};

// ErrorClass::datatype naming `function` for MPI_DATATYPE_NULL or a
// datatype the transport rejects.
DatatypeLayout datatype_layout(MPI_Datatype datatype,
                               std::string_view function);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_BASE_DATATYPE_LAYOUT_H_
