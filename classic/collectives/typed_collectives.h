// The typed forms of the blocking collectives (buffers are contiguous
// ranges, classic::SendBuffer and RecvBuffer; the datatype comes from the
// element type) and the type erasure they share with the
// non-blocking and persistent forms. collectives.h includes this header and
// states the rules that both the raw and the typed forms follow.
#ifndef ORTHOCOMM_CLASSIC_COLLECTIVES_TYPED_COLLECTIVES_H_
#define ORTHOCOMM_CLASSIC_COLLECTIVES_TYPED_COLLECTIVES_H_

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

// A typed buffer taken as `B&&` (B as deduced), its element type erased.
template <typename B>
In in(std::remove_reference_t<B>& buffer) {
  const auto span = buffer_span<B>(buffer);
  return {span.data(), span.size(), datatype_of<BufferElement<B>>(),
          sizeof(BufferElement<B>)};
}
template <typename B>
Out out(std::remove_reference_t<B>& buffer) {
  const auto span = buffer_span<B>(buffer);
  return {span.data(), span.size(), datatype_of<BufferElement<B>>(),
          sizeof(BufferElement<B>)};
}
// MPI_IN_PLACE with the element type of the buffer type B.
template <typename B>
In in_place_in() {
  return {MPI_IN_PLACE, 0, datatype_of<BufferElement<B>>(),
          sizeof(BufferElement<B>)};
}
template <typename B>
Out in_place_out() {
  return {MPI_IN_PLACE, 0, datatype_of<BufferElement<B>>(),
          sizeof(BufferElement<B>)};
}

// The typed forms, after type erasure, in a mode (collectives_rooted.cc,
// collectives_all.cc and collectives_all_reductions.cc); blocking ones
// return a null Request.
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

// ---- typed buffers --------------------------------------------------------

// MPI_Bcast of the whole buffer (the same size on every process).
template <RecvBuffer T>
void bcast(const Comm& comm, T&& buffer, int root) {
  internal::bcast(comm, internal::out<T>(buffer), root, Mode::blocking);
}

// MPI_Gather: every process sends send.size() elements (the same number
// everywhere); the root's recv holds them in rank order and needs at least
// size() * send.size() elements. In place, at the root only, the root's
// block is recv's block root and the count is recv.size() / size().
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void gather(const Comm& comm, S&& send, R&& recv, int root) {
  internal::gather(comm, internal::in<S>(send), internal::out<R>(recv), root,
                   Mode::blocking);
}
template <RecvBuffer R>
void gather(const Comm& comm, InPlace, R&& recv, int root) {
  internal::gather(comm, internal::in_place_in<R>(), internal::out<R>(recv),
                   root, Mode::blocking);
}

// MPI_Gatherv: process i's send.size() elements land at recv[displs[i]]
// on the root, where recvcounts[i] must equal that size.
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void gatherv(const Comm& comm, S&& send, R&& recv,
             std::span<const int> recvcounts, std::span<const int> displs,
             int root) {
  internal::gatherv(comm, internal::in<S>(send), internal::out<R>(recv),
                    recvcounts, displs, root, Mode::blocking);
}
template <RecvBuffer R>
void gatherv(const Comm& comm, InPlace, R&& recv,
             std::span<const int> recvcounts, std::span<const int> displs,
             int root) {
  internal::gatherv(comm, internal::in_place_in<R>(), internal::out<R>(recv),
                    recvcounts, displs, root, Mode::blocking);
}

// MPI_Scatter: every process receives recv.size() elements (the same
// number everywhere), block i of the root's send (which needs at least
// size() * recv.size() elements). In place, at the root only, the root
// keeps its block in send and the count is send.size() / size().
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void scatter(const Comm& comm, S&& send, R&& recv, int root) {
  internal::scatter(comm, internal::in<S>(send), internal::out<R>(recv), root,
                    Mode::blocking);
}
template <SendBuffer S>
void scatter(const Comm& comm, S&& send, InPlace, int root) {
  internal::scatter(comm, internal::in<S>(send), internal::in_place_out<S>(),
                    root, Mode::blocking);
}

// MPI_Scatterv: process i receives sendcounts[i] elements from
// send[displs[i]] of the root; its recv.size() must equal its count.
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void scatterv(const Comm& comm, S&& send, std::span<const int> sendcounts,
              std::span<const int> displs, R&& recv, int root) {
  internal::scatterv(comm, internal::in<S>(send), sendcounts, displs,
                     internal::out<R>(recv), root, Mode::blocking);
}
template <SendBuffer S>
void scatterv(const Comm& comm, S&& send, std::span<const int> sendcounts,
              std::span<const int> displs, InPlace, int root) {
  internal::scatterv(comm, internal::in<S>(send), sendcounts, displs,
                     internal::in_place_out<S>(), root, Mode::blocking);
}

// MPI_Allgather: like gather, with the result on every process. In place,
// each process's block is already in recv and the count is
// recv.size() / size().
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void allgather(const Comm& comm, S&& send, R&& recv) {
  internal::allgather(comm, internal::in<S>(send), internal::out<R>(recv),
                      Mode::blocking);
}
template <RecvBuffer R>
void allgather(const Comm& comm, InPlace, R&& recv) {
  internal::allgather(comm, internal::in_place_in<R>(), internal::out<R>(recv),
                      Mode::blocking);
}

// MPI_Allgatherv: like gatherv, with the result on every process.
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void allgatherv(const Comm& comm, S&& send, R&& recv,
                std::span<const int> recvcounts, std::span<const int> displs) {
  internal::allgatherv(comm, internal::in<S>(send), internal::out<R>(recv),
                       recvcounts, displs, Mode::blocking);
}
template <RecvBuffer R>
void allgatherv(const Comm& comm, InPlace, R&& recv,
                std::span<const int> recvcounts, std::span<const int> displs) {
  internal::allgatherv(comm, internal::in_place_in<R>(), internal::out<R>(recv),
                       recvcounts, displs, Mode::blocking);
}

// MPI_Alltoall: send holds one block per process, so its size is a multiple
// of size() and the count is send.size() / size(); recv needs as many
// elements. In place, recv's blocks are sent and replaced.
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void alltoall(const Comm& comm, S&& send, R&& recv) {
  internal::alltoall(comm, internal::in<S>(send), internal::out<R>(recv),
                     Mode::blocking);
}
template <RecvBuffer R>
void alltoall(const Comm& comm, InPlace, R&& recv) {
  internal::alltoall(comm, internal::in_place_in<R>(), internal::out<R>(recv),
                     Mode::blocking);
}

// MPI_Alltoallv, counts and displacements in elements. In place, recv's
// blocks (recvcounts, rdispls) are sent and replaced.
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void alltoallv(const Comm& comm, S&& send, std::span<const int> sendcounts,
               std::span<const int> sdispls, R&& recv,
               std::span<const int> recvcounts, std::span<const int> rdispls) {
  internal::alltoallv(comm, internal::in<S>(send), sendcounts, sdispls,
                      internal::out<R>(recv), recvcounts, rdispls,
                      Mode::blocking);
}
template <RecvBuffer R>
void alltoallv(const Comm& comm, InPlace, R&& recv,
               std::span<const int> recvcounts, std::span<const int> rdispls) {
  internal::alltoallv(comm, internal::in_place_in<R>(), {}, {},
                      internal::out<R>(recv), recvcounts, rdispls,
                      Mode::blocking);
}

// MPI_Reduce of send.size() elements; the root's recv needs as many. In
// place, at the root only, the root's operand is recv (count recv.size()).
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void reduce(const Comm& comm, S&& send, R&& recv, MPI_Op op, int root) {
  internal::reduce(comm, internal::in<S>(send), internal::out<R>(recv), op,
                   root, Mode::blocking);
}
template <RecvBuffer R>
void reduce(const Comm& comm, InPlace, R&& recv, MPI_Op op, int root) {
  internal::reduce(comm, internal::in_place_in<R>(), internal::out<R>(recv), op,
                   root, Mode::blocking);
}

// MPI_Allreduce of send.size() elements into recv (at least as many). In
// place, buffer is operand and result.
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void allreduce(const Comm& comm, S&& send, R&& recv, MPI_Op op) {
  internal::allreduce(comm, internal::in<S>(send), internal::out<R>(recv), op,
                      Mode::blocking);
}
template <RecvBuffer R>
void allreduce(const Comm& comm, InPlace, R&& buffer, MPI_Op op) {
  internal::allreduce(comm, internal::in_place_in<R>(),
                      internal::out<R>(buffer), op, Mode::blocking);
}

// MPI_Reduce_scatter: send holds sum(recvcounts) elements (at least);
// process i receives block i of the reduction, recvcounts[i] elements,
// into its recv (at least that size). In place, buffer holds the operands
// and then the process's block at its start.
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void reduce_scatter(const Comm& comm, S&& send, R&& recv,
                    std::span<const int> recvcounts, MPI_Op op) {
  internal::reduce_scatter(comm, internal::in<S>(send), internal::out<R>(recv),
                           recvcounts, op, Mode::blocking);
}
template <RecvBuffer R>
void reduce_scatter(const Comm& comm, InPlace, R&& buffer,
                    std::span<const int> recvcounts, MPI_Op op) {
  internal::reduce_scatter(comm, internal::in_place_in<R>(),
                           internal::out<R>(buffer), recvcounts, op,
                           Mode::blocking);
}

// MPI_Reduce_scatter_block: every process receives recv.size() elements, so
// send holds size() * recv.size() (at least). In place, the count is
// buffer.size() / size() and the result is at buffer's start.
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void reduce_scatter_block(const Comm& comm, S&& send, R&& recv, MPI_Op op) {
  internal::reduce_scatter_block(comm, internal::in<S>(send),
                                 internal::out<R>(recv), op, Mode::blocking);
}
template <RecvBuffer R>
void reduce_scatter_block(const Comm& comm, InPlace, R&& buffer, MPI_Op op) {
  internal::reduce_scatter_block(comm, internal::in_place_in<R>(),
                                 internal::out<R>(buffer), op, Mode::blocking);
}

// MPI_Scan (inclusive) and MPI_Exscan (exclusive: MPI leaves rank 0's recv
// undefined, so do not read it) of send.size() elements.
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void scan(const Comm& comm, S&& send, R&& recv, MPI_Op op) {
  internal::scan(comm, internal::in<S>(send), internal::out<R>(recv), op,
                 Mode::blocking);
}
template <RecvBuffer R>
void scan(const Comm& comm, InPlace, R&& buffer, MPI_Op op) {
  internal::scan(comm, internal::in_place_in<R>(), internal::out<R>(buffer), op,
                 Mode::blocking);
}
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void exscan(const Comm& comm, S&& send, R&& recv, MPI_Op op) {
  internal::exscan(comm, internal::in<S>(send), internal::out<R>(recv), op,
                   Mode::blocking);
}
template <RecvBuffer R>
void exscan(const Comm& comm, InPlace, R&& buffer, MPI_Op op) {
  internal::exscan(comm, internal::in_place_in<R>(), internal::out<R>(buffer),
                   op, Mode::blocking);
}

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_COLLECTIVES_TYPED_COLLECTIVES_H_
