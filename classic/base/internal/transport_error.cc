#include "classic/base/internal/transport_error.h"

#include <string>

#include "classic/base/internal/error_handler.h"

namespace classic::transport {

ErrorClass error_class_of(int code) {
  int mpi_class = MPI_ERR_OTHER;
  if (MPI_Error_class(code, &mpi_class) != MPI_SUCCESS) {
    return ErrorClass::intern;
  }
  switch (mpi_class) {
    case MPI_ERR_TRUNCATE:
      return ErrorClass::truncate;
    case MPI_ERR_TYPE:
      return ErrorClass::datatype;
    case MPI_ERR_COUNT:
      return ErrorClass::count;
    case MPI_ERR_BUFFER:
      return ErrorClass::buffer;
    case MPI_ERR_REQUEST:
      return ErrorClass::request;
    case MPI_ERR_TAG:
      return ErrorClass::tag;
    case MPI_ERR_RANK:
      return ErrorClass::rank;
    case MPI_ERR_COMM:
      return ErrorClass::comm;
    default:
      return ErrorClass::intern;
  }
}

void raise(int code, std::string_view function, std::string_view context) {
  forget_reported_error();
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(code, text, &length);
  std::string detail(context);
  if (!detail.empty()) detail += ": ";
  const ErrorClass error_class = error_class_of(code);
  detail += error_class == ErrorClass::truncate
                ? "the message is longer than the receive buffer"
                : "the transport failed";
  detail += " (" + std::string(text, static_cast<std::size_t>(length)) + ")";
  throw Error(error_class, function, detail);
}

}  // namespace classic::transport
