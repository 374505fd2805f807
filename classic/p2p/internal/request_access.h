// The completion functions' view of requests (classic/p2p/request.h): the
// operations in progress, and the helpers that request.cc and
// request_completion.cc share. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_P2P_INTERNAL_REQUEST_ACCESS_H_
#define ORTHOCOMM_CLASSIC_P2P_INTERNAL_REQUEST_ACCESS_H_

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "classic/base/internal/inside_classic.h"
#include "classic/p2p/internal/completion.h"
#include "classic/p2p/internal/restriction.h"
#include "classic/p2p/request.h"

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
  // Never destroyed: a request kept past main() (a static) still takes
  // itself off the list as it goes.
  static std::vector<Operation*>& active_operations() {
    static auto& list = *new std::vector<Operation*>();
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
    std::vector<Operation*>& active = active_operations();
    // Mostly the last one activated (a loop's one request): no search.
    if (!active.empty() && active.back() == &op) {
      active.pop_back();
    } else {
      std::erase(active, &op);
    }
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
    // The exception_ptr is touched only where there is a failure: its
    // copies and destruction are calls into the C++ runtime.
    std::exception_ptr failure;
    if (op.failure_ != nullptr) [[unlikely]] {
      failure = std::exchange(op.failure_, nullptr);
    }
    op.completed_ = false;
    if (!op.persistent()) {
      request.operation_.reset();
      request.comm_ = Comm();
    }
    if (failure != nullptr) [[unlikely]] {
      std::rethrow_exception(failure);
    }
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

namespace internal::requests {

using Operation = Request::Operation;

// Operations can only be completed while the transport lives.
inline void require_environment(const char* function) {
  if (!Environment::active()) {
    throw Error(ErrorClass::request, function,
                "the request is pending but the classic::Environment that "
                "started it has ended");
  }
}

inline bool all_idle(std::span<const Request> requests) {
  return std::all_of(requests.begin(), requests.end(), [](const Request& r) {
    return RequestAccess::is_idle(r);
  });
}

inline int checked_size(std::size_t size, const char* function) {
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
inline void pause() { std::this_thread::yield(); }

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

inline Status status_of(const Request& request, const MPI_Status& status,
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
inline void collect_completed(std::span<Request> requests,
                              const char* function) {
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

inline bool any_active_operation(std::span<const Request> requests) {
  return std::any_of(requests.begin(), requests.end(), [](const Request& r) {
    const Operation* op = RequestAccess::operation(r);
    return op != nullptr && RequestAccess::is_active(*op);
  });
}

}  // namespace internal::requests

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_P2P_INTERNAL_REQUEST_ACCESS_H_
