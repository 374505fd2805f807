#include "classic/p2p/request.h"

#include <algorithm>
#include <climits>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "classic/base/internal/transport_error.h"
#include "classic/p2p/internal/completion.h"
#include "classic/p2p/internal/request_access.h"
#include "classic/p2p/internal/restriction.h"

namespace classic {

using internal::requests::Operation;
using internal::requests::require_environment;

Request::Operation::~Operation() { RequestAccess::deactivate(*this); }

namespace internal {

[[gnu::hot]] bool operations_in_progress() noexcept {
  return !RequestAccess::active_operations().empty();
}

void progress_operations() { RequestAccess::progress_others(nullptr); }

void raise_completion_failure(int code, std::span<const MPI_Status> statuses,
                              const char* function,
                              std::span<const std::size_t> owners) {
  if (code == MPI_SUCCESS) [[likely]] {
    return;
  }
  int mpi_class = MPI_ERR_OTHER;
  MPI_Error_class(code, &mpi_class);
  if (mpi_class != MPI_ERR_IN_STATUS) transport::raise(code, function);
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    const int error = statuses[i].MPI_ERROR;
    if (error != MPI_SUCCESS && error != MPI_ERR_PENDING) {
      transport::raise(error, function,
                       owners.empty()
                           ? std::string()
                           : error_text::entry("requests", owners[i]));
    }
  }
  transport::raise(code, function);
}

}  // namespace internal

// ---- Request --------------------------------------------------------------

Request::Request(std::unique_ptr<Operation> operation, const Comm& comm)
    : operation_(std::move(operation)), comm_(comm) {
  if (!operation_->persistent()) {
    operation_->begin();
    RequestAccess::activate(*operation_);
  }
}

Request& Request::operator=(Request&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = std::exchange(other.handle_, MPI_REQUEST_NULL);
    kind_ = other.kind_;
    peer_offset_ = other.peer_offset_;
    operation_ = std::move(other.operation_);
    comm_ = std::move(other.comm_);
    allowed_sources_ = std::move(other.allowed_sources_);
    rank_ = other.rank_;
  }
  return *this;
}

bool Request::is_inactive() const noexcept {
  return operation_ != nullptr && RequestAccess::is_idle(*this);
}

void Request::release() noexcept {
  if (operation_ != nullptr) {
    if (RequestAccess::is_active(*operation_)) {
      RequestAccess::deactivate(*operation_);
      if (Environment::active()) operation_->abandon();
    }
    operation_.reset();
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
  constexpr const char* kFunction = "classic::Request::cancel";
  if (is_null()) {
    throw Error(ErrorClass::request, kFunction, "the request is null");
  }
  if (operation_ != nullptr) {
    throw Error(ErrorClass::request, kFunction,
                "the request is a collective operation, which MPI does not "
                "allow to be cancelled");
  }
  require_environment(kFunction);
  transport::check_code(MPI_Cancel(&handle_), kFunction);
}

// ---- persistent requests ----------------------------------------------------

namespace {

// `name` as a view: a start builds no string unless it raises.
void check_startable(const Request& request, const char* function,
                     std::string_view name) {
  const Operation* op = RequestAccess::operation(request);
  if (request.is_null()) [[unlikely]] {
    throw Error(ErrorClass::request, function, std::string(name) + " is null");
  }
  if (op == nullptr || !op->persistent()) [[unlikely]] {
    throw Error(
        ErrorClass::request, function,
        std::string(name) + " is not persistent (made by an *_init function)");
  }
  if (!request.is_inactive()) [[unlikely]] {
    throw Error(ErrorClass::request, function,
                std::string(name) +
                    " is active: its operation must complete (wait, test, "
                    "...) before it starts again");
  }
}

void begin(Request& request) {
  Operation& op = *RequestAccess::operation(request);
  op.begin();
  RequestAccess::activate(op);
}

}  // namespace

void start(Request& request) {
  constexpr const char* kFunction = "classic::start";
  check_startable(request, kFunction, "request");
  require_environment(kFunction);
  begin(request);
}

void start_all(std::span<Request> requests) {
  constexpr const char* kFunction = "classic::start_all";
  for (std::size_t i = 0; i < requests.size(); ++i) {
    check_startable(requests[i], kFunction, error_text::entry("requests", i));
  }
  if (!requests.empty()) require_environment(kFunction);
  for (Request& request : requests) begin(request);
}

}  // namespace classic
