// The collectives' shared pieces: ortho's one entry point (internal::run),
// run_in, which runs a call in the mode of the function object that made it,
// and how a typed buffer becomes one side of a Call. Included by the
// collectives' headers (forms_rooted.h, forms_exchange.h,
// forms_reduction.h).
#ifndef ORTHOCOMM_ORTHO_TYPED_CALL_H_
#define ORTHOCOMM_ORTHO_TYPED_CALL_H_

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
#include "ortho/reverse.h"

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

// What a collective returns in mode M: nothing when it blocks, its request
// otherwise (pending for nonblocking, inactive for persistent).
template <classic::Mode M>
using ModeResult =
    std::conditional_t<M == classic::Mode::blocking, void, classic::Request>;

// Runs `call` in mode M: the one body of every collective's three modes,
// on the caller's Call by reference (a Call is some 250 bytes; the two
// run_in below take theirs built in place and copy it no further).
template <classic::Mode M>
ModeResult<M> run_mode(const classic::Comm& comm, Call& call) {
  call.mode = M;
  if constexpr (M == classic::Mode::blocking) {
    (void)run(comm, call);
  } else {
    return run(comm, call);
  }
}

template <classic::Mode M>
ModeResult<M> run_in(const classic::Comm& comm, Call call) {
  return run_mode<M>(comm, call);
}

// The same for the exchanges, which also run on a graph's reverse.
template <classic::Mode M>
ModeResult<M> run_in(const ExchangeComm& target, Call call) {
  call.reverse = target.reverse();
  return run_mode<M>(target.comm(), call);
}

// How many blocks a process receives / sends in allgather and alltoall on
// comm (its size, its remote size or its in- / out-degree; on the graph's
// reverse where `reverse`, the out- / in-degree).
std::size_t blocks_received(const classic::Comm& comm, const char* function,
                            bool reverse = false);
std::size_t blocks_sent(const classic::Comm& comm, const char* function,
                        bool reverse = false);
// Whether the caller receives in a rooted collective with this root (it is
// the root; on an inter-communicator, it passed classic::mpi_root).
bool receives_as_root(const classic::Comm& comm, int root,
                      const char* function);
// alltoall by value: ErrorClass::buffer unless `elements` splits into
// `sent` blocks, or there is nothing to receive.
void check_block_size(std::size_t elements, std::size_t sent,
                      std::size_t received, const char* function);

// One side of a typed call from the buffer it took as `B&&` (B as
// deduced: classic::SendBuffer, RecvBuffer).
template <class B>
SendSide send_side(std::remove_reference_t<B>& buffer) {
  const auto span = classic::internal::buffer_span<B>(buffer);
  return {.data = span.data(),
          .datatype = classic::datatype_of<classic::BufferElement<B>>(),
          .elements = span.size(),
          .element_bytes = sizeof(classic::BufferElement<B>)};
}
template <class B>
RecvSide recv_side(std::remove_reference_t<B>& buffer) {
  const auto span = classic::internal::buffer_span<B>(buffer);
  return {.data = span.data(),
          .datatype = classic::datatype_of<classic::BufferElement<B>>(),
          .elements = span.size(),
          .element_bytes = sizeof(classic::BufferElement<B>)};
}
// MPI_IN_PLACE on one side, with the element type of the buffer type B.
template <class B>
SendSide in_place_side() {
  return {.data = MPI_IN_PLACE,
          .datatype = classic::datatype_of<classic::BufferElement<B>>(),
          .element_bytes = sizeof(classic::BufferElement<B>)};
}
template <class B>
RecvSide in_place_recv_side() {
  return {.data = MPI_IN_PLACE,
          .datatype = classic::datatype_of<classic::BufferElement<B>>(),
          .element_bytes = sizeof(classic::BufferElement<B>)};
}
template <class Pointer>
Side<Pointer> with_blocks(Side<Pointer> side, std::span<const int> counts,
                          std::span<const int> displs) {
  side.counts = counts;
  side.displs = displs;
  return side;
}

}  // namespace internal

}  // namespace ortho

#pragma GCC diagnostic pop

#endif  // ORTHOCOMM_ORTHO_TYPED_CALL_H_
