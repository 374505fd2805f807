// MPI-3 neighbourhood collectives on classic topology communicators
// (Cartesian, graph, distributed graph): neighbor_allgather(v),
// neighbor_alltoall(v, w), blocking, non-blocking (ineighbor_*) and
// persistent (MPI-4 neighbor_*_init, begun by classic::start).
#ifndef ORTHOCOMM_CLASSIC_NEIGHBOR_NEIGHBOR_COLLECTIVES_H_
#define ORTHOCOMM_CLASSIC_NEIGHBOR_NEIGHBOR_COLLECTIVES_H_

#include <mpi.h>

#include <cstddef>
#include <span>

#include "classic/base/datatype.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/exec/executor.h"
#include "classic/p2p/request.h"

namespace classic {

// Each process receives one block from each of its sources (in-neighbours)
// and sends one block to each of its destinations (out-neighbours), in the
// order MPI-4.1 (section 8.6) fixes:
//  - Cartesian: for each dimension d, the neighbour at -1 then the one at
//    +1 (cart_shift(d, 1)'s source, then its destination), 2 * ndims
//    blocks on both sides. A neighbour past a non-periodic border is
//    proc_null: its blocks are neither sent nor written. The block sent to
//    the neighbour at -1 lands in that process's block for its neighbour
//    at +1 and vice versa, also in a periodic dimension of size 1 or 2,
//    where both neighbours are one process (or the caller itself).
//  - graph: graph_neighbors of the caller, as sources and destinations.
//    The adjacency must be symmetric (as often j in i's list as i in j's).
//    With repeated edges, the k-th block sent to a peer lands in the
//    peer's k-th block from the sender; a self-loop exchanges with itself.
//  - distributed graph: its sources and destinations as created; every
//    edge must appear at both ends (a missing end leaves the other waiting,
//    as in MPI). Repeated edges pair up as for graphs.
// indegree and outdegree below are the numbers of sources and
// destinations (proc_null ones included).
//
// Every process of the communicator calls the same neighbourhood
// collectives in the same order (blocking and non-blocking alike). The
// messages run on a context of their own, so no receive of the application
// on the communicator, any_source and any_tag included, can take them; and
// several non-blocking ones may be outstanding at once.
//
// Buffers, as in classic/collectives/collectives.h:
//  - typed: contiguous ranges of T (std::vector, std::array, std::span, C
//    arrays) with datatype_of<T>(); send and receive buffers ("spans")
//    have the same element type. Counts and displacements are in elements;
//    every block that is transferred must lie inside its span and no two
//    received blocks may overlap, send and receive spans must not share
//    memory.
//  - raw: (pointer, count, MPI_Datatype) as in MPI, for derived datatypes.
//    Only counts, array lengths and datatypes are checked. Displacements
//    of neighbor_alltoallv are in extents of the datatype, those of
//    neighbor_alltoallw in bytes (MPI_Aint, as MPI-3 defines them there).
// MPI_IN_PLACE has no meaning for neighbourhood collectives and is refused.
//
// Non-blocking forms (ineighbor_*): the buffers must stay valid, and the
// send buffers unchanged, until the request completes; counts,
// displacements and datatype arrays are read during the call only.
// Destroying the request while the operation is pending withdraws the
// receives not yet matched (the receive buffer is not written after the
// destructor returns; the peers' blocks are taken and thrown away by
// classic, so later collectives on the communicator are not disturbed) and
// lets the sends complete in the background (their buffers must stay valid
// until the peers have received them). It never blocks on a peer.
//
// Persistent forms (neighbor_*_init): an inactive request whose every
// classic::start runs the collective again on the same buffers (their
// contents may change between starts; counts, displacements and datatypes
// are those of the init call, which must stay committed). Each process
// makes its persistent requests in the same order as its other collectives
// on the communicator, and starts each as often as the others do.
//
// Errors (classic::Error), raised before anything is sent on the process
// whose arguments are wrong:
//   ErrorClass::comm      a null, freed or finalised communicator; an
//                         inter-communicator.
//   ErrorClass::topology  a communicator without a topology; a graph whose
//                         adjacency is not symmetric at the caller.
//   ErrorClass::count     a negative count; a counts, displacements or
//                         datatypes array without indegree (receive side)
//                         or outdegree (send side) entries; a typed span of
//                         more than INT_MAX elements.
//   ErrorClass::buffer    MPI_IN_PLACE; typed: a span too small for the
//                         counts, a block outside its span, overlapping
//                         receive blocks, send and receive spans sharing
//                         memory, a span that holds no whole number of
//                         blocks where the count is derived from it.
//   ErrorClass::datatype  MPI_DATATYPE_NULL (or a datatype the transport
//                         rejects).
// What only the transport sees (a peer sending more than the receive
// block holds) comes back in its class (ErrorClass::truncate, ...).

// ---- raw buffers (MPI's argument order) -----------------------------------

// MPI_Neighbor_allgather: the send block goes to every destination; the
// block from source i lands at recv + i * recv_count extents.
void neighbor_allgather(const Comm& comm, const void* send, int send_count,
                        MPI_Datatype send_type, void* recv, int recv_count,
                        MPI_Datatype recv_type);
// MPI_Neighbor_allgatherv: the block from source i, recvcounts[i]
// elements, lands at recv + displs[i] extents.
void neighbor_allgatherv(const Comm& comm, const void* send, int send_count,
                         MPI_Datatype send_type, void* recv,
                         std::span<const int> recvcounts,
                         std::span<const int> displs, MPI_Datatype recv_type);
// MPI_Neighbor_alltoall: block i of send (at i * send_count extents) goes
// to destination i.
void neighbor_alltoall(const Comm& comm, const void* send, int send_count,
                       MPI_Datatype send_type, void* recv, int recv_count,
                       MPI_Datatype recv_type);
// MPI_Neighbor_alltoallv.
void neighbor_alltoallv(const Comm& comm, const void* send,
                        std::span<const int> sendcounts,
                        std::span<const int> sdispls, MPI_Datatype send_type,
                        void* recv, std::span<const int> recvcounts,
                        std::span<const int> rdispls, MPI_Datatype recv_type);
// MPI_Neighbor_alltoallw: displacements in bytes, a datatype per block.
void neighbor_alltoallw(const Comm& comm, const void* send,
                        std::span<const int> sendcounts,
                        std::span<const MPI_Aint> sdispls,
                        std::span<const MPI_Datatype> send_types, void* recv,
                        std::span<const int> recvcounts,
                        std::span<const MPI_Aint> rdispls,
                        std::span<const MPI_Datatype> recv_types);

// MPI_Ineighbor_allgather, _allgatherv, _alltoall, _alltoallv, _alltoallw.
[[nodiscard]] Request ineighbor_allgather(const Comm& comm, const void* send,
                                          int send_count,
                                          MPI_Datatype send_type, void* recv,
                                          int recv_count,
                                          MPI_Datatype recv_type);
[[nodiscard]] Request ineighbor_allgatherv(const Comm& comm, const void* send,
                                           int send_count,
                                           MPI_Datatype send_type, void* recv,
                                           std::span<const int> recvcounts,
                                           std::span<const int> displs,
                                           MPI_Datatype recv_type);
[[nodiscard]] Request ineighbor_alltoall(const Comm& comm, const void* send,
                                         int send_count, MPI_Datatype send_type,
                                         void* recv, int recv_count,
                                         MPI_Datatype recv_type);
[[nodiscard]] Request ineighbor_alltoallv(const Comm& comm, const void* send,
                                          std::span<const int> sendcounts,
                                          std::span<const int> sdispls,
                                          MPI_Datatype send_type, void* recv,
                                          std::span<const int> recvcounts,
                                          std::span<const int> rdispls,
                                          MPI_Datatype recv_type);
[[nodiscard]] Request ineighbor_alltoallw(
    const Comm& comm, const void* send, std::span<const int> sendcounts,
    std::span<const MPI_Aint> sdispls, std::span<const MPI_Datatype> send_types,
    void* recv, std::span<const int> recvcounts,
    std::span<const MPI_Aint> rdispls,
    std::span<const MPI_Datatype> recv_types);

// MPI_Neighbor_allgather_init, _allgatherv_init, _alltoall_init,
// _alltoallv_init, _alltoallw_init (MPI-4).
[[nodiscard]] Request neighbor_allgather_init(const Comm& comm,
                                              const void* send, int send_count,
                                              MPI_Datatype send_type,
                                              void* recv, int recv_count,
                                              MPI_Datatype recv_type);
[[nodiscard]] Request neighbor_allgatherv_init(
    const Comm& comm, const void* send, int send_count, MPI_Datatype send_type,
    void* recv, std::span<const int> recvcounts, std::span<const int> displs,
    MPI_Datatype recv_type);
[[nodiscard]] Request neighbor_alltoall_init(const Comm& comm, const void* send,
                                             int send_count,
                                             MPI_Datatype send_type, void* recv,
                                             int recv_count,
                                             MPI_Datatype recv_type);
[[nodiscard]] Request neighbor_alltoallv_init(
    const Comm& comm, const void* send, std::span<const int> sendcounts,
    std::span<const int> sdispls, MPI_Datatype send_type, void* recv,
    std::span<const int> recvcounts, std::span<const int> rdispls,
    MPI_Datatype recv_type);
[[nodiscard]] Request neighbor_alltoallw_init(
    const Comm& comm, const void* send, std::span<const int> sendcounts,
    std::span<const MPI_Aint> sdispls, std::span<const MPI_Datatype> send_types,
    void* recv, std::span<const int> recvcounts,
    std::span<const MPI_Aint> rdispls,
    std::span<const MPI_Datatype> recv_types);

// ---- the mode as an argument ----------------------------------------------

// One entry point per neighbourhood collective for callers that choose the
// mode at run time (ortho's dispatch): Mode::blocking is neighbor_allgather
// (returning a null Request), Mode::nonblocking ineighbor_allgather,
// Mode::persistent neighbor_allgather_init; arguments and errors as there.
[[nodiscard]] Request neighbor_allgather(const Comm& comm, const void* send,
                                         int send_count, MPI_Datatype send_type,
                                         void* recv, int recv_count,
                                         MPI_Datatype recv_type, Mode mode);
[[nodiscard]] Request neighbor_allgatherv(const Comm& comm, const void* send,
                                          int send_count,
                                          MPI_Datatype send_type, void* recv,
                                          std::span<const int> recvcounts,
                                          std::span<const int> displs,
                                          MPI_Datatype recv_type, Mode mode);
[[nodiscard]] Request neighbor_alltoall(const Comm& comm, const void* send,
                                        int send_count, MPI_Datatype send_type,
                                        void* recv, int recv_count,
                                        MPI_Datatype recv_type, Mode mode);
[[nodiscard]] Request neighbor_alltoallv(const Comm& comm, const void* send,
                                         std::span<const int> sendcounts,
                                         std::span<const int> sdispls,
                                         MPI_Datatype send_type, void* recv,
                                         std::span<const int> recvcounts,
                                         std::span<const int> rdispls,
                                         MPI_Datatype recv_type, Mode mode);
[[nodiscard]] Request neighbor_alltoallw(
    const Comm& comm, const void* send, std::span<const int> sendcounts,
    std::span<const MPI_Aint> sdispls, std::span<const MPI_Datatype> send_types,
    void* recv, std::span<const int> recvcounts,
    std::span<const MPI_Aint> rdispls, std::span<const MPI_Datatype> recv_types,
    Mode mode);

// ---- typed buffers --------------------------------------------------------

namespace internal {

using internal::In;
using internal::Out;

// The typed forms after type erasure; blocking ones return a null Request.
// (Named apart from collectives.h's internal allgather(Comm, In, Out,
// Mode) and its kin, which have the same parameters.)
Request neighbor_allgather_erased(const Comm& comm, In send, Out recv,
                                  Mode mode);
Request neighbor_allgatherv_erased(const Comm& comm, In send, Out recv,
                                   std::span<const int> recvcounts,
                                   std::span<const int> displs, Mode mode);
Request neighbor_alltoall_erased(const Comm& comm, In send, Out recv,
                                 Mode mode);
Request neighbor_alltoallv_erased(const Comm& comm, In send,
                                  std::span<const int> sendcounts,
                                  std::span<const int> sdispls, Out recv,
                                  std::span<const int> recvcounts,
                                  std::span<const int> rdispls, Mode mode);

}  // namespace internal

// MPI_Neighbor_allgather: send (send.size() elements) goes to every
// destination; recv needs indegree * send.size() elements (at least), the
// block from source i at i * send.size().
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void neighbor_allgather(const Comm& comm, S&& send, R&& recv) {
  (void)internal::neighbor_allgather_erased(
      comm, internal::in<S>(send), internal::out<R>(recv), Mode::blocking);
}
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
[[nodiscard]] Request ineighbor_allgather(const Comm& comm, S&& send,
                                          R&& recv) {
  return internal::neighbor_allgather_erased(
      comm, internal::in<S>(send), internal::out<R>(recv), Mode::nonblocking);
}
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
[[nodiscard]] Request neighbor_allgather_init(const Comm& comm, S&& send,
                                              R&& recv) {
  return internal::neighbor_allgather_erased(
      comm, internal::in<S>(send), internal::out<R>(recv), Mode::persistent);
}

// MPI_Neighbor_allgatherv: the block from source i, recvcounts[i]
// elements, lands at recv[displs[i]].
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void neighbor_allgatherv(const Comm& comm, S&& send, R&& recv,
                         std::span<const int> recvcounts,
                         std::span<const int> displs) {
  (void)internal::neighbor_allgatherv_erased(comm, internal::in<S>(send),
                                             internal::out<R>(recv), recvcounts,
                                             displs, Mode::blocking);
}
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
[[nodiscard]] Request ineighbor_allgatherv(const Comm& comm, S&& send, R&& recv,
                                           std::span<const int> recvcounts,
                                           std::span<const int> displs) {
  return internal::neighbor_allgatherv_erased(
      comm, internal::in<S>(send), internal::out<R>(recv), recvcounts, displs,
      Mode::nonblocking);
}
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
[[nodiscard]] Request neighbor_allgatherv_init(const Comm& comm, S&& send,
                                               R&& recv,
                                               std::span<const int> recvcounts,
                                               std::span<const int> displs) {
  return internal::neighbor_allgatherv_erased(
      comm, internal::in<S>(send), internal::out<R>(recv), recvcounts, displs,
      Mode::persistent);
}

// MPI_Neighbor_alltoall: send holds one block per destination, so the
// count is send.size() / outdegree (which must divide evenly; with no
// destinations, recv.size() / indegree); recv needs indegree * count
// elements (at least).
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void neighbor_alltoall(const Comm& comm, S&& send, R&& recv) {
  (void)internal::neighbor_alltoall_erased(
      comm, internal::in<S>(send), internal::out<R>(recv), Mode::blocking);
}
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
[[nodiscard]] Request ineighbor_alltoall(const Comm& comm, S&& send, R&& recv) {
  return internal::neighbor_alltoall_erased(
      comm, internal::in<S>(send), internal::out<R>(recv), Mode::nonblocking);
}
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
[[nodiscard]] Request neighbor_alltoall_init(const Comm& comm, S&& send,
                                             R&& recv) {
  return internal::neighbor_alltoall_erased(
      comm, internal::in<S>(send), internal::out<R>(recv), Mode::persistent);
}

// MPI_Neighbor_alltoallv, counts and displacements in elements.
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
void neighbor_alltoallv(const Comm& comm, S&& send,
                        std::span<const int> sendcounts,
                        std::span<const int> sdispls, R&& recv,
                        std::span<const int> recvcounts,
                        std::span<const int> rdispls) {
  (void)internal::neighbor_alltoallv_erased(
      comm, internal::in<S>(send), sendcounts, sdispls, internal::out<R>(recv),
      recvcounts, rdispls, Mode::blocking);
}
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
[[nodiscard]] Request ineighbor_alltoallv(const Comm& comm, S&& send,
                                          std::span<const int> sendcounts,
                                          std::span<const int> sdispls,
                                          R&& recv,
                                          std::span<const int> recvcounts,
                                          std::span<const int> rdispls) {
  return internal::neighbor_alltoallv_erased(
      comm, internal::in<S>(send), sendcounts, sdispls, internal::out<R>(recv),
      recvcounts, rdispls, Mode::nonblocking);
}
template <SendBuffer S, RecvBuffer R>
requires internal::SameElements<S, R>
[[nodiscard]] Request neighbor_alltoallv_init(const Comm& comm, S&& send,
                                              std::span<const int> sendcounts,
                                              std::span<const int> sdispls,
                                              R&& recv,
                                              std::span<const int> recvcounts,
                                              std::span<const int> rdispls) {
  return internal::neighbor_alltoallv_erased(
      comm, internal::in<S>(send), sendcounts, sdispls, internal::out<R>(recv),
      recvcounts, rdispls, Mode::persistent);
}

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_NEIGHBOR_NEIGHBOR_COLLECTIVES_H_
