// classic::Request: a pending non-blocking operation (isend, irecv, the
// non-blocking neighbourhood collectives) and the MPI completion functions
// wait / test and their _all / _any forms.
#ifndef ORTHOCOMM_CLASSIC_P2P_REQUEST_H_
#define ORTHOCOMM_CLASSIC_P2P_REQUEST_H_

#include <mpi.h>

#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <utility>
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
// A request may also stand for a collective operation made of several
// transport requests, in one or more rounds (ineighbor_alltoall, ...): it
// completes when its last round has, every completion function treats it
// as one request, and its status is the empty one (MPI leaves source and
// tag of a collective's status undefined). One with nothing to transfer (no
// neighbours) is still a pending request until a completion function sees
// it. Destroying such a request while it is pending does what its operation
// says (see ineighbor_* in classic/neighbor/neighbor_collectives.h); it never
// blocks on a peer.
//
// Persistent requests (MPI-4; made by the *_init functions) are inactive
// until classic::start begins their operation; completing it makes them
// inactive again, not null, ready for the next start with the same buffers
// (whose contents may change between starts). Completion functions treat an
// inactive request as a null one (the empty status at once). Destroying an
// active persistent request lets go of its operation as above.
//
// Errors: ErrorClass::request for cancel() of a null request or of a
// collective operation (MPI forbids cancelling those), for completing a
// pending request after the Environment has ended, and for start() of a
// request that is null, not persistent or already active.
class Request {
 public:
  Request() noexcept = default;
  Request(Request&& other) noexcept
      : handle_(std::exchange(other.handle_, MPI_REQUEST_NULL)),
        kind_(other.kind_),
        peer_offset_(other.peer_offset_),
        operation_(std::move(other.operation_)),
        comm_(std::move(other.comm_)),
        allowed_sources_(std::move(other.allowed_sources_)),
        rank_(other.rank_) {}
  Request& operator=(Request&& other) noexcept;
  Request(const Request&) = delete;
  Request& operator=(const Request&) = delete;
  // Inline: a blocking collective returns a null request through every
  // layer of its dispatch.
  ~Request() {
    if (!is_null()) release();
  }

  bool is_null() const noexcept {
    return handle_ == MPI_REQUEST_NULL && operation_ == nullptr;
  }
  // A persistent request that is not running (made by an *_init function,
  // or completed since its last start).
  bool is_inactive() const noexcept;

  // MPI_Cancel: asks the transport to cancel the operation; the request
  // stays pending and must still be completed (wait, test, ...), whose
  // status says whether it was cancelled.
  void cancel();

  enum class Kind { send, receive };
  // A request for the pending transport request `handle` on `comm`. For
  // classic's implementation files.
  Request(MPI_Request handle, Kind kind, const Comm& comm, int peer_offset)
      : handle_(handle), kind_(kind), peer_offset_(peer_offset), comm_(comm) {}
  // A receive from any_source at `rank` on a communicator whose
  // point-to-point is restricted (classic/p2p/peer_restriction.h): the
  // completion that finds the message raises unless its source is in
  // `sources` (sorted). For classic's implementation files.
  void restrict_sources(std::shared_ptr<const std::vector<int>> sources,
                        int rank) {
    allowed_sources_ = std::move(sources);
    rank_ = rank;
  }

  // An operation that classic runs in steps: a collective of one or more
  // rounds of messages (classic/exec). The completion functions wait for
  // the transport requests of its current step and then let it go on; any
  // of them, on any request, moves every pending operation of the process
  // along, so operations outstanding at once never wait for each other.
  // For classic's implementation files.
  class Operation {
   public:
    Operation() = default;
    Operation(const Operation&) = delete;
    Operation& operator=(const Operation&) = delete;
    virtual ~Operation();

    // The transport requests of the current step; MPI_REQUEST_NULL entries
    // are complete. The span stays valid until the next advance().
    virtual std::span<MPI_Request> parts() = 0;
    // Every part is complete: finishes the step (local work) and posts the
    // next one. True when the whole operation has completed.
    virtual bool advance() = 0;
    // The request goes away while the operation is pending: lets go of it
    // without blocking on a peer (see the operation's own documentation).
    virtual void abandon() noexcept = 0;
    // Persistent operations are begun by classic::start, again and again.
    virtual bool persistent() const noexcept { return false; }
    // Begins the operation: posts its first step. Called once before the
    // request is made for a non-persistent one, by start() for a
    // persistent one.
    virtual void begin() = 0;

   private:
    friend class RequestAccess;
    bool active_ = false;         // begun, not yet completed
    bool completed_ = false;      // completed, not yet seen by its request
    std::exception_ptr failure_;  // met while moved along by another call
  };
  // A request for `operation` on comm: pending (the operation begun here)
  // or, for a persistent operation, inactive until classic::start.
  Request(std::unique_ptr<Operation> operation, const Comm& comm);

 private:
  friend class RequestAccess;  // the completion functions, in request.cc

  // Cancels or releases a pending operation as described above.
  void release() noexcept;

  MPI_Request handle_ = MPI_REQUEST_NULL;
  Kind kind_ = Kind::send;
  int peer_offset_ = 0;
  // Set for an operation run in steps (handle_ is then MPI_REQUEST_NULL);
  // null once it has completed, unless it is persistent.
  std::unique_ptr<Operation> operation_;
  Comm comm_;  // keeps the communicator alive while the operation is pending
  std::shared_ptr<const std::vector<int>> allowed_sources_;  // see above
  int rank_ = 0;
};

// MPI_Start: begins the operation of the inactive persistent `request`.
void start(Request& request);
// MPI_Startall: start() of each, in order; every request must be inactive
// and persistent (checked for all before any starts).
void start_all(std::span<Request> requests);

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
