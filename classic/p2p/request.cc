#include "classic/p2p/request.h"

#include <algorithm>
#include <climits>
#include <string>
#include <utility>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/base/internal/transport_error.h"

namespace classic {

// The completion functions' view of requests: their transport handles,
// taken out into one array and put back around one call of an MPI
// completion function. A point-to-point request contributes its one
// handle, a compound one all its parts (null ones included, which MPI
// ignores), in request order.
class RequestAccess {
 public:
  struct Flat {
    std::vector<MPI_Request> handles;
    std::vector<std::size_t> owners;  // the request of each handle
    std::vector<bool> compound;       // per request: made of several
  };

  static MPI_Request& handle(Request& request) { return request.handle_; }
  static int peer_offset(const Request& request) {
    return request.peer_offset_;
  }
  static bool is_compound(const Request& request) {
    return request.compound_ != nullptr;
  }
  static std::vector<MPI_Request>& parts(Request& request) {
    return request.compound_->parts;
  }

  static Flat flatten(std::span<Request> requests) {
    Flat flat;
    flat.handles.reserve(requests.size());
    flat.owners.reserve(requests.size());
    flat.compound.reserve(requests.size());
    for (std::size_t i = 0; i < requests.size(); ++i) {
      flat.compound.push_back(requests[i].compound_ != nullptr);
      if (requests[i].compound_ == nullptr) {
        flat.handles.push_back(requests[i].handle_);
        flat.owners.push_back(i);
        continue;
      }
      for (MPI_Request part : requests[i].compound_->parts) {
        flat.handles.push_back(part);
        flat.owners.push_back(i);
      }
    }
    return flat;
  }

  // Puts the handles back after a completion function; point-to-point
  // requests that completed let go of their communicators. Compound ones
  // complete only through finish().
  static void store(std::span<Request> requests,
                    std::span<const MPI_Request> handles) {
    std::size_t next = 0;
    for (Request& request : requests) {
      if (request.compound_ == nullptr) {
        request.handle_ = handles[next++];
        settle(request);
        continue;
      }
      for (MPI_Request& part : request.compound_->parts) part = handles[next++];
    }
  }

  // A compound request whose parts have all completed.
  static bool is_ready(const Request& request) {
    if (request.compound_ == nullptr) return false;
    const std::vector<MPI_Request>& parts = request.compound_->parts;
    return std::all_of(parts.begin(), parts.end(), [](MPI_Request part) {
      return part == MPI_REQUEST_NULL;
    });
  }

  // Completes a ready compound request: it becomes null.
  static void finish(Request& request) {
    request.compound_.reset();
    request.comm_ = Comm();
  }

  // A completed request lets go of its communicator (which may free it, if
  // this was its last handle).
  static void settle(Request& request) {
    if (request.handle_ == MPI_REQUEST_NULL && request.compound_ == nullptr) {
      request.comm_ = Comm();
    }
  }
};

namespace {

// Operations can only be completed while the transport lives.
void require_environment(const char* function) {
  if (!Environment::active()) {
    throw Error(ErrorClass::request, function,
                "the request is pending but the classic::Environment that "
                "started it has ended");
  }
}

bool all_null(std::span<const Request> requests) {
  for (const Request& request : requests) {
    if (!request.is_null()) return false;
  }
  return true;
}

int checked_size(std::size_t size, const char* function) {
  if (size > static_cast<std::size_t>(INT_MAX)) {
    throw Error(ErrorClass::count, function,
                "the requests hold " + std::to_string(size) +
                    " transport requests, more than the transport can take");
  }
  return static_cast<int>(size);
}

std::string request_name(std::size_t index) {
  return "requests[" + std::to_string(index) + "]";
}

// After MPI_Waitall / MPI_Testall: raises the first operation's error,
// naming the request it belongs to (owners[i] is the request of
// statuses[i]; none are named when owners is empty).
void check_all(int code, std::span<const MPI_Status> statuses,
               std::span<const std::size_t> owners, const char* function) {
  if (code == MPI_SUCCESS) return;
  int mpi_class = MPI_ERR_OTHER;
  MPI_Error_class(code, &mpi_class);
  if (mpi_class != MPI_ERR_IN_STATUS) transport::raise(code, function);
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    const int error = statuses[i].MPI_ERROR;
    if (error != MPI_SUCCESS && error != MPI_ERR_PENDING) {
      transport::raise(
          error, function,
          owners.empty() ? std::string() : request_name(owners[i]));
    }
  }
  transport::raise(code, function);
}

// The statuses of completed requests: a point-to-point request's own, the
// empty one for a collective (and for a null request). `flat` says which
// was which before they completed.
std::vector<Status> to_statuses(std::span<Request> requests,
                                std::span<const MPI_Status> statuses,
                                const RequestAccess::Flat& flat) {
  std::vector<Status> result(requests.size());
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    const std::size_t owner = flat.owners[i];
    if (flat.compound[owner]) continue;
    result[owner] = Status::from_transport(
        statuses[i], RequestAccess::peer_offset(requests[owner]));
  }
  return result;
}

// Completes the compound requests whose parts have all completed.
void finish_ready(std::span<Request> requests) {
  for (Request& request : requests) {
    if (RequestAccess::is_ready(request)) RequestAccess::finish(request);
  }
}

// The first compound request whose parts have all completed, completed.
std::optional<Completion> finish_first_ready(std::span<Request> requests) {
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (RequestAccess::is_ready(requests[i])) {
      RequestAccess::finish(requests[i]);
      return Completion{static_cast<int>(i), Status{}};
    }
  }
  return std::nullopt;
}

// One MPI_Waitany or MPI_Testany over all transport handles of `requests`
// (`blocking` says which). A completed point-to-point request is the
// answer; a completed part of a compound one is not (yet), and yields
// std::nullopt so that the caller goes on; `done` says whether anything
// completed.
struct AnyStep {
  bool done = false;
  std::optional<Completion> completion;
};

enum class Blocking { yes, no };

AnyStep any_step(std::span<Request> requests, Blocking blocking,
                 const char* function) {
  RequestAccess::Flat flat = RequestAccess::flatten(requests);
  const int n = checked_size(flat.handles.size(), function);
  MPI_Status status;
  int index = MPI_UNDEFINED;
  int done = 1;
  const int code =
      blocking == Blocking::yes
          ? MPI_Waitany(n, flat.handles.data(), &index, &status)
          : MPI_Testany(n, flat.handles.data(), &index, &done, &status);
  RequestAccess::store(requests, flat.handles);
  if (code != MPI_SUCCESS) {
    transport::raise(
        code, function,
        index == MPI_UNDEFINED
            ? std::string()
            : request_name(flat.owners[static_cast<std::size_t>(index)]));
  }
  if (done == 0) return AnyStep{};
  if (index == MPI_UNDEFINED) return AnyStep{true, Completion{}};
  const std::size_t owner = flat.owners[static_cast<std::size_t>(index)];
  if (RequestAccess::is_compound(requests[owner])) return AnyStep{true, {}};
  return AnyStep{
      true,
      Completion{static_cast<int>(owner),
                 Status::from_transport(
                     status, RequestAccess::peer_offset(requests[owner]))}};
}

}  // namespace

// ---- Request --------------------------------------------------------------

Request::Request(Compound operation, const Comm& comm)
    : compound_(std::make_unique<Compound>(std::move(operation))),
      comm_(comm) {}

Request::Request(Request&& other) noexcept
    : handle_(std::exchange(other.handle_, MPI_REQUEST_NULL)),
      kind_(other.kind_),
      peer_offset_(other.peer_offset_),
      compound_(std::move(other.compound_)),
      comm_(std::move(other.comm_)) {}

Request& Request::operator=(Request&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = std::exchange(other.handle_, MPI_REQUEST_NULL);
    kind_ = other.kind_;
    peer_offset_ = other.peer_offset_;
    compound_ = std::move(other.compound_);
    comm_ = std::move(other.comm_);
  }
  return *this;
}

Request::~Request() { release(); }

void Request::release() noexcept {
  if (compound_ != nullptr) {
    if (Environment::active() && !RequestAccess::is_ready(*this) &&
        compound_->abandon) {
      try {
        compound_->abandon(compound_->parts);
      } catch (...) {
        // A destructor cannot report it; the parts are the transport's now.
      }
    }
    compound_.reset();
    return;
  }
  if (handle_ == MPI_REQUEST_NULL) return;
  if (Environment::active()) {
    if (kind_ == Kind::receive) {
      // An unmatched receive is withdrawn at once; a matched one completes.
      MPI_Cancel(&handle_);
      MPI_Wait(&handle_, MPI_STATUS_IGNORE);
    } else {
      int done = 0;
      MPI_Test(&handle_, &done, MPI_STATUS_IGNORE);
      if (!done) MPI_Request_free(&handle_);
    }
  }
  handle_ = MPI_REQUEST_NULL;
}

void Request::cancel() {
  if (is_null()) {
    throw Error(ErrorClass::request, "classic::Request::cancel",
                "the request is null");
  }
  if (compound_ != nullptr) {
    throw Error(ErrorClass::request, "classic::Request::cancel",
                "the request is a collective operation, which MPI does not "
                "allow to be cancelled");
  }
  require_environment("classic::Request::cancel");
  transport::check_code(MPI_Cancel(&handle_), "classic::Request::cancel");
}

// ---- completion -----------------------------------------------------------

namespace {

// wait / test of a compound request: all its parts at once.
std::optional<Status> complete_compound(Request& request, Blocking blocking,
                                        const char* function) {
  std::vector<MPI_Request>& parts = RequestAccess::parts(request);
  const int n = checked_size(parts.size(), function);
  std::vector<MPI_Status> statuses(parts.size());
  int done = 1;
  const int code = blocking == Blocking::yes
                       ? MPI_Waitall(n, parts.data(), statuses.data())
                       : MPI_Testall(n, parts.data(), &done, statuses.data());
  if (RequestAccess::is_ready(request)) RequestAccess::finish(request);
  check_all(code, statuses, {}, function);
  if (done == 0) return std::nullopt;
  return Status{};
}

}  // namespace

Status wait(Request& request) {
  if (request.is_null()) return Status{};
  require_environment("classic::wait");
  if (RequestAccess::is_compound(request)) {
    return *complete_compound(request, Blocking::yes, "classic::wait");
  }
  MPI_Status status;
  const int code = MPI_Wait(&RequestAccess::handle(request), &status);
  RequestAccess::settle(request);
  transport::check_code(code, "classic::wait");
  return Status::from_transport(status, RequestAccess::peer_offset(request));
}

std::optional<Status> test(Request& request) {
  if (request.is_null()) return Status{};
  require_environment("classic::test");
  if (RequestAccess::is_compound(request)) {
    return complete_compound(request, Blocking::no, "classic::test");
  }
  MPI_Status status;
  int done = 0;
  const int code = MPI_Test(&RequestAccess::handle(request), &done, &status);
  RequestAccess::settle(request);
  transport::check_code(code, "classic::test");
  if (!done) return std::nullopt;
  return Status::from_transport(status, RequestAccess::peer_offset(request));
}

std::vector<Status> wait_all(std::span<Request> requests) {
  checked_size(requests.size(), "classic::wait_all");
  if (all_null(requests)) return std::vector<Status>(requests.size());
  require_environment("classic::wait_all");
  RequestAccess::Flat flat = RequestAccess::flatten(requests);
  const int n = checked_size(flat.handles.size(), "classic::wait_all");
  std::vector<MPI_Status> statuses(flat.handles.size());
  const int code = MPI_Waitall(n, flat.handles.data(), statuses.data());
  RequestAccess::store(requests, flat.handles);
  finish_ready(requests);
  check_all(code, statuses, flat.owners, "classic::wait_all");
  return to_statuses(requests, statuses, flat);
}

std::optional<std::vector<Status>> test_all(std::span<Request> requests) {
  checked_size(requests.size(), "classic::test_all");
  if (all_null(requests)) return std::vector<Status>(requests.size());
  require_environment("classic::test_all");
  RequestAccess::Flat flat = RequestAccess::flatten(requests);
  const int n = checked_size(flat.handles.size(), "classic::test_all");
  std::vector<MPI_Status> statuses(flat.handles.size());
  int done = 0;
  const int code = MPI_Testall(n, flat.handles.data(), &done, statuses.data());
  RequestAccess::store(requests, flat.handles);
  if (done) finish_ready(requests);
  check_all(code, statuses, flat.owners, "classic::test_all");
  if (!done) return std::nullopt;
  return to_statuses(requests, statuses, flat);
}

// A compound request completes when its last part does; until then each
// completed part only brings it closer, so both loop until a whole request
// has completed (or, for test_any, until nothing more has).
Completion wait_any(std::span<Request> requests) {
  checked_size(requests.size(), "classic::wait_any");
  for (;;) {
    if (std::optional<Completion> ready = finish_first_ready(requests)) {
      return *ready;
    }
    if (all_null(requests)) return Completion{};
    require_environment("classic::wait_any");
    AnyStep step = any_step(requests, Blocking::yes, "classic::wait_any");
    if (step.completion) return *step.completion;
  }
}

std::optional<Completion> test_any(std::span<Request> requests) {
  checked_size(requests.size(), "classic::test_any");
  for (;;) {
    if (std::optional<Completion> ready = finish_first_ready(requests)) {
      return ready;
    }
    if (all_null(requests)) return Completion{};
    require_environment("classic::test_any");
    AnyStep step = any_step(requests, Blocking::no, "classic::test_any");
    if (!step.done) return std::nullopt;
    if (step.completion) return step.completion;
  }
}

}  // namespace classic
