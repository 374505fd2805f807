// Rooted collectives on inter-communicators: bcast, gather(v), scatter(v),
// reduce. The root exchanges one message with every process of the other
// group; the rest of its group (proc_null) takes no part, but runs the
// (empty) plan so that every process numbers the communicator's operations
// alike.
#include <cstddef>
#include <span>
#include <vector>

#include "classic/collectives/internal/collective_names.h"
#include "classic/collectives/internal/inter_call.h"
#include "classic/collectives/internal/inter_collectives.h"

namespace classic::internal {
namespace {

using Group = Plan::Group;

// Equal blocks of `count` elements, one per remote process, or the given
// counts and displacements (in elements of `datatype`), as byte positions.
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

// The root receives block j from remote process j, in place.
Request gather_at_root(const InterCall& call, void* recv, const Layout& layout,
                       MPI_Datatype datatype) {
  InterPlan plan(call);
  for (int j = 0; j < call.remote_size(); ++j) {
    const auto at = static_cast<std::size_t>(j);
    plan.receive(
        0, Group::peers, j,
        {recv_block(layout.byte_displs[at], layout.counts[at], datatype)});
  }
  return plan.run(nullptr, recv);
}

// The root sends block j to remote process j.
Request scatter_from_root(const InterCall& call, const void* send,
                          const Layout& layout, MPI_Datatype datatype) {
  InterPlan plan(call);
  for (int j = 0; j < call.remote_size(); ++j) {
    const auto at = static_cast<std::size_t>(j);
    plan.send(
        0, Group::peers, j,
        {send_block(layout.byte_displs[at], layout.counts[at], datatype)});
  }
  return plan.run(send, nullptr);
}

// The part of gather(v) and scatter(v) in the group without the root: one
// block to, or from, the root.
Request send_to_root(const InterCall& call, SendBlock send, int root) {
  call.check(send, "send");
  InterPlan plan(call);
  plan.send(0, Group::peers, root, {send_block(0, send.count, send.datatype)});
  return plan.run(send.data, nullptr);
}

Request receive_from_root(const InterCall& call, RecvBlock recv, int root) {
  call.check(recv, "recv");
  InterPlan plan(call);
  plan.receive(0, Group::peers, root,
               {recv_block(0, recv.count, recv.datatype)});
  return plan.run(nullptr, recv.data);
}

// The idle processes of the root group.
Request take_no_part(const InterCall& call) {
  return InterPlan(call).run(nullptr, nullptr);
}

Request bcast_core(const InterCall& call, RecvBlock buffer, int root) {
  const Role role = call.role(root);
  if (role == Role::idle) return take_no_part(call);
  call.check(buffer, "buffer");
  if (role == Role::other_side) return receive_from_root(call, buffer, root);
  InterPlan plan(call);
  for (int j = 0; j < call.remote_size(); ++j) {
    plan.send(0, Group::peers, j,
              {recv_block(0, buffer.count, buffer.datatype)});
  }
  return plan.run(nullptr, buffer.data);
}

Request gather_core(const InterCall& call, SendBlock send, RecvBlock recv,
                    int root) {
  const Role role = call.role(root);
  if (role == Role::idle) return take_no_part(call);
  if (role == Role::other_side) return send_to_root(call, send, root);
  call.check(recv, "recv", call.remote_size());
  return gather_at_root(call, recv.data,
                        equal_blocks(call, recv.count, recv.datatype),
                        recv.datatype);
}

Request gatherv_core(const InterCall& call, SendBlock send, RecvBlocks recv,
                     int root) {
  const Role role = call.role(root);
  if (role == Role::idle) return take_no_part(call);
  if (role == Role::other_side) return send_to_root(call, send, root);
  call.check(recv, call.remote_size(), "recv", "recvcounts", "displs",
             Access::write);
  return gather_at_root(call, recv.data,
                        given_blocks(recv.counts, recv.displs, recv.datatype),
                        recv.datatype);
}

Request scatter_core(const InterCall& call, SendBlock send, RecvBlock recv,
                     int root) {
  const Role role = call.role(root);
  if (role == Role::idle) return take_no_part(call);
  if (role == Role::other_side) return receive_from_root(call, recv, root);
  call.check(send, "send", call.remote_size());
  return scatter_from_root(call, send.data,
                           equal_blocks(call, send.count, send.datatype),
                           send.datatype);
}

Request scatterv_core(const InterCall& call, SendBlocks send, RecvBlock recv,
                      int root) {
  const Role role = call.role(root);
  if (role == Role::idle) return take_no_part(call);
  if (role == Role::other_side) return receive_from_root(call, recv, root);
  call.check(send, call.remote_size(), "send", "sendcounts", "displs",
             Access::read);
  return scatter_from_root(
      call, send.data, given_blocks(send.counts, send.displs, send.datatype),
      send.datatype);
}

// The root receives every remote process's data, the last one's into recv
// and the others' into scratch, and folds them into recv from the right:
// recv = d_0 op (d_1 op (... op d_{m-1})), the rank order MPI fixes for
// non-commutative operations. send.count == recv.count.
Request reduce_core(const InterCall& call, SendBlock send, RecvBlock recv,
                    MPI_Op op, int root) {
  const Role role = call.role(root);
  if (role == Role::idle) return take_no_part(call);
  call.check_op(op);
  if (role == Role::other_side) return send_to_root(call, send, root);
  call.check(recv, "recv");
  InterPlan plan(call);
  const int last = call.remote_size() - 1;
  const Plan::Block result = recv_block(0, recv.count, recv.datatype);
  std::vector<Plan::Block> received(static_cast<std::size_t>(last));
  for (int j = 0; j < last; ++j) {
    received[static_cast<std::size_t>(j)] =
        plan.scratch(recv.count, recv.datatype);
    plan.receive(0, Group::peers, j, {received[static_cast<std::size_t>(j)]});
  }
  plan.receive(0, Group::peers, last, {result});
  for (int j = last - 1; j >= 0; --j) {
    plan.reduce(0, received[static_cast<std::size_t>(j)], result, op);
  }
  return plan.run(nullptr, recv.data);
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

Request inter_bcast(const Comm& comm, Out buffer, int root, Mode mode) {
  const InterCall call(comm, kBcast(mode), mode);
  return bcast_core(call,
                    {buffer.data, call.count_of(buffer.size, "buffer"),
                     buffer.datatype, buffer.size},
                    root);
}

// The root's recv holds one block per remote process; the other group
// sends its whole send span.
Request inter_gather(const Comm& comm, In send, Out recv, int root, Mode mode) {
  const InterCall call(comm, kGather(mode), mode);
  reject_in_place(call, send, recv);
  const Role role = call.role(root);
  TypedCounts counts;
  if (role == Role::root) {
    counts.recv = call.per_block(recv.size, call.remote_size(), "recv");
  }
  if (role == Role::other_side) counts.send = call.count_of(send.size, "send");
  return gather_core(call, {send.data, counts.send, send.datatype, send.size},
                     {recv.data, counts.recv, recv.datatype, recv.size}, root);
}

Request inter_gatherv(const Comm& comm, In send, Out recv,
                      std::span<const int> recvcounts,
                      std::span<const int> displs, int root, Mode mode) {
  const InterCall call(comm, kGatherv(mode), mode);
  reject_in_place(call, send, recv);
  const int count = call.role(root) == Role::other_side
                        ? call.count_of(send.size, "send")
                        : 0;
  return gatherv_core(call, {send.data, count, send.datatype, send.size},
                      {recv.data, recvcounts, displs, recv.datatype, recv.size},
                      root);
}

Request inter_scatter(const Comm& comm, In send, Out recv, int root,
                      Mode mode) {
  const InterCall call(comm, kScatter(mode), mode);
  reject_in_place(call, send, recv);
  const Role role = call.role(root);
  TypedCounts counts;
  if (role == Role::root) {
    counts.send = call.per_block(send.size, call.remote_size(), "send");
  }
  if (role == Role::other_side) counts.recv = call.count_of(recv.size, "recv");
  return scatter_core(call, {send.data, counts.send, send.datatype, send.size},
                      {recv.data, counts.recv, recv.datatype, recv.size}, root);
}

Request inter_scatterv(const Comm& comm, In send,
                       std::span<const int> sendcounts,
                       std::span<const int> displs, Out recv, int root,
                       Mode mode) {
  const InterCall call(comm, kScatterv(mode), mode);
  reject_in_place(call, send, recv);
  const int count = call.role(root) == Role::other_side
                        ? call.count_of(recv.size, "recv")
                        : 0;
  return scatterv_core(
      call, {send.data, sendcounts, displs, send.datatype, send.size},
      {recv.data, count, recv.datatype, recv.size}, root);
}

// The root reduces recv.size() elements; the other group sends send.size().
Request inter_reduce(const Comm& comm, In send, Out recv, MPI_Op op, int root,
                     Mode mode) {
  const InterCall call(comm, kReduce(mode), mode);
  reject_in_place(call, send, recv);
  const Role role = call.role(root);
  const int count = role == Role::root ? call.count_of(recv.size, "recv")
                                       : call.count_of(send.size, "send");
  return reduce_core(call, {send.data, count, send.datatype, send.size},
                     {recv.data, count, recv.datatype, recv.size}, op, root);
}

// ---- raw forms ------------------------------------------------------------

Request inter_bcast(const Comm& comm, void* buffer, int count,
                    MPI_Datatype datatype, int root, Mode mode) {
  return bcast_core(InterCall(comm, kBcast(mode), mode),
                    {buffer, count, datatype, kRaw}, root);
}

Request inter_gather(const Comm& comm, const void* send, int send_count,
                     MPI_Datatype send_type, void* recv, int recv_count,
                     MPI_Datatype recv_type, int root, Mode mode) {
  return gather_core(InterCall(comm, kGather(mode), mode),
                     {send, send_count, send_type, kRaw},
                     {recv, recv_count, recv_type, kRaw}, root);
}

Request inter_gatherv(const Comm& comm, const void* send, int send_count,
                      MPI_Datatype send_type, void* recv,
                      std::span<const int> recvcounts,
                      std::span<const int> displs, MPI_Datatype recv_type,
                      int root, Mode mode) {
  return gatherv_core(InterCall(comm, kGatherv(mode), mode),
                      {send, send_count, send_type, kRaw},
                      {recv, recvcounts, displs, recv_type, kRaw}, root);
}

Request inter_scatter(const Comm& comm, const void* send, int send_count,
                      MPI_Datatype send_type, void* recv, int recv_count,
                      MPI_Datatype recv_type, int root, Mode mode) {
  return scatter_core(InterCall(comm, kScatter(mode), mode),
                      {send, send_count, send_type, kRaw},
                      {recv, recv_count, recv_type, kRaw}, root);
}

Request inter_scatterv(const Comm& comm, const void* send,
                       std::span<const int> sendcounts,
                       std::span<const int> displs, MPI_Datatype send_type,
                       void* recv, int recv_count, MPI_Datatype recv_type,
                       int root, Mode mode) {
  return scatterv_core(InterCall(comm, kScatterv(mode), mode),
                       {send, sendcounts, displs, send_type, kRaw},
                       {recv, recv_count, recv_type, kRaw}, root);
}

Request inter_reduce(const Comm& comm, const void* send, void* recv, int count,
                     MPI_Datatype datatype, MPI_Op op, int root, Mode mode) {
  return reduce_core(InterCall(comm, kReduce(mode), mode),
                     {send, count, datatype, kRaw},
                     {recv, count, datatype, kRaw}, op, root);
}

}  // namespace classic::internal
