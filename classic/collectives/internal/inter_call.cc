#include "classic/collectives/internal/inter_call.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "classic/base/constants.h"
#include "classic/base/datatype_layout.h"
#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "classic/collectives/internal/inter_collectives.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/exec/executor.h"

namespace classic::internal {
namespace {

using error_text::text;

}  // namespace

bool is_inter(const Comm& comm, const char* function) {
  return !internal::CommAccess::state(comm, function).remote.is_null();
}

InterCall::InterCall(const Comm& comm, const char* function, Mode mode)
    : comm_(&comm), function_(function), mode_(mode), checked_(comm, function) {
  const Comm::State& state = internal::CommAccess::state(comm, function);
  if (state.remote.is_null()) [[unlikely]] {
    throw Error(ErrorClass::comm, function,
                "comm is an intra-communicator; this needs an "
                "inter-communicator");
  }
  if (state.private_context == MPI_COMM_NULL) [[unlikely]] {
    throw Error(ErrorClass::comm, function,
                "comm is an inter-communicator that no classic constructor "
                "made (it has no private context), so this needs an "
                "intra-communicator");
  }
  local_size_ = state.local.size();
  remote_size_ = state.remote.size();
  rank_ = state.rank;
}

Role InterCall::role(int root) const {
  if (root == mpi_root) return Role::root;
  if (root == proc_null) return Role::idle;
  if (root < 0 || root >= remote_size_) [[unlikely]] {
    throw Error(ErrorClass::root, function_,
                "root = " + text(root) +
                    " is neither classic::mpi_root, classic::proc_null nor a "
                    "rank of the remote group [0, " +
                    text(remote_size_) + ")");
  }
  return Role::other_side;
}

void InterCall::check_op(MPI_Op op) const {
  if (op == MPI_OP_NULL) [[unlikely]] {
    throw Error(ErrorClass::op, function_, "op is MPI_OP_NULL");
  }
  checked_.op(op);
}

void InterCall::reject_in_place(const void* data, const char* name) const {
  if (data == MPI_IN_PLACE) [[unlikely]] {
    throw Error(ErrorClass::buffer, function_,
                std::string(name) +
                    " is MPI_IN_PLACE, which collectives on an "
                    "inter-communicator do not allow");
  }
}

void InterCall::check_count(int count, const char* name) const {
  internal::check_count(function_, count, name);
}

void InterCall::check_datatype(MPI_Datatype datatype, const char* name) const {
  internal::check_datatype(function_, datatype, name);
}

void InterCall::check_capacity(std::optional<std::size_t> capacity,
                               std::int64_t needed, const char* name) const {
  internal::check_capacity(function_, capacity, needed, name);
}

void InterCall::check_length(std::size_t length, int entries,
                             const char* name) const {
  if (length != static_cast<std::size_t>(entries)) [[unlikely]] {
    throw Error(ErrorClass::count, function_,
                std::string(name) + " has " +
                    text(static_cast<std::int64_t>(length)) +
                    " entries; it needs " + text(entries) +
                    " (one per process of the group it describes)");
  }
}

std::int64_t InterCall::check_counts(std::span<const int> counts, int entries,
                                     const char* name) const {
  check_length(counts.size(), entries, name);
  return internal::check_count_entries(function_, counts, name);
}

void InterCall::check_datatypes(std::span<const MPI_Datatype> datatypes,
                                int entries, const char* name) const {
  check_length(datatypes.size(), entries, name);
  internal::check_datatype_entries(function_, datatypes, name);
}

int InterCall::count_of(std::size_t elements, const char* name) const {
  return internal::count_of(function_, elements, name);
}

int InterCall::per_block(std::size_t elements, int blocks,
                         const char* name) const {
  if (elements % static_cast<std::size_t>(blocks) != 0) [[unlikely]] {
    throw Error(ErrorClass::buffer, function_,
                std::string(name) +
                    ".size() = " + text(static_cast<std::int64_t>(elements)) +
                    " is not a multiple of the " + text(blocks) +
                    " blocks it holds (one per process of a group)");
  }
  return count_of(elements / static_cast<std::size_t>(blocks), name);
}

void InterCall::check_apart(const internal::In& send,
                            const internal::Out& recv) const {
  const std::size_t send_bytes = send.size * send.element_bytes;
  const std::size_t recv_bytes = recv.size * recv.element_bytes;
  if (internal::share_memory(send.data, send_bytes, recv.data, recv_bytes))
      [[unlikely]] {
    throw Error(ErrorClass::buffer, function_,
                "send and recv overlap; collectives on an inter-communicator "
                "need separate buffers");
  }
}

// ---- plans ------------------------------------------------------------------

Plan::Round& InterPlan::round(int index) {
  const auto at = static_cast<std::size_t>(index);
  if (plan_->rounds.size() <= at) plan_->rounds.resize(at + 1);
  return plan_->rounds[at];
}

void InterPlan::add_message(std::vector<Plan::Message>& messages, int round,
                            Plan::Group group, int peer,
                            std::vector<Plan::Block> blocks) {
  Plan::Message& message = messages.emplace_back();
  message.peer = peer;
  message.group = group;
  message.tag = round;
  message.blocks = std::move(blocks);
}

void InterPlan::receive(int round, Plan::Group group, int peer,
                        std::vector<Plan::Block> blocks) {
  add_message(this->round(round).receives, round, group, peer,
              std::move(blocks));
}

void InterPlan::send(int round, Plan::Group group, int peer,
                     std::vector<Plan::Block> blocks) {
  add_message(this->round(round).sends, round, group, peer, std::move(blocks));
}

void InterPlan::copy(int round, const Plan::Block& from,
                     const Plan::Block& to) {
  Plan::Local& step = this->round(round).local.emplace_back();
  step.kind = Plan::Local::Kind::copy;
  step.from = from;
  step.to = to;
}

void InterPlan::reduce(int round, const Plan::Block& from,
                       const Plan::Block& to, MPI_Op op) {
  Plan::Local& step = this->round(round).local.emplace_back();
  step.kind = Plan::Local::Kind::reduce;
  step.from = from;
  step.to = to;
  step.op = op;
  step.order = Plan::Local::Order::from_first;
}

Plan::Block InterPlan::scratch(int count, MPI_Datatype datatype) {
  const DatatypeLayout layout = datatype_layout(datatype, call_->function());
  const MPI_Aint bytes =
      count == 0 ? 0 : layout.true_extent + (count - 1) * layout.extent;
  // Slots start on 16-byte boundaries (scratch itself is aligned so).
  constexpr MPI_Aint kAlignment = 16;
  const MPI_Aint start = plan_->scratch_bytes;
  plan_->scratch_bytes += (bytes + kAlignment - 1) / kAlignment * kAlignment;
  return {Plan::Space::scratch, start - layout.true_lower_bound, count,
          datatype};
}

Request InterPlan::run(const void* send, void* recv) {
  call_->agree();
  return execute(call_->comm(), std::move(plan_), {send, recv}, call_->mode(),
                 call_->function());
}

void swap_at_leaders(const InterCall& call, InterPlan& plan,
                     const Plan::Block& mine, const Plan::Block& theirs) {
  if (!call.leads()) return;
  plan.send(kBetweenLeaders, Plan::Group::peers, 0, {mine});
  plan.receive(kBetweenLeaders, Plan::Group::peers, 0, {theirs});
}

}  // namespace classic::internal
