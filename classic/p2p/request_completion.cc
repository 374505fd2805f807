// The completion functions of requests: wait, test and their _all and _any
// forms, which also move classic's operations along round by round.
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
#include "classic/p2p/internal/request_access.h"
#include "classic/p2p/internal/restriction.h"
#include "classic/p2p/request.h"

namespace classic {

using internal::requests::all_idle;
using internal::requests::any_active_operation;
using internal::requests::checked_size;
using internal::requests::collect_completed;
using internal::requests::Handles;
using internal::requests::Operation;
using internal::requests::pause;
using internal::requests::require_environment;
using internal::requests::status_of;

// ---- completion -----------------------------------------------------------

Status wait(Request& request) {
  constexpr const char* kFunction = "classic::wait";
  if (RequestAccess::is_idle(request)) return Status{};
  require_environment(kFunction);
  if (Operation* op = RequestAccess::operation(request)) {
    for (;;) {
      if (RequestAccess::runs_alone(request)) {
        // Nothing else to move along: block on each step's messages.
        RequestAccess::complete_alone(request, kFunction);
        return Status{};
      }
      if (RequestAccess::try_complete(request, kFunction)) return Status{};
      RequestAccess::progress_others(op);
      pause();
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
