// classic::Request: a pending non-blocking operation (isend, irecv, the
// non-blocking neighbourhood collectives) and the MPI completion functions
// wait / test and their _all / _any forms.
#ifndef ORTHOCOMM_CLASSIC_P2P_REQUEST_H_
#define ORTHOCOMM_CLASSIC_P2P_REQUEST_H_

#include <mpi.h>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/p2p/status.h"

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
// A request may also stand for an operation made of several transport
// requests (a non-blocking collective such as ineighbor_alltoall): it
// completes when all of them have, every completion function treats it as
// one request, and its status is the empty one (MPI leaves source and tag
// of a collective's status undefined). One with nothing to transfer (no
// neighbours) is still a pending request until a completion function sees
// it. Destroying such a request while it is pending does what its operation
// says (see ineighbor_* in classic/neighbor/neighbor_collectives.h); it never
// blocks on a peer.
//
// Errors: ErrorClass::request for cancel() of a null request or of a
// collective operation (MPI forbids cancelling those) and for completing a
// pending request after the Environment has ended.
class Request {
 public:
  Request() noexcept = default;
  Request(Request&& other) noexcept;
  Request& operator=(Request&& other) noexcept;
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  ~Request();

  bool is_null() const noexcept {
    return handle_ == MPI_REQUEST_NULL && compound_ == nullptr;
  }

  // MPI_Cancel: asks the transport to cancel the operation; the request
  // stays pending and must still be completed (wait, test, ...), whose
  // status says whether it was cancelled.
  void cancel();

  enum class Kind { send, receive };
  // A request for the pending transport request `handle` on `comm`. For
  // classic's implementation files.
  Request(MPI_Request handle, Kind kind, const Comm& comm, int peer_offset)
      : handle_(handle), kind_(kind), peer_offset_(peer_offset), comm_(comm) {}

  // An operation made of several transport requests, complete when all
  // `parts` are (MPI_REQUEST_NULL entries count as complete). `abandon`
  // gets the parts still pending when the request is destroyed (those not
  // yet MPI_REQUEST_NULL) and must let go of them without blocking on a
  // peer; it runs only while the Environment is active. For classic's
  // implementation files.
  struct Compound {
    std::vector<MPI_Request> parts;
    std::function<void(std::span<MPI_Request> parts)> abandon;
  };
  Request(Compound operation, const Comm& comm);

 private:
  friend class RequestAccess;  // the completion functions, in request.cc

  // Cancels or releases a pending operation as described above.
  void release() noexcept;

  MPI_Request handle_ = MPI_REQUEST_NULL;
  Kind kind_ = Kind::send;
  int peer_offset_ = 0;
  // Set for an operation of several transport requests (handle_ is then
  // MPI_REQUEST_NULL); null once it has completed.
  std::unique_ptr<Compound> compound_;
  Comm comm_;  // keeps the communicator alive while the operation is pending
};

// Which request completed, and how (wait_any, test_any). index is
// classic::undefined, with an empty status, when all requests were null.
struct Completion {
  int index = undefined;
  Status status;
};

// The status of a completed collective operation is the empty one, like a
// null request's.

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
// that one becomes null. A collective request completes when its last part
// does; parts that complete earlier stay with it.
Completion wait_any(std::span<Request> requests);
// MPI_Testany: a completed request if any (it becomes null; index undefined
// when all are null), std::nullopt otherwise.
std::optional<Completion> test_any(std::span<Request> requests);

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_P2P_REQUEST_H_
