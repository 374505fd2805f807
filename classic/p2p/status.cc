#include "classic/p2p/status.h"

#include <climits>

#include "classic/base/error.h"

namespace classic {

MPI_Count Status::bytes() const {
  if (!from_transport_) return 0;
  MPI_Count bytes = 0;
  MPI_Get_elements_x(&transport_, MPI_BYTE, &bytes);
  return bytes;
}

bool Status::cancelled() const {
  if (!from_transport_) return false;
  int cancelled = 0;
  MPI_Test_cancelled(&transport_, &cancelled);
  return cancelled != 0;
}

int Status::count(MPI_Datatype datatype) const {
  if (datatype == MPI_DATATYPE_NULL) {
    throw Error(ErrorClass::datatype, "classic::Status::count",
                "datatype is MPI_DATATYPE_NULL");
  }
  MPI_Count size = 0;
  if (MPI_Type_size_x(datatype, &size) != MPI_SUCCESS) {
    throw Error(ErrorClass::datatype, "classic::Status::count",
                "datatype is not a valid datatype");
  }
  if (size == 0) return 0;  // as MPI_Get_count: no elements of no bytes
  const MPI_Count total = bytes();
  if (total % size != 0 || total / size > INT_MAX) return undefined;
  return static_cast<int>(total / size);
}

bool operator==(const Status& a, const Status& b) {
  return a.source == b.source && a.tag == b.tag && a.error == b.error &&
         a.bytes() == b.bytes() && a.cancelled() == b.cancelled();
}

}  // namespace classic
