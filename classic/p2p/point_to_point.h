// Point-to-point communication on classic communicators (MPI-1 chapter 3):
// send, recv, isend, irecv, sendrecv(_replace), probe, iprobe. Completion
// (wait, test, ...) is in classic/p2p/request.h.
#ifndef ORTHOCOMM_CLASSIC_P2P_POINT_TO_POINT_H_
#define ORTHOCOMM_CLASSIC_P2P_POINT_TO_POINT_H_

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <optional>
#include <span>
#include <type_traits>

#include "classic/base/datatype.h"
#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "classic/p2p/status.h"

namespace classic {

// Ranks (dest, source) name the peers of `comm`: the members of its group
// for an intra-communicator, of its remote group for an inter-communicator;
// statuses name the source the same way. dest may be proc_null, source may
// be proc_null or any_source, a receive's tag may be any_tag: operations
// with proc_null complete at once (a receive with the status source
// proc_null, tag any_tag, no data). Messages between two processes on one
// communicator do not overtake each other; messages on different
// communicators (a comm and its dup) never match.
//
// Every buffer comes in two forms: a typed one, any contiguous range of T
// (std::vector, std::array, std::span, a C array; classic::SendBuffer)
// whose datatype is datatype_of<T>(), and a raw (buffer, count, datatype) for
// derived datatypes (which the caller creates, commits and frees on the
// transport).
//
// Errors (classic::Error), checked before anything is sent:
//   ErrorClass::comm      a null, freed or finalised communicator.
//   ErrorClass::rank      dest outside [0, peers) and not proc_null; source
//                         outside [0, peers) and neither proc_null nor
//                         any_source.
//   ErrorClass::tag       a send tag outside [0, MPI_TAG_UB of the
//                         transport]; a receive tag likewise unless any_tag.
//   ErrorClass::count     a negative count (or a span longer than INT_MAX).
//   ErrorClass::datatype  MPI_DATATYPE_NULL (or one the transport rejects).
//   ErrorClass::truncate  a received message longer than the buffer (the
//                         message is consumed; the buffer holds its start).

// The largest tag the transport allows (its MPI_TAG_UB attribute).
int tag_ub();

// ---- raw buffers ------------------------------------------------------------

// MPI_Send (standard mode).
void send(const Comm& comm, const void* buffer, int count,
          MPI_Datatype datatype, int dest, int tag);
// MPI_Recv.
Status recv(const Comm& comm, void* buffer, int count, MPI_Datatype datatype,
            int source, int tag);
// MPI_Isend and MPI_Irecv: the buffer must stay valid, and a send buffer
// unchanged, until the request completes.
[[nodiscard]] Request isend(const Comm& comm, const void* buffer, int count,
                            MPI_Datatype datatype, int dest, int tag);
[[nodiscard]] Request irecv(const Comm& comm, void* buffer, int count,
                            MPI_Datatype datatype, int source, int tag);
// MPI_Sendrecv: the buffers must not overlap.
Status sendrecv(const Comm& comm, const void* send_buffer, int send_count,
                MPI_Datatype send_datatype, int dest, int send_tag,
                void* recv_buffer, int recv_count, MPI_Datatype recv_datatype,
                int source, int recv_tag);
// MPI_Sendrecv_replace: sends the buffer, then receives into it.
Status sendrecv_replace(const Comm& comm, void* buffer, int count,
                        MPI_Datatype datatype, int dest, int send_tag,
                        int source, int recv_tag);

// ---- probes -----------------------------------------------------------------

// MPI_Probe: blocks until a matching message can be received and describes
// it (without receiving it).
Status probe(const Comm& comm, int source, int tag);
// MPI_Iprobe: the status of a matching message if one is there now.
std::optional<Status> iprobe(const Comm& comm, int source, int tag);

// ---- typed buffers ----------------------------------------------------------

namespace internal {
[[noreturn]] void raise_too_long(std::size_t size, const char* function);
inline int element_count(std::size_t size, const char* function) {
  if (size > static_cast<std::size_t>(INT_MAX)) [[unlikely]] {
    raise_too_long(size, function);
  }
  return static_cast<int>(size);
}
}  // namespace internal

// The typed forms: any contiguous range of transmittable elements
// (std::vector, std::array, std::span, a C array) with its datatype from the
// element type.
template <SendBuffer T>
void send(const Comm& comm, T&& buffer, int dest, int tag) {
  const auto span = internal::buffer_span<T>(buffer);
  send(comm, span.data(), internal::element_count(span.size(), "classic::send"),
       datatype_of<BufferElement<T>>(), dest, tag);
}

template <RecvBuffer T>
Status recv(const Comm& comm, T&& buffer, int source, int tag) {
  const auto span = internal::buffer_span<T>(buffer);
  return recv(comm, span.data(),
              internal::element_count(span.size(), "classic::recv"),
              datatype_of<BufferElement<T>>(), source, tag);
}

template <SendBuffer T>
[[nodiscard]] Request isend(const Comm& comm, T&& buffer, int dest, int tag) {
  const auto span = internal::buffer_span<T>(buffer);
  return isend(comm, span.data(),
               internal::element_count(span.size(), "classic::isend"),
               datatype_of<BufferElement<T>>(), dest, tag);
}

template <RecvBuffer T>
[[nodiscard]] Request irecv(const Comm& comm, T&& buffer, int source, int tag) {
  const auto span = internal::buffer_span<T>(buffer);
  return irecv(comm, span.data(),
               internal::element_count(span.size(), "classic::irecv"),
               datatype_of<BufferElement<T>>(), source, tag);
}

template <SendBuffer T, RecvBuffer U>
Status sendrecv(const Comm& comm, T&& send_buffer, int dest, int send_tag,
                U&& recv_buffer, int source, int recv_tag) {
  const auto send_span = internal::buffer_span<T>(send_buffer);
  const auto recv_span = internal::buffer_span<U>(recv_buffer);
  return sendrecv(
      comm, send_span.data(),
      internal::element_count(send_span.size(), "classic::sendrecv"),
      datatype_of<BufferElement<T>>(), dest, send_tag, recv_span.data(),
      internal::element_count(recv_span.size(), "classic::sendrecv"),
      datatype_of<BufferElement<U>>(), source, recv_tag);
}

template <RecvBuffer T>
Status sendrecv_replace(const Comm& comm, T&& buffer, int dest, int send_tag,
                        int source, int recv_tag) {
  const auto span = internal::buffer_span<T>(buffer);
  return sendrecv_replace(
      comm, span.data(),
      internal::element_count(span.size(), "classic::sendrecv_replace"),
      datatype_of<BufferElement<T>>(), dest, send_tag, source, recv_tag);
}

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_P2P_POINT_TO_POINT_H_
