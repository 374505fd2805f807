// The argument shapes several of ortho's collectives share, each one class
// template over the operation and the mode whose raw and typed forms build
// the call (the collectives' own templates, ortho/forms_*.h, add what is
// theirs: in place, by value). Semantics: ortho/collectives.h.
#ifndef ORTHOCOMM_ORTHO_FORMS_SHAPES_H_
#define ORTHOCOMM_ORTHO_FORMS_SHAPES_H_

#include <mpi.h>

#include <cstddef>
#include <span>

#include "classic/base/datatype.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "ortho/call.h"
#include "ortho/operation.h"
#include "ortho/reverse.h"
#include "ortho/typed_call.h"

// The calls below name only the fields they set; GCC 12 warns about
// designated initializers that leave members to their default member
// initializers (-Wmissing-field-initializers), which is what they are for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace ortho::forms {

// One block each way: (send, send_count, send_type, recv, recv_count,
// recv_type) raw, (send, recv) typed; allgather and alltoall (which also
// run on a graph's reverse).
template <Operation Op, classic::Mode M>
struct BlockEachWay {
  [[nodiscard]] internal::ModeResult<M> operator()(
      const ExchangeComm& comm, const void* send, int send_count,
      MPI_Datatype send_type, void* recv, int recv_count,
      MPI_Datatype recv_type) const {
    return internal::run_in<M>(
        comm,
        Call{.operation = Op,
             .send = {.data = send, .count = send_count, .datatype = send_type},
             .recv = {
                 .data = recv, .count = recv_count, .datatype = recv_type}});
  }
  template <classic::SendBuffer S, classic::RecvBuffer R>
  requires classic::internal::SameElements<S, R>
  [[nodiscard]] internal::ModeResult<M> operator()(const ExchangeComm& comm,
                                                   S&& send, R&& recv) const {
    return internal::run_in<M>(comm,
                               Call{.operation = Op,
                                    .form = Form::typed,
                                    .send = internal::send_side<S>(send),
                                    .recv = internal::recv_side<R>(recv)});
  }
};

// The same with a root: gather and scatter.
template <Operation Op, classic::Mode M>
struct RootedBlockEachWay {
  [[nodiscard]] internal::ModeResult<M> operator()(
      const classic::Comm& comm, const void* send, int send_count,
      MPI_Datatype send_type, void* recv, int recv_count,
      MPI_Datatype recv_type, int root) const {
    return internal::run_in<M>(
        comm,
        Call{.operation = Op,
             .send = {.data = send, .count = send_count, .datatype = send_type},
             .recv = {.data = recv, .count = recv_count, .datatype = recv_type},
             .root = root});
  }
  template <classic::SendBuffer S, classic::RecvBuffer R>
  requires classic::internal::SameElements<S, R>
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   S&& send, R&& recv,
                                                   int root) const {
    return internal::run_in<M>(comm, Call{.operation = Op,
                                          .form = Form::typed,
                                          .send = internal::send_side<S>(send),
                                          .recv = internal::recv_side<R>(recv),
                                          .root = root});
  }
};

// Element by element under an op: (send, recv, count, datatype, op) raw,
// (send, recv, op) typed; allreduce, scan and exscan.
template <Operation Op, classic::Mode M>
struct Elementwise {
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   const void* send, void* recv,
                                                   int count,
                                                   MPI_Datatype datatype,
                                                   MPI_Op op) const {
    return internal::run_in<M>(
        comm, Call{.operation = Op,
                   .send = {.data = send, .count = count, .datatype = datatype},
                   .recv = {.data = recv, .count = count, .datatype = datatype},
                   .op = op});
  }
  template <classic::SendBuffer S, classic::RecvBuffer R>
  requires classic::internal::SameElements<S, R>
  [[nodiscard]] internal::ModeResult<M> operator()(const classic::Comm& comm,
                                                   S&& send, R&& recv,
                                                   MPI_Op op) const {
    return internal::run_in<M>(comm, Call{.operation = Op,
                                          .form = Form::typed,
                                          .send = internal::send_side<S>(send),
                                          .recv = internal::recv_side<R>(recv),
                                          .op = op});
  }
};

}  // namespace ortho::forms

#pragma GCC diagnostic pop

#endif  // ORTHOCOMM_ORTHO_FORMS_SHAPES_H_
