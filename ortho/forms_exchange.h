// ortho's exchanges: allgather(v, w) and alltoall(v, w), each one function
// object per mode, with raw and typed buffers (ortho/collectives.h: modes,
// forms and semantics). Each takes a communicator or, on a directed graph,
// its reverse (ortho/reverse.h).
#ifndef ORTHOCOMM_ORTHO_FORMS_EXCHANGE_H_
#define ORTHOCOMM_ORTHO_FORMS_EXCHANGE_H_

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
#include "ortho/reverse.h"
#include "ortho/typed_call.h"

// The calls below name only the fields they set; GCC 12 warns about
// designated initializers that leave members to their default member
// initializers (-Wmissing-field-initializers), which is what they are for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace ortho {
namespace forms {

// MPI_Allgather; on a directed graph, MPI_Neighbor_allgather. Typed: count =
// send.size(); recv holds one block per process / remote process /
// in-neighbour.
template <classic::Mode M>
struct Allgather : BlockEachWay<Operation::allgather, M> {
  using BlockEachWay<Operation::allgather, M>::operator();
  // By value (blocking): the blocks of every process / remote process /
  // in-neighbour, send.size() elements each, in order.
  template <classic::SendBuffer S>
  requires(M == classic::Mode::blocking)
      [[nodiscard]] std::vector<std::ranges::range_value_t<S>>
      operator()(const ExchangeComm& comm, S&& send) const {
    const auto send_span = classic::internal::buffer_span<S>(send);
    std::vector<std::ranges::range_value_t<S>> recv(
        internal::blocks_received(comm.comm(), "ortho::allgather",
                                  comm.reverse()) *
        send_span.size());
    (*this)(comm, send_span, std::span(recv));
    return recv;
  }
};

// MPI_Allgatherv; on a directed graph, MPI_Neighbor_allgatherv. Typed: counts
// and displacements in elements.
template <classic::Mode M>
struct Allgatherv {
  [[nodiscard]] internal::ModeResult<M> operator()(
      const ExchangeComm& comm, const void* send, int send_count,
      MPI_Datatype send_type, void* recv, std::span<const int> recvcounts,
      std::span<const int> displs, MPI_Datatype recv_type) const {
    return internal::run_in<M>(
        comm,
        Call{.operation = Operation::allgatherv,
             .send = {.data = send, .count = send_count, .datatype = send_type},
             .recv = {.data = recv,
                      .datatype = recv_type,
                      .counts = recvcounts,
                      .displs = displs}});
  }
  template <classic::SendBuffer S, classic::RecvBuffer R>
  requires classic::internal::SameElements<S, R>
  [[nodiscard]] internal::ModeResult<M> operator()(
      const ExchangeComm& comm, S&& send, R&& recv,
      std::span<const int> recvcounts, std::span<const int> displs) const {
    return internal::run_in<M>(
        comm, Call{.operation = Operation::allgatherv,
                   .form = Form::typed,
                   .send = internal::send_side<S>(send),
                   .recv = internal::with_blocks(internal::recv_side<R>(recv),
                                                 recvcounts, displs)});
  }
};

// Directed graphs only (no MPI has it): the send block to every out-neighbour;
// the block from in-neighbour i lands at recv + rdispls[i] bytes as
// recvcounts[i] elements of recv_types[i]. Raw buffers only.
template <classic::Mode M>
struct Allgatherw {
  [[nodiscard]] internal::ModeResult<M> operator()(
      const ExchangeComm& comm, const void* send, int send_count,
      MPI_Datatype send_type, void* recv, std::span<const int> recvcounts,
      std::span<const MPI_Aint> rdispls,
      std::span<const MPI_Datatype> recv_types) const {
    return internal::run_in<M>(
        comm,
        Call{.operation = Operation::allgatherw,
             .send = {.data = send, .count = send_count, .datatype = send_type},
             .recv = {.data = recv,
                      .counts = recvcounts,
                      .byte_displs = rdispls,
                      .datatypes = recv_types}});
  }
};

// MPI_Alltoall; on a directed graph, MPI_Neighbor_alltoall. Typed: send holds
// one block per process / remote process / out-neighbour.
template <classic::Mode M>
struct Alltoall : BlockEachWay<Operation::alltoall, M> {
  using BlockEachWay<Operation::alltoall, M>::operator();
  // By value (blocking): send holds one block per process / remote process /
  // out-neighbour; the result one per process / remote process /
  // in-neighbour. ErrorClass::buffer where no block size follows from send
  // (no out-neighbours but some in-neighbours: pass a recv span instead).
  template <classic::SendBuffer S>
  requires(M == classic::Mode::blocking)
      [[nodiscard]] std::vector<std::ranges::range_value_t<S>>
      operator()(const ExchangeComm& comm, S&& send) const {
    const auto send_span = classic::internal::buffer_span<S>(send);
    const char* function = "ortho::alltoall";
    const std::size_t sent =
        internal::blocks_sent(comm.comm(), function, comm.reverse());
    const std::size_t received =
        internal::blocks_received(comm.comm(), function, comm.reverse());
    internal::check_block_size(send_span.size(), sent, received, function);
    std::vector<std::ranges::range_value_t<S>> recv(
        sent == 0 ? 0 : received * (send_span.size() / sent));
    (*this)(comm, send_span, std::span(recv));
    return recv;
  }
};

// MPI_Alltoallv; on a directed graph, MPI_Neighbor_alltoallv. Typed: counts
// and displacements in elements.
template <classic::Mode M>
struct Alltoallv {
  [[nodiscard]] internal::ModeResult<M> operator()(
      const ExchangeComm& comm, const void* send,
      std::span<const int> sendcounts, std::span<const int> sdispls,
      MPI_Datatype send_type, void* recv, std::span<const int> recvcounts,
      std::span<const int> rdispls, MPI_Datatype recv_type) const {
    return internal::run_in<M>(comm, Call{.operation = Operation::alltoallv,
                                          .send = {.data = send,
                                                   .datatype = send_type,
                                                   .counts = sendcounts,
                                                   .displs = sdispls},
                                          .recv = {.data = recv,
                                                   .datatype = recv_type,
                                                   .counts = recvcounts,
                                                   .displs = rdispls}});
  }
  template <classic::SendBuffer S, classic::RecvBuffer R>
  requires classic::internal::SameElements<S, R>
  [[nodiscard]] internal::ModeResult<M> operator()(
      const ExchangeComm& comm, S&& send, std::span<const int> sendcounts,
      std::span<const int> sdispls, R&& recv, std::span<const int> recvcounts,
      std::span<const int> rdispls) const {
    return internal::run_in<M>(
        comm, Call{.operation = Operation::alltoallv,
                   .form = Form::typed,
                   .send = internal::with_blocks(internal::send_side<S>(send),
                                                 sendcounts, sdispls),
                   .recv = internal::with_blocks(internal::recv_side<R>(recv),
                                                 recvcounts, rdispls)});
  }
};

// MPI_Alltoallw with byte displacements of MPI_Aint (as MPI_Neighbor_alltoallw
// and MPI-4's MPI_Alltoallw_c; on fully connected and bipartite communicators
// they must fit an int); on a directed graph, MPI_Neighbor_alltoallw. Raw
// buffers only.
template <classic::Mode M>
struct Alltoallw {
  [[nodiscard]] internal::ModeResult<M> operator()(
      const ExchangeComm& comm, const void* send,
      std::span<const int> sendcounts, std::span<const MPI_Aint> sdispls,
      std::span<const MPI_Datatype> send_types, void* recv,
      std::span<const int> recvcounts, std::span<const MPI_Aint> rdispls,
      std::span<const MPI_Datatype> recv_types) const {
    return internal::run_in<M>(comm, Call{.operation = Operation::alltoallw,
                                          .send = {.data = send,
                                                   .counts = sendcounts,
                                                   .byte_displs = sdispls,
                                                   .datatypes = send_types},
                                          .recv = {.data = recv,
                                                   .counts = recvcounts,
                                                   .byte_displs = rdispls,
                                                   .datatypes = recv_types}});
  }
};

}  // namespace forms

inline constexpr forms::Allgather<classic::Mode::blocking> allgather{};
inline constexpr forms::Allgather<classic::Mode::nonblocking> iallgather{};
inline constexpr forms::Allgather<classic::Mode::persistent> allgather_init{};

inline constexpr forms::Allgatherv<classic::Mode::blocking> allgatherv{};
inline constexpr forms::Allgatherv<classic::Mode::nonblocking> iallgatherv{};
inline constexpr forms::Allgatherv<classic::Mode::persistent> allgatherv_init{};

inline constexpr forms::Allgatherw<classic::Mode::blocking> allgatherw{};
inline constexpr forms::Allgatherw<classic::Mode::nonblocking> iallgatherw{};
inline constexpr forms::Allgatherw<classic::Mode::persistent> allgatherw_init{};

inline constexpr forms::Alltoall<classic::Mode::blocking> alltoall{};
inline constexpr forms::Alltoall<classic::Mode::nonblocking> ialltoall{};
inline constexpr forms::Alltoall<classic::Mode::persistent> alltoall_init{};

inline constexpr forms::Alltoallv<classic::Mode::blocking> alltoallv{};
inline constexpr forms::Alltoallv<classic::Mode::nonblocking> ialltoallv{};
inline constexpr forms::Alltoallv<classic::Mode::persistent> alltoallv_init{};

inline constexpr forms::Alltoallw<classic::Mode::blocking> alltoallw{};
inline constexpr forms::Alltoallw<classic::Mode::nonblocking> ialltoallw{};
inline constexpr forms::Alltoallw<classic::Mode::persistent> alltoallw_init{};

}  // namespace ortho

#pragma GCC diagnostic pop

#endif  // ORTHOCOMM_ORTHO_FORMS_EXCHANGE_H_
