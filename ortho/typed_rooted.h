// ortho's rooted collectives with typed buffers (std::span<T>, the datatype
// inferred, counts from the spans): bcast, gather(v), scatter(v), in their
// three modes. Semantics: ortho/collectives.h.
#ifndef ORTHOCOMM_ORTHO_TYPED_ROOTED_H_
#define ORTHOCOMM_ORTHO_TYPED_ROOTED_H_

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

}  // namespace ortho

#pragma GCC diagnostic pop

#endif  // ORTHOCOMM_ORTHO_TYPED_ROOTED_H_
