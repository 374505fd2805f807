// The reductions without a root: allreduce, reduce_scatter(_block), scan,
// exscan. Each has one core (checks + transport call) that its raw and
// typed forms share.
#include <cstdint>
#include <span>

#include "classic/collectives/internal/collective_call.h"
#include "classic/collectives/internal/collective_names.h"
#include "classic/collectives/internal/inter_collectives.h"
#include "classic/collectives/internal/intra_collectives.h"
#include "classic/collectives/typed_collectives.h"

namespace classic {
namespace internal {
namespace {

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

// MPI_Allreduce, MPI_Scan and MPI_Exscan share one signature and one set of
// rules: count elements of operands in send (or in place), results in recv.
using Elementwise = decltype(kAllreduceForms);

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

}  // namespace

// ---- typed forms ----------------------------------------------------------

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
