// ortho's reductions with typed buffers (std::span<T>, the datatype
// inferred, counts from the spans): reduce, allreduce, reduce_scatter(_block),
// scan and exscan, in their three modes. Semantics: ortho/collectives.h.
#ifndef ORTHOCOMM_ORTHO_TYPED_REDUCTION_H_
#define ORTHOCOMM_ORTHO_TYPED_REDUCTION_H_

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

}  // namespace ortho

#pragma GCC diagnostic pop

#endif  // ORTHOCOMM_ORTHO_TYPED_REDUCTION_H_
