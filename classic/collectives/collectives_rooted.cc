// The rooted collectives: bcast, gather(v), scatter(v), reduce. Each has one
// core (checks + transport call) that its raw and typed forms share.
#include <optional>

#include "classic/collectives/collectives.h"
#include "classic/collectives/internal/collective_call.h"
#include "classic/collectives/internal/collective_names.h"
#include "classic/collectives/internal/inter_collectives.h"
#include "classic/collectives/internal/intra_collectives.h"

namespace classic {
namespace internal {
namespace {

constexpr TransportForms kBcastForms{&MPI_Bcast, &MPI_Ibcast, &MPIX_Bcast_init};
constexpr TransportForms kGatherForms{&MPI_Gather, &MPI_Igather,
                                      &MPIX_Gather_init};
constexpr TransportForms kGathervForms{&MPI_Gatherv, &MPI_Igatherv,
                                       &MPIX_Gatherv_init};
constexpr TransportForms kScatterForms{&MPI_Scatter, &MPI_Iscatter,
                                       &MPIX_Scatter_init};
constexpr TransportForms kScattervForms{&MPI_Scatterv, &MPI_Iscatterv,
                                        &MPIX_Scatterv_init};
constexpr TransportForms kReduceForms{&MPI_Reduce, &MPI_Ireduce,
                                      &MPIX_Reduce_init};

Request bcast_core(const CollectiveCall& call, RecvBlock buffer, int root) {
  call.check_root(root);
  call.reject_in_place(buffer.data, "buffer");
  call.check(buffer, "buffer");
  call.uniform(buffer.count, buffer.datatype);
  return call.start(kBcastForms, buffer.data, buffer.count, buffer.datatype,
                    root);
}

Request gather_core(const CollectiveCall& call, SendBlock send, RecvBlock recv,
                    int root) {
  call.check_root(root);
  call.check_in_place_at_root(send.data, root, "send");
  if (!is_in_place(send.data)) call.check(send, "send");
  if (call.is_root(root)) {
    call.reject_in_place(recv.data, "recv");
    call.check(recv, "recv", call.size());
    call.uniform(recv.count, recv.datatype);
  }
  if (!is_in_place(send.data)) call.uniform(send.count, send.datatype);
  return call.start(kGatherForms, send.data, send.count, send.datatype,
                    recv.data, recv.count, recv.datatype, root);
}

Request gatherv_core(const CollectiveCall& call, SendBlock send,
                     RecvBlocks recv, int root) {
  call.check_root(root);
  call.check_in_place_at_root(send.data, root, "send");
  const bool in_place = is_in_place(send.data);
  if (!in_place) call.check(send, "send");
  if (call.is_root(root)) {
    call.reject_in_place(recv.data, "recv");
    call.check(recv, "recv", "recvcounts", "displs", Access::write);
    // A typed root sends and receives one element type, so its own block
    // must hold exactly what it sends.
    if (recv.capacity && !in_place) {
      call.check_own_count(recv.counts, "recvcounts", send.count,
                           "send.size()");
    }
  }
  return call.start(kGathervForms, send.data, send.count, send.datatype,
                    recv.data, recv.counts, recv.displs, recv.datatype, root);
}

Request scatter_core(const CollectiveCall& call, SendBlock send, RecvBlock recv,
                     int root) {
  call.check_root(root);
  call.reject_in_place(send.data, "send");
  call.check_in_place_at_root(recv.data, root, "recv");
  if (call.is_root(root)) {
    call.check(send, "send", call.size());
    call.uniform(send.count, send.datatype);
  }
  if (!is_in_place(recv.data)) {
    call.check(recv, "recv");
    call.uniform(recv.count, recv.datatype);
  }
  return call.start(kScatterForms, send.data, send.count, send.datatype,
                    recv.data, recv.count, recv.datatype, root);
}

Request scatterv_core(const CollectiveCall& call, SendBlocks send,
                      RecvBlock recv, int root) {
  call.check_root(root);
  call.reject_in_place(send.data, "send");
  call.check_in_place_at_root(recv.data, root, "recv");
  const bool in_place = is_in_place(recv.data);
  if (call.is_root(root)) {
    call.check(send, "send", "sendcounts", "displs", Access::read);
    if (send.capacity && !in_place) {
      call.check_own_count(send.counts, "sendcounts", recv.count,
                           "recv.size()");
    }
  }
  if (!in_place) call.check(recv, "recv");
  return call.start(kScattervForms, send.data, send.counts, send.displs,
                    send.datatype, recv.data, recv.count, recv.datatype, root);
}

// send.count == recv.count: one count for operands and result.
Request reduce_core(const CollectiveCall& call, SendBlock send, RecvBlock recv,
                    MPI_Op op, int root) {
  call.check_root(root);
  call.check_op(op);
  call.check_in_place_at_root(send.data, root, "send");
  if (!is_in_place(send.data)) call.check(send, "send");
  if (call.is_root(root)) {
    call.reject_in_place(recv.data, "recv");
    call.check(recv, "recv");
  }
  call.uniform(recv.count, recv.datatype);
  return call.start(kReduceForms, send.data, recv.data, recv.count,
                    recv.datatype, op, root);
}

}  // namespace

// ---- typed forms ----------------------------------------------------------

Request bcast(const Comm& comm, Out buffer, int root, Mode mode) {
  if (is_inter(comm, kBcast(mode))) {
    return inter_bcast(comm, buffer, root, mode);
  }
  const CollectiveCall call(comm, kBcast(mode), mode);
  return bcast_core(call,
                    {buffer.data, call.count_of(buffer.size, "buffer"),
                     buffer.datatype, buffer.size},
                    root);
}

Request gather(const Comm& comm, In send, Out recv, int root, Mode mode) {
  if (is_inter(comm, kGather(mode))) {
    return inter_gather(comm, send, recv, root, mode);
  }
  const CollectiveCall call(comm, kGather(mode), mode);
  call.check_root(root);
  call.check_in_place_at_root(send.data, root, "send");
  const bool in_place = is_in_place(send.data);
  // In place happens at the root only, where recv holds every block.
  const int count = in_place ? call.per_process(recv.size, "recv")
                             : call.count_of(send.size, "send");
  if (call.is_root(root) && !in_place) call.check_apart(send, recv);
  return gather_core(call, {send.data, count, send.datatype, send.size},
                     {recv.data, count, recv.datatype, recv.size}, root);
}

Request gatherv(const Comm& comm, In send, Out recv,
                std::span<const int> recvcounts, std::span<const int> displs,
                int root, Mode mode) {
  if (is_inter(comm, kGatherv(mode))) {
    return inter_gatherv(comm, send, recv, recvcounts, displs, root, mode);
  }
  const CollectiveCall call(comm, kGatherv(mode), mode);
  call.check_root(root);
  call.check_in_place_at_root(send.data, root, "send");
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? 0 : call.count_of(send.size, "send");
  if (call.is_root(root) && !in_place) call.check_apart(send, recv);
  return gatherv_core(call, {send.data, count, send.datatype, send.size},
                      {recv.data, recvcounts, displs, recv.datatype, recv.size},
                      root);
}

Request scatter(const Comm& comm, In send, Out recv, int root, Mode mode) {
  if (is_inter(comm, kScatter(mode))) {
    return inter_scatter(comm, send, recv, root, mode);
  }
  const CollectiveCall call(comm, kScatter(mode), mode);
  call.check_root(root);
  call.check_in_place_at_root(recv.data, root, "recv");
  const bool in_place = is_in_place(recv.data);
  // In place happens at the root only, where send holds every block.
  const int count = in_place ? call.per_process(send.size, "send")
                             : call.count_of(recv.size, "recv");
  if (call.is_root(root) && !in_place) call.check_apart(send, recv);
  return scatter_core(call, {send.data, count, send.datatype, send.size},
                      {recv.data, count, recv.datatype, recv.size}, root);
}

Request scatterv(const Comm& comm, In send, std::span<const int> sendcounts,
                 std::span<const int> displs, Out recv, int root, Mode mode) {
  if (is_inter(comm, kScatterv(mode))) {
    return inter_scatterv(comm, send, sendcounts, displs, recv, root, mode);
  }
  const CollectiveCall call(comm, kScatterv(mode), mode);
  call.check_root(root);
  call.check_in_place_at_root(recv.data, root, "recv");
  const bool in_place = is_in_place(recv.data);
  const int count = in_place ? 0 : call.count_of(recv.size, "recv");
  if (call.is_root(root) && !in_place) call.check_apart(send, recv);
  return scatterv_core(
      call, {send.data, sendcounts, displs, send.datatype, send.size},
      {recv.data, count, recv.datatype, recv.size}, root);
}

Request reduce(const Comm& comm, In send, Out recv, MPI_Op op, int root,
               Mode mode) {
  if (is_inter(comm, kReduce(mode))) {
    return inter_reduce(comm, send, recv, op, root, mode);
  }
  const CollectiveCall call(comm, kReduce(mode), mode);
  call.check_root(root);
  call.check_in_place_at_root(send.data, root, "send");
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? call.count_of(recv.size, "recv")
                             : call.count_of(send.size, "send");
  if (call.is_root(root) && !in_place) call.check_apart(send, recv);
  return reduce_core(call, {send.data, count, send.datatype, send.size},
                     {recv.data, count, recv.datatype, recv.size}, op, root);
}

// ---- raw forms ------------------------------------------------------------

Request bcast(const Comm& comm, void* buffer, int count, MPI_Datatype datatype,
              int root, Mode mode) {
  if (is_inter(comm, kBcast(mode))) {
    return inter_bcast(comm, buffer, count, datatype, root, mode);
  }
  return bcast_core(CollectiveCall(comm, kBcast(mode), mode),
                    {buffer, count, datatype, kRaw}, root);
}

Request gather(const Comm& comm, const void* send, int send_count,
               MPI_Datatype send_type, void* recv, int recv_count,
               MPI_Datatype recv_type, int root, Mode mode) {
  if (is_inter(comm, kGather(mode))) {
    return inter_gather(comm, send, send_count, send_type, recv, recv_count,
                        recv_type, root, mode);
  }
  return gather_core(CollectiveCall(comm, kGather(mode), mode),
                     {send, send_count, send_type, kRaw},
                     {recv, recv_count, recv_type, kRaw}, root);
}

Request gatherv(const Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv,
                std::span<const int> recvcounts, std::span<const int> displs,
                MPI_Datatype recv_type, int root, Mode mode) {
  if (is_inter(comm, kGatherv(mode))) {
    return inter_gatherv(comm, send, send_count, send_type, recv, recvcounts,
                         displs, recv_type, root, mode);
  }
  return gatherv_core(CollectiveCall(comm, kGatherv(mode), mode),
                      {send, send_count, send_type, kRaw},
                      {recv, recvcounts, displs, recv_type, kRaw}, root);
}

Request scatter(const Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv, int recv_count,
                MPI_Datatype recv_type, int root, Mode mode) {
  if (is_inter(comm, kScatter(mode))) {
    return inter_scatter(comm, send, send_count, send_type, recv, recv_count,
                         recv_type, root, mode);
  }
  return scatter_core(CollectiveCall(comm, kScatter(mode), mode),
                      {send, send_count, send_type, kRaw},
                      {recv, recv_count, recv_type, kRaw}, root);
}

Request scatterv(const Comm& comm, const void* send,
                 std::span<const int> sendcounts, std::span<const int> displs,
                 MPI_Datatype send_type, void* recv, int recv_count,
                 MPI_Datatype recv_type, int root, Mode mode) {
  if (is_inter(comm, kScatterv(mode))) {
    return inter_scatterv(comm, send, sendcounts, displs, send_type, recv,
                          recv_count, recv_type, root, mode);
  }
  return scatterv_core(CollectiveCall(comm, kScatterv(mode), mode),
                       {send, sendcounts, displs, send_type, kRaw},
                       {recv, recv_count, recv_type, kRaw}, root);
}

Request reduce(const Comm& comm, const void* send, void* recv, int count,
               MPI_Datatype datatype, MPI_Op op, int root, Mode mode) {
  if (is_inter(comm, kReduce(mode))) {
    return inter_reduce(comm, send, recv, count, datatype, op, root, mode);
  }
  return reduce_core(CollectiveCall(comm, kReduce(mode), mode),
                     {send, count, datatype, kRaw},
                     {recv, count, datatype, kRaw}, op, root);
}

}  // namespace internal
}  // namespace classic
