// What classic's executor shares with the completion functions: whether
// any operation in steps is in progress, and the one reading of a failed
// completion call. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_P2P_INTERNAL_COMPLETION_H_
#define ORTHOCOMM_CLASSIC_P2P_INTERNAL_COMPLETION_H_

#include <mpi.h>

#include <cstddef>
#include <span>

#include "classic/base/internal/inside_classic.h"

namespace classic::internal {

// True while some Request::Operation of this process is active: blocking
// waits must then keep moving it along instead of blocking in the
// transport.
bool operations_in_progress() noexcept;

// Moves every active operation along once (posts the next round of those
// whose round completed): for a blocking wait on transport requests of
// its own while operations are in progress. Failures stay with each
// operation's request.
void progress_operations();

// Raises the error of a completion call (MPI_Waitall, MPI_Testall, ...)
// that returned `code`: for MPI_ERR_IN_STATUS the first failed status
// (naming owners[i], the caller's request of statuses[i], where given),
// else the code itself. Returns if code is MPI_SUCCESS.
void raise_completion_failure(int code, std::span<const MPI_Status> statuses,
                              const char* function,
                              std::span<const std::size_t> owners = {});

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_P2P_INTERNAL_COMPLETION_H_
