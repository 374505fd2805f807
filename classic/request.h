// classic::Request: a pending non-blocking operation (isend, irecv) and the
// MPI completion functions wait / test and their _all / _any forms.
#ifndef ORTHOCOMM_CLASSIC_REQUEST_H_
#define ORTHOCOMM_CLASSIC_REQUEST_H_

#include <mpi.h>

#include <optional>
#include <span>
#include <vector>

#include "classic/comm.h"
#include "classic/status.h"

namespace classic {

// A move-only handle of one non-blocking operation; default-constructed and
// completed requests are null (MPI_REQUEST_NULL). While the operation is
// pending the request keeps its communicator alive, so freeing the last
// Comm handle defers the free until the operation completes (MPI-1 5.4.3).
//
// Destroying (or assigning over) a pending request, which MPI leaves to the
// user, is made safe here and never blocks on a peer:
//   - a receive is cancelled and then completed: once the destructor
//     returns, the transport no longer writes into the buffer, and the
//     message, if not yet matched, stays for another receive;
//   - a send that has not completed yet is released (MPI_Request_free): it
//     completes in the background, so its buffer must stay valid until the
//     message is received (sends are not cancelled; MPI-4 deprecates that).
// Requests destroyed after the Environment has ended do nothing.
//
// Errors: ErrorClass::request for cancel() of a null request and for
// completing a pending request after the Environment has ended.
class Request {
 public:
  Request() noexcept = default;
  Request(Request&& other) noexcept;
  Request& operator=(Request&& other) noexcept;
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  ~Request();

  bool is_null() const noexcept { return handle_ == MPI_REQUEST_NULL; }

  // MPI_Cancel: asks the transport to cancel the operation; the request
  // stays pending and must still be completed (wait, test, ...), whose
  // status says whether it was cancelled.
  void cancel();

  enum class Kind { send, receive };
  // A request for the pending transport request `handle` on `comm`. For
  // classic's implementation files.
  Request(MPI_Request handle, Kind kind, const Comm& comm, int peer_offset)
      : handle_(handle), kind_(kind), peer_offset_(peer_offset), comm_(comm) {}

 private:
  friend class RequestAccess;  // the completion functions, in request.cc

  // Cancels or releases a pending operation as described above.
  void release() noexcept;

  MPI_Request handle_ = MPI_REQUEST_NULL;
  Kind kind_ = Kind::send;
  int peer_offset_ = 0;
  Comm comm_;  // keeps the communicator alive while the operation is pending
};

// Which request completed, and how (wait_any, test_any). index is
// classic::undefined, with an empty status, when all requests were null.
struct Completion {
  int index = undefined;
  Status status;
};

// MPI_Wait: blocks until `request` completes; it becomes null. A null
// request gives the empty status at once. ErrorClass::truncate when a
// received message was longer than the buffer.
Status wait(Request& request);
// MPI_Test: the status if `request` has completed (it becomes null; a null
// request gives the empty status), std::nullopt otherwise.
std::optional<Status> test(Request& request);

// MPI_Waitall: statuses in the order of `requests` (empty ones for null
// requests); all become null. If some operation failed, raises the error of
// the first one that did (naming its index); the others have completed or
// are still pending (not null).
std::vector<Status> wait_all(std::span<Request> requests);
// MPI_Testall: the statuses if all requests have completed (all become
// null), std::nullopt otherwise (no request changes).
std::optional<std::vector<Status>> test_all(std::span<Request> requests);

// MPI_Waitany: blocks until one of the requests completes and returns it;
// that one becomes null.
Completion wait_any(std::span<Request> requests);
// MPI_Testany: a completed request if any (it becomes null; index undefined
// when all are null), std::nullopt otherwise.
std::optional<Completion> test_any(std::span<Request> requests);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_REQUEST_H_
