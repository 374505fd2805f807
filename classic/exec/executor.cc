#include "classic/exec/executor.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/internal/transport_error.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/exec/internal/execution.h"
#include "classic/exec/internal/held_datatypes.h"
#include "classic/p2p/internal/completion.h"
#include "classic/p2p/point_to_point.h"

namespace classic {
namespace {

using internal::Execution;

// ---- the operation sequence of a communicator -------------------------------

// Operation s uses tags [s * kMaxTags, (s + 1) * kMaxTags), s taken modulo
// what fits below MPI_TAG_UB (about 33 million operations on Open MPI,
// which allows INT_MAX; at least 511, as MPI guarantees 32767).
int tag_base(std::uint64_t sequence) {
  const auto cycle = static_cast<std::uint64_t>(tag_ub() / Plan::kMaxTags);
  return static_cast<int>(sequence % cycle) * Plan::kMaxTags;
}

// The blocking runs a communicator keeps bound (Comm::State::repeats): the
// last kRepeats plans with their buffers, most recent first. A stencil
// code's loop calls the same collectives on the same buffers again and
// again (or on two, swapped each iteration); its calls then find their
// binding made and their addresses resolved. Six: a call may run three
// plans (a relaying v form's steps, whose relays receive messages of
// unknown size between them), and a sparse code's buffers alternate
// between two allocations.
constexpr std::size_t kRepeats = 6;
struct Repeats {
  std::array<std::unique_ptr<Execution>, kRepeats> kept;
};

[[gnu::hot]] void run_blocking(Comm::State& state, int base,
                               std::shared_ptr<const Plan> plan,
                               PlanBuffers buffers, const char* function,
                               std::span<const UnsizedReceive> unsized = {}) {
  if (state.repeats == nullptr) state.repeats = std::make_shared<Repeats>();
  auto& kept = static_cast<Repeats*>(state.repeats.get())->kept;
  std::size_t found = 0;
  while (found < kRepeats &&
         !(kept[found] != nullptr && kept[found]->runs(plan.get(), buffers))) {
    ++found;
  }
  if (found == kRepeats) {
    // A new binding, kept in place of the least recent one.
    found = kRepeats - 1;
    kept[found] =
        std::make_unique<Execution>(state, base, std::move(plan), buffers,
                                    Execution::Kind::repeatable, function);
  }
  std::rotate(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(found),
              kept.begin() + static_cast<std::ptrdiff_t>(found) + 1);
  try {
    kept.front()->run_again(base, function, unsized);
  } catch (...) {
    kept.front().reset();  // abandoned: bound afresh next time
    throw;
  }
}

// execute_followed's operation: the first execution, then the second.
class Followed final : public Request::Operation {
 public:
  Followed(std::unique_ptr<Execution> first, int second_base,
           std::function<FollowingPlan()> then, const char* function)
      : current_(std::move(first)),
        second_base_(second_base),
        then_(std::move(then)),
        function_(function) {}

  std::span<MPI_Request> parts() override { return current_->parts(); }
  void begin() override { current_->begin(); }
  bool advance() override {
    if (!current_->advance()) return false;
    if (followed_) return true;
    followed_ = true;
    FollowingPlan next = then_();
    if (next.plan == nullptr) return true;  // nothing follows
    current_ = std::make_unique<Execution>(
        *current_, second_base_,
        internal::with_held_datatypes(std::move(next.plan), function_),
        next.buffers, function_);
    current_->begin();
    return false;  // its parts, posted by begin(), are moved along next
  }
  void abandon() noexcept override { current_->abandon(); }

 private:
  std::unique_ptr<Execution> current_;
  int second_base_;
  // Holds what the first operation's buffers are, until the request goes.
  std::function<FollowingPlan()> then_;
  bool followed_ = false;
  const char* function_;
};

}  // namespace

namespace internal {

MPI_Aint set_pack_limit(MPI_Aint bytes) {
  return std::exchange(pack_limit, bytes < 0 ? kPackBytes : bytes);
}

MPI_Aint set_started_limit(MPI_Aint bytes) {
  return std::exchange(started_limit, bytes < 0 ? kStartedBytes : bytes);
}

OperationTags take_operation(const Comm& comm, const char* function) {
  Comm::State& state = CommAccess::state(comm, function);
  if (state.private_context == MPI_COMM_NULL) state.add_private_context();
  return {state.private_context, tag_base(state.next_operation++)};
}

}  // namespace internal

[[gnu::hot]] Request execute(const Comm& comm, std::shared_ptr<const Plan> plan,
                             PlanBuffers buffers, Mode mode,
                             const char* function) {
  Comm::State& state = internal::CommAccess::state(comm, function);
  // Topology and inter-communicators have a private context from their
  // constructor; another gets it now (every process of comm is here).
  if (state.private_context == MPI_COMM_NULL) state.add_private_context();
  const int base = tag_base(state.next_operation++);
  if (mode == Mode::blocking && !internal::operations_in_progress()) {
    // Nothing else to move along: no Request, no progress list.
    run_blocking(state, base, std::move(plan), buffers, function);
    return Request();
  }
  // The operation may outlive the call: it holds its derived datatypes.
  auto execution = std::make_unique<Execution>(
      state, base,
      mode == Mode::blocking
          ? std::move(plan)
          : internal::with_held_datatypes(std::move(plan), function),
      buffers,
      mode == Mode::persistent ? Execution::Kind::persistent
                               : Execution::Kind::once,
      function);
  Request request(std::move(execution), comm);
  if (mode == Mode::blocking) wait(request);
  return request;
}

void execute_receiving_unsized(const Comm& comm,
                               std::shared_ptr<const Plan> plan,
                               PlanBuffers buffers,
                               std::span<const UnsizedReceive> unsized,
                               const char* function) {
  Comm::State& state = internal::CommAccess::state(comm, function);
  if (state.private_context == MPI_COMM_NULL) state.add_private_context();
  const int base = tag_base(state.next_operation++);
  if (!internal::operations_in_progress()) {
    run_blocking(state, base, std::move(plan), buffers, function, unsized);
    return;
  }
  // A request: its rounds move along while this waits for the unsized
  // messages, and so does every other operation in progress.
  Request request(
      std::make_unique<Execution>(state, base, std::move(plan), buffers,
                                  Execution::Kind::once, function),
      comm);
  std::vector<char> matched(unsized.size(), 0);
  std::size_t left = unsized.size();
  while (left > 0) {
    for (std::size_t i = 0; i < unsized.size(); ++i) {
      if (matched[i] != 0) continue;
      const UnsizedReceive& receive = unsized[i];
      int found = 0;
      MPI_Message message = MPI_MESSAGE_NULL;
      MPI_Status status;
      transport::check_code(
          MPI_Improbe(state.peer_to_transport(receive.peer), base + receive.tag,
                      state.private_context, &found, &message, &status),
          function);
      if (found == 0) continue;
      int bytes = 0;
      transport::check_code(MPI_Get_count(&status, MPI_PACKED, &bytes),
                            function);
      receive.bytes->resize(static_cast<std::size_t>(bytes));
      transport::check_code(MPI_Mrecv(receive.bytes->data(), bytes, MPI_PACKED,
                                      &message, MPI_STATUS_IGNORE),
                            function);
      matched[i] = 1;
      --left;
    }
    if (left > 0) internal::progress_operations();
  }
  (void)wait(request);
}

Request execute_followed(const Comm& comm, std::shared_ptr<const Plan> first,
                         PlanBuffers first_buffers,
                         std::function<FollowingPlan()> then,
                         const char* function) {
  Comm::State& state = internal::CommAccess::state(comm, function);
  if (state.private_context == MPI_COMM_NULL) state.add_private_context();
  const int first_base = tag_base(state.next_operation++);
  const int second_base = tag_base(state.next_operation++);
  auto execution = std::make_unique<Execution>(
      state, first_base,
      internal::with_held_datatypes(std::move(first), function), first_buffers,
      Execution::Kind::once, function);
  return Request(std::make_unique<Followed>(std::move(execution), second_base,
                                            std::move(then), function),
                 comm);
}

}  // namespace classic
