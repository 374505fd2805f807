// Collectives on inter-communicators without a root that move data
// unchanged: barrier, allgather(v), alltoall(v, w); the reductions are in
// inter_collectives_all_reductions.cc. Each group's result comes from the
// other group's data: allgather(v) gathers a group's blocks at the other
// group's rank 0 (the leader), which passes them on in its group;
// alltoall(v, w) exchanges pairwise.
#include <cstddef>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include "classic/collectives/internal/collective_names.h"
#include "classic/collectives/internal/inter_call.h"
#include "classic/collectives/internal/inter_collectives.h"

namespace classic::internal {
namespace {

using Group = Plan::Group;

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

}  // namespace classic::internal
