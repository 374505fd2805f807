// Collectives on inter-communicators without a root: barrier, allgather(v),
// alltoall(v, w), allreduce, reduce_scatter(_block). Each group's result
// comes from the other group's data. Those that combine a group's data
// gather it at the group's rank 0 (the leader), which exchanges with the
// other leader and passes the result on in its group.
#include <climits>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/internal/collective_names.h"
#include "classic/collectives/internal/inter_call.h"
#include "classic/collectives/internal/inter_collectives.h"

namespace classic::internal {
namespace {

using Group = Plan::Group;

// The phases of the collectives that combine a group's data at its leader.
enum Phase : int { kToLeader = 0, kBetweenLeaders = 1, kFromLeader = 2 };

// The element count of `count` blocks of `blocks`, which MPI needs as int.
int total(const InterCall& call, std::int64_t elements, const char* name) {
  if (elements > INT_MAX) [[unlikely]] {
    throw Error(ErrorClass::count, call.function(),
                std::string(name) + " total " + std::to_string(elements) +
                    " elements is more than INT_MAX");
  }
  return static_cast<int>(elements);
}

std::vector<MPI_Aint> scaled(std::span<const int> displs, MPI_Aint extent) {
  std::vector<MPI_Aint> bytes(displs.size());
  for (std::size_t j = 0; j < displs.size(); ++j) bytes[j] = extent * displs[j];
  return bytes;
}

std::vector<MPI_Aint> equal(std::size_t n, int count, MPI_Datatype type) {
  std::vector<int> displs(n);
  std::iota(displs.begin(), displs.end(), 0);
  return scaled(displs, extent_of(type) * count);
}

// A buffer of one block per remote process: block j has counts[j]
// elements of types[j] at byte_displs[j].
struct Side {
  std::vector<int> counts;
  std::vector<MPI_Aint> byte_displs;
  std::vector<MPI_Datatype> types;

  Side(std::vector<int> block_counts, std::vector<MPI_Aint> displs,
       std::vector<MPI_Datatype> block_types)
      : counts(std::move(block_counts)),
        byte_displs(std::move(displs)),
        types(std::move(block_types)) {}
  Side(std::vector<int> block_counts, std::vector<MPI_Aint> displs,
       MPI_Datatype type)
      : counts(std::move(block_counts)),
        byte_displs(std::move(displs)),
        types(counts.size(), type) {}
  Plan::Block block(Plan::Space space, std::size_t j) const {
    return {space, byte_displs[j], counts[j], types[j]};
  }
  std::vector<Plan::Block> all(Plan::Space space) const {
    std::vector<Plan::Block> blocks(counts.size());
    for (std::size_t j = 0; j < blocks.size(); ++j) blocks[j] = block(space, j);
    return blocks;
  }
};

// Every process sends its block to the other group's leader, which
// receives them in place (`recv`) and passes all of them, as one message,
// to the rest of its group.
Request gather_at_leaders(const InterCall& call, SendBlock send,
                          void* recv_data, const Side& recv) {
  InterPlan plan(call);
  plan.send(kToLeader, Group::peers, 0,
            {send_block(0, send.count, send.datatype)});
  if (call.leads()) {
    for (int j = 0; j < call.remote_size(); ++j) {
      plan.receive(
          kToLeader, Group::peers, j,
          {recv.block(Plan::Space::recv, static_cast<std::size_t>(j))});
    }
    for (int i = 1; i < call.local_size(); ++i) {
      plan.send(kFromLeader, Group::local, i, recv.all(Plan::Space::recv));
    }
  } else {
    plan.receive(kFromLeader, Group::local, 0, recv.all(Plan::Space::recv));
  }
  return plan.run(send.data, recv_data);
}

Request allgather_core(const InterCall& call, SendBlock send, RecvBlock recv) {
  call.check(send, "send");
  call.check(recv, "recv", call.remote_size());
  const auto n = static_cast<std::size_t>(call.remote_size());
  return gather_at_leaders(
      call, send, recv.data,
      Side(std::vector<int>(n, recv.count), equal(n, recv.count, recv.datatype),
           recv.datatype));
}

Request allgatherv_core(const InterCall& call, SendBlock send,
                        RecvBlocks recv) {
  call.check(send, "send");
  call.check(recv, call.remote_size(), "recv", "recvcounts", "displs",
             Access::write);
  return gather_at_leaders(
      call, send, recv.data,
      Side(std::vector<int>(recv.counts.begin(), recv.counts.end()),
           scaled(recv.displs, extent_of(recv.datatype)), recv.datatype));
}

// Pairwise: process i of one group and process j of the other exchange
// block j of i's send and block i of j's send.
Request exchange_pairwise(const InterCall& call, const void* send_data,
                          const Side& send, void* recv_data, const Side& recv) {
  InterPlan plan(call);
  for (int j = 0; j < call.remote_size(); ++j) {
    const auto at = static_cast<std::size_t>(j);
    plan.receive(0, Group::peers, j, {recv.block(Plan::Space::recv, at)});
    plan.send(0, Group::peers, j, {send.block(Plan::Space::send, at)});
  }
  return plan.run(send_data, recv_data);
}

Request alltoall_core(const InterCall& call, SendBlock send, RecvBlock recv) {
  call.check(send, "send", call.remote_size());
  call.check(recv, "recv", call.remote_size());
  const auto n = static_cast<std::size_t>(call.remote_size());
  return exchange_pairwise(
      call, send.data,
      Side(std::vector<int>(n, send.count), equal(n, send.count, send.datatype),
           send.datatype),
      recv.data,
      Side(std::vector<int>(n, recv.count), equal(n, recv.count, recv.datatype),
           recv.datatype));
}

Request alltoallv_core(const InterCall& call, SendBlocks send,
                       RecvBlocks recv) {
  const int n = call.remote_size();
  call.check(send, n, "send", "sendcounts", "sdispls", Access::read);
  call.check(recv, n, "recv", "recvcounts", "rdispls", Access::write);
  return exchange_pairwise(
      call, send.data,
      Side(std::vector<int>(send.counts.begin(), send.counts.end()),
           scaled(send.displs, extent_of(send.datatype)), send.datatype),
      recv.data,
      Side(std::vector<int>(recv.counts.begin(), recv.counts.end()),
           scaled(recv.displs, extent_of(recv.datatype)), recv.datatype));
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

// The leaders swap their groups' reductions: `mine` goes, the other
// group's arrives in `theirs`.
void swap_at_leaders(const InterCall& call, InterPlan& plan,
                     const Plan::Block& mine, const Plan::Block& theirs) {
  if (!call.leads()) return;
  plan.send(kBetweenLeaders, Group::peers, 0, {mine});
  plan.receive(kBetweenLeaders, Group::peers, 0, {theirs});
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

Request inter_allgather(const Comm& comm, In send, Out recv, Mode mode) {
  const InterCall call(comm, kAllgather(mode), mode);
  call.check_apart(send, recv);
  return allgather_core(
      call,
      {send.data, call.count_of(send.size, "send"), send.datatype, send.size},
      {recv.data, call.per_block(recv.size, call.remote_size(), "recv"),
       recv.datatype, recv.size});
}

Request inter_allgatherv(const Comm& comm, In send, Out recv,
                         std::span<const int> recvcounts,
                         std::span<const int> displs, Mode mode) {
  const InterCall call(comm, kAllgatherv(mode), mode);
  call.check_apart(send, recv);
  return allgatherv_core(
      call,
      {send.data, call.count_of(send.size, "send"), send.datatype, send.size},
      {recv.data, recvcounts, displs, recv.datatype, recv.size});
}

Request inter_alltoall(const Comm& comm, In send, Out recv, Mode mode) {
  const InterCall call(comm, kAlltoall(mode), mode);
  call.check_apart(send, recv);
  return alltoall_core(
      call,
      {send.data, call.per_block(send.size, call.remote_size(), "send"),
       send.datatype, send.size},
      {recv.data, call.per_block(recv.size, call.remote_size(), "recv"),
       recv.datatype, recv.size});
}

Request inter_alltoallv(const Comm& comm, In send,
                        std::span<const int> sendcounts,
                        std::span<const int> sdispls, Out recv,
                        std::span<const int> recvcounts,
                        std::span<const int> rdispls, Mode mode) {
  const InterCall call(comm, kAlltoallv(mode), mode);
  call.check_apart(send, recv);
  return alltoallv_core(
      call, {send.data, sendcounts, sdispls, send.datatype, send.size},
      {recv.data, recvcounts, rdispls, recv.datatype, recv.size});
}

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

// All of one group may leave once all of the other has entered: each group
// gathers word at its leader, the leaders swap word, and each leader then
// tells the rest of its group.
Request inter_barrier(const Comm& comm, Mode mode) {
  const InterCall call(comm, kBarrier(mode), mode);
  InterPlan plan(call);
  if (call.leads()) {
    for (int i = 1; i < call.local_size(); ++i) {
      plan.receive(kToLeader, Group::local, i, {empty_block()});
      plan.send(kFromLeader, Group::local, i, {empty_block()});
    }
    swap_at_leaders(call, plan, empty_block(), empty_block());
  } else {
    plan.send(kToLeader, Group::local, 0, {empty_block()});
    plan.receive(kFromLeader, Group::local, 0, {empty_block()});
  }
  return plan.run(nullptr, nullptr);
}

Request inter_allgather(const Comm& comm, const void* send, int send_count,
                        MPI_Datatype send_type, void* recv, int recv_count,
                        MPI_Datatype recv_type, Mode mode) {
  return allgather_core(InterCall(comm, kAllgather(mode), mode),
                        {send, send_count, send_type, kRaw},
                        {recv, recv_count, recv_type, kRaw});
}

Request inter_allgatherv(const Comm& comm, const void* send, int send_count,
                         MPI_Datatype send_type, void* recv,
                         std::span<const int> recvcounts,
                         std::span<const int> displs, MPI_Datatype recv_type,
                         Mode mode) {
  return allgatherv_core(InterCall(comm, kAllgatherv(mode), mode),
                         {send, send_count, send_type, kRaw},
                         {recv, recvcounts, displs, recv_type, kRaw});
}

Request inter_alltoall(const Comm& comm, const void* send, int send_count,
                       MPI_Datatype send_type, void* recv, int recv_count,
                       MPI_Datatype recv_type, Mode mode) {
  return alltoall_core(InterCall(comm, kAlltoall(mode), mode),
                       {send, send_count, send_type, kRaw},
                       {recv, recv_count, recv_type, kRaw});
}

Request inter_alltoallv(const Comm& comm, const void* send,
                        std::span<const int> sendcounts,
                        std::span<const int> sdispls, MPI_Datatype send_type,
                        void* recv, std::span<const int> recvcounts,
                        std::span<const int> rdispls, MPI_Datatype recv_type,
                        Mode mode) {
  return alltoallv_core(InterCall(comm, kAlltoallv(mode), mode),
                        {send, sendcounts, sdispls, send_type, kRaw},
                        {recv, recvcounts, rdispls, recv_type, kRaw});
}

Request inter_alltoallw(const Comm& comm, const void* send,
                        std::span<const int> sendcounts,
                        std::span<const int> sdispls,
                        std::span<const MPI_Datatype> send_types, void* recv,
                        std::span<const int> recvcounts,
                        std::span<const int> rdispls,
                        std::span<const MPI_Datatype> recv_types, Mode mode) {
  const InterCall call(comm, kAlltoallw(mode), mode);
  const int n = call.remote_size();
  call.reject_in_place(send, "send");
  call.reject_in_place(recv, "recv");
  call.check_counts(sendcounts, n, "sendcounts");
  call.check_length(sdispls.size(), n, "sdispls");
  call.check_datatypes(send_types, n, "send_types");
  call.check_counts(recvcounts, n, "recvcounts");
  call.check_length(rdispls.size(), n, "rdispls");
  call.check_datatypes(recv_types, n, "recv_types");
  return exchange_pairwise(
      call, send,
      Side(std::vector<int>(sendcounts.begin(), sendcounts.end()),
           scaled(sdispls, 1),
           std::vector<MPI_Datatype>(send_types.begin(), send_types.end())),
      recv,
      Side(std::vector<int>(recvcounts.begin(), recvcounts.end()),
           scaled(rdispls, 1),
           std::vector<MPI_Datatype>(recv_types.begin(), recv_types.end())));
}

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
