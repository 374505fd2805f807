// The reductions on inter-communicators without a root: allreduce,
// reduce_scatter(_block). Each group's result is the reduction of the
// other group's data: each group reduces its data at its rank 0 (the
// leader), the leaders swap their reductions, and each passes the result
// on in its group.
#include <climits>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/internal/collective_names.h"
#include "classic/collectives/internal/inter_call.h"
#include "classic/collectives/internal/inter_collectives.h"

namespace classic::internal {
namespace {

using Group = Plan::Group;

// The element count of `count` blocks of `blocks`, which MPI needs as int.
int total(const InterCall& call, std::int64_t elements, const char* name) {
  if (elements > INT_MAX) [[unlikely]] {
    throw Error(ErrorClass::count, call.function(),
                std::string(name) + " total " + std::to_string(elements) +
                    " elements is more than INT_MAX");
  }
  return static_cast<int>(elements);
}

// Phase kToLeader of the reducing collectives: the group's `count` send
// elements, reduced in rank order at the leader, into scratch there (the
// returned block; others return none). The leader receives the last
// process's data into the result and folds the others in from the right:
// d_0 op (d_1 op (... op d_{n-1})), d_0 its own.
Plan::Block reduce_at_leader(const InterCall& call, InterPlan& plan, int count,
                             MPI_Datatype datatype, MPI_Op op) {
  const Plan::Block own = send_block(0, count, datatype);
  if (!call.leads()) {
    plan.send(kToLeader, Group::local, 0, {own});
    return {};
  }
  const Plan::Block result = plan.scratch(count, datatype);
  const int last = call.local_size() - 1;
  if (last == 0) {
    plan.copy(kToLeader, own, result);
    return result;
  }
  std::vector<Plan::Block> received(static_cast<std::size_t>(last));
  for (int i = 1; i < last; ++i) {
    received[static_cast<std::size_t>(i)] = plan.scratch(count, datatype);
    plan.receive(kToLeader, Group::local, i,
                 {received[static_cast<std::size_t>(i)]});
  }
  plan.receive(kToLeader, Group::local, last, {result});
  for (int i = last - 1; i >= 1; --i) {
    plan.reduce(kToLeader, received[static_cast<std::size_t>(i)], result, op);
  }
  plan.reduce(kToLeader, own, result, op);
  return result;
}

Request allreduce_core(const InterCall& call, SendBlock send, RecvBlock recv,
                       MPI_Op op) {
  call.check_op(op);
  call.check(send, "send");
  call.check(recv, "recv");
  InterPlan plan(call);
  const Plan::Block result = recv_block(0, recv.count, recv.datatype);
  const Plan::Block mine =
      reduce_at_leader(call, plan, recv.count, recv.datatype, op);
  swap_at_leaders(call, plan, mine, result);
  if (call.leads()) {
    for (int i = 1; i < call.local_size(); ++i) {
      plan.send(kFromLeader, Group::local, i, {result});
    }
  } else {
    plan.receive(kFromLeader, Group::local, 0, {result});
  }
  return plan.run(send.data, recv.data);
}

// The reduction of the other group's `elements` send elements, scattered
// in this group as `counts` (the leader holds it between the phases).
Request reduce_and_scatter(const InterCall& call, const void* send,
                           int elements, MPI_Datatype datatype, MPI_Op op,
                           void* recv, std::span<const int> counts) {
  InterPlan plan(call);
  const Plan::Block mine = reduce_at_leader(call, plan, elements, datatype, op);
  const auto own = static_cast<std::size_t>(call.rank());
  if (!call.leads()) {
    plan.receive(kFromLeader, Group::local, 0,
                 {recv_block(0, counts[own], datatype)});
    return plan.run(send, recv);
  }
  const Plan::Block theirs = plan.scratch(elements, datatype);
  swap_at_leaders(call, plan, mine, theirs);
  const MPI_Aint extent = extent_of(datatype);
  MPI_Aint offset = theirs.displacement + extent * counts[0];
  for (int i = 1; i < call.local_size(); ++i) {
    const int count = counts[static_cast<std::size_t>(i)];
    plan.send(kFromLeader, Group::local, i,
              {{Plan::Space::scratch, offset, count, datatype}});
    offset += extent * count;
  }
  plan.copy(kFromLeader,
            {Plan::Space::scratch, theirs.displacement, counts[0], datatype},
            recv_block(0, counts[0], datatype));
  return plan.run(send, recv);
}

Request reduce_scatter_core(const InterCall& call, SendBlock send,
                            RecvBlock recv, std::span<const int> recvcounts,
                            MPI_Op op) {
  call.check_op(op);
  const int elements = total(
      call, call.check_counts(recvcounts, call.local_size(), "recvcounts"),
      "recvcounts");
  call.check(SendBlock{send.data, elements, send.datatype, send.capacity},
             "send");
  call.check(
      RecvBlock{recv.data, recvcounts[static_cast<std::size_t>(call.rank())],
                recv.datatype, recv.capacity},
      "recv");
  return reduce_and_scatter(call, send.data, elements, recv.datatype, op,
                            recv.data, recvcounts);
}

// recv.count elements for every process of this group.
Request reduce_scatter_block_core(const InterCall& call, SendBlock send,
                                  RecvBlock recv, MPI_Op op) {
  call.check_op(op);
  call.check(recv, "recv");
  call.check(send, "send", call.local_size());
  const int elements =
      total(call, std::int64_t{recv.count} * call.local_size(), "send");
  return reduce_and_scatter(
      call, send.data, elements, recv.datatype, op, recv.data,
      std::vector<int>(static_cast<std::size_t>(call.local_size()),
                       recv.count));
}

}  // namespace

// ---- typed forms ----------------------------------------------------------

Request inter_allreduce(const Comm& comm, In send, Out recv, MPI_Op op,
                        Mode mode) {
  const InterCall call(comm, kAllreduce(mode), mode);
  call.check_apart(send, recv);
  const int count = call.count_of(send.size, "send");
  return allreduce_core(call, {send.data, count, send.datatype, send.size},
                        {recv.data, count, recv.datatype, recv.size}, op);
}

Request inter_reduce_scatter(const Comm& comm, In send, Out recv,
                             std::span<const int> recvcounts, MPI_Op op,
                             Mode mode) {
  const InterCall call(comm, kReduceScatter(mode), mode);
  call.check_apart(send, recv);
  return reduce_scatter_core(call, {send.data, 0, send.datatype, send.size},
                             {recv.data, 0, recv.datatype, recv.size},
                             recvcounts, op);
}

Request inter_reduce_scatter_block(const Comm& comm, In send, Out recv,
                                   MPI_Op op, Mode mode) {
  const InterCall call(comm, kReduceScatterBlock(mode), mode);
  call.check_apart(send, recv);
  const int count = call.count_of(recv.size, "recv");
  return reduce_scatter_block_core(
      call, {send.data, count, send.datatype, send.size},
      {recv.data, count, recv.datatype, recv.size}, op);
}

// ---- raw forms ------------------------------------------------------------

Request inter_allreduce(const Comm& comm, const void* send, void* recv,
                        int count, MPI_Datatype datatype, MPI_Op op,
                        Mode mode) {
  return allreduce_core(InterCall(comm, kAllreduce(mode), mode),
                        {send, count, datatype, kRaw},
                        {recv, count, datatype, kRaw}, op);
}

Request inter_reduce_scatter(const Comm& comm, const void* send, void* recv,
                             std::span<const int> recvcounts,
                             MPI_Datatype datatype, MPI_Op op, Mode mode) {
  return reduce_scatter_core(InterCall(comm, kReduceScatter(mode), mode),
                             {send, 0, datatype, kRaw},
                             {recv, 0, datatype, kRaw}, recvcounts, op);
}

Request inter_reduce_scatter_block(const Comm& comm, const void* send,
                                   void* recv, int recv_count,
                                   MPI_Datatype datatype, MPI_Op op,
                                   Mode mode) {
  return reduce_scatter_block_core(
      InterCall(comm, kReduceScatterBlock(mode), mode),
      {send, recv_count, datatype, kRaw}, {recv, recv_count, datatype, kRaw},
      op);
}

}  // namespace classic::internal
