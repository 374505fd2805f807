// ortho's reductions: reduce, allreduce, reduce_scatter(_block), scan and
// exscan, each one function object per mode, with raw and typed buffers
// (ortho/collectives.h: modes, forms and semantics).
#ifndef ORTHOCOMM_ORTHO_FORMS_REDUCTION_H_
#define ORTHOCOMM_ORTHO_FORMS_REDUCTION_H_

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

// MPI_Reduce; on a directed graph, over the root's in-neighbours in order.
template <classic::Mode M>
struct Reduce {
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   const void* send, void* recv,
                                                   int count,
                                                   MPI_Datatype datatype,
                                                   MPI_Op op, int root) const {
    return internal::run_in<M>(
        comm, Call{.operation = Operation::reduce,
                   .send = {.data = send, .count = count, .datatype = datatype},
                   .recv = {.data = recv, .count = count, .datatype = datatype},
                   .op = op,
                   .root = root});
  }
  template <classic::SendBuffer S, classic::RecvBuffer R>
  requires classic::internal::SameElements<S, R>
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   S&& send, R&& recv,
                                                   MPI_Op op, int root) const {
    return internal::run_in<M>(comm, Call{.operation = Operation::reduce,
                                          .form = Form::typed,
                                          .send = internal::send_side<S>(send),
                                          .recv = internal::recv_side<R>(recv),
                                          .op = op,
                                          .root = root});
  }
  // In place at the root.
  template <classic::RecvBuffer R>
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   classic::InPlace, R&& recv,
                                                   MPI_Op op, int root) const {
    return internal::run_in<M>(comm, Call{.operation = Operation::reduce,
                                          .form = Form::typed,
                                          .send = internal::in_place_side<R>(),
                                          .recv = internal::recv_side<R>(recv),
                                          .op = op,
                                          .root = root});
  }
};

// MPI_Allreduce; on a directed graph, each process reduces over its
// in-neighbours in order.
template <classic::Mode M>
struct Allreduce : Elementwise<Operation::allreduce, M> {
  using Elementwise<Operation::allreduce, M>::operator();
  // In place.
  template <classic::RecvBuffer R>
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   classic::InPlace, R&& recv,
                                                   MPI_Op op) const {
    return internal::run_in<M>(comm, Call{.operation = Operation::allreduce,
                                          .form = Form::typed,
                                          .send = internal::in_place_side<R>(),
                                          .recv = internal::recv_side<R>(recv),
                                          .op = op});
  }
  // By value (blocking): send.size() elements.
  template <classic::SendBuffer S>
  requires(M == classic::Mode::blocking)
      [[nodiscard]] std::vector<std::ranges::range_value_t<S>>
      operator()(const classic::Comm& comm, S&& send, MPI_Op op) const {
    const auto send_span = classic::internal::buffer_span<S>(send);
    std::vector<std::ranges::range_value_t<S>> recv(send_span.size());
    (*this)(comm, send_span, std::span(recv), op);
    return recv;
  }
};

// MPI_Reduce_scatter (not on directed graphs).
template <classic::Mode M>
struct ReduceScatter {
  [[nodiscard]] internal::ModeResult<M> operator()(
      const classic::Comm& comm, const void* send, void* recv,
      std::span<const int> recvcounts, MPI_Datatype datatype, MPI_Op op) const {
    return internal::run_in<M>(
        comm,
        Call{.operation = Operation::reduce_scatter,
             .send = {.data = send, .datatype = datatype},
             .recv = {.data = recv, .datatype = datatype, .counts = recvcounts},
             .op = op});
  }
  template <classic::SendBuffer S, classic::RecvBuffer R>
  requires classic::internal::SameElements<S, R>
  [[nodiscard]] internal::ModeResult<M> operator()(
      const classic::Comm& comm, S&& send, R&& recv,
      std::span<const int> recvcounts, MPI_Op op) const {
    return internal::run_in<M>(
        comm, Call{.operation = Operation::reduce_scatter,
                   .form = Form::typed,
                   .send = internal::send_side<S>(send),
                   .recv = internal::with_blocks(internal::recv_side<R>(recv),
                                                 recvcounts, {}),
                   .op = op});
  }
};

// MPI_Reduce_scatter_block (not on directed graphs).
template <classic::Mode M>
struct ReduceScatterBlock {
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   const void* send, void* recv,
                                                   int recv_count,
                                                   MPI_Datatype datatype,
                                                   MPI_Op op) const {
    return internal::run_in<M>(
        comm,
        Call{.operation = Operation::reduce_scatter_block,
             .send = {.data = send, .datatype = datatype},
             .recv = {.data = recv, .count = recv_count, .datatype = datatype},
             .op = op});
  }
  template <classic::SendBuffer S, classic::RecvBuffer R>
  requires classic::internal::SameElements<S, R>
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   S&& send, R&& recv,
                                                   MPI_Op op) const {
    return internal::run_in<M>(
        comm, Call{.operation = Operation::reduce_scatter_block,
                   .form = Form::typed,
                   .send = internal::send_side<S>(send),
                   .recv = internal::recv_side<R>(recv),
                   .op = op});
  }
};

// MPI_Scan (fully connected only).
template <classic::Mode M>
using Scan = Elementwise<Operation::scan, M>;

// MPI_Exscan (fully connected only).
template <classic::Mode M>
using Exscan = Elementwise<Operation::exscan, M>;

}  // namespace forms

inline constexpr forms::Reduce<classic::Mode::blocking> reduce{};
inline constexpr forms::Reduce<classic::Mode::nonblocking> ireduce{};
inline constexpr forms::Reduce<classic::Mode::persistent> reduce_init{};

inline constexpr forms::Allreduce<classic::Mode::blocking> allreduce{};
inline constexpr forms::Allreduce<classic::Mode::nonblocking> iallreduce{};
inline constexpr forms::Allreduce<classic::Mode::persistent> allreduce_init{};

inline constexpr forms::ReduceScatter<classic::Mode::blocking> reduce_scatter{};
inline constexpr forms::ReduceScatter<classic::Mode::nonblocking>
    ireduce_scatter{};
inline constexpr forms::ReduceScatter<classic::Mode::persistent>
    reduce_scatter_init{};

inline constexpr forms::ReduceScatterBlock<classic::Mode::blocking>
    reduce_scatter_block{};
inline constexpr forms::ReduceScatterBlock<classic::Mode::nonblocking>
    ireduce_scatter_block{};
inline constexpr forms::ReduceScatterBlock<classic::Mode::persistent>
    reduce_scatter_block_init{};

inline constexpr forms::Scan<classic::Mode::blocking> scan{};
inline constexpr forms::Scan<classic::Mode::nonblocking> iscan{};
inline constexpr forms::Scan<classic::Mode::persistent> scan_init{};

inline constexpr forms::Exscan<classic::Mode::blocking> exscan{};
inline constexpr forms::Exscan<classic::Mode::nonblocking> iexscan{};
inline constexpr forms::Exscan<classic::Mode::persistent> exscan_init{};

}  // namespace ortho

#pragma GCC diagnostic pop

#endif  // ORTHOCOMM_ORTHO_FORMS_REDUCTION_H_
