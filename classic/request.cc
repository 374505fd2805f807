#include "classic/request.h"

#include <climits>
#include <string>
#include <utility>

#include "classic/environment.h"
#include "classic/error.h"
#include "classic/transport_error.h"

namespace classic {

// The completion functions' view of requests: their transport handles,
// taken out and put back around one call of an MPI completion function.
class RequestAccess {
 public:
  static MPI_Request& handle(Request& request) { return request.handle_; }
  static int peer_offset(const Request& request) {
    return request.peer_offset_;
  }

  static std::vector<MPI_Request> handles(std::span<Request> requests) {
    std::vector<MPI_Request> result;
    result.reserve(requests.size());
    for (const Request& request : requests) result.push_back(request.handle_);
    return result;
  }

  // A completed request lets go of its communicator (which may free it, if
  // this was its last handle).
  static void settle(Request& request) {
    if (request.handle_ == MPI_REQUEST_NULL) request.comm_ = Comm();
  }

  // Puts the handles back after a completion function.
  static void store(std::span<Request> requests,
                    std::span<const MPI_Request> handles) {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      requests[i].handle_ = handles[i];
      settle(requests[i]);
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

int checked_size(std::span<const Request> requests, const char* function) {
  if (requests.size() > static_cast<std::size_t>(INT_MAX)) {
    throw Error(ErrorClass::count, function,
                "requests.size() = " + std::to_string(requests.size()) +
                    " is more than the transport can take");
  }
  return static_cast<int>(requests.size());
}

std::vector<int> peer_offsets(std::span<const Request> requests) {
  std::vector<int> offsets;
  offsets.reserve(requests.size());
  for (const Request& request : requests) {
    offsets.push_back(RequestAccess::peer_offset(request));
  }
  return offsets;
}

// After MPI_Waitall / MPI_Testall: raises the first operation's error.
void check_all(int code, std::span<const MPI_Status> statuses,
               const char* function) {
  if (code == MPI_SUCCESS) return;
  int mpi_class = MPI_ERR_OTHER;
  MPI_Error_class(code, &mpi_class);
  if (mpi_class != MPI_ERR_IN_STATUS) transport::raise(code, function);
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    const int error = statuses[i].MPI_ERROR;
    if (error != MPI_SUCCESS && error != MPI_ERR_PENDING) {
      transport::raise(error, function, "requests[" + std::to_string(i) + "]");
    }
  }
  transport::raise(code, function);
}

std::vector<Status> to_statuses(std::span<const MPI_Status> statuses,
                                std::span<const int> offsets) {
  std::vector<Status> result;
  result.reserve(statuses.size());
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    result.push_back(Status::from_transport(statuses[i], offsets[i]));
  }
  return result;
}

// The Completion of MPI_Waitany / MPI_Testany's answer.
Completion completion(int code, int index, const MPI_Status& status,
                      std::span<const int> offsets, const char* function) {
  if (code != MPI_SUCCESS) {
    transport::raise(code, function,
                     index == MPI_UNDEFINED
                         ? std::string()
                         : "requests[" + std::to_string(index) + "]");
  }
  if (index == MPI_UNDEFINED) return Completion{};
  return Completion{
      index,
      Status::from_transport(status, offsets[static_cast<std::size_t>(index)])};
}

}  // namespace

// ---- Request --------------------------------------------------------------

Request::Request(Request&& other) noexcept
    : handle_(std::exchange(other.handle_, MPI_REQUEST_NULL)),
      kind_(other.kind_),
      peer_offset_(other.peer_offset_),
      comm_(std::move(other.comm_)) {}

Request& Request::operator=(Request&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = std::exchange(other.handle_, MPI_REQUEST_NULL);
    kind_ = other.kind_;
    peer_offset_ = other.peer_offset_;
    comm_ = std::move(other.comm_);
  }
  return *this;
}

Request::~Request() { release(); }

void Request::release() noexcept {
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
  require_environment("classic::Request::cancel");
  transport::check_code(MPI_Cancel(&handle_), "classic::Request::cancel");
}

// ---- completion -----------------------------------------------------------

Status wait(Request& request) {
  if (request.is_null()) return Status{};
  require_environment("classic::wait");
  MPI_Status status;
  const int code = MPI_Wait(&RequestAccess::handle(request), &status);
  RequestAccess::settle(request);
  transport::check_code(code, "classic::wait");
  return Status::from_transport(status, RequestAccess::peer_offset(request));
}

std::optional<Status> test(Request& request) {
  if (request.is_null()) return Status{};
  require_environment("classic::test");
  MPI_Status status;
  int done = 0;
  const int code = MPI_Test(&RequestAccess::handle(request), &done, &status);
  RequestAccess::settle(request);
  transport::check_code(code, "classic::test");
  if (!done) return std::nullopt;
  return Status::from_transport(status, RequestAccess::peer_offset(request));
}

std::vector<Status> wait_all(std::span<Request> requests) {
  const int n = checked_size(requests, "classic::wait_all");
  if (all_null(requests)) return std::vector<Status>(requests.size());
  require_environment("classic::wait_all");
  const std::vector<int> offsets = peer_offsets(requests);
  std::vector<MPI_Request> handles = RequestAccess::handles(requests);
  std::vector<MPI_Status> statuses(requests.size());
  const int code = MPI_Waitall(n, handles.data(), statuses.data());
  RequestAccess::store(requests, handles);
  check_all(code, statuses, "classic::wait_all");
  return to_statuses(statuses, offsets);
}

std::optional<std::vector<Status>> test_all(std::span<Request> requests) {
  const int n = checked_size(requests, "classic::test_all");
  if (all_null(requests)) return std::vector<Status>(requests.size());
  require_environment("classic::test_all");
  const std::vector<int> offsets = peer_offsets(requests);
  std::vector<MPI_Request> handles = RequestAccess::handles(requests);
  std::vector<MPI_Status> statuses(requests.size());
  int done = 0;
  const int code = MPI_Testall(n, handles.data(), &done, statuses.data());
  RequestAccess::store(requests, handles);
  check_all(code, statuses, "classic::test_all");
  if (!done) return std::nullopt;
  return to_statuses(statuses, offsets);
}

Completion wait_any(std::span<Request> requests) {
  const int n = checked_size(requests, "classic::wait_any");
  if (all_null(requests)) return Completion{};
  require_environment("classic::wait_any");
  const std::vector<int> offsets = peer_offsets(requests);
  std::vector<MPI_Request> handles = RequestAccess::handles(requests);
  MPI_Status status;
  int index = MPI_UNDEFINED;
  const int code = MPI_Waitany(n, handles.data(), &index, &status);
  RequestAccess::store(requests, handles);
  return completion(code, index, status, offsets, "classic::wait_any");
}

std::optional<Completion> test_any(std::span<Request> requests) {
  const int n = checked_size(requests, "classic::test_any");
  if (all_null(requests)) return Completion{};
  require_environment("classic::test_any");
  const std::vector<int> offsets = peer_offsets(requests);
  std::vector<MPI_Request> handles = RequestAccess::handles(requests);
  MPI_Status status;
  int index = MPI_UNDEFINED;
  int done = 0;
  const int code = MPI_Testany(n, handles.data(), &index, &done, &status);
  RequestAccess::store(requests, handles);
  if (!done && code == MPI_SUCCESS) return std::nullopt;
  return completion(code, index, status, offsets, "classic::test_any");
}

}  // namespace classic
