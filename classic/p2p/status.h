// classic::Status: what a completed receive (or probe) reports, with the
// source named as a rank of the communicator it was received on.
#ifndef ORTHOCOMM_CLASSIC_P2P_STATUS_H_
#define ORTHOCOMM_CLASSIC_P2P_STATUS_H_

#include <mpi.h>

#include "classic/base/constants.h"
#include "classic/base/datatype.h"

namespace classic {

// MPI_Status. A default-constructed Status is MPI's empty status (source
// any_source, tag any_tag, no data, not cancelled), which completing a null
// request gives. A receive from proc_null reports source proc_null, tag
// any_tag, no data.
struct Status {
  // The sender as a rank of the communicator: of its group for an
  // intra-communicator, of its remote group for an inter-communicator.
  int source = any_source;
  int tag = any_tag;
  // The transport's error code for this operation (MPI_ERROR). Operations
  // that fail raise classic::Error instead, so statuses handed back always
  // carry MPI_SUCCESS; the field is here for readers of MPI_Status.
  int error = MPI_SUCCESS;

  // The size of the message in bytes.
  MPI_Count bytes() const;
  // MPI_Get_count: the number of `datatype` elements received, or
  // classic::undefined when the bytes are not a whole number of them (or too
  // many for an int). ErrorClass::datatype for MPI_DATATYPE_NULL.
  int count(MPI_Datatype datatype) const;
  template <Transmittable T>
  int count() const {
    return count(datatype_of<T>());
  }
  // MPI_Test_cancelled: the operation was cancelled (Request::cancel).
  bool cancelled() const;

  // Same source, tag, error, size and cancellation.
  friend bool operator==(const Status& a, const Status& b);

  // The Status of a transport status received on a context whose peers are
  // numbered from `peer_offset` (Comm::State::peer_offset). For classic's
  // implementation files; cheap: size and cancellation are read from the
  // transport status only when asked for.
  static Status from_transport(const MPI_Status& status, int peer_offset) {
    Status result;
    result.source = status.MPI_SOURCE == MPI_PROC_NULL ? proc_null
                    : status.MPI_SOURCE == MPI_ANY_SOURCE
                        ? any_source
                        : status.MPI_SOURCE - peer_offset;
    result.tag = status.MPI_TAG == MPI_ANY_TAG ? any_tag : status.MPI_TAG;
    result.transport_ = status;
    result.from_transport_ = true;
    return result;
  }

 private:
  // Where size and cancellation come from; unset in an empty status.
  MPI_Status transport_{};
  bool from_transport_ = false;
};

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_P2P_STATUS_H_
