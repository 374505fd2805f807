// ortho's barrier and rooted collectives: barrier, bcast, gather(v) and
// scatter(v), each one function object per mode, with raw and typed buffers
// (ortho/collectives.h: modes, forms and semantics).
#ifndef ORTHOCOMM_ORTHO_FORMS_ROOTED_H_
#define ORTHOCOMM_ORTHO_FORMS_ROOTED_H_

#include <mpi.h>

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "classic/base/datatype.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/call.h"
#include "ortho/forms_shapes.h"
#include "ortho/typed_call.h"

// The calls below name only the fields they set; GCC 12 warns about
// designated initializers that leave members to their default member
// initializers (-Wmissing-field-initializers), which is what they are for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace ortho {
namespace forms {

// MPI_Barrier; on a directed graph, returns once every in-neighbour has entered
// it.
template <classic::Mode M>
struct Barrier {
  [[nodiscard]] internal::ModeResult<M> operator()(
      const classic::Comm& comm) const {
    return internal::run_in<M>(comm, Call{.operation = Operation::barrier});
  }
};

// MPI_Bcast; on a directed graph, from the root to its out-neighbours.
// Typed: count = buffer.size().
template <classic::Mode M>
struct Bcast {
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   void* buffer, int count,
                                                   MPI_Datatype datatype,
                                                   int root) const {
    return internal::run_in<M>(
        comm,
        Call{.operation = Operation::bcast,
             .recv = {.data = buffer, .count = count, .datatype = datatype},
             .root = root});
  }
  template <classic::RecvBuffer R>
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   R&& buffer, int root) const {
    return internal::run_in<M>(comm,
                               Call{.operation = Operation::bcast,
                                    .form = Form::typed,
                                    .recv = internal::recv_side<R>(buffer),
                                    .root = root});
  }
};

// MPI_Gather; on a directed graph, block i at the root from its in-neighbour i.
// Typed: count = send.size(); the root's recv holds one block per process
// (fully connected), per remote process (bipartite) or per in-neighbour
// (directed graph).
template <classic::Mode M>
struct Gather : RootedBlockEachWay<Operation::gather, M> {
  using RootedBlockEachWay<Operation::gather, M>::operator();
  // In place at the root: its own block is already in recv.
  template <classic::RecvBuffer R>
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   classic::InPlace, R&& recv,
                                                   int root) const {
    return internal::run_in<M>(comm, Call{.operation = Operation::gather,
                                          .form = Form::typed,
                                          .send = internal::in_place_side<R>(),
                                          .recv = internal::recv_side<R>(recv),
                                          .root = root});
  }
  // By value (blocking): at the root, the blocks of every process / remote
  // process / in-neighbour, send.size() elements each (the root's send gives
  // the size); empty elsewhere.
  template <classic::SendBuffer S>
  requires(M == classic::Mode::blocking)
      [[nodiscard]] std::vector<std::ranges::range_value_t<S>>
      operator()(const classic::Comm& comm, S&& send, int root) const {
    const auto send_span = classic::internal::buffer_span<S>(send);
    const bool at_root =
        internal::receives_as_root(comm, root, "ortho::gather");
    std::vector<std::ranges::range_value_t<S>> recv(
        at_root ? internal::blocks_received(comm, "ortho::gather") *
                      send_span.size()
                : 0);
    (*this)(comm, send_span, std::span(recv), root);
    return recv;
  }
};

// MPI_Gatherv (counts and displacements per in-neighbour of the root on a
// directed graph). Typed: counts and displacements in elements.
template <classic::Mode M>
struct Gatherv {
  [[nodiscard]] internal::ModeResult<M> operator()(
      const classic::Comm& comm, const void* send, int send_count,
      MPI_Datatype send_type, void* recv, std::span<const int> recvcounts,
      std::span<const int> displs, MPI_Datatype recv_type, int root) const {
    return internal::run_in<M>(
        comm,
        Call{.operation = Operation::gatherv,
             .send = {.data = send, .count = send_count, .datatype = send_type},
             .recv = {.data = recv,
                      .datatype = recv_type,
                      .counts = recvcounts,
                      .displs = displs},
             .root = root});
  }
  template <classic::SendBuffer S, classic::RecvBuffer R>
  requires classic::internal::SameElements<S, R>
  [[nodiscard]] internal::ModeResult<M> operator()(
      const classic::Comm& comm, S&& send, R&& recv,
      std::span<const int> recvcounts, std::span<const int> displs,
      int root) const {
    return internal::run_in<M>(
        comm, Call{.operation = Operation::gatherv,
                   .form = Form::typed,
                   .send = internal::send_side<S>(send),
                   .recv = internal::with_blocks(internal::recv_side<R>(recv),
                                                 recvcounts, displs),
                   .root = root});
  }
};

// MPI_Scatter; on a directed graph, block i from the root to its out-neighbour
// i. Typed: count = recv.size().
template <classic::Mode M>
struct Scatter : RootedBlockEachWay<Operation::scatter, M> {
  using RootedBlockEachWay<Operation::scatter, M>::operator();
  // In place at the root: its own block stays in send.
  template <classic::SendBuffer S>
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   S&& send, classic::InPlace,
                                                   int root) const {
    return internal::run_in<M>(comm,
                               Call{.operation = Operation::scatter,
                                    .form = Form::typed,
                                    .send = internal::send_side<S>(send),
                                    .recv = internal::in_place_recv_side<S>(),
                                    .root = root});
  }
};

// MPI_Scatterv (counts and displacements per out-neighbour of the root on a
// directed graph). Typed: counts and displacements in elements.
template <classic::Mode M>
struct Scatterv {
  [[nodiscard]] internal::ModeResult<M> operator()(
      const classic::Comm& comm, const void* send,
      std::span<const int> sendcounts, std::span<const int> displs,
      MPI_Datatype send_type, void* recv, int recv_count,
      MPI_Datatype recv_type, int root) const {
    return internal::run_in<M>(
        comm,
        Call{.operation = Operation::scatterv,
             .send = {.data = send,
                      .datatype = send_type,
                      .counts = sendcounts,
                      .displs = displs},
             .recv = {.data = recv, .count = recv_count, .datatype = recv_type},
             .root = root});
  }
  template <classic::SendBuffer S, classic::RecvBuffer R>
  requires classic::internal::SameElements<S, R>
  [[nodiscard]] internal::ModeResult<M> operator()(
      const classic::Comm& comm, S&& send, std::span<const int> sendcounts,
      std::span<const int> displs, R&& recv, int root) const {
    return internal::run_in<M>(
        comm, Call{.operation = Operation::scatterv,
                   .form = Form::typed,
                   .send = internal::with_blocks(internal::send_side<S>(send),
                                                 sendcounts, displs),
                   .recv = internal::recv_side<R>(recv),
                   .root = root});
  }
};

}  // namespace forms

inline constexpr forms::Barrier<classic::Mode::blocking> barrier{};
inline constexpr forms::Barrier<classic::Mode::nonblocking> ibarrier{};
inline constexpr forms::Barrier<classic::Mode::persistent> barrier_init{};

inline constexpr forms::Bcast<classic::Mode::blocking> bcast{};
inline constexpr forms::Bcast<classic::Mode::nonblocking> ibcast{};
inline constexpr forms::Bcast<classic::Mode::persistent> bcast_init{};

inline constexpr forms::Gather<classic::Mode::blocking> gather{};
inline constexpr forms::Gather<classic::Mode::nonblocking> igather{};
inline constexpr forms::Gather<classic::Mode::persistent> gather_init{};

inline constexpr forms::Gatherv<classic::Mode::blocking> gatherv{};
inline constexpr forms::Gatherv<classic::Mode::nonblocking> igatherv{};
inline constexpr forms::Gatherv<classic::Mode::persistent> gatherv_init{};

inline constexpr forms::Scatter<classic::Mode::blocking> scatter{};
inline constexpr forms::Scatter<classic::Mode::nonblocking> iscatter{};
inline constexpr forms::Scatter<classic::Mode::persistent> scatter_init{};

inline constexpr forms::Scatterv<classic::Mode::blocking> scatterv{};
inline constexpr forms::Scatterv<classic::Mode::nonblocking> iscatterv{};
inline constexpr forms::Scatterv<classic::Mode::persistent> scatterv_init{};

}  // namespace ortho

#pragma GCC diagnostic pop

#endif  // ORTHOCOMM_ORTHO_FORMS_ROOTED_H_
