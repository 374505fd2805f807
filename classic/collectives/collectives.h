// Collective operations on classic communicators (MPI-1 chapter 4, with
// MPI-2's in-place forms, alltoallw, reduce_scatter_block and collectives
// on inter-communicators). Their non-blocking and persistent forms:
// nonblocking_collectives.h, persistent_collectives.h.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_COLLECTIVES_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_COLLECTIVES_H_

#include <mpi.h>

#include <concepts>
#include <cstddef>
#include <span>
#include <type_traits>

#include "classic/base/datatype.h"
#include "classic/comm/comm.h"
#include "classic/exec/executor.h"
#include "classic/p2p/request.h"

namespace classic {

// Every process of the communicator calls the same collectives in the same
// order, with the same root and op; ranks (root, the order of blocks) are
// ranks of this communicator. They run on the transport's collectives over
// the communicator's own context, so they never match traffic of another
// communicator (a dup, a split, point-to-point on this one).
//
// Buffers come in two forms:
//  - typed: std::span<T> with datatype_of<T>(); send and receive spans have
//    the same element type (const on the send side, or not). Counts come
//    from the spans, as each function says, and classic checks every count
//    and displacement against the spans: nothing is read or written outside
//    them. Counts and displacements of the v variants are in elements.
//  - raw: (pointer, count, MPI_Datatype) as in MPI, for derived datatypes
//    (which the caller creates, commits and frees on the transport). Only
//    counts, array lengths, roots, datatypes and ops are checked there.
// Arguments that MPI says are significant only at the root (gather's
// receive buffer, scatter's send buffer, their counts and displacements)
// are ignored, and not checked, elsewhere: pass empty spans there.
//
// In place (MPI_IN_PLACE): the typed forms take classic::in_place in place
// of a buffer, raw forms take MPI_IN_PLACE, where MPI allows it: the send
// buffer of gather(v) and reduce at the root, the receive buffer of
// scatter(v) at the root, and the send buffer of allgather(v), alltoall(v,
// w), allreduce, reduce_scatter(_block), scan and exscan on every process
// (all processes of the call must then use it). The data then sits where
// the receive buffer says (gather: the root's block; reduce_scatter: block
// i at the sum of counts before i, the result at the start).
//
// On an inter-communicator (MPI-2 semantics;
// classic/collectives/internal/inter_collectives.h): each group's results come
// from the other group's data.
//  - Rooted (bcast, gather(v), scatter(v), reduce): the root passes
//    classic::mpi_root, the rest of its group proc_null, and every process
//    of the other group the root's rank in its remote group. proc_null
//    processes take no part: none of their other arguments is significant
//    or checked, and their buffers are not touched. At the root only the
//    root-side buffer is significant (recv of gather(v)/reduce, send of
//    scatter(v), buffer of bcast); in the other group only its own side
//    (send of gather(v)/reduce, recv of scatter(v), buffer of bcast).
//    Counts and displacements of the v variants have one entry per process
//    of the remote group.
//  - allgather(v), alltoall(v, w): blocks are per process of the remote
//    group; the send count of one group must match the receive count of
//    the other (the two groups' counts may differ). allreduce: every
//    process receives the reduction of the other group's send buffers (the
//    same count everywhere). reduce_scatter(_block): the reduction of the
//    other group's vectors is scattered in this group, by this group's
//    recvcounts (one entry per local process); both groups' vectors have
//    the same length.
//  - Typed forms take counts from the spans: the root of gather and
//    scatter divides its span by the remote group's size, allgather and
//    alltoall divide their receive (and alltoall's send) span likewise,
//    reduce's root uses its recv span's size.
//  - barrier returns in one group once every process of the other has
//    entered it. MPI_IN_PLACE / classic::in_place is not allowed
//    (ErrorClass::buffer); scan and exscan raise ErrorClass::comm.
//  - Each runs as a plan of classic's executor (classic/exec/executor.h)
//    on the inter-communicator's private context, which no receive of the
//    application can match; so do its non-blocking and persistent forms.
//    Rooted ones: the root exchanges one message with each process of the
//    other group (reduce folds them in rank order at the root). The others
//    gather a group's data at its rank 0 (allgather(v), and the reduction
//    of allreduce and reduce_scatter(_block), folded in rank order), the
//    two rank 0s exchange, and each passes the result on in its group;
//    alltoall(v, w) exchanges pairwise.
//
// Errors (classic::Error), raised before anything is sent, on the process
// whose arguments are wrong (as in MPI, the others may then wait in the
// collective; arguments that all processes share, such as root and op,
// fail everywhere alike):
//   ErrorClass::comm      a null, freed or finalised communicator; scan
//                         or exscan on an inter-communicator.
//   ErrorClass::root      root outside [0, size()); on an
//                         inter-communicator, a root that is neither
//                         mpi_root, proc_null nor in [0, remote_size()).
//   ErrorClass::count     a negative count; a counts or displacements array
//                         without exactly size() entries; a typed span of
//                         more than INT_MAX elements; typed v variants: the
//                         caller's own entry of the counts differing from
//                         its send or receive span.
//   ErrorClass::buffer    typed: a span too small for the counts, a block
//                         before its start, a span that holds no whole
//                         number of per-process blocks where the count is
//                         derived from it, two receive blocks that overlap,
//                         send and receive spans that share memory; in place
//                         where MPI does not allow it.
//   ErrorClass::datatype  MPI_DATATYPE_NULL (or a datatype the transport
//                         rejects, e.g. one not committed).
//   ErrorClass::op        MPI_OP_NULL, or an op the transport rejects for
//                         the datatype (MPI_BAND on double, MPI_MAX on
//                         complex).
// What only the transport can see (processes whose counts disagree) comes
// back in the class it reports (ErrorClass::truncate, ...), or intern.
// User-defined ops (MPI_Op_create) and derived datatypes are the
// transport's objects and work as in MPI.

// The tag of the typed in-place forms: reduce(comm, in_place, buffer, ...).
struct InPlace {
  explicit constexpr InPlace() = default;
};
inline constexpr InPlace in_place{};

namespace internal {

// A typed span with its element type erased.
struct In {
  const void* data;
  std::size_t size;
  MPI_Datatype datatype;
  std::size_t element_bytes;
};
struct Out {
  void* data;
  std::size_t size;
  MPI_Datatype datatype;
  std::size_t element_bytes;
};

template <typename T, std::size_t E>
In in(std::span<T, E> span) {
  return {span.data(), span.size(), datatype_of<T>(), sizeof(T)};
}
template <typename T, std::size_t E>
Out out(std::span<T, E> span) {
  return {span.data(), span.size(), datatype_of<T>(), sizeof(T)};
}
template <typename T>
In in_place_in() {
  return {MPI_IN_PLACE, 0, datatype_of<T>(), sizeof(T)};
}
template <typename T>
Out in_place_out() {
  return {MPI_IN_PLACE, 0, datatype_of<T>(), sizeof(T)};
}

// A send span of S and a receive span of R carry the same elements.
template <typename S, typename R>
concept Matching =
    Transmittable<S> && Transmittable<R> && !std::is_const_v<R> &&
    std::same_as<std::remove_const_t<S>, R>;

// The typed forms, after type erasure, in a mode (collectives_rooted.cc and
// collectives_all.cc); blocking ones return a null Request.
Request bcast(const Comm& comm, Out buffer, int root, Mode mode);
Request gather(const Comm& comm, In send, Out recv, int root, Mode mode);
Request gatherv(const Comm& comm, In send, Out recv,
                std::span<const int> recvcounts, std::span<const int> displs,
                int root, Mode mode);
Request scatter(const Comm& comm, In send, Out recv, int root, Mode mode);
Request scatterv(const Comm& comm, In send, std::span<const int> sendcounts,
                 std::span<const int> displs, Out recv, int root, Mode mode);
Request allgather(const Comm& comm, In send, Out recv, Mode mode);
Request allgatherv(const Comm& comm, In send, Out recv,
                   std::span<const int> recvcounts, std::span<const int> displs,
                   Mode mode);
Request alltoall(const Comm& comm, In send, Out recv, Mode mode);
Request alltoallv(const Comm& comm, In send, std::span<const int> sendcounts,
                  std::span<const int> sdispls, Out recv,
                  std::span<const int> recvcounts, std::span<const int> rdispls,
                  Mode mode);
Request reduce(const Comm& comm, In send, Out recv, MPI_Op op, int root,
               Mode mode);
Request allreduce(const Comm& comm, In send, Out recv, MPI_Op op, Mode mode);
Request reduce_scatter(const Comm& comm, In send, Out recv,
                       std::span<const int> recvcounts, MPI_Op op, Mode mode);
Request reduce_scatter_block(const Comm& comm, In send, Out recv, MPI_Op op,
                             Mode mode);
Request scan(const Comm& comm, In send, Out recv, MPI_Op op, Mode mode);
Request exscan(const Comm& comm, In send, Out recv, MPI_Op op, Mode mode);

}  // namespace internal

// ---- raw buffers (MPI's argument order) -----------------------------------

// MPI_Barrier.
void barrier(const Comm& comm);
// MPI_Bcast.
void bcast(const Comm& comm, void* buffer, int count, MPI_Datatype datatype,
           int root);
// MPI_Gather and MPI_Gatherv.
void gather(const Comm& comm, const void* send, int send_count,
            MPI_Datatype send_type, void* recv, int recv_count,
            MPI_Datatype recv_type, int root);
void gatherv(const Comm& comm, const void* send, int send_count,
             MPI_Datatype send_type, void* recv,
             std::span<const int> recvcounts, std::span<const int> displs,
             MPI_Datatype recv_type, int root);
// MPI_Scatter and MPI_Scatterv.
void scatter(const Comm& comm, const void* send, int send_count,
             MPI_Datatype send_type, void* recv, int recv_count,
             MPI_Datatype recv_type, int root);
void scatterv(const Comm& comm, const void* send,
              std::span<const int> sendcounts, std::span<const int> displs,
              MPI_Datatype send_type, void* recv, int recv_count,
              MPI_Datatype recv_type, int root);
// MPI_Allgather and MPI_Allgatherv.
void allgather(const Comm& comm, const void* send, int send_count,
               MPI_Datatype send_type, void* recv, int recv_count,
               MPI_Datatype recv_type);
void allgatherv(const Comm& comm, const void* send, int send_count,
                MPI_Datatype send_type, void* recv,
                std::span<const int> recvcounts, std::span<const int> displs,
                MPI_Datatype recv_type);
// MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw (displacements in bytes,
// one datatype per peer). On one process, alltoallw makes its copy through
// the transport's alltoallv: Open MPI 4.1's alltoallw there (coll/self)
// scales the byte displacements by the extent and overruns the buffers.
void alltoall(const Comm& comm, const void* send, int send_count,
              MPI_Datatype send_type, void* recv, int recv_count,
              MPI_Datatype recv_type);
void alltoallv(const Comm& comm, const void* send,
               std::span<const int> sendcounts, std::span<const int> sdispls,
               MPI_Datatype send_type, void* recv,
               std::span<const int> recvcounts, std::span<const int> rdispls,
               MPI_Datatype recv_type);
void alltoallw(const Comm& comm, const void* send,
               std::span<const int> sendcounts, std::span<const int> sdispls,
               std::span<const MPI_Datatype> send_types, void* recv,
               std::span<const int> recvcounts, std::span<const int> rdispls,
               std::span<const MPI_Datatype> recv_types);
// MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter, MPI_Reduce_scatter_block,
// MPI_Scan and MPI_Exscan.
void reduce(const Comm& comm, const void* send, void* recv, int count,
            MPI_Datatype datatype, MPI_Op op, int root);
void allreduce(const Comm& comm, const void* send, void* recv, int count,
               MPI_Datatype datatype, MPI_Op op);
void reduce_scatter(const Comm& comm, const void* send, void* recv,
                    std::span<const int> recvcounts, MPI_Datatype datatype,
                    MPI_Op op);
void reduce_scatter_block(const Comm& comm, const void* send, void* recv,
                          int recv_count, MPI_Datatype datatype, MPI_Op op);
void scan(const Comm& comm, const void* send, void* recv, int count,
          MPI_Datatype datatype, MPI_Op op);
void exscan(const Comm& comm, const void* send, void* recv, int count,
            MPI_Datatype datatype, MPI_Op op);

// ---- typed buffers --------------------------------------------------------

// MPI_Bcast of the whole buffer (the same size on every process).
template <Writable T, std::size_t E>
void bcast(const Comm& comm, std::span<T, E> buffer, int root) {
  internal::bcast(comm, internal::out(buffer), root, Mode::blocking);
}

// MPI_Gather: every process sends send.size() elements (the same number
// everywhere); the root's recv holds them in rank order and needs at least
// size() * send.size() elements. In place, at the root only, the root's
// block is recv's block root and the count is recv.size() / size().
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void gather(const Comm& comm, std::span<S, SE> send, std::span<R, RE> recv,
            int root) {
  internal::gather(comm, internal::in(send), internal::out(recv), root,
                   Mode::blocking);
}
template <Writable R, std::size_t RE>
void gather(const Comm& comm, InPlace, std::span<R, RE> recv, int root) {
  internal::gather(comm, internal::in_place_in<R>(), internal::out(recv), root,
                   Mode::blocking);
}

// MPI_Gatherv: process i's send.size() elements land at recv[displs[i]]
// on the root, where recvcounts[i] must equal that size.
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void gatherv(const Comm& comm, std::span<S, SE> send, std::span<R, RE> recv,
             std::span<const int> recvcounts, std::span<const int> displs,
             int root) {
  internal::gatherv(comm, internal::in(send), internal::out(recv), recvcounts,
                    displs, root, Mode::blocking);
}
template <Writable R, std::size_t RE>
void gatherv(const Comm& comm, InPlace, std::span<R, RE> recv,
             std::span<const int> recvcounts, std::span<const int> displs,
             int root) {
  internal::gatherv(comm, internal::in_place_in<R>(), internal::out(recv),
                    recvcounts, displs, root, Mode::blocking);
}

// MPI_Scatter: every process receives recv.size() elements (the same
// number everywhere), block i of the root's send (which needs at least
// size() * recv.size() elements). In place, at the root only, the root
// keeps its block in send and the count is send.size() / size().
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void scatter(const Comm& comm, std::span<S, SE> send, std::span<R, RE> recv,
             int root) {
  internal::scatter(comm, internal::in(send), internal::out(recv), root,
                    Mode::blocking);
}
template <Transmittable S, std::size_t SE>
void scatter(const Comm& comm, std::span<S, SE> send, InPlace, int root) {
  internal::scatter(comm, internal::in(send),
                    internal::in_place_out<std::remove_const_t<S>>(), root,
                    Mode::blocking);
}

// MPI_Scatterv: process i receives sendcounts[i] elements from
// send[displs[i]] of the root; its recv.size() must equal its count.
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void scatterv(const Comm& comm, std::span<S, SE> send,
              std::span<const int> sendcounts, std::span<const int> displs,
              std::span<R, RE> recv, int root) {
  internal::scatterv(comm, internal::in(send), sendcounts, displs,
                     internal::out(recv), root, Mode::blocking);
}
template <Transmittable S, std::size_t SE>
void scatterv(const Comm& comm, std::span<S, SE> send,
              std::span<const int> sendcounts, std::span<const int> displs,
              InPlace, int root) {
  internal::scatterv(comm, internal::in(send), sendcounts, displs,
                     internal::in_place_out<std::remove_const_t<S>>(), root,
                     Mode::blocking);
}

// MPI_Allgather: like gather, with the result on every process. In place,
// each process's block is already in recv and the count is
// recv.size() / size().
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void allgather(const Comm& comm, std::span<S, SE> send, std::span<R, RE> recv) {
  internal::allgather(comm, internal::in(send), internal::out(recv),
                      Mode::blocking);
}
template <Writable R, std::size_t RE>
void allgather(const Comm& comm, InPlace, std::span<R, RE> recv) {
  internal::allgather(comm, internal::in_place_in<R>(), internal::out(recv),
                      Mode::blocking);
}

// MPI_Allgatherv: like gatherv, with the result on every process.
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void allgatherv(const Comm& comm, std::span<S, SE> send, std::span<R, RE> recv,
                std::span<const int> recvcounts, std::span<const int> displs) {
  internal::allgatherv(comm, internal::in(send), internal::out(recv),
                       recvcounts, displs, Mode::blocking);
}
template <Writable R, std::size_t RE>
void allgatherv(const Comm& comm, InPlace, std::span<R, RE> recv,
                std::span<const int> recvcounts, std::span<const int> displs) {
  internal::allgatherv(comm, internal::in_place_in<R>(), internal::out(recv),
                       recvcounts, displs, Mode::blocking);
}

// MPI_Alltoall: send holds one block per process, so its size is a multiple
// of size() and the count is send.size() / size(); recv needs as many
// elements. In place, recv's blocks are sent and replaced.
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void alltoall(const Comm& comm, std::span<S, SE> send, std::span<R, RE> recv) {
  internal::alltoall(comm, internal::in(send), internal::out(recv),
                     Mode::blocking);
}
template <Writable R, std::size_t RE>
void alltoall(const Comm& comm, InPlace, std::span<R, RE> recv) {
  internal::alltoall(comm, internal::in_place_in<R>(), internal::out(recv),
                     Mode::blocking);
}

// MPI_Alltoallv, counts and displacements in elements. In place, recv's
// blocks (recvcounts, rdispls) are sent and replaced.
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void alltoallv(const Comm& comm, std::span<S, SE> send,
               std::span<const int> sendcounts, std::span<const int> sdispls,
               std::span<R, RE> recv, std::span<const int> recvcounts,
               std::span<const int> rdispls) {
  internal::alltoallv(comm, internal::in(send), sendcounts, sdispls,
                      internal::out(recv), recvcounts, rdispls, Mode::blocking);
}
template <Writable R, std::size_t RE>
void alltoallv(const Comm& comm, InPlace, std::span<R, RE> recv,
               std::span<const int> recvcounts, std::span<const int> rdispls) {
  internal::alltoallv(comm, internal::in_place_in<R>(), {}, {},
                      internal::out(recv), recvcounts, rdispls, Mode::blocking);
}

// MPI_Reduce of send.size() elements; the root's recv needs as many. In
// place, at the root only, the root's operand is recv (count recv.size()).
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void reduce(const Comm& comm, std::span<S, SE> send, std::span<R, RE> recv,
            MPI_Op op, int root) {
  internal::reduce(comm, internal::in(send), internal::out(recv), op, root,
                   Mode::blocking);
}
template <Writable R, std::size_t RE>
void reduce(const Comm& comm, InPlace, std::span<R, RE> recv, MPI_Op op,
            int root) {
  internal::reduce(comm, internal::in_place_in<R>(), internal::out(recv), op,
                   root, Mode::blocking);
}

// MPI_Allreduce of send.size() elements into recv (at least as many). In
// place, buffer is operand and result.
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void allreduce(const Comm& comm, std::span<S, SE> send, std::span<R, RE> recv,
               MPI_Op op) {
  internal::allreduce(comm, internal::in(send), internal::out(recv), op,
                      Mode::blocking);
}
template <Writable R, std::size_t RE>
void allreduce(const Comm& comm, InPlace, std::span<R, RE> buffer, MPI_Op op) {
  internal::allreduce(comm, internal::in_place_in<R>(), internal::out(buffer),
                      op, Mode::blocking);
}

// MPI_Reduce_scatter: send holds sum(recvcounts) elements (at least);
// process i receives block i of the reduction, recvcounts[i] elements,
// into its recv (at least that size). In place, buffer holds the operands
// and then the process's block at its start.
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void reduce_scatter(const Comm& comm, std::span<S, SE> send,
                    std::span<R, RE> recv, std::span<const int> recvcounts,
                    MPI_Op op) {
  internal::reduce_scatter(comm, internal::in(send), internal::out(recv),
                           recvcounts, op, Mode::blocking);
}
template <Writable R, std::size_t RE>
void reduce_scatter(const Comm& comm, InPlace, std::span<R, RE> buffer,
                    std::span<const int> recvcounts, MPI_Op op) {
  internal::reduce_scatter(comm, internal::in_place_in<R>(),
                           internal::out(buffer), recvcounts, op,
                           Mode::blocking);
}

// MPI_Reduce_scatter_block: every process receives recv.size() elements, so
// send holds size() * recv.size() (at least). In place, the count is
// buffer.size() / size() and the result is at buffer's start.
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void reduce_scatter_block(const Comm& comm, std::span<S, SE> send,
                          std::span<R, RE> recv, MPI_Op op) {
  internal::reduce_scatter_block(comm, internal::in(send), internal::out(recv),
                                 op, Mode::blocking);
}
template <Writable R, std::size_t RE>
void reduce_scatter_block(const Comm& comm, InPlace, std::span<R, RE> buffer,
                          MPI_Op op) {
  internal::reduce_scatter_block(comm, internal::in_place_in<R>(),
                                 internal::out(buffer), op, Mode::blocking);
}

// MPI_Scan (inclusive) and MPI_Exscan (exclusive: MPI leaves rank 0's recv
// undefined, so do not read it) of send.size() elements.
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void scan(const Comm& comm, std::span<S, SE> send, std::span<R, RE> recv,
          MPI_Op op) {
  internal::scan(comm, internal::in(send), internal::out(recv), op,
                 Mode::blocking);
}
template <Writable R, std::size_t RE>
void scan(const Comm& comm, InPlace, std::span<R, RE> buffer, MPI_Op op) {
  internal::scan(comm, internal::in_place_in<R>(), internal::out(buffer), op,
                 Mode::blocking);
}
template <Transmittable S, std::size_t SE, Transmittable R, std::size_t RE>
requires internal::Matching<S, R>
void exscan(const Comm& comm, std::span<S, SE> send, std::span<R, RE> recv,
            MPI_Op op) {
  internal::exscan(comm, internal::in(send), internal::out(recv), op,
                   Mode::blocking);
}
template <Writable R, std::size_t RE>
void exscan(const Comm& comm, InPlace, std::span<R, RE> buffer, MPI_Op op) {
  internal::exscan(comm, internal::in_place_in<R>(), internal::out(buffer), op,
                   Mode::blocking);
}

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_COLLECTIVES_H_
