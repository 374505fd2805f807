// ortho's collectives with typed buffers (std::span<T>, the datatype
// inferred, counts from the spans as classic's typed collectives take
// them), in their three modes, and blocking overloads that return the
// received data by value. Semantics: ortho/collectives.h.
#ifndef ORTHOCOMM_ORTHO_TYPED_COLLECTIVES_H_
#define ORTHOCOMM_ORTHO_TYPED_COLLECTIVES_H_

#include <mpi.h>

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "classic/base/datatype.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "ortho/call.h"

// The calls below name only the fields they set; GCC 12 warns about
// designated initializers that leave members to their default member
// initializers (-Wmissing-field-initializers), which is what they are for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace ortho {
namespace internal {

// The one entry point of every ortho collective: looks up comm's table,
// checks that the operation is defined on its structure and runs the
// selected algorithm.
classic::Request run(const classic::Comm& comm, const Call& call);

// How many blocks a process receives / sends in allgather and alltoall on
// comm (its size, its remote size or its in- / out-degree).
std::size_t blocks_received(const classic::Comm& comm, const char* function);
std::size_t blocks_sent(const classic::Comm& comm, const char* function);
// Whether the caller receives in a rooted collective with this root (it is
// the root; on an inter-communicator, it passed classic::mpi_root).
bool receives_as_root(const classic::Comm& comm, int root,
                      const char* function);
// alltoall by value: ErrorClass::buffer unless `elements` splits into
// `sent` blocks, or there is nothing to receive.
void check_block_size(std::size_t elements, std::size_t sent,
                      std::size_t received, const char* function);

template <classic::Transmittable S, std::size_t E>
SendSide send_side(std::span<S, E> span) {
  return {.data = span.data(),
          .datatype = classic::datatype_of<S>(),
          .elements = span.size(),
          .element_bytes = sizeof(S)};
}
template <classic::Writable R, std::size_t E>
RecvSide recv_side(std::span<R, E> span) {
  return {.data = span.data(),
          .datatype = classic::datatype_of<R>(),
          .elements = span.size(),
          .element_bytes = sizeof(R)};
}
template <classic::Transmittable T>
SendSide in_place_side() {
  return {.data = MPI_IN_PLACE,
          .datatype = classic::datatype_of<T>(),
          .element_bytes = sizeof(T)};
}
template <classic::Transmittable T>
RecvSide in_place_recv_side() {
  return {.data = MPI_IN_PLACE,
          .datatype = classic::datatype_of<T>(),
          .element_bytes = sizeof(T)};
}
template <class Pointer>
Side<Pointer> with_blocks(Side<Pointer> side, std::span<const int> counts,
                          std::span<const int> displs) {
  side.counts = counts;
  side.displs = displs;
  return side;
}

}  // namespace internal

// bcast: MPI_Bcast: count = buffer.size().
template <classic::Writable R, std::size_t RE>
void bcast(const classic::Comm& comm, std::span<R, RE> buffer, int root) {
  (void)internal::run(comm, Call{.operation = Operation::bcast,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .recv = internal::recv_side(buffer),
                                 .root = root});
}
template <classic::Writable R, std::size_t RE>
[[nodiscard]] classic::Request ibcast(const classic::Comm& comm,
                                      std::span<R, RE> buffer, int root) {
  return internal::run(comm, Call{.operation = Operation::bcast,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .recv = internal::recv_side(buffer),
                                  .root = root});
}
template <classic::Writable R, std::size_t RE>
[[nodiscard]] classic::Request bcast_init(const classic::Comm& comm,
                                          std::span<R, RE> buffer, int root) {
  return internal::run(comm, Call{.operation = Operation::bcast,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .recv = internal::recv_side(buffer),
                                  .root = root});
}

// gather: count = send.size(); the root's recv holds one block per process
// (fully connected), per remote process (bipartite) or per in-neighbour
// (directed graph).
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void gather(const classic::Comm& comm, std::span<S, SE> send,
            std::span<R, RE> recv, int root) {
  (void)internal::run(comm, Call{.operation = Operation::gather,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::send_side(send),
                                 .recv = internal::recv_side(recv),
                                 .root = root});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request igather(const classic::Comm& comm,
                                       std::span<S, SE> send,
                                       std::span<R, RE> recv, int root) {
  return internal::run(comm, Call{.operation = Operation::gather,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .root = root});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request gather_init(const classic::Comm& comm,
                                           std::span<S, SE> send,
                                           std::span<R, RE> recv, int root) {
  return internal::run(comm, Call{.operation = Operation::gather,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .root = root});
}

// gather: In place at the root: its own block is already in recv.
template <classic::Writable R, std::size_t RE>
void gather(const classic::Comm& comm, classic::InPlace, std::span<R, RE> recv,
            int root) {
  (void)internal::run(comm, Call{.operation = Operation::gather,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::in_place_side<R>(),
                                 .recv = internal::recv_side(recv),
                                 .root = root});
}
template <classic::Writable R, std::size_t RE>
[[nodiscard]] classic::Request igather(const classic::Comm& comm,
                                       classic::InPlace, std::span<R, RE> recv,
                                       int root) {
  return internal::run(comm, Call{.operation = Operation::gather,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::in_place_side<R>(),
                                  .recv = internal::recv_side(recv),
                                  .root = root});
}
template <classic::Writable R, std::size_t RE>
[[nodiscard]] classic::Request gather_init(const classic::Comm& comm,
                                           classic::InPlace,
                                           std::span<R, RE> recv, int root) {
  return internal::run(comm, Call{.operation = Operation::gather,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::in_place_side<R>(),
                                  .recv = internal::recv_side(recv),
                                  .root = root});
}

// gatherv: Counts and displacements in elements.
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void gatherv(const classic::Comm& comm, std::span<S, SE> send,
             std::span<R, RE> recv, std::span<const int> recvcounts,
             std::span<const int> displs, int root) {
  (void)internal::run(
      comm, Call{.operation = Operation::gatherv,
                 .mode = classic::Mode::blocking,
                 .form = Form::typed,
                 .send = internal::send_side(send),
                 .recv = internal::with_blocks(internal::recv_side(recv),
                                               recvcounts, displs),
                 .root = root});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request igatherv(const classic::Comm& comm,
                                        std::span<S, SE> send,
                                        std::span<R, RE> recv,
                                        std::span<const int> recvcounts,
                                        std::span<const int> displs, int root) {
  return internal::run(
      comm, Call{.operation = Operation::gatherv,
                 .mode = classic::Mode::nonblocking,
                 .form = Form::typed,
                 .send = internal::send_side(send),
                 .recv = internal::with_blocks(internal::recv_side(recv),
                                               recvcounts, displs),
                 .root = root});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request gatherv_init(
    const classic::Comm& comm, std::span<S, SE> send, std::span<R, RE> recv,
    std::span<const int> recvcounts, std::span<const int> displs, int root) {
  return internal::run(
      comm, Call{.operation = Operation::gatherv,
                 .mode = classic::Mode::persistent,
                 .form = Form::typed,
                 .send = internal::send_side(send),
                 .recv = internal::with_blocks(internal::recv_side(recv),
                                               recvcounts, displs),
                 .root = root});
}

// scatter: count = recv.size().
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void scatter(const classic::Comm& comm, std::span<S, SE> send,
             std::span<R, RE> recv, int root) {
  (void)internal::run(comm, Call{.operation = Operation::scatter,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::send_side(send),
                                 .recv = internal::recv_side(recv),
                                 .root = root});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request iscatter(const classic::Comm& comm,
                                        std::span<S, SE> send,
                                        std::span<R, RE> recv, int root) {
  return internal::run(comm, Call{.operation = Operation::scatter,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .root = root});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request scatter_init(const classic::Comm& comm,
                                            std::span<S, SE> send,
                                            std::span<R, RE> recv, int root) {
  return internal::run(comm, Call{.operation = Operation::scatter,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .root = root});
}

// scatter: In place at the root: its own block stays in send.
template <classic::Transmittable S, std::size_t SE>
void scatter(const classic::Comm& comm, std::span<S, SE> send, classic::InPlace,
             int root) {
  (void)internal::run(comm, Call{.operation = Operation::scatter,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::send_side(send),
                                 .recv = internal::in_place_recv_side<S>(),
                                 .root = root});
}
template <classic::Transmittable S, std::size_t SE>
[[nodiscard]] classic::Request iscatter(const classic::Comm& comm,
                                        std::span<S, SE> send, classic::InPlace,
                                        int root) {
  return internal::run(comm, Call{.operation = Operation::scatter,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::in_place_recv_side<S>(),
                                  .root = root});
}
template <classic::Transmittable S, std::size_t SE>
[[nodiscard]] classic::Request scatter_init(const classic::Comm& comm,
                                            std::span<S, SE> send,
                                            classic::InPlace, int root) {
  return internal::run(comm, Call{.operation = Operation::scatter,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::in_place_recv_side<S>(),
                                  .root = root});
}

// scatterv: Counts and displacements in elements.
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void scatterv(const classic::Comm& comm, std::span<S, SE> send,
              std::span<const int> sendcounts, std::span<const int> displs,
              std::span<R, RE> recv, int root) {
  (void)internal::run(
      comm, Call{.operation = Operation::scatterv,
                 .mode = classic::Mode::blocking,
                 .form = Form::typed,
                 .send = internal::with_blocks(internal::send_side(send),
                                               sendcounts, displs),
                 .recv = internal::recv_side(recv),
                 .root = root});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request iscatterv(const classic::Comm& comm,
                                         std::span<S, SE> send,
                                         std::span<const int> sendcounts,
                                         std::span<const int> displs,
                                         std::span<R, RE> recv, int root) {
  return internal::run(
      comm, Call{.operation = Operation::scatterv,
                 .mode = classic::Mode::nonblocking,
                 .form = Form::typed,
                 .send = internal::with_blocks(internal::send_side(send),
                                               sendcounts, displs),
                 .recv = internal::recv_side(recv),
                 .root = root});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request scatterv_init(const classic::Comm& comm,
                                             std::span<S, SE> send,
                                             std::span<const int> sendcounts,
                                             std::span<const int> displs,
                                             std::span<R, RE> recv, int root) {
  return internal::run(
      comm, Call{.operation = Operation::scatterv,
                 .mode = classic::Mode::persistent,
                 .form = Form::typed,
                 .send = internal::with_blocks(internal::send_side(send),
                                               sendcounts, displs),
                 .recv = internal::recv_side(recv),
                 .root = root});
}

// allgather: count = send.size(); recv holds one block per process / remote
// process / in-neighbour.
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void allgather(const classic::Comm& comm, std::span<S, SE> send,
               std::span<R, RE> recv) {
  (void)internal::run(comm, Call{.operation = Operation::allgather,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::send_side(send),
                                 .recv = internal::recv_side(recv)});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request iallgather(const classic::Comm& comm,
                                          std::span<S, SE> send,
                                          std::span<R, RE> recv) {
  return internal::run(comm, Call{.operation = Operation::allgather,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv)});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request allgather_init(const classic::Comm& comm,
                                              std::span<S, SE> send,
                                              std::span<R, RE> recv) {
  return internal::run(comm, Call{.operation = Operation::allgather,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv)});
}

template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void allgatherv(const classic::Comm& comm, std::span<S, SE> send,
                std::span<R, RE> recv, std::span<const int> recvcounts,
                std::span<const int> displs) {
  (void)internal::run(
      comm, Call{.operation = Operation::allgatherv,
                 .mode = classic::Mode::blocking,
                 .form = Form::typed,
                 .send = internal::send_side(send),
                 .recv = internal::with_blocks(internal::recv_side(recv),
                                               recvcounts, displs)});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request iallgatherv(const classic::Comm& comm,
                                           std::span<S, SE> send,
                                           std::span<R, RE> recv,
                                           std::span<const int> recvcounts,
                                           std::span<const int> displs) {
  return internal::run(
      comm, Call{.operation = Operation::allgatherv,
                 .mode = classic::Mode::nonblocking,
                 .form = Form::typed,
                 .send = internal::send_side(send),
                 .recv = internal::with_blocks(internal::recv_side(recv),
                                               recvcounts, displs)});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request allgatherv_init(const classic::Comm& comm,
                                               std::span<S, SE> send,
                                               std::span<R, RE> recv,
                                               std::span<const int> recvcounts,
                                               std::span<const int> displs) {
  return internal::run(
      comm, Call{.operation = Operation::allgatherv,
                 .mode = classic::Mode::persistent,
                 .form = Form::typed,
                 .send = internal::send_side(send),
                 .recv = internal::with_blocks(internal::recv_side(recv),
                                               recvcounts, displs)});
}

// alltoall: send holds one block per process / remote process / out-neighbour.
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void alltoall(const classic::Comm& comm, std::span<S, SE> send,
              std::span<R, RE> recv) {
  (void)internal::run(comm, Call{.operation = Operation::alltoall,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::send_side(send),
                                 .recv = internal::recv_side(recv)});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request ialltoall(const classic::Comm& comm,
                                         std::span<S, SE> send,
                                         std::span<R, RE> recv) {
  return internal::run(comm, Call{.operation = Operation::alltoall,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv)});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request alltoall_init(const classic::Comm& comm,
                                             std::span<S, SE> send,
                                             std::span<R, RE> recv) {
  return internal::run(comm, Call{.operation = Operation::alltoall,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv)});
}

template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void alltoallv(const classic::Comm& comm, std::span<S, SE> send,
               std::span<const int> sendcounts, std::span<const int> sdispls,
               std::span<R, RE> recv, std::span<const int> recvcounts,
               std::span<const int> rdispls) {
  (void)internal::run(
      comm, Call{.operation = Operation::alltoallv,
                 .mode = classic::Mode::blocking,
                 .form = Form::typed,
                 .send = internal::with_blocks(internal::send_side(send),
                                               sendcounts, sdispls),
                 .recv = internal::with_blocks(internal::recv_side(recv),
                                               recvcounts, rdispls)});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request ialltoallv(const classic::Comm& comm,
                                          std::span<S, SE> send,
                                          std::span<const int> sendcounts,
                                          std::span<const int> sdispls,
                                          std::span<R, RE> recv,
                                          std::span<const int> recvcounts,
                                          std::span<const int> rdispls) {
  return internal::run(
      comm, Call{.operation = Operation::alltoallv,
                 .mode = classic::Mode::nonblocking,
                 .form = Form::typed,
                 .send = internal::with_blocks(internal::send_side(send),
                                               sendcounts, sdispls),
                 .recv = internal::with_blocks(internal::recv_side(recv),
                                               recvcounts, rdispls)});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request alltoallv_init(const classic::Comm& comm,
                                              std::span<S, SE> send,
                                              std::span<const int> sendcounts,
                                              std::span<const int> sdispls,
                                              std::span<R, RE> recv,
                                              std::span<const int> recvcounts,
                                              std::span<const int> rdispls) {
  return internal::run(
      comm, Call{.operation = Operation::alltoallv,
                 .mode = classic::Mode::persistent,
                 .form = Form::typed,
                 .send = internal::with_blocks(internal::send_side(send),
                                               sendcounts, sdispls),
                 .recv = internal::with_blocks(internal::recv_side(recv),
                                               recvcounts, rdispls)});
}

template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void reduce(const classic::Comm& comm, std::span<S, SE> send,
            std::span<R, RE> recv, MPI_Op op, int root) {
  (void)internal::run(comm, Call{.operation = Operation::reduce,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::send_side(send),
                                 .recv = internal::recv_side(recv),
                                 .op = op,
                                 .root = root});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request ireduce(const classic::Comm& comm,
                                       std::span<S, SE> send,
                                       std::span<R, RE> recv, MPI_Op op,
                                       int root) {
  return internal::run(comm, Call{.operation = Operation::reduce,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .op = op,
                                  .root = root});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request reduce_init(const classic::Comm& comm,
                                           std::span<S, SE> send,
                                           std::span<R, RE> recv, MPI_Op op,
                                           int root) {
  return internal::run(comm, Call{.operation = Operation::reduce,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .op = op,
                                  .root = root});
}

// reduce: In place at the root.
template <classic::Writable R, std::size_t RE>
void reduce(const classic::Comm& comm, classic::InPlace, std::span<R, RE> recv,
            MPI_Op op, int root) {
  (void)internal::run(comm, Call{.operation = Operation::reduce,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::in_place_side<R>(),
                                 .recv = internal::recv_side(recv),
                                 .op = op,
                                 .root = root});
}
template <classic::Writable R, std::size_t RE>
[[nodiscard]] classic::Request ireduce(const classic::Comm& comm,
                                       classic::InPlace, std::span<R, RE> recv,
                                       MPI_Op op, int root) {
  return internal::run(comm, Call{.operation = Operation::reduce,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::in_place_side<R>(),
                                  .recv = internal::recv_side(recv),
                                  .op = op,
                                  .root = root});
}
template <classic::Writable R, std::size_t RE>
[[nodiscard]] classic::Request reduce_init(const classic::Comm& comm,
                                           classic::InPlace,
                                           std::span<R, RE> recv, MPI_Op op,
                                           int root) {
  return internal::run(comm, Call{.operation = Operation::reduce,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::in_place_side<R>(),
                                  .recv = internal::recv_side(recv),
                                  .op = op,
                                  .root = root});
}

template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void allreduce(const classic::Comm& comm, std::span<S, SE> send,
               std::span<R, RE> recv, MPI_Op op) {
  (void)internal::run(comm, Call{.operation = Operation::allreduce,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::send_side(send),
                                 .recv = internal::recv_side(recv),
                                 .op = op});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request iallreduce(const classic::Comm& comm,
                                          std::span<S, SE> send,
                                          std::span<R, RE> recv, MPI_Op op) {
  return internal::run(comm, Call{.operation = Operation::allreduce,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .op = op});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request allreduce_init(const classic::Comm& comm,
                                              std::span<S, SE> send,
                                              std::span<R, RE> recv,
                                              MPI_Op op) {
  return internal::run(comm, Call{.operation = Operation::allreduce,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .op = op});
}

// allreduce: In place.
template <classic::Writable R, std::size_t RE>
void allreduce(const classic::Comm& comm, classic::InPlace,
               std::span<R, RE> recv, MPI_Op op) {
  (void)internal::run(comm, Call{.operation = Operation::allreduce,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::in_place_side<R>(),
                                 .recv = internal::recv_side(recv),
                                 .op = op});
}
template <classic::Writable R, std::size_t RE>
[[nodiscard]] classic::Request iallreduce(const classic::Comm& comm,
                                          classic::InPlace,
                                          std::span<R, RE> recv, MPI_Op op) {
  return internal::run(comm, Call{.operation = Operation::allreduce,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::in_place_side<R>(),
                                  .recv = internal::recv_side(recv),
                                  .op = op});
}
template <classic::Writable R, std::size_t RE>
[[nodiscard]] classic::Request allreduce_init(const classic::Comm& comm,
                                              classic::InPlace,
                                              std::span<R, RE> recv,
                                              MPI_Op op) {
  return internal::run(comm, Call{.operation = Operation::allreduce,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::in_place_side<R>(),
                                  .recv = internal::recv_side(recv),
                                  .op = op});
}

template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void reduce_scatter(const classic::Comm& comm, std::span<S, SE> send,
                    std::span<R, RE> recv, std::span<const int> recvcounts,
                    MPI_Op op) {
  (void)internal::run(comm, Call{.operation = Operation::reduce_scatter,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::send_side(send),
                                 .recv = internal::with_blocks(
                                     internal::recv_side(recv), recvcounts, {}),
                                 .op = op});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request ireduce_scatter(const classic::Comm& comm,
                                               std::span<S, SE> send,
                                               std::span<R, RE> recv,
                                               std::span<const int> recvcounts,
                                               MPI_Op op) {
  return internal::run(
      comm, Call{.operation = Operation::reduce_scatter,
                 .mode = classic::Mode::nonblocking,
                 .form = Form::typed,
                 .send = internal::send_side(send),
                 .recv = internal::with_blocks(internal::recv_side(recv),
                                               recvcounts, {}),
                 .op = op});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request reduce_scatter_init(
    const classic::Comm& comm, std::span<S, SE> send, std::span<R, RE> recv,
    std::span<const int> recvcounts, MPI_Op op) {
  return internal::run(
      comm, Call{.operation = Operation::reduce_scatter,
                 .mode = classic::Mode::persistent,
                 .form = Form::typed,
                 .send = internal::send_side(send),
                 .recv = internal::with_blocks(internal::recv_side(recv),
                                               recvcounts, {}),
                 .op = op});
}

template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void reduce_scatter_block(const classic::Comm& comm, std::span<S, SE> send,
                          std::span<R, RE> recv, MPI_Op op) {
  (void)internal::run(comm, Call{.operation = Operation::reduce_scatter_block,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::send_side(send),
                                 .recv = internal::recv_side(recv),
                                 .op = op});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request ireduce_scatter_block(const classic::Comm& comm,
                                                     std::span<S, SE> send,
                                                     std::span<R, RE> recv,
                                                     MPI_Op op) {
  return internal::run(comm, Call{.operation = Operation::reduce_scatter_block,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .op = op});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request reduce_scatter_block_init(
    const classic::Comm& comm, std::span<S, SE> send, std::span<R, RE> recv,
    MPI_Op op) {
  return internal::run(comm, Call{.operation = Operation::reduce_scatter_block,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .op = op});
}

template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void scan(const classic::Comm& comm, std::span<S, SE> send,
          std::span<R, RE> recv, MPI_Op op) {
  (void)internal::run(comm, Call{.operation = Operation::scan,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::send_side(send),
                                 .recv = internal::recv_side(recv),
                                 .op = op});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request iscan(const classic::Comm& comm,
                                     std::span<S, SE> send,
                                     std::span<R, RE> recv, MPI_Op op) {
  return internal::run(comm, Call{.operation = Operation::scan,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .op = op});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request scan_init(const classic::Comm& comm,
                                         std::span<S, SE> send,
                                         std::span<R, RE> recv, MPI_Op op) {
  return internal::run(comm, Call{.operation = Operation::scan,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .op = op});
}

template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
void exscan(const classic::Comm& comm, std::span<S, SE> send,
            std::span<R, RE> recv, MPI_Op op) {
  (void)internal::run(comm, Call{.operation = Operation::exscan,
                                 .mode = classic::Mode::blocking,
                                 .form = Form::typed,
                                 .send = internal::send_side(send),
                                 .recv = internal::recv_side(recv),
                                 .op = op});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request iexscan(const classic::Comm& comm,
                                       std::span<S, SE> send,
                                       std::span<R, RE> recv, MPI_Op op) {
  return internal::run(comm, Call{.operation = Operation::exscan,
                                  .mode = classic::Mode::nonblocking,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .op = op});
}
template <classic::Transmittable S, std::size_t SE, classic::Transmittable R,
          std::size_t RE>
requires classic::internal::Matching<S, R>
[[nodiscard]] classic::Request exscan_init(const classic::Comm& comm,
                                           std::span<S, SE> send,
                                           std::span<R, RE> recv, MPI_Op op) {
  return internal::run(comm, Call{.operation = Operation::exscan,
                                  .mode = classic::Mode::persistent,
                                  .form = Form::typed,
                                  .send = internal::send_side(send),
                                  .recv = internal::recv_side(recv),
                                  .op = op});
}

// ---- by value (blocking) ----------------------------------------------------

// allgather: the blocks of every process / remote process / in-neighbour,
// send.size() elements each, in order.
template <classic::Transmittable S, std::size_t SE>
[[nodiscard]] std::vector<std::remove_const_t<S>> allgather(
    const classic::Comm& comm, std::span<S, SE> send) {
  std::vector<std::remove_const_t<S>> recv(
      internal::blocks_received(comm, "ortho::allgather") * send.size());
  ortho::allgather(comm, send, std::span(recv));
  return recv;
}

// alltoall: send holds one block per process / remote process /
// out-neighbour; the result one per process / remote process /
// in-neighbour. ErrorClass::buffer where no block size follows from send
// (no out-neighbours but some in-neighbours: pass a recv span instead).
template <classic::Transmittable S, std::size_t SE>
[[nodiscard]] std::vector<std::remove_const_t<S>> alltoall(
    const classic::Comm& comm, std::span<S, SE> send) {
  const char* function = "ortho::alltoall";
  const std::size_t sent = internal::blocks_sent(comm, function);
  const std::size_t received = internal::blocks_received(comm, function);
  internal::check_block_size(send.size(), sent, received, function);
  std::vector<std::remove_const_t<S>> recv(
      sent == 0 ? 0 : received * (send.size() / sent));
  ortho::alltoall(comm, send, std::span(recv));
  return recv;
}

// gather: at the root, the blocks of every process / remote process /
// in-neighbour, send.size() elements each (the root's send gives the
// size); empty elsewhere.
template <classic::Transmittable S, std::size_t SE>
[[nodiscard]] std::vector<std::remove_const_t<S>> gather(
    const classic::Comm& comm, std::span<S, SE> send, int root) {
  const bool at_root = internal::receives_as_root(comm, root, "ortho::gather");
  std::vector<std::remove_const_t<S>> recv(
      at_root ? internal::blocks_received(comm, "ortho::gather") * send.size()
              : 0);
  ortho::gather(comm, send, std::span(recv), root);
  return recv;
}

// allreduce: send.size() elements.
template <classic::Transmittable S, std::size_t SE>
[[nodiscard]] std::vector<std::remove_const_t<S>> allreduce(
    const classic::Comm& comm, std::span<S, SE> send, MPI_Op op) {
  std::vector<std::remove_const_t<S>> recv(send.size());
  ortho::allreduce(comm, send, std::span(recv), op);
  return recv;
}

}  // namespace ortho

#pragma GCC diagnostic pop

#endif  // ORTHOCOMM_ORTHO_TYPED_COLLECTIVES_H_
