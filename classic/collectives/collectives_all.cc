// The collectives without a root: barrier, allgather(v), alltoall(v, w),
// allreduce, reduce_scatter(_block), scan, exscan. Each has one core
// (checks + transport call) that its raw and typed forms share.
#include <cstdint>
#include <optional>

#include "classic/base/internal/transport.h"
#include "classic/collectives/collectives.h"
#include "classic/collectives/internal/collective_call.h"
#include "classic/collectives/internal/collective_names.h"
#include "classic/collectives/internal/inter_collectives.h"
#include "classic/collectives/internal/intra_collectives.h"

namespace classic {
namespace internal {
namespace {

constexpr TransportForms kAllgatherForms{&MPI_Allgather, &MPI_Iallgather,
                                         &MPIX_Allgather_init};
constexpr TransportForms kAllgathervForms{&MPI_Allgatherv, &MPI_Iallgatherv,
                                          &MPIX_Allgatherv_init};
constexpr TransportForms kAlltoallForms{&MPI_Alltoall, &MPI_Ialltoall,
                                        &MPIX_Alltoall_init};
constexpr TransportForms kAlltoallvForms{&MPI_Alltoallv, &MPI_Ialltoallv,
                                         &MPIX_Alltoallv_init};
constexpr TransportForms kAllreduceForms{&MPI_Allreduce, &MPI_Iallreduce,
                                         &MPIX_Allreduce_init};
constexpr TransportForms kReduceScatterForms{
    &MPI_Reduce_scatter, &MPI_Ireduce_scatter, &MPIX_Reduce_scatter_init};
constexpr TransportForms kReduceScatterBlockForms{
    &MPI_Reduce_scatter_block, &MPI_Ireduce_scatter_block,
    &MPIX_Reduce_scatter_block_init};
constexpr TransportForms kScanForms{&MPI_Scan, &MPI_Iscan, &MPIX_Scan_init};
constexpr TransportForms kExscanForms{&MPI_Exscan, &MPI_Iexscan,
                                      &MPIX_Exscan_init};
constexpr TransportForms kBarrierForms{&MPI_Barrier, &MPI_Ibarrier,
                                       &MPIX_Barrier_init};
constexpr TransportForms kAlltoallwForms{&MPI_Alltoallw, &MPI_Ialltoallw,
                                         &MPIX_Alltoallw_init};

// MPI_Allreduce, MPI_Scan and MPI_Exscan share one signature and one set of
// rules: count elements of operands in send (or in place), results in recv.
using Elementwise = decltype(kAllreduceForms);

Request allgather_core(const CollectiveCall& call, SendBlock send,
                       RecvBlock recv) {
  if (!is_in_place(send.data)) call.check(send, "send");
  call.reject_in_place(recv.data, "recv");
  call.check(recv, "recv", call.size());
  if (!is_in_place(send.data)) call.uniform(send.count, send.datatype);
  call.uniform(recv.count, recv.datatype);
  return call.start(kAllgatherForms, send.data, send.count, send.datatype,
                    recv.data, recv.count, recv.datatype);
}

Request allgatherv_core(const CollectiveCall& call, SendBlock send,
                        RecvBlocks recv) {
  const bool in_place = is_in_place(send.data);
  if (!in_place) call.check(send, "send");
  call.reject_in_place(recv.data, "recv");
  call.check(recv, "recv", "recvcounts", "displs", Access::write);
  // Typed: one element type on both sides, so the own block is the send.
  if (recv.capacity && !in_place) {
    call.check_own_count(recv.counts, "recvcounts", send.count, "send.size()");
  }
  return call.start(kAllgathervForms, send.data, send.count, send.datatype,
                    recv.data, recv.counts, recv.displs, recv.datatype);
}

Request alltoall_core(const CollectiveCall& call, SendBlock send,
                      RecvBlock recv) {
  if (!is_in_place(send.data)) call.check(send, "send", call.size());
  call.reject_in_place(recv.data, "recv");
  call.check(recv, "recv", call.size());
  if (!is_in_place(send.data)) call.uniform(send.count, send.datatype);
  call.uniform(recv.count, recv.datatype);
  return call.start(kAlltoallForms, send.data, send.count, send.datatype,
                    recv.data, recv.count, recv.datatype);
}

Request alltoallv_core(const CollectiveCall& call, SendBlocks send,
                       RecvBlocks recv) {
  if (!is_in_place(send.data)) {
    call.check(send, "send", "sendcounts", "sdispls", Access::read);
  }
  call.reject_in_place(recv.data, "recv");
  call.check(recv, "recv", "recvcounts", "rdispls", Access::write);
  return call.start(kAlltoallvForms, send.data, send.counts, send.displs,
                    send.datatype, recv.data, recv.counts, recv.displs,
                    recv.datatype);
}

// send.count == recv.count: one count for operands and results.
Request elementwise_core(const CollectiveCall& call, SendBlock send,
                         RecvBlock recv, MPI_Op op, const Elementwise& forms) {
  call.check_op(op);
  if (!is_in_place(send.data)) call.check(send, "send");
  call.reject_in_place(recv.data, "recv");
  call.check(recv, "recv");
  call.uniform(recv.count, recv.datatype);
  return call.start(forms, send.data, recv.data, recv.count, recv.datatype, op);
}

Request elementwise_typed(const Comm& comm, const char* function, In send,
                          Out recv, MPI_Op op, const Elementwise& forms,
                          Mode mode) {
  const CollectiveCall call(comm, function, mode);
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? call.count_of(recv.size, "recv")
                             : call.count_of(send.size, "send");
  if (!in_place) call.check_apart(send, recv);
  return elementwise_core(call, {send.data, count, send.datatype, send.size},
                          {recv.data, count, recv.datatype, recv.size}, op,
                          forms);
}

// In place, recv holds the operands of every block (sum of recvcounts)
// and receives the process's block at its start.
Request reduce_scatter_core(const CollectiveCall& call, SendBlock send,
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
  return call.start(kReduceScatterForms, send.data, recv.data, recvcounts,
                    recv.datatype, op);
}

// recv.count is every process's block; send.count is the same count.
Request reduce_scatter_block_core(const CollectiveCall& call, SendBlock send,
                                  RecvBlock recv, MPI_Op op) {
  call.check_op(op);
  call.reject_in_place(recv.data, "recv");
  if (is_in_place(send.data)) {
    call.check(recv, "recv", call.size());
  } else {
    call.check(send, "send", call.size());
    call.check(recv, "recv");
  }
  call.uniform(recv.count, recv.datatype);
  return call.start(kReduceScatterBlockForms, send.data, recv.data, recv.count,
                    recv.datatype, op);
}

using transport::shifted;

// alltoallw on one process is a local copy from the send block to the
// receive block. Open MPI 4.1's component for one-process communicators
// (coll/self) multiplies alltoallw's byte displacements by the datatype
// extent and so reads and writes outside the buffers; alltoallv with the
// displacements folded into the addresses makes the same copy correctly.
// In place there is nothing to copy: a barrier of the one process stands
// for the call (so that the other modes still give a request).
Request alltoallw_alone(const CollectiveCall& call, const void* send,
                        int send_count, MPI_Datatype send_type, int send_bytes,
                        void* recv, int recv_count, MPI_Datatype recv_type,
                        int recv_bytes) {
  if (is_in_place(send)) return call.start(kBarrierForms);
  const int zero = 0;
  return call.start(kAlltoallvForms, shifted(send, send_bytes),
                    std::span<const int>(&send_count, 1),
                    std::span<const int>(&zero, 1), send_type,
                    const_cast<void*>(shifted(recv, recv_bytes)),
                    std::span<const int>(&recv_count, 1),
                    std::span<const int>(&zero, 1), recv_type);
}

Request alltoallw_core(const CollectiveCall& call, const void* send,
                       std::span<const int> sendcounts,
                       std::span<const int> sdispls,
                       std::span<const MPI_Datatype> send_types, void* recv,
                       std::span<const int> recvcounts,
                       std::span<const int> rdispls,
                       std::span<const MPI_Datatype> recv_types) {
  if (!is_in_place(send)) {
    call.check_counts(sendcounts, "sendcounts");
    call.check_length(sdispls, "sdispls");
    call.check_datatypes(send_types, "send_types");
  }
  call.reject_in_place(recv, "recv");
  call.check_counts(recvcounts, "recvcounts");
  call.check_length(rdispls, "rdispls");
  call.check_datatypes(recv_types, "recv_types");
  if (call.size() == 1) {
    return alltoallw_alone(
        call, send, sendcounts.empty() ? 0 : sendcounts[0],
        send_types.empty() ? MPI_DATATYPE_NULL : send_types[0],
        sdispls.empty() ? 0 : sdispls[0], recv, recvcounts[0], recv_types[0],
        rdispls[0]);
  }
  return call.start(kAlltoallwForms, send, sendcounts, sdispls, send_types,
                    recv, recvcounts, rdispls, recv_types);
}

}  // namespace

// ---- typed forms ----------------------------------------------------------

Request allgather(const Comm& comm, In send, Out recv, Mode mode) {
  if (is_inter(comm, kAllgather(mode))) {
    return inter_allgather(comm, send, recv, mode);
  }
  const CollectiveCall call(comm, kAllgather(mode), mode);
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? call.per_process(recv.size, "recv")
                             : call.count_of(send.size, "send");
  if (!in_place) call.check_apart(send, recv);
  return allgather_core(call, {send.data, count, send.datatype, send.size},
                        {recv.data, count, recv.datatype, recv.size});
}

Request allgatherv(const Comm& comm, In send, Out recv,
                   std::span<const int> recvcounts, std::span<const int> displs,
                   Mode mode) {
  if (is_inter(comm, kAllgatherv(mode))) {
    return inter_allgatherv(comm, send, recv, recvcounts, displs, mode);
  }
  const CollectiveCall call(comm, kAllgatherv(mode), mode);
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? 0 : call.count_of(send.size, "send");
  if (!in_place) call.check_apart(send, recv);
  return allgatherv_core(
      call, {send.data, count, send.datatype, send.size},
      {recv.data, recvcounts, displs, recv.datatype, recv.size});
}

Request alltoall(const Comm& comm, In send, Out recv, Mode mode) {
  if (is_inter(comm, kAlltoall(mode))) {
    return inter_alltoall(comm, send, recv, mode);
  }
  const CollectiveCall call(comm, kAlltoall(mode), mode);
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? call.per_process(recv.size, "recv")
                             : call.per_process(send.size, "send");
  if (!in_place) call.check_apart(send, recv);
  return alltoall_core(call, {send.data, count, send.datatype, send.size},
                       {recv.data, count, recv.datatype, recv.size});
}

Request alltoallv(const Comm& comm, In send, std::span<const int> sendcounts,
                  std::span<const int> sdispls, Out recv,
                  std::span<const int> recvcounts, std::span<const int> rdispls,
                  Mode mode) {
  if (is_inter(comm, kAlltoallv(mode))) {
    return inter_alltoallv(comm, send, sendcounts, sdispls, recv, recvcounts,
                           rdispls, mode);
  }
  const CollectiveCall call(comm, kAlltoallv(mode), mode);
  if (!is_in_place(send.data)) call.check_apart(send, recv);
  return alltoallv_core(
      call, {send.data, sendcounts, sdispls, send.datatype, send.size},
      {recv.data, recvcounts, rdispls, recv.datatype, recv.size});
}

Request allreduce(const Comm& comm, In send, Out recv, MPI_Op op, Mode mode) {
  if (is_inter(comm, kAllreduce(mode))) {
    return inter_allreduce(comm, send, recv, op, mode);
  }
  return elementwise_typed(comm, kAllreduce(mode), send, recv, op,
                           kAllreduceForms, mode);
}

Request scan(const Comm& comm, In send, Out recv, MPI_Op op, Mode mode) {
  return elementwise_typed(comm, kScan(mode), send, recv, op, kScanForms, mode);
}

Request exscan(const Comm& comm, In send, Out recv, MPI_Op op, Mode mode) {
  return elementwise_typed(comm, kExscan(mode), send, recv, op, kExscanForms,
                           mode);
}

Request reduce_scatter(const Comm& comm, In send, Out recv,
                       std::span<const int> recvcounts, MPI_Op op, Mode mode) {
  if (is_inter(comm, kReduceScatter(mode))) {
    return inter_reduce_scatter(comm, send, recv, recvcounts, op, mode);
  }
  const CollectiveCall call(comm, kReduceScatter(mode), mode);
  if (!is_in_place(send.data)) call.check_apart(send, recv);
  return reduce_scatter_core(call, {send.data, 0, send.datatype, send.size},
                             {recv.data, 0, recv.datatype, recv.size},
                             recvcounts, op);
}

Request reduce_scatter_block(const Comm& comm, In send, Out recv, MPI_Op op,
                             Mode mode) {
  if (is_inter(comm, kReduceScatterBlock(mode))) {
    return inter_reduce_scatter_block(comm, send, recv, op, mode);
  }
  const CollectiveCall call(comm, kReduceScatterBlock(mode), mode);
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? call.per_process(recv.size, "recv")
                             : call.count_of(recv.size, "recv");
  if (!in_place) call.check_apart(send, recv);
  return reduce_scatter_block_core(
      call, {send.data, count, send.datatype, send.size},
      {recv.data, count, recv.datatype, recv.size}, op);
}

// ---- raw forms ------------------------------------------------------------

Request barrier(const Comm& comm, Mode mode) {
  if (is_inter(comm, kBarrier(mode))) {
    return inter_barrier(comm, mode);
  }
  return CollectiveCall(comm, kBarrier(mode), mode).start(kBarrierForms);
}

Request allgather(const Comm& comm, const void* send, int send_count,
                  MPI_Datatype send_type, void* recv, int recv_count,
                  MPI_Datatype recv_type, Mode mode) {
  if (is_inter(comm, kAllgather(mode))) {
    return inter_allgather(comm, send, send_count, send_type, recv, recv_count,
                           recv_type, mode);
  }
  return allgather_core(CollectiveCall(comm, kAllgather(mode), mode),
                        {send, send_count, send_type, kRaw},
                        {recv, recv_count, recv_type, kRaw});
}

Request allgatherv(const Comm& comm, const void* send, int send_count,
                   MPI_Datatype send_type, void* recv,
                   std::span<const int> recvcounts, std::span<const int> displs,
                   MPI_Datatype recv_type, Mode mode) {
  if (is_inter(comm, kAllgatherv(mode))) {
    return inter_allgatherv(comm, send, send_count, send_type, recv, recvcounts,
                            displs, recv_type, mode);
  }
  return allgatherv_core(CollectiveCall(comm, kAllgatherv(mode), mode),
                         {send, send_count, send_type, kRaw},
                         {recv, recvcounts, displs, recv_type, kRaw});
}

Request alltoall(const Comm& comm, const void* send, int send_count,
                 MPI_Datatype send_type, void* recv, int recv_count,
                 MPI_Datatype recv_type, Mode mode) {
  if (is_inter(comm, kAlltoall(mode))) {
    return inter_alltoall(comm, send, send_count, send_type, recv, recv_count,
                          recv_type, mode);
  }
  return alltoall_core(CollectiveCall(comm, kAlltoall(mode), mode),
                       {send, send_count, send_type, kRaw},
                       {recv, recv_count, recv_type, kRaw});
}

Request alltoallv(const Comm& comm, const void* send,
                  std::span<const int> sendcounts, std::span<const int> sdispls,
                  MPI_Datatype send_type, void* recv,
                  std::span<const int> recvcounts, std::span<const int> rdispls,
                  MPI_Datatype recv_type, Mode mode) {
  if (is_inter(comm, kAlltoallv(mode))) {
    return inter_alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                           recvcounts, rdispls, recv_type, mode);
  }
  return alltoallv_core(CollectiveCall(comm, kAlltoallv(mode), mode),
                        {send, sendcounts, sdispls, send_type, kRaw},
                        {recv, recvcounts, rdispls, recv_type, kRaw});
}

Request alltoallw(const Comm& comm, const void* send,
                  std::span<const int> sendcounts, std::span<const int> sdispls,
                  std::span<const MPI_Datatype> send_types, void* recv,
                  std::span<const int> recvcounts, std::span<const int> rdispls,
                  std::span<const MPI_Datatype> recv_types, Mode mode) {
  if (is_inter(comm, kAlltoallw(mode))) {
    return inter_alltoallw(comm, send, sendcounts, sdispls, send_types, recv,
                           recvcounts, rdispls, recv_types, mode);
  }
  return alltoallw_core(CollectiveCall(comm, kAlltoallw(mode), mode), send,
                        sendcounts, sdispls, send_types, recv, recvcounts,
                        rdispls, recv_types);
}

Request allreduce(const Comm& comm, const void* send, void* recv, int count,
                  MPI_Datatype datatype, MPI_Op op, Mode mode) {
  if (is_inter(comm, kAllreduce(mode))) {
    return inter_allreduce(comm, send, recv, count, datatype, op, mode);
  }
  return elementwise_core(CollectiveCall(comm, kAllreduce(mode), mode),
                          {send, count, datatype, kRaw},
                          {recv, count, datatype, kRaw}, op, kAllreduceForms);
}

Request reduce_scatter(const Comm& comm, const void* send, void* recv,
                       std::span<const int> recvcounts, MPI_Datatype datatype,
                       MPI_Op op, Mode mode) {
  if (is_inter(comm, kReduceScatter(mode))) {
    return inter_reduce_scatter(comm, send, recv, recvcounts, datatype, op,
                                mode);
  }
  return reduce_scatter_core(CollectiveCall(comm, kReduceScatter(mode), mode),
                             {send, 0, datatype, kRaw},
                             {recv, 0, datatype, kRaw}, recvcounts, op);
}

Request reduce_scatter_block(const Comm& comm, const void* send, void* recv,
                             int recv_count, MPI_Datatype datatype, MPI_Op op,
                             Mode mode) {
  if (is_inter(comm, kReduceScatterBlock(mode))) {
    return inter_reduce_scatter_block(comm, send, recv, recv_count, datatype,
                                      op, mode);
  }
  return reduce_scatter_block_core(
      CollectiveCall(comm, kReduceScatterBlock(mode), mode),
      {send, recv_count, datatype, kRaw}, {recv, recv_count, datatype, kRaw},
      op);
}

Request scan(const Comm& comm, const void* send, void* recv, int count,
             MPI_Datatype datatype, MPI_Op op, Mode mode) {
  return elementwise_core(CollectiveCall(comm, kScan(mode), mode),
                          {send, count, datatype, kRaw},
                          {recv, count, datatype, kRaw}, op, kScanForms);
}

Request exscan(const Comm& comm, const void* send, void* recv, int count,
               MPI_Datatype datatype, MPI_Op op, Mode mode) {
  return elementwise_core(CollectiveCall(comm, kExscan(mode), mode),
                          {send, count, datatype, kRaw},
                          {recv, count, datatype, kRaw}, op, kExscanForms);
}

}  // namespace internal
}  // namespace classic
