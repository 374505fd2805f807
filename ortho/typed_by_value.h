// ortho's blocking collectives that return the received data by value
// (allgather, alltoall, gather, allreduce on typed spans). Semantics:
// ortho/collectives.h.
#ifndef ORTHOCOMM_ORTHO_TYPED_BY_VALUE_H_
#define ORTHOCOMM_ORTHO_TYPED_BY_VALUE_H_

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "classic/base/datatype.h"
#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "ortho/call.h"
#include "ortho/typed_call.h"
#include "ortho/typed_exchange.h"
#include "ortho/typed_reduction.h"
#include "ortho/typed_rooted.h"

// The calls below name only the fields they set; GCC 12 warns about
// designated initializers that leave members to their default member
// initializers (-Wmissing-field-initializers), which is what they are for.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace ortho {

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

#endif  // ORTHOCOMM_ORTHO_TYPED_BY_VALUE_H_
