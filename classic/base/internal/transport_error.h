// Turns the transport's error codes from point-to-point calls into
// classic::Error with the matching error class. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_BASE_INTERNAL_TRANSPORT_ERROR_H_
#define ORTHOCOMM_CLASSIC_BASE_INTERNAL_TRANSPORT_ERROR_H_

#include <mpi.h>

#include <string_view>

#include "classic/base/error.h"
#include "classic/base/internal/inside_classic.h"

namespace classic::transport {

// The ErrorClass of a transport error code: truncate, datatype, count,
// buffer, request, tag, rank, comm where MPI's class says so; intern for the
// rest (classic validates arguments first, so those mean a transport fault).
ErrorClass error_class_of(int code);

// Raises classic::Error (of error_class_of(code)) unless code is
// MPI_SUCCESS; `context` is added to the message ("requests[2]").
[[noreturn]] void raise(int code, std::string_view function,
                        std::string_view context = {});
inline void check_code(int code, std::string_view function) {
  if (code != MPI_SUCCESS) [[unlikely]] {
    raise(code, function);
  }
}

}  // namespace classic::transport

#endif  // ORTHOCOMM_CLASSIC_BASE_INTERNAL_TRANSPORT_ERROR_H_
