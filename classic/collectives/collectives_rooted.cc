// The rooted collectives: bcast, gather(v), scatter(v), reduce. Each has one
// core (checks + transport call) that its raw and typed forms share.
#include <optional>

#include "classic/collectives/collectives.h"
#include "classic/collectives/internal/collective_call.h"
#include "classic/collectives/internal/inter_collectives.h"

namespace classic {
namespace internal {
namespace {

constexpr const char* kBcast = "classic::bcast";
constexpr const char* kGather = "classic::gather";
constexpr const char* kGatherv = "classic::gatherv";
constexpr const char* kScatter = "classic::scatter";
constexpr const char* kScatterv = "classic::scatterv";
constexpr const char* kReduce = "classic::reduce";

constexpr std::optional<std::size_t> kRaw = std::nullopt;

// Typed send and receive spans must not share memory where both are used.
void check_apart(const CollectiveCall& call, In send, Out recv) {
  call.check_apart(send.data, send.size * send.element_bytes, "send", recv.data,
                   recv.size * recv.element_bytes, "recv");
}

void bcast_core(const CollectiveCall& call, RecvBlock buffer, int root) {
  call.check_root(root);
  call.reject_in_place(buffer.data, "buffer");
  call.check(buffer, "buffer");
  call.run(MPI_Bcast(buffer.data, buffer.count, buffer.datatype, root,
                     call.transport()));
}

void gather_core(const CollectiveCall& call, SendBlock send, RecvBlock recv,
                 int root) {
  call.check_root(root);
  call.check_in_place_at_root(send.data, root, "send");
  if (!is_in_place(send.data)) call.check(send, "send");
  if (call.is_root(root)) {
    call.reject_in_place(recv.data, "recv");
    call.check(recv, "recv", call.size());
  }
  call.run(MPI_Gather(send.data, send.count, send.datatype, recv.data,
                      recv.count, recv.datatype, root, call.transport()));
}

void gatherv_core(const CollectiveCall& call, SendBlock send, RecvBlocks recv,
                  int root) {
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
  call.run(MPI_Gatherv(send.data, send.count, send.datatype, recv.data,
                       recv.counts.data(), recv.displs.data(), recv.datatype,
                       root, call.transport()));
}

void scatter_core(const CollectiveCall& call, SendBlock send, RecvBlock recv,
                  int root) {
  call.check_root(root);
  call.reject_in_place(send.data, "send");
  call.check_in_place_at_root(recv.data, root, "recv");
  if (call.is_root(root)) call.check(send, "send", call.size());
  if (!is_in_place(recv.data)) call.check(recv, "recv");
  call.run(MPI_Scatter(send.data, send.count, send.datatype, recv.data,
                       recv.count, recv.datatype, root, call.transport()));
}

void scatterv_core(const CollectiveCall& call, SendBlocks send, RecvBlock recv,
                   int root) {
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
  call.run(MPI_Scatterv(send.data, send.counts.data(), send.displs.data(),
                        send.datatype, recv.data, recv.count, recv.datatype,
                        root, call.transport()));
}

// send.count == recv.count: one count for operands and result.
void reduce_core(const CollectiveCall& call, SendBlock send, RecvBlock recv,
                 MPI_Op op, int root) {
  call.check_root(root);
  call.check_op(op);
  call.check_in_place_at_root(send.data, root, "send");
  if (!is_in_place(send.data)) call.check(send, "send");
  if (call.is_root(root)) {
    call.reject_in_place(recv.data, "recv");
    call.check(recv, "recv");
  }
  call.run(MPI_Reduce(send.data, recv.data, recv.count, recv.datatype, op, root,
                      call.transport()));
}

}  // namespace

// ---- typed forms ----------------------------------------------------------

void bcast(const Comm& comm, Out buffer, int root) {
  if (internal::is_inter(comm, kBcast)) {
    return internal::inter_bcast(comm, buffer, root);
  }
  const CollectiveCall call(comm, kBcast);
  bcast_core(call,
             {buffer.data, call.count_of(buffer.size, "buffer"),
              buffer.datatype, buffer.size},
             root);
}

void gather(const Comm& comm, In send, Out recv, int root) {
  if (internal::is_inter(comm, kGather)) {
    return internal::inter_gather(comm, send, recv, root);
  }
  const CollectiveCall call(comm, kGather);
  call.check_root(root);
  call.check_in_place_at_root(send.data, root, "send");
  const bool in_place = is_in_place(send.data);
  // In place happens at the root only, where recv holds every block.
  const int count = in_place ? call.per_process(recv.size, "recv")
                             : call.count_of(send.size, "send");
  if (call.is_root(root) && !in_place) check_apart(call, send, recv);
  gather_core(call, {send.data, count, send.datatype, send.size},
              {recv.data, count, recv.datatype, recv.size}, root);
}

void gatherv(const Comm& comm, In send, Out recv,
             std::span<const int> recvcounts, std::span<const int> displs,
             int root) {
  if (internal::is_inter(comm, kGatherv)) {
    return internal::inter_gatherv(comm, send, recv, recvcounts, displs, root);
  }
  const CollectiveCall call(comm, kGatherv);
  call.check_root(root);
  call.check_in_place_at_root(send.data, root, "send");
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? 0 : call.count_of(send.size, "send");
  if (call.is_root(root) && !in_place) check_apart(call, send, recv);
  gatherv_core(call, {send.data, count, send.datatype, send.size},
               {recv.data, recvcounts, displs, recv.datatype, recv.size}, root);
}

void scatter(const Comm& comm, In send, Out recv, int root) {
  if (internal::is_inter(comm, kScatter)) {
    return internal::inter_scatter(comm, send, recv, root);
  }
  const CollectiveCall call(comm, kScatter);
  call.check_root(root);
  call.check_in_place_at_root(recv.data, root, "recv");
  const bool in_place = is_in_place(recv.data);
  // In place happens at the root only, where send holds every block.
  const int count = in_place ? call.per_process(send.size, "send")
                             : call.count_of(recv.size, "recv");
  if (call.is_root(root) && !in_place) check_apart(call, send, recv);
  scatter_core(call, {send.data, count, send.datatype, send.size},
               {recv.data, count, recv.datatype, recv.size}, root);
}

void scatterv(const Comm& comm, In send, std::span<const int> sendcounts,
              std::span<const int> displs, Out recv, int root) {
  if (internal::is_inter(comm, kScatterv)) {
    return internal::inter_scatterv(comm, send, sendcounts, displs, recv, root);
  }
  const CollectiveCall call(comm, kScatterv);
  call.check_root(root);
  call.check_in_place_at_root(recv.data, root, "recv");
  const bool in_place = is_in_place(recv.data);
  const int count = in_place ? 0 : call.count_of(recv.size, "recv");
  if (call.is_root(root) && !in_place) check_apart(call, send, recv);
  scatterv_core(call, {send.data, sendcounts, displs, send.datatype, send.size},
                {recv.data, count, recv.datatype, recv.size}, root);
}

void reduce(const Comm& comm, In send, Out recv, MPI_Op op, int root) {
  if (internal::is_inter(comm, kReduce)) {
    return internal::inter_reduce(comm, send, recv, op, root);
  }
  const CollectiveCall call(comm, kReduce);
  call.check_root(root);
  call.check_in_place_at_root(send.data, root, "send");
  const bool in_place = is_in_place(send.data);
  const int count = in_place ? call.count_of(recv.size, "recv")
                             : call.count_of(send.size, "send");
  if (call.is_root(root) && !in_place) check_apart(call, send, recv);
  reduce_core(call, {send.data, count, send.datatype, send.size},
              {recv.data, count, recv.datatype, recv.size}, op, root);
}

}  // namespace internal

// ---- raw forms ------------------------------------------------------------

using internal::CollectiveCall;
using internal::kRaw;

void bcast(const Comm& comm, void* buffer, int count, MPI_Datatype datatype,
           int root) {
  if (internal::is_inter(comm, internal::kBcast)) {
    return internal::inter_bcast(comm, buffer, count, datatype, root);
  }
  internal::bcast_core(CollectiveCall(comm, internal::kBcast),
                       {buffer, count, datatype, kRaw}, root);
}

void gather(const Comm& comm, const void* send, int send_count,
            MPI_Datatype send_type, void* recv, int recv_count,
            MPI_Datatype recv_type, int root) {
  if (internal::is_inter(comm, internal::kGather)) {
    return internal::inter_gather(comm, send, send_count, send_type, recv,
                                  recv_count, recv_type, root);
  }
  internal::gather_core(CollectiveCall(comm, internal::kGather),
                        {send, send_count, send_type, kRaw},
                        {recv, recv_count, recv_type, kRaw}, root);
}

void gatherv(const Comm& comm, const void* send, int send_count,
             MPI_Datatype send_type, void* recv,
             std::span<const int> recvcounts, std::span<const int> displs,
             MPI_Datatype recv_type, int root) {
  if (internal::is_inter(comm, internal::kGatherv)) {
    return internal::inter_gatherv(comm, send, send_count, send_type, recv,
                                   recvcounts, displs, recv_type, root);
  }
  internal::gatherv_core(CollectiveCall(comm, internal::kGatherv),
                         {send, send_count, send_type, kRaw},
                         {recv, recvcounts, displs, recv_type, kRaw}, root);
}

void scatter(const Comm& comm, const void* send, int send_count,
             MPI_Datatype send_type, void* recv, int recv_count,
             MPI_Datatype recv_type, int root) {
  if (internal::is_inter(comm, internal::kScatter)) {
    return internal::inter_scatter(comm, send, send_count, send_type, recv,
                                   recv_count, recv_type, root);
  }
  internal::scatter_core(CollectiveCall(comm, internal::kScatter),
                         {send, send_count, send_type, kRaw},
                         {recv, recv_count, recv_type, kRaw}, root);
}

void scatterv(const Comm& comm, const void* send,
              std::span<const int> sendcounts, std::span<const int> displs,
              MPI_Datatype send_type, void* recv, int recv_count,
              MPI_Datatype recv_type, int root) {
  if (internal::is_inter(comm, internal::kScatterv)) {
    return internal::inter_scatterv(comm, send, sendcounts, displs, send_type,
                                    recv, recv_count, recv_type, root);
  }
  internal::scatterv_core(CollectiveCall(comm, internal::kScatterv),
                          {send, sendcounts, displs, send_type, kRaw},
                          {recv, recv_count, recv_type, kRaw}, root);
}

void reduce(const Comm& comm, const void* send, void* recv, int count,
            MPI_Datatype datatype, MPI_Op op, int root) {
  if (internal::is_inter(comm, internal::kReduce)) {
    return internal::inter_reduce(comm, send, recv, count, datatype, op, root);
  }
  internal::reduce_core(CollectiveCall(comm, internal::kReduce),
                        {send, count, datatype, kRaw},
                        {recv, count, datatype, kRaw}, op, root);
}

}  // namespace classic
