// The collectives without a root that move data unchanged: barrier,
// allgather(v), alltoall(v, w); the reductions without a root are in
// collectives_all_reductions.cc. Each has one core (checks + transport
// call) that its raw and typed forms share.
#include <optional>
#include <span>

#include "classic/base/internal/transport.h"
#include "classic/collectives/internal/collective_call.h"
#include "classic/collectives/internal/collective_names.h"
#include "classic/collectives/internal/inter_collectives.h"
#include "classic/collectives/internal/intra_collectives.h"
#include "classic/collectives/typed_collectives.h"

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
constexpr TransportForms kBarrierForms{&MPI_Barrier, &MPI_Ibarrier,
                                       &MPIX_Barrier_init};
constexpr TransportForms kAlltoallwForms{&MPI_Alltoallw, &MPI_Ialltoallw,
                                         &MPIX_Alltoallw_init};

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

}  // namespace internal
}  // namespace classic
