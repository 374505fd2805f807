// The collectives without a root: barrier, allgather(v), alltoall(v, w),
// allreduce, reduce_scatter(_block), scan, exscan. Each has one core
// (checks + transport call) that its raw and typed forms share.
#include <cstdint>
#include <optional>

#include "classic/base/internal/transport.h"
#include "classic/collectives/collectives.h"
#include "classic/collectives/internal/collective_call.h"
#include "classic/collectives/internal/inter_collectives.h"

namespace classic {
namespace internal {
namespace {

constexpr const char* kAllgather = "classic::allgather";
constexpr const char* kAllgatherv = "classic::allgatherv";
constexpr const char* kAlltoall = "classic::alltoall";
constexpr const char* kAlltoallv = "classic::alltoallv";
constexpr const char* kAllreduce = "classic::allreduce";
constexpr const char* kReduceScatter = "classic::reduce_scatter";
constexpr const char* kReduceScatterBlock = "classic::reduce_scatter_block";
constexpr const char* kScan = "classic::scan";
constexpr const char* kExscan = "classic::exscan";

constexpr std::optional<std::size_t> kRaw = std::nullopt;

// MPI_Allreduce, MPI_Scan and MPI_Exscan share one signature and one set of
// rules: count elements of operands in send (or in place), results in recv.
using Elementwise = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op,
                            MPI_Comm);

void check_apart(const CollectiveCall& call, In send, Out recv) {
  call.check_apart(send.data, send.size * send.element_bytes, "send", recv.data,
                   recv.size * recv.element_bytes, "recv");
}

void allgather_core(const CollectiveCall& call, SendBlock send,
                    RecvBlock recv) {
  if (!is_in_place(send.data)) call.check(send, "send");
  call.reject_in_place(recv.data, "recv");
  call.check(recv, "recv", call.size());
  call.run(MPI_Allgather(send.data, send.count, send.datatype, recv.data,
                         recv.count, recv.datatype, call.transport()));
}

void allgatherv_core(const CollectiveCall& call, SendBlock send,
                     RecvBlocks recv) {
  const bool in_place = is_in_place(send.data);
  if (!in_place) call.check(send, "send");
  call.reject_in_place(recv.data, "recv");
  call.check(recv, "recv", "recvcounts", "displs", Access::write);
  // Typed: one element type on both sides, so the own block is the send.
  if (recv.capacity && !in_place) {
    call.check_own_count(recv.counts, "recvcounts", send.count, "send.size()");
  }
  call.run(MPI_Allgatherv(send.data, send.count, send.datatype, recv.data,
                          recv.counts.data(), recv.displs.data(), recv.datatype,
                          call.transport()));
}

void alltoall_core(const CollectiveCall& call, SendBlock send, RecvBlock recv) {
  if (!is_in_place(send.data)) call.check(send, "send", call.size());
  call.reject_in_place(recv.data, "recv");
  call.check(recv, "recv", call.size());
  call.run(MPI_Alltoall(send.data, send.count, send.datatype, recv.data,
                        recv.count, recv.datatype, call.transport()));
}

void alltoallv_core(const CollectiveCall& call, SendBlocks send,
                    RecvBlocks recv) {
  if (!is_in_place(send.data)) {
    call.check(send, "send", "sendcounts", "sdispls", Access::read);
  }
  call.reject_in_place(recv.data, "recv");
  call.check(recv, "recv", "recvcounts", "rdispls", Access::write);
  call.run(MPI_Alltoallv(send.data, send.counts.data(), send.displs.data(),
                         send.datatype, recv.data, recv.counts.data(),
                         recv.displs.data(), recv.datatype, call.transport()));
}

// send.count == recv.count: one count for operands and results.
void elementwise_core(const CollectiveCall& call, SendBlock send,
                      RecvBlock recv, MPI_Op op, Elementwise transport_call) {
  call.check_op(op);
  if (!is_in_place(send.data)) call.check(send, "send");
  call.reject_in_place(recv.data, "recv");
  call.check(recv, "recv");
  call.run(transport_call(send.data, recv.data, recv.count, recv.datatype, op,
                          call.transport()));
}

void elementwise_typed(const Comm& comm, const char* function, In send,
                       Out recv, MPI_Op op, Elementwise transport_call) {
  const CollectiveCall call(comm, function);
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? call.count_of(recv.size, "recv")
                             : call.count_of(send.size, "send");
  if (!in_place) check_apart(call, send, recv);
  elementwise_core(call, {send.data, count, send.datatype, send.size},
                   {recv.data, count, recv.datatype, recv.size}, op,
                   transport_call);
}

// In place, recv holds the operands of every block (sum of recvcounts)
// and receives the process's block at its start.
void reduce_scatter_core(const CollectiveCall& call, SendBlock send,
                         RecvBlock recv, std::span<const int> recvcounts,
                         MPI_Op op) {
  call.check_op(op);
  const std::int64_t total = call.check_counts(recvcounts, "recvcounts");
  call.check_datatype(recv.datatype, "recv");
  call.reject_in_place(recv.data, "recv");
  if (is_in_place(send.data)) {
    call.check_capacity(recv.capacity, total, "recv");
  } else {
    call.check_capacity(send.capacity, total, "send");
    call.check_capacity(recv.capacity,
                        recvcounts[static_cast<std::size_t>(call.rank())],
                        "recv");
  }
  call.run(MPI_Reduce_scatter(send.data, recv.data, recvcounts.data(),
                              recv.datatype, op, call.transport()));
}

// recv.count is every process's block; send.count is the same count.
void reduce_scatter_block_core(const CollectiveCall& call, SendBlock send,
                               RecvBlock recv, MPI_Op op) {
  call.check_op(op);
  call.reject_in_place(recv.data, "recv");
  if (is_in_place(send.data)) {
    call.check(recv, "recv", call.size());
  } else {
    call.check(send, "send", call.size());
    call.check(recv, "recv");
  }
  call.run(MPI_Reduce_scatter_block(send.data, recv.data, recv.count,
                                    recv.datatype, op, call.transport()));
}

using transport::shifted;

// alltoallw on one process is a local copy from the send block to the
// receive block. Open MPI 4.1's component for one-process communicators
// (coll/self) multiplies alltoallw's byte displacements by the datatype
// extent and so reads and writes outside the buffers; alltoallv with the
// displacements folded into the addresses makes the same copy correctly.
int alltoallw_alone(const void* send, int send_count, MPI_Datatype send_type,
                    int send_bytes, void* recv, int recv_count,
                    MPI_Datatype recv_type, int recv_bytes,
                    MPI_Comm transport) {
  if (is_in_place(send)) return MPI_SUCCESS;
  const int zero = 0;
  return MPI_Alltoallv(shifted(send, send_bytes), &send_count, &zero, send_type,
                       const_cast<void*>(shifted(recv, recv_bytes)),
                       &recv_count, &zero, recv_type, transport);
}

}  // namespace

// ---- typed forms ----------------------------------------------------------

void allgather(const Comm& comm, In send, Out recv) {
  if (internal::is_inter(comm, kAllgather)) {
    return internal::inter_allgather(comm, send, recv);
  }
  const CollectiveCall call(comm, kAllgather);
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? call.per_process(recv.size, "recv")
                             : call.count_of(send.size, "send");
  if (!in_place) check_apart(call, send, recv);
  allgather_core(call, {send.data, count, send.datatype, send.size},
                 {recv.data, count, recv.datatype, recv.size});
}

void allgatherv(const Comm& comm, In send, Out recv,
                std::span<const int> recvcounts, std::span<const int> displs) {
  if (internal::is_inter(comm, kAllgatherv)) {
    return internal::inter_allgatherv(comm, send, recv, recvcounts, displs);
  }
  const CollectiveCall call(comm, kAllgatherv);
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? 0 : call.count_of(send.size, "send");
  if (!in_place) check_apart(call, send, recv);
  allgatherv_core(call, {send.data, count, send.datatype, send.size},
                  {recv.data, recvcounts, displs, recv.datatype, recv.size});
}

void alltoall(const Comm& comm, In send, Out recv) {
  if (internal::is_inter(comm, kAlltoall)) {
    return internal::inter_alltoall(comm, send, recv);
  }
  const CollectiveCall call(comm, kAlltoall);
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? call.per_process(recv.size, "recv")
                             : call.per_process(send.size, "send");
  if (!in_place) check_apart(call, send, recv);
  alltoall_core(call, {send.data, count, send.datatype, send.size},
                {recv.data, count, recv.datatype, recv.size});
}

void alltoallv(const Comm& comm, In send, std::span<const int> sendcounts,
               std::span<const int> sdispls, Out recv,
               std::span<const int> recvcounts, std::span<const int> rdispls) {
  if (internal::is_inter(comm, kAlltoallv)) {
    return internal::inter_alltoallv(comm, send, sendcounts, sdispls, recv,
                                     recvcounts, rdispls);
  }
  const CollectiveCall call(comm, kAlltoallv);
  if (!is_in_place(send.data)) check_apart(call, send, recv);
  alltoallv_core(call,
                 {send.data, sendcounts, sdispls, send.datatype, send.size},
                 {recv.data, recvcounts, rdispls, recv.datatype, recv.size});
}

void allreduce(const Comm& comm, In send, Out recv, MPI_Op op) {
  if (internal::is_inter(comm, kAllreduce)) {
    return internal::inter_allreduce(comm, send, recv, op);
  }
  elementwise_typed(comm, kAllreduce, send, recv, op, &MPI_Allreduce);
}

void scan(const Comm& comm, In send, Out recv, MPI_Op op) {
  elementwise_typed(comm, kScan, send, recv, op, &MPI_Scan);
}

void exscan(const Comm& comm, In send, Out recv, MPI_Op op) {
  elementwise_typed(comm, kExscan, send, recv, op, &MPI_Exscan);
}

void reduce_scatter(const Comm& comm, In send, Out recv,
                    std::span<const int> recvcounts, MPI_Op op) {
  if (internal::is_inter(comm, kReduceScatter)) {
    return internal::inter_reduce_scatter(comm, send, recv, recvcounts, op);
  }
  const CollectiveCall call(comm, kReduceScatter);
  if (!is_in_place(send.data)) check_apart(call, send, recv);
  reduce_scatter_core(call, {send.data, 0, send.datatype, send.size},
                      {recv.data, 0, recv.datatype, recv.size}, recvcounts, op);
}

void reduce_scatter_block(const Comm& comm, In send, Out recv, MPI_Op op) {
  if (internal::is_inter(comm, kReduceScatterBlock)) {
    return internal::inter_reduce_scatter_block(comm, send, recv, op);
  }
  const CollectiveCall call(comm, kReduceScatterBlock);
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? call.per_process(recv.size, "recv")
                             : call.count_of(recv.size, "recv");
  if (!in_place) check_apart(call, send, recv);
  reduce_scatter_block_core(call, {send.data, count, send.datatype, send.size},
                            {recv.data, count, recv.datatype, recv.size}, op);
}

}  // namespace internal

// ---- raw forms ------------------------------------------------------------

using internal::CollectiveCall;
using internal::kRaw;

void barrier(const Comm& comm) {
  if (internal::is_inter(comm, "classic::barrier")) {
    return internal::inter_barrier(comm);
  }
  const CollectiveCall call(comm, "classic::barrier");
  call.run(MPI_Barrier(call.transport()));
}

void allgather(const Comm& comm, const void* send, int send_count,
               MPI_Datatype send_type, void* recv, int recv_count,
               MPI_Datatype recv_type) {
  if (internal::is_inter(comm, internal::kAllgather)) {
    return internal::inter_allgather(comm, send, send_count, send_type, recv,
                                     recv_count, recv_type);
  }
  internal::allgather_core(CollectiveCall(comm, internal::kAllgather),
                           {send, send_count, send_type, kRaw},
                           {recv, recv_count, recv_type, kRaw});
}

void allgatherv(const Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv,
                std::span<const int> recvcounts, std::span<const int> displs,
                MPI_Datatype recv_type) {
  if (internal::is_inter(comm, internal::kAllgatherv)) {
    return internal::inter_allgatherv(comm, send, send_count, send_type, recv,
                                      recvcounts, displs, recv_type);
  }
  internal::allgatherv_core(CollectiveCall(comm, internal::kAllgatherv),
                            {send, send_count, send_type, kRaw},
                            {recv, recvcounts, displs, recv_type, kRaw});
}

void alltoall(const Comm& comm, const void* send, int send_count,
              MPI_Datatype send_type, void* recv, int recv_count,
              MPI_Datatype recv_type) {
  if (internal::is_inter(comm, internal::kAlltoall)) {
    return internal::inter_alltoall(comm, send, send_count, send_type, recv,
                                    recv_count, recv_type);
  }
  internal::alltoall_core(CollectiveCall(comm, internal::kAlltoall),
                          {send, send_count, send_type, kRaw},
                          {recv, recv_count, recv_type, kRaw});
}

void alltoallv(const Comm& comm, const void* send,
               std::span<const int> sendcounts, std::span<const int> sdispls,
               MPI_Datatype send_type, void* recv,
               std::span<const int> recvcounts, std::span<const int> rdispls,
               MPI_Datatype recv_type) {
  if (internal::is_inter(comm, internal::kAlltoallv)) {
    return internal::inter_alltoallv(comm, send, sendcounts, sdispls, send_type,
                                     recv, recvcounts, rdispls, recv_type);
  }
  internal::alltoallv_core(CollectiveCall(comm, internal::kAlltoallv),
                           {send, sendcounts, sdispls, send_type, kRaw},
                           {recv, recvcounts, rdispls, recv_type, kRaw});
}

void alltoallw(const Comm& comm, const void* send,
               std::span<const int> sendcounts, std::span<const int> sdispls,
               std::span<const MPI_Datatype> send_types, void* recv,
               std::span<const int> recvcounts, std::span<const int> rdispls,
               std::span<const MPI_Datatype> recv_types) {
  if (internal::is_inter(comm, "classic::alltoallw")) {
    return internal::inter_alltoallw(comm, send, sendcounts, sdispls,
                                     send_types, recv, recvcounts, rdispls,
                                     recv_types);
  }
  const CollectiveCall call(comm, "classic::alltoallw");
  if (!internal::is_in_place(send)) {
    call.check_counts(sendcounts, "sendcounts");
    call.check_length(sdispls, "sdispls");
    call.check_datatypes(send_types, "send_types");
  }
  call.reject_in_place(recv, "recv");
  call.check_counts(recvcounts, "recvcounts");
  call.check_length(rdispls, "rdispls");
  call.check_datatypes(recv_types, "recv_types");
  if (call.size() == 1) {
    call.run(internal::alltoallw_alone(
        send, sendcounts.empty() ? 0 : sendcounts[0],
        send_types.empty() ? MPI_DATATYPE_NULL : send_types[0],
        sdispls.empty() ? 0 : sdispls[0], recv, recvcounts[0], recv_types[0],
        rdispls[0], call.transport()));
    return;
  }
  call.run(MPI_Alltoallw(send, sendcounts.data(), sdispls.data(),
                         send_types.data(), recv, recvcounts.data(),
                         rdispls.data(), recv_types.data(), call.transport()));
}

void allreduce(const Comm& comm, const void* send, void* recv, int count,
               MPI_Datatype datatype, MPI_Op op) {
  if (internal::is_inter(comm, internal::kAllreduce)) {
    return internal::inter_allreduce(comm, send, recv, count, datatype, op);
  }
  internal::elementwise_core(CollectiveCall(comm, internal::kAllreduce),
                             {send, count, datatype, kRaw},
                             {recv, count, datatype, kRaw}, op, &MPI_Allreduce);
}

void reduce_scatter(const Comm& comm, const void* send, void* recv,
                    std::span<const int> recvcounts, MPI_Datatype datatype,
                    MPI_Op op) {
  if (internal::is_inter(comm, internal::kReduceScatter)) {
    return internal::inter_reduce_scatter(comm, send, recv, recvcounts,
                                          datatype, op);
  }
  internal::reduce_scatter_core(CollectiveCall(comm, internal::kReduceScatter),
                                {send, 0, datatype, kRaw},
                                {recv, 0, datatype, kRaw}, recvcounts, op);
}

void reduce_scatter_block(const Comm& comm, const void* send, void* recv,
                          int recv_count, MPI_Datatype datatype, MPI_Op op) {
  if (internal::is_inter(comm, internal::kReduceScatterBlock)) {
    return internal::inter_reduce_scatter_block(comm, send, recv, recv_count,
                                                datatype, op);
  }
  internal::reduce_scatter_block_core(
      CollectiveCall(comm, internal::kReduceScatterBlock),
      {send, recv_count, datatype, kRaw}, {recv, recv_count, datatype, kRaw},
      op);
}

void scan(const Comm& comm, const void* send, void* recv, int count,
          MPI_Datatype datatype, MPI_Op op) {
  internal::elementwise_core(CollectiveCall(comm, internal::kScan),
                             {send, count, datatype, kRaw},
                             {recv, count, datatype, kRaw}, op, &MPI_Scan);
}

void exscan(const Comm& comm, const void* send, void* recv, int count,
            MPI_Datatype datatype, MPI_Op op) {
  internal::elementwise_core(CollectiveCall(comm, internal::kExscan),
                             {send, count, datatype, kRaw},
                             {recv, count, datatype, kRaw}, op, &MPI_Exscan);
}

}  // namespace classic
