// Rooted collectives on inter-communicators: bcast, gather(v), scatter(v),
// reduce. The root talks to the other group; the rest of its group
// (proc_null) takes no part.
#include <optional>
#include <vector>

#include "classic/collectives/internal/inter_call.h"
#include "classic/collectives/internal/inter_collectives.h"

namespace classic::internal {
namespace {

constexpr const char* kBcast = "classic::bcast";
constexpr const char* kGather = "classic::gather";
constexpr const char* kGatherv = "classic::gatherv";
constexpr const char* kScatter = "classic::scatter";
constexpr const char* kScatterv = "classic::scatterv";
constexpr const char* kReduce = "classic::reduce";

int tag(Tag t) { return static_cast<int>(t); }

// The root sends to the other group's rank 0, which broadcasts it there.
void bcast_core(const InterCall& call, RecvBlock buffer, int root) {
  const Role role = call.role(root);
  if (role == Role::idle) return;
  call.check(buffer, "buffer");
  if (role == Role::root) {
    call.run(MPI_Send(buffer.data, buffer.count, buffer.datatype,
                      call.remote(0), tag(Tag::bcast), call.peers()));
    return;
  }
  if (call.leads()) {
    call.run(MPI_Recv(buffer.data, buffer.count, buffer.datatype,
                      call.remote(root), tag(Tag::bcast), call.peers(),
                      MPI_STATUS_IGNORE));
  }
  call.run(
      MPI_Bcast(buffer.data, buffer.count, buffer.datatype, 0, call.group()));
}

// The root receives every block of the other group straight into place.
void gather_receive(const InterCall& call, void* recv,
                    const std::vector<int>& counts,
                    const std::vector<MPI_Aint>& byte_displs,
                    MPI_Datatype datatype) {
  std::vector<MPI_Request> requests(counts.size(), MPI_REQUEST_NULL);
  for (std::size_t j = 0; j < counts.size(); ++j) {
    call.run(MPI_Irecv(shifted(recv, byte_displs[j]), counts[j], datatype,
                       call.remote(static_cast<int>(j)), tag(Tag::gather),
                       call.peers(), &requests[j]));
  }
  call.wait_all(requests);
}

void scatter_send(const InterCall& call, const void* send,
                  const std::vector<int>& counts,
                  const std::vector<MPI_Aint>& byte_displs,
                  MPI_Datatype datatype) {
  std::vector<MPI_Request> requests(counts.size(), MPI_REQUEST_NULL);
  for (std::size_t j = 0; j < counts.size(); ++j) {
    call.run(MPI_Isend(shifted(send, byte_displs[j]), counts[j], datatype,
                       call.remote(static_cast<int>(j)), tag(Tag::scatter),
                       call.peers(), &requests[j]));
  }
  call.wait_all(requests);
}

// Equal blocks of `count` elements, one per remote process.
struct Layout {
  std::vector<int> counts;
  std::vector<MPI_Aint> byte_displs;
};
Layout equal_blocks(const InterCall& call, int count, MPI_Datatype datatype) {
  const auto n = static_cast<std::size_t>(call.remote_size());
  Layout layout{std::vector<int>(n, count), std::vector<MPI_Aint>(n)};
  const MPI_Aint block_bytes = extent_of(datatype) * count;
  for (std::size_t j = 0; j < n; ++j) {
    layout.byte_displs[j] = static_cast<MPI_Aint>(j) * block_bytes;
  }
  return layout;
}
Layout given_blocks(std::span<const int> counts, std::span<const int> displs,
                    MPI_Datatype datatype) {
  Layout layout{std::vector<int>(counts.begin(), counts.end()),
                std::vector<MPI_Aint>(displs.size())};
  const MPI_Aint extent = extent_of(datatype);
  for (std::size_t j = 0; j < displs.size(); ++j) {
    layout.byte_displs[j] = extent * displs[j];
  }
  return layout;
}

// The part of gather(v) and scatter(v) in the group without the root: one
// block to, or from, the root.
void gather_send(const InterCall& call, SendBlock send, int root) {
  call.check(send, "send");
  call.run(MPI_Send(send.data, send.count, send.datatype, call.remote(root),
                    tag(Tag::gather), call.peers()));
}

void scatter_receive(const InterCall& call, RecvBlock recv, int root) {
  call.check(recv, "recv");
  call.run(MPI_Recv(recv.data, recv.count, recv.datatype, call.remote(root),
                    tag(Tag::scatter), call.peers(), MPI_STATUS_IGNORE));
}

void gather_core(const InterCall& call, SendBlock send, RecvBlock recv,
                 int root) {
  const Role role = call.role(root);
  if (role == Role::idle) return;
  if (role == Role::root) {
    call.check(recv, "recv", call.remote_size());
    const Layout layout = equal_blocks(call, recv.count, recv.datatype);
    gather_receive(call, recv.data, layout.counts, layout.byte_displs,
                   recv.datatype);
    return;
  }
  gather_send(call, send, root);
}

void gatherv_core(const InterCall& call, SendBlock send, RecvBlocks recv,
                  int root) {
  const Role role = call.role(root);
  if (role == Role::idle) return;
  if (role == Role::root) {
    call.check(recv, call.remote_size(), "recv", "recvcounts", "displs",
               Access::write);
    const Layout layout = given_blocks(recv.counts, recv.displs, recv.datatype);
    gather_receive(call, recv.data, layout.counts, layout.byte_displs,
                   recv.datatype);
    return;
  }
  gather_send(call, send, root);
}

void scatter_core(const InterCall& call, SendBlock send, RecvBlock recv,
                  int root) {
  const Role role = call.role(root);
  if (role == Role::idle) return;
  if (role == Role::root) {
    call.check(send, "send", call.remote_size());
    const Layout layout = equal_blocks(call, send.count, send.datatype);
    scatter_send(call, send.data, layout.counts, layout.byte_displs,
                 send.datatype);
    return;
  }
  scatter_receive(call, recv, root);
}

void scatterv_core(const InterCall& call, SendBlocks send, RecvBlock recv,
                   int root) {
  const Role role = call.role(root);
  if (role == Role::idle) return;
  if (role == Role::root) {
    call.check(send, call.remote_size(), "send", "sendcounts", "displs",
               Access::read);
    const Layout layout = given_blocks(send.counts, send.displs, send.datatype);
    scatter_send(call, send.data, layout.counts, layout.byte_displs,
                 send.datatype);
    return;
  }
  scatter_receive(call, recv, root);
}

// The other group reduces to its rank 0, which sends the result to the
// root. send.count == recv.count.
void reduce_core(const InterCall& call, SendBlock send, RecvBlock recv,
                 MPI_Op op, int root) {
  const Role role = call.role(root);
  if (role == Role::idle) return;
  call.check_op(op);
  if (role == Role::root) {
    call.check(recv, "recv");
    call.run(MPI_Recv(recv.data, recv.count, recv.datatype, call.remote(0),
                      tag(Tag::reduce), call.peers(), MPI_STATUS_IGNORE));
    return;
  }
  call.check(send, "send");
  std::optional<Scratch> result;
  if (call.leads()) result.emplace(send.count, send.datatype);
  call.run(MPI_Reduce(send.data, result ? result->data() : nullptr, send.count,
                      send.datatype, op, 0, call.group()));
  if (call.leads()) {
    call.run(MPI_Send(result->data(), send.count, send.datatype,
                      call.remote(root), tag(Tag::reduce), call.peers()));
  }
}

// Typed: the counts a process uses, from its spans.
struct TypedCounts {
  int send = 0;
  int recv = 0;
};

void reject_in_place(const InterCall& call, In send, Out recv) {
  call.reject_in_place(send.data, "send");
  call.reject_in_place(recv.data, "recv");
}

}  // namespace

// ---- typed forms ----------------------------------------------------------

void inter_bcast(const Comm& comm, Out buffer, int root) {
  const InterCall call(comm, kBcast);
  bcast_core(call,
             {buffer.data, call.count_of(buffer.size, "buffer"),
              buffer.datatype, buffer.size},
             root);
}

// The root's recv holds one block per remote process; the other group
// sends its whole send span.
void inter_gather(const Comm& comm, In send, Out recv, int root) {
  const InterCall call(comm, kGather);
  reject_in_place(call, send, recv);
  const Role role = call.role(root);
  TypedCounts counts;
  if (role == Role::root) {
    counts.recv = call.per_block(recv.size, call.remote_size(), "recv");
  }
  if (role == Role::other_side) counts.send = call.count_of(send.size, "send");
  gather_core(call, {send.data, counts.send, send.datatype, send.size},
              {recv.data, counts.recv, recv.datatype, recv.size}, root);
}

void inter_gatherv(const Comm& comm, In send, Out recv,
                   std::span<const int> recvcounts, std::span<const int> displs,
                   int root) {
  const InterCall call(comm, kGatherv);
  reject_in_place(call, send, recv);
  const int count = call.role(root) == Role::other_side
                        ? call.count_of(send.size, "send")
                        : 0;
  gatherv_core(call, {send.data, count, send.datatype, send.size},
               {recv.data, recvcounts, displs, recv.datatype, recv.size}, root);
}

void inter_scatter(const Comm& comm, In send, Out recv, int root) {
  const InterCall call(comm, kScatter);
  reject_in_place(call, send, recv);
  const Role role = call.role(root);
  TypedCounts counts;
  if (role == Role::root) {
    counts.send = call.per_block(send.size, call.remote_size(), "send");
  }
  if (role == Role::other_side) counts.recv = call.count_of(recv.size, "recv");
  scatter_core(call, {send.data, counts.send, send.datatype, send.size},
               {recv.data, counts.recv, recv.datatype, recv.size}, root);
}

void inter_scatterv(const Comm& comm, In send, std::span<const int> sendcounts,
                    std::span<const int> displs, Out recv, int root) {
  const InterCall call(comm, kScatterv);
  reject_in_place(call, send, recv);
  const int count = call.role(root) == Role::other_side
                        ? call.count_of(recv.size, "recv")
                        : 0;
  scatterv_core(call, {send.data, sendcounts, displs, send.datatype, send.size},
                {recv.data, count, recv.datatype, recv.size}, root);
}

// The root reduces recv.size() elements; the other group sends send.size().
void inter_reduce(const Comm& comm, In send, Out recv, MPI_Op op, int root) {
  const InterCall call(comm, kReduce);
  reject_in_place(call, send, recv);
  const Role role = call.role(root);
  const int count = role == Role::root ? call.count_of(recv.size, "recv")
                                       : call.count_of(send.size, "send");
  reduce_core(call, {send.data, count, send.datatype, send.size},
              {recv.data, count, recv.datatype, recv.size}, op, root);
}

// ---- raw forms ------------------------------------------------------------

void inter_bcast(const Comm& comm, void* buffer, int count,
                 MPI_Datatype datatype, int root) {
  bcast_core(InterCall(comm, kBcast), {buffer, count, datatype, kRaw}, root);
}

void inter_gather(const Comm& comm, const void* send, int send_count,
                  MPI_Datatype send_type, void* recv, int recv_count,
                  MPI_Datatype recv_type, int root) {
  gather_core(InterCall(comm, kGather), {send, send_count, send_type, kRaw},
              {recv, recv_count, recv_type, kRaw}, root);
}

void inter_gatherv(const Comm& comm, const void* send, int send_count,
                   MPI_Datatype send_type, void* recv,
                   std::span<const int> recvcounts, std::span<const int> displs,
                   MPI_Datatype recv_type, int root) {
  gatherv_core(InterCall(comm, kGatherv), {send, send_count, send_type, kRaw},
               {recv, recvcounts, displs, recv_type, kRaw}, root);
}

void inter_scatter(const Comm& comm, const void* send, int send_count,
                   MPI_Datatype send_type, void* recv, int recv_count,
                   MPI_Datatype recv_type, int root) {
  scatter_core(InterCall(comm, kScatter), {send, send_count, send_type, kRaw},
               {recv, recv_count, recv_type, kRaw}, root);
}

void inter_scatterv(const Comm& comm, const void* send,
                    std::span<const int> sendcounts,
                    std::span<const int> displs, MPI_Datatype send_type,
                    void* recv, int recv_count, MPI_Datatype recv_type,
                    int root) {
  scatterv_core(InterCall(comm, kScatterv),
                {send, sendcounts, displs, send_type, kRaw},
                {recv, recv_count, recv_type, kRaw}, root);
}

void inter_reduce(const Comm& comm, const void* send, void* recv, int count,
                  MPI_Datatype datatype, MPI_Op op, int root) {
  reduce_core(InterCall(comm, kReduce), {send, count, datatype, kRaw},
              {recv, count, datatype, kRaw}, op, root);
}

}  // namespace classic::internal
