#include "classic/base/internal/error_handler.h"

namespace classic::transport {
namespace {

thread_local int kept_error = MPI_SUCCESS;

// MPI's handler signature: the communicator, the code, then
// implementation-specific arguments.
void keep_error(MPI_Comm* /*comm*/, int* code, ...) { kept_error = *code; }

}  // namespace

MPI_Errhandler recording_errhandler() {
  static MPI_Errhandler handler = [] {
    MPI_Errhandler made = MPI_ERRORS_RETURN;
    if (MPI_Comm_create_errhandler(&keep_error, &made) != MPI_SUCCESS) {
      made = MPI_ERRORS_RETURN;
    }
    return made;
  }();
  return handler;
}

int reported_error(int code) noexcept {
  int error_class = MPI_ERR_OTHER;
  MPI_Error_class(code, &error_class);
  if (error_class == MPI_ERR_IN_STATUS && kept_error != MPI_SUCCESS) {
    return kept_error;
  }
  return code;
}

void forget_reported_error() noexcept { kept_error = MPI_SUCCESS; }

}  // namespace classic::transport
