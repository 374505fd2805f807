#include "classic/p2p/point_to_point.h"

#include <cstddef>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/base/internal/transport.h"
#include "classic/base/internal/transport_error.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/p2p/internal/restriction.h"

namespace classic {
namespace {

int query_tag_ub() {
  int* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
  // MPI guarantees at least 32767.
  return found != 0 && value != nullptr ? *value : 32767;
}

// ---- the rejections (cold: kept out of the checks, so those inline)
// -----------

std::string range_text(int peers) {
  return "outside [0, " + std::to_string(peers) + ")";
}

[[noreturn, gnu::cold, gnu::noinline]] void raise_dest(int dest, int peers,
                                                       const char* function) {
  throw Error(ErrorClass::rank, function,
              "dest = " + std::to_string(dest) + " is " + range_text(peers) +
                  " and not classic::proc_null");
}

[[noreturn, gnu::cold, gnu::noinline]] void raise_source(int source, int peers,
                                                         const char* function) {
  throw Error(ErrorClass::rank, function,
              "source = " + std::to_string(source) + " is " +
                  range_text(peers) +
                  " and neither classic::proc_null nor classic::any_source");
}

[[noreturn, gnu::cold, gnu::noinline]] void raise_tag(int tag,
                                                      const char* argument,
                                                      const char* function,
                                                      const char* also) {
  throw Error(ErrorClass::tag, function,
              std::string(argument) + " = " + std::to_string(tag) +
                  " is outside [0, " + std::to_string(tag_ub()) +
                  "] (MPI_TAG_UB)" + also);
}

// A negative count, else a null datatype.
[[noreturn, gnu::cold, gnu::noinline]] void raise_buffer(
    int count, const char* count_name, const char* datatype_name,
    const char* function) {
  if (count < 0) {
    throw Error(ErrorClass::count, function,
                std::string(count_name) + " = " + std::to_string(count) +
                    " is negative");
  }
  throw Error(ErrorClass::datatype, function,
              std::string(datatype_name) + " is MPI_DATATYPE_NULL");
}

// ---- argument checks: classic's values to the transport's -------------------

int transport_dest(const Comm::State& state, int dest, const char* function) {
  if (dest == proc_null) return MPI_PROC_NULL;
  const int peers = state.peer_count();
  if (dest < 0 || dest >= peers) [[unlikely]] {
    raise_dest(dest, peers, function);
  }
  if (state.restriction != nullptr) [[unlikely]] {
    internal::check_send_peer(state, dest, function);
  }
  return state.peer_to_transport(dest);
}

int transport_source(const Comm::State& state, int source,
                     const char* function) {
  if (source == any_source) return MPI_ANY_SOURCE;
  if (source == proc_null) return MPI_PROC_NULL;
  const int peers = state.peer_count();
  if (source < 0 || source >= peers) [[unlikely]] {
    raise_source(source, peers, function);
  }
  if (state.restriction != nullptr) [[unlikely]] {
    internal::check_receive_peer(state, source, function);
  }
  return state.peer_to_transport(source);
}

int transport_send_tag(int tag, const char* function,
                       const char* argument = "tag") {
  if (tag < 0 || tag > tag_ub()) [[unlikely]] {
    raise_tag(tag, argument, function, "");
  }
  return tag;
}

int transport_recv_tag(int tag, const char* function,
                       const char* argument = "tag") {
  if (tag == any_tag) return MPI_ANY_TAG;
  if (tag < 0 || tag > tag_ub()) [[unlikely]] {
    raise_tag(tag, argument, function, " and not classic::any_tag");
  }
  return tag;
}

void check_buffer(int count, MPI_Datatype datatype, const char* function,
                  const char* count_name = "count",
                  const char* datatype_name = "datatype") {
  if (count < 0 || datatype == MPI_DATATYPE_NULL) [[unlikely]] {
    raise_buffer(count, count_name, datatype_name, function);
  }
}

// ---- receiving what a process sent itself ---------------------------------
//
// Open MPI 4.1 delivers a message that a process sends to itself cut to the
// receive buffer and reports success (no MPI_ERR_TRUNCATE, the status shows
// the short length). Receives that can match such a message take it by a
// matched probe, which sees the whole message first, so that the truncation
// is reported as MPI says.

// True when a receive from `from` (a transport rank, or MPI_ANY_SOURCE) on
// an intra-communicator can match a message of this process.
bool may_come_from_self(const Comm::State& state, int from) {
  return state.remote.is_null() &&
         (from == MPI_ANY_SOURCE ||
          from == state.peer_to_transport(state.rank));
}

// The status of a message that has arrived for a receive or probe, checked
// against the communicator's peer restriction (any_source receives).
Status arrived_status(const Comm::State& state, const MPI_Status& status,
                      const char* function) {
  Status result = Status::from_transport(status, state.peer_offset);
  if (state.restriction != nullptr) [[unlikely]] {
    internal::check_arrival(state, result.source, function);
  }
  return result;
}

// MPI_Recv through MPI_Mprobe + MPI_Mrecv; ErrorClass::truncate when the
// message is longer than the buffer (consumed; the buffer holds its start).
Status receive_probed(const Comm::State& state, void* buffer, int count,
                      MPI_Datatype datatype, int from, int tag,
                      const char* function) {
  MPI_Message message = MPI_MESSAGE_NULL;
  MPI_Status probed;
  transport::check_code(
      MPI_Mprobe(from, tag, state.transport, &message, &probed), function);
  MPI_Status status;
  transport::check_code(MPI_Mrecv(buffer, count, datatype, &message, &status),
                        function);
  MPI_Count arrived = 0;
  transport::check_code(MPI_Get_elements_x(&probed, MPI_BYTE, &arrived),
                        function);
  const MPI_Count capacity = transport::size_of(datatype, count, function);
  if (arrived > capacity) {
    throw Error(ErrorClass::truncate, function,
                "the message has " + std::to_string(arrived) +
                    " bytes, more than the " + std::to_string(capacity) +
                    " the receive buffer holds");
  }
  return arrived_status(state, status, function);
}

// The send half of a sendrecv that receives by probe: posted first, so a
// message to oneself can be matched, and always completed, also when the
// receive raises.
class PostedSend {
 public:
  PostedSend(const void* buffer, int count, MPI_Datatype datatype, int to,
             int tag, MPI_Comm context, const char* function)
      : function_(function) {
    transport::check_code(
        MPI_Isend(buffer, count, datatype, to, tag, context, &request_),
        function);
  }
  PostedSend(const PostedSend&) = delete;
  PostedSend& operator=(const PostedSend&) = delete;
  ~PostedSend() {
    if (request_ != MPI_REQUEST_NULL) MPI_Wait(&request_, MPI_STATUS_IGNORE);
  }
  void wait() {
    transport::check_code(MPI_Wait(&request_, MPI_STATUS_IGNORE), function_);
  }

 private:
  MPI_Request request_ = MPI_REQUEST_NULL;
  const char* function_;
};

}  // namespace

namespace internal {
void raise_too_long(std::size_t size, const char* function) {
  throw Error(ErrorClass::count, function,
              "buffer.size() = " + std::to_string(size) +
                  " is more than INT_MAX elements");
}
}  // namespace internal

[[gnu::hot]] int tag_ub() {
  static const int value = query_tag_ub();
  return value;
}

// ---- blocking ---------------------------------------------------------------

void send(const Comm& comm, const void* buffer, int count,
          MPI_Datatype datatype, int dest, int tag) {
  constexpr const char* kFunction = "classic::send";
  const Comm::State& state = internal::CommAccess::state(comm, kFunction);
  check_buffer(count, datatype, kFunction);
  const int to = transport_dest(state, dest, kFunction);
  const int mpi_tag = transport_send_tag(tag, kFunction);
  transport::check_code(
      MPI_Send(buffer, count, datatype, to, mpi_tag, state.transport),
      kFunction);
}

Status recv(const Comm& comm, void* buffer, int count, MPI_Datatype datatype,
            int source, int tag) {
  constexpr const char* kFunction = "classic::recv";
  const Comm::State& state = internal::CommAccess::state(comm, kFunction);
  check_buffer(count, datatype, kFunction);
  const int from = transport_source(state, source, kFunction);
  const int mpi_tag = transport_recv_tag(tag, kFunction);
  if (may_come_from_self(state, from)) {
    return receive_probed(state, buffer, count, datatype, from, mpi_tag,
                          kFunction);
  }
  MPI_Status status;
  transport::check_code(MPI_Recv(buffer, count, datatype, from, mpi_tag,
                                 state.transport, &status),
                        kFunction);
  return arrived_status(state, status, kFunction);
}

Status sendrecv(const Comm& comm, const void* send_buffer, int send_count,
                MPI_Datatype send_datatype, int dest, int send_tag,
                void* recv_buffer, int recv_count, MPI_Datatype recv_datatype,
                int source, int recv_tag) {
  constexpr const char* kFunction = "classic::sendrecv";
  const Comm::State& state = internal::CommAccess::state(comm, kFunction);
  check_buffer(send_count, send_datatype, kFunction, "send_count",
               "send_datatype");
  check_buffer(recv_count, recv_datatype, kFunction, "recv_count",
               "recv_datatype");
  const int to = transport_dest(state, dest, kFunction);
  const int from = transport_source(state, source, kFunction);
  const int mpi_send_tag = transport_send_tag(send_tag, kFunction, "send_tag");
  const int mpi_recv_tag = transport_recv_tag(recv_tag, kFunction, "recv_tag");
  if (may_come_from_self(state, from)) {
    PostedSend send(send_buffer, send_count, send_datatype, to, mpi_send_tag,
                    state.transport, kFunction);
    const Status status =
        receive_probed(state, recv_buffer, recv_count, recv_datatype, from,
                       mpi_recv_tag, kFunction);
    send.wait();
    return status;
  }
  MPI_Status status;
  transport::check_code(
      MPI_Sendrecv(send_buffer, send_count, send_datatype, to, mpi_send_tag,
                   recv_buffer, recv_count, recv_datatype, from, mpi_recv_tag,
                   state.transport, &status),
      kFunction);
  return arrived_status(state, status, kFunction);
}

Status sendrecv_replace(const Comm& comm, void* buffer, int count,
                        MPI_Datatype datatype, int dest, int send_tag,
                        int source, int recv_tag) {
  constexpr const char* kFunction = "classic::sendrecv_replace";
  const Comm::State& state = internal::CommAccess::state(comm, kFunction);
  check_buffer(count, datatype, kFunction);
  const int to = transport_dest(state, dest, kFunction);
  const int from = transport_source(state, source, kFunction);
  const int mpi_send_tag = transport_send_tag(send_tag, kFunction, "send_tag");
  const int mpi_recv_tag = transport_recv_tag(recv_tag, kFunction, "recv_tag");
  if (may_come_from_self(state, from)) {
    // The send goes out of a packed copy: the receive overwrites buffer.
    int packed_size = 0;
    transport::check_code(
        MPI_Pack_size(count, datatype, state.transport, &packed_size),
        kFunction);
    std::vector<std::byte> packed(static_cast<std::size_t>(packed_size));
    int position = 0;
    transport::check_code(MPI_Pack(buffer, count, datatype, packed.data(),
                                   packed_size, &position, state.transport),
                          kFunction);
    PostedSend send(packed.data(), position, MPI_PACKED, to, mpi_send_tag,
                    state.transport, kFunction);
    const Status status = receive_probed(state, buffer, count, datatype, from,
                                         mpi_recv_tag, kFunction);
    send.wait();
    return status;
  }
  MPI_Status status;
  transport::check_code(
      MPI_Sendrecv_replace(buffer, count, datatype, to, mpi_send_tag, from,
                           mpi_recv_tag, state.transport, &status),
      kFunction);
  return arrived_status(state, status, kFunction);
}

// ---- non-blocking -----------------------------------------------------------

Request isend(const Comm& comm, const void* buffer, int count,
              MPI_Datatype datatype, int dest, int tag) {
  constexpr const char* kFunction = "classic::isend";
  const Comm::State& state = internal::CommAccess::state(comm, kFunction);
  check_buffer(count, datatype, kFunction);
  const int to = transport_dest(state, dest, kFunction);
  const int mpi_tag = transport_send_tag(tag, kFunction);
  MPI_Request handle = MPI_REQUEST_NULL;
  transport::check_code(
      MPI_Isend(buffer, count, datatype, to, mpi_tag, state.transport, &handle),
      kFunction);
  return Request(handle, Request::Kind::send, comm, state.peer_offset);
}

Request irecv(const Comm& comm, void* buffer, int count, MPI_Datatype datatype,
              int source, int tag) {
  constexpr const char* kFunction = "classic::irecv";
  const Comm::State& state = internal::CommAccess::state(comm, kFunction);
  check_buffer(count, datatype, kFunction);
  const int from = transport_source(state, source, kFunction);
  const int mpi_tag = transport_recv_tag(tag, kFunction);
  MPI_Request handle = MPI_REQUEST_NULL;
  transport::check_code(MPI_Irecv(buffer, count, datatype, from, mpi_tag,
                                  state.transport, &handle),
                        kFunction);
  Request request(handle, Request::Kind::receive, comm, state.peer_offset);
  if (state.restriction != nullptr && source == any_source) [[unlikely]] {
    // What the wildcard matches is checked when a completion finds it.
    request.restrict_sources(
        std::shared_ptr<const std::vector<int>>(state.restriction,
                                                &state.restriction->sources),
        state.rank);
  }
  return request;
}

// ---- probes -----------------------------------------------------------------

Status probe(const Comm& comm, int source, int tag) {
  constexpr const char* kFunction = "classic::probe";
  const Comm::State& state = internal::CommAccess::state(comm, kFunction);
  const int from = transport_source(state, source, kFunction);
  const int mpi_tag = transport_recv_tag(tag, kFunction);
  MPI_Status status;
  transport::check_code(MPI_Probe(from, mpi_tag, state.transport, &status),
                        kFunction);
  return arrived_status(state, status, kFunction);
}

std::optional<Status> iprobe(const Comm& comm, int source, int tag) {
  constexpr const char* kFunction = "classic::iprobe";
  const Comm::State& state = internal::CommAccess::state(comm, kFunction);
  const int from = transport_source(state, source, kFunction);
  const int mpi_tag = transport_recv_tag(tag, kFunction);
  MPI_Status status;
  int found = 0;
  transport::check_code(
      MPI_Iprobe(from, mpi_tag, state.transport, &found, &status), kFunction);
  if (found == 0) return std::nullopt;
  return arrived_status(state, status, kFunction);
}

}  // namespace classic
