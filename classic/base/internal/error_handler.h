// The error handler of classic's contexts: errors return (classic raises
// them as exceptions, never aborts), and the code the transport hands the
// handler is kept for the thread. MPI_Waitall without statuses reports
// only MPI_ERR_IN_STATUS and frees the request that failed, but hands that
// request's own code to the handler first (Open MPI); reported_error()
// gives it back, so that the executor can ignore statuses on its hot path
// and still raise a truncation as one. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_BASE_INTERNAL_ERROR_HANDLER_H_
#define ORTHOCOMM_CLASSIC_BASE_INTERNAL_ERROR_HANDLER_H_

#include <mpi.h>

#include "classic/base/internal/inside_classic.h"

namespace classic::transport {

// Made at the first call (after MPI_Init), kept until MPI_Finalize;
// MPI_ERRORS_RETURN where the transport cannot make it.
MPI_Errhandler recording_errhandler();

// `code`, or where its class is MPI_ERR_IN_STATUS the code the handler
// last kept on this thread (if any): the failed request's own.
int reported_error(int code) noexcept;

// Forgets the kept code (raise() does, so that it never outlives its
// error).
void forget_reported_error() noexcept;

}  // namespace classic::transport

#endif  // ORTHOCOMM_CLASSIC_BASE_INTERNAL_ERROR_HANDLER_H_
