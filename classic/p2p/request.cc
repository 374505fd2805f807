#include "classic/p2p/request.h"

#include <algorithm>
#include <climits>
#include <string>
#include <thread>
#include <utility>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "classic/base/internal/transport_error.h"
#include "classic/p2p/internal/completion.h"
#include "classic/p2p/internal/restriction.h"

namespace classic {

// The completion functions' view of requests and operations. An operation
// is idle (never begun, or a persistent one whose completion was seen),
// active (registered with the progress list below), or completed (done,
// waiting for a completion function of its own request to see it).
class RequestAccess {
 public:
  using Operation = Request::Operation;

  static MPI_Request& handle(Request& request) { return request.handle_; }
  static int peer_offset(const Request& request) {
    return request.peer_offset_;
  }
  static const std::shared_ptr<const std::vector<int>>& allowed_sources(
      const Request& request) {
    return request.allowed_sources_;
  }
  static int rank(const Request& request) { return request.rank_; }
  static Operation* operation(const Request& request) {
    return request.operation_.get();
  }
  static bool is_active(const Operation& op) { return op.active_; }

  // Every operation of the process that is active now.
  static std::vector<Operation*>& active_operations() {
    static std::vector<Operation*> list;
    return list;
  }

  static void activate(Operation& op) {
    op.active_ = true;
    op.completed_ = false;
    active_operations().push_back(&op);
  }

  static void deactivate(Operation& op) noexcept {
    if (!op.active_) return;
    op.active_ = false;
    std::erase(active_operations(), &op);
  }

  // Statuses for one completion call over an operation's step: reused, so
  // that completing a step allocates nothing once it has grown.
  static std::span<MPI_Status> statuses_for(std::size_t n) {
    static std::vector<MPI_Status> statuses;
    if (statuses.size() < n) statuses.resize(n);
    return {statuses.data(), n};
  }

  // Moves `op` along without blocking: through every step whose transport
  // requests have completed. True once it has completed. A failure ends
  // the operation and is raised.
  static bool progress(Operation& op, const char* function) {
    if (!op.active_) return op.completed_;
    try {
      for (;;) {
        std::span<MPI_Request> parts = op.parts();
        if (!parts.empty()) {
          const std::span<MPI_Status> statuses = statuses_for(parts.size());
          int done = 0;
          const int code = MPI_Testall(static_cast<int>(parts.size()),
                                       parts.data(), &done, statuses.data());
          internal::raise_completion_failure(code, statuses, function);
          if (done == 0) return false;
        }
        if (op.advance()) {
          deactivate(op);
          op.completed_ = true;
          return true;
        }
      }
    } catch (...) {
      deactivate(op);
      op.completed_ = true;
      throw;
    }
  }

  // progress() of every active operation but `except`; a failure is kept
  // for the operation's own request to raise.
  static void progress_others(const Operation* except) {
    const std::vector<Operation*> now = active_operations();
    for (Operation* op : now) {
      if (op == except || !op->active_) continue;
      try {
        progress(*op, "classic::progress");
      } catch (...) {
        op->failure_ = std::current_exception();
      }
    }
  }

  // The request's completed operation, seen: a persistent request becomes
  // inactive, another becomes null. Raises the operation's failure, if any.
  static void collect(Request& request) {
    Operation& op = *request.operation_;
    std::exception_ptr failure = std::exchange(op.failure_, nullptr);
    op.completed_ = false;
    if (!op.persistent()) {
      request.operation_.reset();
      request.comm_ = Comm();
    }
    if (failure) std::rethrow_exception(failure);
  }

  // Whether the operation of `request` is the only active one: nothing
  // else needs moving along while it is waited for.
  static bool runs_alone(const Request& request) {
    const Operation* op = request.operation_.get();
    return op->active_ && active_operations().size() == 1;
  }

  // Completes the operation of `request`, which runs alone, blocking in the
  // transport on each of its steps in turn (no polling: one MPI_Waitall a
  // step), and collects it. Failures as progress() and wait() raise them.
  static void complete_alone(Request& request, const char* function) {
    Operation& op = *request.operation_;
    for (;;) {
      std::span<MPI_Request> parts = op.parts();
      if (!parts.empty()) {
        const std::span<MPI_Status> statuses = statuses_for(parts.size());
        const int code = MPI_Waitall(static_cast<int>(parts.size()),
                                     parts.data(), statuses.data());
        if (code != MPI_SUCCESS) [[unlikely]] {
          deactivate(op);
          collect(request);
          internal::raise_completion_failure(code, statuses, function);
        }
      }
      bool done = false;
      try {
        done = op.advance();
      } catch (...) {
        deactivate(op);
        op.completed_ = true;
        throw;
      }
      if (done) break;
    }
    deactivate(op);
    collect(request);
  }

  // True once the operation of `request` has completed (then collected).
  static bool try_complete(Request& request, const char* function) {
    Operation& op = *request.operation_;
    if (!op.completed_ && !progress(op, function)) return false;
    collect(request);
    return true;
  }

  static bool is_completed(const Request& request) {
    return request.operation_ != nullptr && request.operation_->completed_;
  }

  // Neither a transport request nor an operation to wait for: null, or an
  // inactive persistent request.
  static bool is_idle(const Request& request) {
    if (request.handle_ != MPI_REQUEST_NULL) return false;
    const Operation* op = request.operation_.get();
    return op == nullptr || (!op->active_ && !op->completed_);
  }

  // A completed point-to-point request lets go of its communicator (which
  // may free it, if this was its last handle).
  static void settle(Request& request) {
    if (request.handle_ == MPI_REQUEST_NULL && request.operation_ == nullptr) {
      request.comm_ = Comm();
    }
  }
};

Request::Operation::~Operation() { RequestAccess::deactivate(*this); }

namespace internal {

bool operations_in_progress() noexcept {
  return !RequestAccess::active_operations().empty();
}

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

namespace {

using Operation = Request::Operation;

// Operations can only be completed while the transport lives.
void require_environment(const char* function) {
  if (!Environment::active()) {
    throw Error(ErrorClass::request, function,
                "the request is pending but the classic::Environment that "
                "started it has ended");
  }
}

bool all_idle(std::span<const Request> requests) {
  return std::all_of(requests.begin(), requests.end(), [](const Request& r) {
    return RequestAccess::is_idle(r);
  });
}

int checked_size(std::size_t size, const char* function) {
  if (size > static_cast<std::size_t>(INT_MAX)) {
    throw Error(ErrorClass::count, function,
                "the requests hold " + std::to_string(size) +
                    " transport requests, more than the transport can take");
  }
  return static_cast<int>(size);
}

// While an operation is active (internal::operations_in_progress),
// blocking completion polls: the transport moves point-to-point messages on
// its own, but the next round of an operation is posted only by a
// completion function.
void pause() { std::this_thread::yield(); }

// The point-to-point requests among `requests` that are pending, as one
// array of transport handles for one completion call; put back by store().
struct Handles {
  std::vector<MPI_Request> handles;
  std::vector<std::size_t> owners;  // the request of each handle

  explicit Handles(std::span<Request> requests) {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      MPI_Request handle = RequestAccess::handle(requests[i]);
      if (handle == MPI_REQUEST_NULL) continue;
      handles.push_back(handle);
      owners.push_back(i);
    }
  }

  void store(std::span<Request> requests) const {
    for (std::size_t k = 0; k < handles.size(); ++k) {
      Request& request = requests[owners[k]];
      RequestAccess::handle(request) = handles[k];
      RequestAccess::settle(request);
    }
  }
};

Status status_of(const Request& request, const MPI_Status& status,
                 const char* function) {
  Status result =
      Status::from_transport(status, RequestAccess::peer_offset(request));
  if (const auto& sources = RequestAccess::allowed_sources(request))
      [[unlikely]] {
    internal::check_source_in(*sources, RequestAccess::rank(request),
                              result.source, function);
  }
  return result;
}

// Sees every completed operation among `requests` (collect), raising the
// failure of the first that failed, naming it.
void collect_completed(std::span<Request> requests, const char* function) {
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (!RequestAccess::is_completed(requests[i])) continue;
    try {
      RequestAccess::collect(requests[i]);
    } catch (const Error& error) {
      throw Error(error.error_class(), function,
                  error_text::entry("requests", i) + ": " + error.what());
    }
  }
}

bool any_active_operation(std::span<const Request> requests) {
  return std::any_of(requests.begin(), requests.end(), [](const Request& r) {
    const Operation* op = RequestAccess::operation(r);
    return op != nullptr && RequestAccess::is_active(*op);
  });
}

}  // namespace

// ---- Request --------------------------------------------------------------

Request::Request(std::unique_ptr<Operation> operation, const Comm& comm)
    : operation_(std::move(operation)), comm_(comm) {
  if (!operation_->persistent()) {
    operation_->begin();
    RequestAccess::activate(*operation_);
  }
}

Request::Request(Request&& other) noexcept
    : handle_(std::exchange(other.handle_, MPI_REQUEST_NULL)),
      kind_(other.kind_),
      peer_offset_(other.peer_offset_),
      operation_(std::move(other.operation_)),
      comm_(std::move(other.comm_)),
      allowed_sources_(std::move(other.allowed_sources_)),
      rank_(other.rank_) {}

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

Request::~Request() { release(); }

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

void check_startable(const Request& request, const char* function,
                     const std::string& name) {
  const Operation* op = RequestAccess::operation(request);
  if (request.is_null()) {
    throw Error(ErrorClass::request, function, name + " is null");
  }
  if (op == nullptr || !op->persistent()) {
    throw Error(ErrorClass::request, function,
                name + " is not persistent (made by an *_init function)");
  }
  if (!request.is_inactive()) {
    throw Error(ErrorClass::request, function,
                name +
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

// ---- completion -----------------------------------------------------------

Status wait(Request& request) {
  constexpr const char* kFunction = "classic::wait";
  if (RequestAccess::is_idle(request)) return Status{};
  require_environment(kFunction);
  if (Operation* op = RequestAccess::operation(request)) {
    if (RequestAccess::runs_alone(request)) {
      RequestAccess::complete_alone(request, kFunction);
      return Status{};
    }
    for (;;) {
      if (RequestAccess::try_complete(request, kFunction)) return Status{};
      if (RequestAccess::active_operations().size() == 1) {
        // Nothing else to move along: block on this step's messages.
        std::span<MPI_Request> parts = op->parts();
        const std::span<MPI_Status> statuses =
            RequestAccess::statuses_for(parts.size());
        const int code = MPI_Waitall(static_cast<int>(parts.size()),
                                     parts.data(), statuses.data());
        if (code != MPI_SUCCESS) {
          RequestAccess::deactivate(*op);
          RequestAccess::collect(request);
          internal::raise_completion_failure(code, statuses, kFunction);
        }
      } else {
        RequestAccess::progress_others(op);
        pause();
      }
    }
  }
  MPI_Status status;
  int code = MPI_SUCCESS;
  if (!internal::operations_in_progress()) {
    code = MPI_Wait(&RequestAccess::handle(request), &status);
  } else {
    for (int done = 0; code == MPI_SUCCESS && done == 0;) {
      code = MPI_Test(&RequestAccess::handle(request), &done, &status);
      if (done == 0) {
        RequestAccess::progress_others(nullptr);
        pause();
      }
    }
  }
  RequestAccess::settle(request);
  transport::check_code(code, kFunction);
  return status_of(request, status, kFunction);
}

std::optional<Status> test(Request& request) {
  constexpr const char* kFunction = "classic::test";
  if (RequestAccess::is_idle(request)) return Status{};
  require_environment(kFunction);
  if (Operation* op = RequestAccess::operation(request)) {
    RequestAccess::progress_others(op);
    if (RequestAccess::try_complete(request, kFunction)) return Status{};
    return std::nullopt;
  }
  RequestAccess::progress_others(nullptr);
  MPI_Status status;
  int done = 0;
  const int code = MPI_Test(&RequestAccess::handle(request), &done, &status);
  RequestAccess::settle(request);
  transport::check_code(code, kFunction);
  if (!done) return std::nullopt;
  return status_of(request, status, kFunction);
}

std::vector<Status> wait_all(std::span<Request> requests) {
  constexpr const char* kFunction = "classic::wait_all";
  checked_size(requests.size(), kFunction);
  std::vector<Status> result(requests.size());
  if (all_idle(requests)) return result;
  require_environment(kFunction);
  for (;;) {
    RequestAccess::progress_others(nullptr);
    collect_completed(requests, kFunction);
    Handles pending(requests);
    const int n = checked_size(pending.handles.size(), kFunction);
    std::vector<MPI_Status> statuses(pending.handles.size());
    if (!any_active_operation(requests)) {
      // Only point-to-point requests are left: one transport call.
      const int code =
          n == 0 ? MPI_SUCCESS
                 : MPI_Waitall(n, pending.handles.data(), statuses.data());
      pending.store(requests);
      for (std::size_t k = 0; k < statuses.size(); ++k) {
        const std::size_t owner = pending.owners[k];
        result[owner] = status_of(requests[owner], statuses[k], kFunction);
      }
      internal::raise_completion_failure(code, statuses, kFunction,
                                         pending.owners);
      return result;
    }
    if (n > 0) {
      std::vector<int> indices(pending.handles.size());
      int completed = 0;
      const int code = MPI_Testsome(n, pending.handles.data(), &completed,
                                    indices.data(), statuses.data());
      pending.store(requests);
      for (int k = 0; k < std::max(completed, 0); ++k) {
        const std::size_t owner =
            pending.owners[static_cast<std::size_t>(indices[k])];
        result[owner] = status_of(requests[owner], statuses[k], kFunction);
      }
      internal::raise_completion_failure(code, statuses, kFunction,
                                         pending.owners);
    }
    pause();
  }
}

std::optional<std::vector<Status>> test_all(std::span<Request> requests) {
  constexpr const char* kFunction = "classic::test_all";
  checked_size(requests.size(), kFunction);
  if (all_idle(requests)) return std::vector<Status>(requests.size());
  require_environment(kFunction);
  RequestAccess::progress_others(nullptr);
  // All or nothing: nothing is seen unless everything has completed.
  const bool operations_done =
      std::all_of(requests.begin(), requests.end(), [](const Request& r) {
        const Operation* op = RequestAccess::operation(r);
        return op == nullptr || !RequestAccess::is_active(*op);
      });
  if (!operations_done) return std::nullopt;
  Handles pending(requests);
  const int n = checked_size(pending.handles.size(), kFunction);
  std::vector<MPI_Status> statuses(pending.handles.size());
  int done = 1;
  const int code =
      n == 0 ? MPI_SUCCESS
             : MPI_Testall(n, pending.handles.data(), &done, statuses.data());
  pending.store(requests);
  internal::raise_completion_failure(code, statuses, kFunction, pending.owners);
  if (done == 0) return std::nullopt;
  collect_completed(requests, kFunction);
  std::vector<Status> result(requests.size());
  for (std::size_t k = 0; k < statuses.size(); ++k) {
    const std::size_t owner = pending.owners[k];
    result[owner] = status_of(requests[owner], statuses[k], kFunction);
  }
  return result;
}

namespace {

// One step of wait_any / test_any: a completed operation (the first in
// request order), else a completed point-to-point request, else nothing.
// `block`: wait in the transport when no operation needs moving along.
std::optional<Completion> any_step(std::span<Request> requests, bool block,
                                   const char* function) {
  RequestAccess::progress_others(nullptr);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (!RequestAccess::is_completed(requests[i])) continue;
    RequestAccess::collect(requests[i]);
    return Completion{static_cast<int>(i), Status{}};
  }
  Handles pending(requests);
  const int n = checked_size(pending.handles.size(), function);
  if (n == 0) return std::nullopt;
  MPI_Status status;
  int index = MPI_UNDEFINED;
  int done = 1;
  const int code =
      block && !internal::operations_in_progress()
          ? MPI_Waitany(n, pending.handles.data(), &index, &status)
          : MPI_Testany(n, pending.handles.data(), &index, &done, &status);
  pending.store(requests);
  if (code != MPI_SUCCESS) {
    transport::raise(
        code, function,
        index == MPI_UNDEFINED
            ? std::string()
            : error_text::entry(
                  "requests", pending.owners[static_cast<std::size_t>(index)]));
  }
  if (done == 0 || index == MPI_UNDEFINED) return std::nullopt;
  const std::size_t owner = pending.owners[static_cast<std::size_t>(index)];
  return Completion{static_cast<int>(owner),
                    status_of(requests[owner], status, function)};
}

}  // namespace

Completion wait_any(std::span<Request> requests) {
  constexpr const char* kFunction = "classic::wait_any";
  checked_size(requests.size(), kFunction);
  for (;;) {
    if (all_idle(requests)) return Completion{};
    require_environment(kFunction);
    if (auto completion = any_step(requests, true, kFunction)) {
      return *completion;
    }
    pause();
  }
}

std::optional<Completion> test_any(std::span<Request> requests) {
  constexpr const char* kFunction = "classic::test_any";
  checked_size(requests.size(), kFunction);
  if (all_idle(requests)) return Completion{};
  require_environment(kFunction);
  return any_step(requests, false, kFunction);
}

}  // namespace classic
