// ortho's exchanges with typed buffers (std::span<T>, the datatype
// inferred, counts from the spans): allgather(v) and alltoall(v), in their
// three modes. Semantics: ortho/collectives.h.
#ifndef ORTHOCOMM_ORTHO_TYPED_EXCHANGE_H_
#define ORTHOCOMM_ORTHO_TYPED_EXCHANGE_H_

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "classic/base/datatype.h"
#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "ortho/call.h"
#include "ortho/typed_call.h"

// The calls below name only the fields they set; GCC 12 warns about
// designated initializers that leave members to their default member
// initializers (-Wmissing-field-initializers), which is what they are for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace ortho {

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

}  // namespace ortho

#pragma GCC diagnostic pop

#endif  // ORTHOCOMM_ORTHO_TYPED_EXCHANGE_H_
