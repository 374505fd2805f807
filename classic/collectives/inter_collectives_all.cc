// Collectives on inter-communicators without a root: barrier, allgather(v),
// alltoall(v, w), allreduce, reduce_scatter(_block). Each group's result
// comes from the other group's data.
#include <climits>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/internal/inter_call.h"
#include "classic/collectives/internal/inter_collectives.h"

namespace classic::internal {
namespace {

constexpr const char* kAllgather = "classic::allgather";
constexpr const char* kAllgatherv = "classic::allgatherv";
constexpr const char* kAlltoall = "classic::alltoall";
constexpr const char* kAlltoallv = "classic::alltoallv";
constexpr const char* kAlltoallw = "classic::alltoallw";
constexpr const char* kAllreduce = "classic::allreduce";
constexpr const char* kReduceScatter = "classic::reduce_scatter";
constexpr const char* kReduceScatterBlock = "classic::reduce_scatter_block";

int tag(Tag t) { return static_cast<int>(t); }

// A derived transport datatype, committed, and freed when it goes.
class OwnedType {
 public:
  // `type` as made by a constructor call that returned `code`.
  OwnedType(const InterCall& call, int code, MPI_Datatype type) : type_(type) {
    call.run(code);
    call.run(MPI_Type_commit(&type_));
  }
  OwnedType(const OwnedType&) = delete;
  OwnedType& operator=(const OwnedType&) = delete;
  ~OwnedType() {
    if (type_ != MPI_DATATYPE_NULL) MPI_Type_free(&type_);
  }
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_;
};

// The element count of `count` blocks of `blocks`, which MPI needs as int.
int total(const InterCall& call, std::int64_t elements, const char* name) {
  if (elements > INT_MAX) [[unlikely]] {
    throw Error(ErrorClass::count, call.function(),
                std::string(name) + " total " + std::to_string(elements) +
                    " elements is more than INT_MAX");
  }
  return static_cast<int>(elements);
}

// Every process sends its block to the other group's rank 0, which
// receives them in place (`layout`) and broadcasts them in its group as
// one `whole` datatype.
void gather_at_leaders(const InterCall& call, SendBlock send, void* recv,
                       const std::vector<int>& counts,
                       const std::vector<MPI_Aint>& byte_displs,
                       MPI_Datatype recv_type) {
  std::vector<MPI_Request> requests(1, MPI_REQUEST_NULL);
  call.run(MPI_Isend(send.data, send.count, send.datatype, call.remote(0),
                     tag(Tag::allgather), call.peers(), &requests[0]));
  if (call.leads()) {
    requests.resize(counts.size() + 1, MPI_REQUEST_NULL);
    for (std::size_t j = 0; j < counts.size(); ++j) {
      call.run(MPI_Irecv(shifted(recv, byte_displs[j]), counts[j], recv_type,
                         call.remote(static_cast<int>(j)), tag(Tag::allgather),
                         call.peers(), &requests[j + 1]));
    }
  }
  call.wait_all(requests);
}

void allgather_core(const InterCall& call, SendBlock send, RecvBlock recv) {
  call.check(send, "send");
  call.check(recv, "recv", call.remote_size());
  const auto n = static_cast<std::size_t>(call.remote_size());
  const MPI_Aint block_bytes = extent_of(recv.datatype) * recv.count;
  std::vector<MPI_Aint> byte_displs(n);
  for (std::size_t j = 0; j < n; ++j) {
    byte_displs[j] = static_cast<MPI_Aint>(j) * block_bytes;
  }
  gather_at_leaders(call, send, recv.data, std::vector<int>(n, recv.count),
                    byte_displs, recv.datatype);
  MPI_Datatype block = MPI_DATATYPE_NULL;
  const int code = MPI_Type_contiguous(recv.count, recv.datatype, &block);
  const OwnedType whole(call, code, block);
  call.run(
      MPI_Bcast(recv.data, call.remote_size(), whole.get(), 0, call.group()));
}

void allgatherv_core(const InterCall& call, SendBlock send, RecvBlocks recv) {
  call.check(send, "send");
  call.check(recv, call.remote_size(), "recv", "recvcounts", "displs",
             Access::write);
  const MPI_Aint extent = extent_of(recv.datatype);
  std::vector<MPI_Aint> byte_displs(recv.displs.size());
  for (std::size_t j = 0; j < byte_displs.size(); ++j) {
    byte_displs[j] = extent * recv.displs[j];
  }
  gather_at_leaders(call, send, recv.data,
                    std::vector<int>(recv.counts.begin(), recv.counts.end()),
                    byte_displs, recv.datatype);
  // Only the blocks travel in the broadcast, never the gaps between them.
  MPI_Datatype blocks = MPI_DATATYPE_NULL;
  const int code = MPI_Type_indexed(call.remote_size(), recv.counts.data(),
                                    recv.displs.data(), recv.datatype, &blocks);
  const OwnedType whole(call, code, blocks);
  call.run(MPI_Bcast(recv.data, 1, whole.get(), 0, call.group()));
}

// Pairwise: process i of one group and process j of the other exchange
// block j of i's send and block i of j's send.
struct Side {
  const void* send;
  std::vector<int> send_counts;
  std::vector<MPI_Aint> send_bytes;
  std::vector<MPI_Datatype> send_types;
  void* recv;
  std::vector<int> recv_counts;
  std::vector<MPI_Aint> recv_bytes;
  std::vector<MPI_Datatype> recv_types;
};

void exchange_pairwise(const InterCall& call, const Side& side) {
  const auto n = static_cast<std::size_t>(call.remote_size());
  std::vector<MPI_Request> requests(2 * n, MPI_REQUEST_NULL);
  for (std::size_t j = 0; j < n; ++j) {
    call.run(MPI_Irecv(shifted(side.recv, side.recv_bytes[j]),
                       side.recv_counts[j], side.recv_types[j],
                       call.remote(static_cast<int>(j)), tag(Tag::alltoall),
                       call.peers(), &requests[j]));
  }
  for (std::size_t j = 0; j < n; ++j) {
    call.run(MPI_Isend(shifted(side.send, side.send_bytes[j]),
                       side.send_counts[j], side.send_types[j],
                       call.remote(static_cast<int>(j)), tag(Tag::alltoall),
                       call.peers(), &requests[n + j]));
  }
  call.wait_all(requests);
}

std::vector<MPI_Aint> scaled(std::span<const int> displs, MPI_Aint extent) {
  std::vector<MPI_Aint> bytes(displs.size());
  for (std::size_t j = 0; j < displs.size(); ++j) bytes[j] = extent * displs[j];
  return bytes;
}

std::vector<MPI_Aint> equal(std::size_t n, int count, MPI_Datatype type) {
  std::vector<int> displs(n);
  for (std::size_t j = 0; j < n; ++j) displs[j] = static_cast<int>(j);
  return scaled(displs, extent_of(type) * count);
}

void alltoall_core(const InterCall& call, SendBlock send, RecvBlock recv) {
  call.check(send, "send", call.remote_size());
  call.check(recv, "recv", call.remote_size());
  const auto n = static_cast<std::size_t>(call.remote_size());
  exchange_pairwise(call, {send.data, std::vector<int>(n, send.count),
                           equal(n, send.count, send.datatype),
                           std::vector<MPI_Datatype>(n, send.datatype),
                           recv.data, std::vector<int>(n, recv.count),
                           equal(n, recv.count, recv.datatype),
                           std::vector<MPI_Datatype>(n, recv.datatype)});
}

void alltoallv_core(const InterCall& call, SendBlocks send, RecvBlocks recv) {
  const int n = call.remote_size();
  call.check(send, n, "send", "sendcounts", "sdispls", Access::read);
  call.check(recv, n, "recv", "recvcounts", "rdispls", Access::write);
  const auto entries = static_cast<std::size_t>(n);
  exchange_pairwise(
      call,
      {send.data, std::vector<int>(send.counts.begin(), send.counts.end()),
       scaled(send.displs, extent_of(send.datatype)),
       std::vector<MPI_Datatype>(entries, send.datatype), recv.data,
       std::vector<int>(recv.counts.begin(), recv.counts.end()),
       scaled(recv.displs, extent_of(recv.datatype)),
       std::vector<MPI_Datatype>(entries, recv.datatype)});
}

// Each group reduces to its rank 0; the two leaders swap results; each
// broadcasts the other group's result in its group. count elements.
void allreduce_core(const InterCall& call, SendBlock send, RecvBlock recv,
                    MPI_Op op) {
  call.check_op(op);
  call.check(send, "send");
  call.check(recv, "recv");
  call.run(MPI_Reduce(send.data, recv.data, recv.count, recv.datatype, op, 0,
                      call.group()));
  if (call.leads()) {
    call.run(MPI_Sendrecv_replace(recv.data, recv.count, recv.datatype,
                                  call.remote(0), tag(Tag::allreduce),
                                  call.remote(0), tag(Tag::allreduce),
                                  call.peers(), MPI_STATUS_IGNORE));
  }
  call.run(MPI_Bcast(recv.data, recv.count, recv.datatype, 0, call.group()));
}

// The reduction of the other group's `elements` send elements, scattered
// in this group as `counts` (rank 0 holds it between the steps).
void reduce_and_scatter(const InterCall& call, const void* send, int elements,
                        MPI_Datatype datatype, MPI_Op op, void* recv,
                        std::span<const int> counts) {
  std::optional<Scratch> result;
  if (call.leads()) result.emplace(elements, datatype);
  void* at_leader = result ? result->data() : nullptr;
  call.run(
      MPI_Reduce(send, at_leader, elements, datatype, op, 0, call.group()));
  if (call.leads()) {
    call.run(MPI_Sendrecv_replace(at_leader, elements, datatype, call.remote(0),
                                  tag(Tag::reduce_scatter), call.remote(0),
                                  tag(Tag::reduce_scatter), call.peers(),
                                  MPI_STATUS_IGNORE));
  }
  std::vector<int> displs(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  call.run(MPI_Scatterv(at_leader, counts.data(), displs.data(), datatype, recv,
                        counts[static_cast<std::size_t>(call.rank())], datatype,
                        0, call.group()));
}

void reduce_scatter_core(const InterCall& call, SendBlock send, RecvBlock recv,
                         std::span<const int> recvcounts, MPI_Op op) {
  call.check_op(op);
  const int elements = total(
      call, call.check_counts(recvcounts, call.local_size(), "recvcounts"),
      "recvcounts");
  call.check(SendBlock{send.data, elements, send.datatype, send.capacity},
             "send");
  call.check(
      RecvBlock{recv.data, recvcounts[static_cast<std::size_t>(call.rank())],
                recv.datatype, recv.capacity},
      "recv");
  reduce_and_scatter(call, send.data, elements, recv.datatype, op, recv.data,
                     recvcounts);
}

// recv.count elements for every process of this group.
void reduce_scatter_block_core(const InterCall& call, SendBlock send,
                               RecvBlock recv, MPI_Op op) {
  call.check_op(op);
  call.check(recv, "recv");
  call.check(send, "send", call.local_size());
  const int elements =
      total(call, std::int64_t{recv.count} * call.local_size(), "send");
  reduce_and_scatter(
      call, send.data, elements, recv.datatype, op, recv.data,
      std::vector<int>(static_cast<std::size_t>(call.local_size()),
                       recv.count));
}

}  // namespace

// ---- typed forms ----------------------------------------------------------

void inter_allgather(const Comm& comm, In send, Out recv) {
  const InterCall call(comm, kAllgather);
  call.check_apart(send, recv);
  allgather_core(
      call,
      {send.data, call.count_of(send.size, "send"), send.datatype, send.size},
      {recv.data, call.per_block(recv.size, call.remote_size(), "recv"),
       recv.datatype, recv.size});
}

void inter_allgatherv(const Comm& comm, In send, Out recv,
                      std::span<const int> recvcounts,
                      std::span<const int> displs) {
  const InterCall call(comm, kAllgatherv);
  call.check_apart(send, recv);
  allgatherv_core(
      call,
      {send.data, call.count_of(send.size, "send"), send.datatype, send.size},
      {recv.data, recvcounts, displs, recv.datatype, recv.size});
}

void inter_alltoall(const Comm& comm, In send, Out recv) {
  const InterCall call(comm, kAlltoall);
  call.check_apart(send, recv);
  alltoall_core(
      call,
      {send.data, call.per_block(send.size, call.remote_size(), "send"),
       send.datatype, send.size},
      {recv.data, call.per_block(recv.size, call.remote_size(), "recv"),
       recv.datatype, recv.size});
}

void inter_alltoallv(const Comm& comm, In send, std::span<const int> sendcounts,
                     std::span<const int> sdispls, Out recv,
                     std::span<const int> recvcounts,
                     std::span<const int> rdispls) {
  const InterCall call(comm, kAlltoallv);
  call.check_apart(send, recv);
  alltoallv_core(call,
                 {send.data, sendcounts, sdispls, send.datatype, send.size},
                 {recv.data, recvcounts, rdispls, recv.datatype, recv.size});
}

void inter_allreduce(const Comm& comm, In send, Out recv, MPI_Op op) {
  const InterCall call(comm, kAllreduce);
  call.check_apart(send, recv);
  const int count = call.count_of(send.size, "send");
  allreduce_core(call, {send.data, count, send.datatype, send.size},
                 {recv.data, count, recv.datatype, recv.size}, op);
}

void inter_reduce_scatter(const Comm& comm, In send, Out recv,
                          std::span<const int> recvcounts, MPI_Op op) {
  const InterCall call(comm, kReduceScatter);
  call.check_apart(send, recv);
  reduce_scatter_core(call, {send.data, 0, send.datatype, send.size},
                      {recv.data, 0, recv.datatype, recv.size}, recvcounts, op);
}

void inter_reduce_scatter_block(const Comm& comm, In send, Out recv,
                                MPI_Op op) {
  const InterCall call(comm, kReduceScatterBlock);
  call.check_apart(send, recv);
  const int count = call.count_of(recv.size, "recv");
  reduce_scatter_block_core(call, {send.data, count, send.datatype, send.size},
                            {recv.data, count, recv.datatype, recv.size}, op);
}

// ---- raw forms ------------------------------------------------------------

// All of one group may leave once all of the other has entered: each group
// gathers at its rank 0 (a barrier), the leaders swap word, and each group
// waits for its leader (a second barrier).
void inter_barrier(const Comm& comm) {
  const InterCall call(comm, "classic::barrier");
  call.run(MPI_Barrier(call.group()));
  if (call.leads()) {
    call.run(MPI_Sendrecv(nullptr, 0, MPI_BYTE, call.remote(0),
                          tag(Tag::barrier), nullptr, 0, MPI_BYTE,
                          call.remote(0), tag(Tag::barrier), call.peers(),
                          MPI_STATUS_IGNORE));
  }
  call.run(MPI_Barrier(call.group()));
}

void inter_allgather(const Comm& comm, const void* send, int send_count,
                     MPI_Datatype send_type, void* recv, int recv_count,
                     MPI_Datatype recv_type) {
  allgather_core(InterCall(comm, kAllgather),
                 {send, send_count, send_type, kRaw},
                 {recv, recv_count, recv_type, kRaw});
}

void inter_allgatherv(const Comm& comm, const void* send, int send_count,
                      MPI_Datatype send_type, void* recv,
                      std::span<const int> recvcounts,
                      std::span<const int> displs, MPI_Datatype recv_type) {
  allgatherv_core(InterCall(comm, kAllgatherv),
                  {send, send_count, send_type, kRaw},
                  {recv, recvcounts, displs, recv_type, kRaw});
}

void inter_alltoall(const Comm& comm, const void* send, int send_count,
                    MPI_Datatype send_type, void* recv, int recv_count,
                    MPI_Datatype recv_type) {
  alltoall_core(InterCall(comm, kAlltoall), {send, send_count, send_type, kRaw},
                {recv, recv_count, recv_type, kRaw});
}

void inter_alltoallv(const Comm& comm, const void* send,
                     std::span<const int> sendcounts,
                     std::span<const int> sdispls, MPI_Datatype send_type,
                     void* recv, std::span<const int> recvcounts,
                     std::span<const int> rdispls, MPI_Datatype recv_type) {
  alltoallv_core(InterCall(comm, kAlltoallv),
                 {send, sendcounts, sdispls, send_type, kRaw},
                 {recv, recvcounts, rdispls, recv_type, kRaw});
}

void inter_alltoallw(const Comm& comm, const void* send,
                     std::span<const int> sendcounts,
                     std::span<const int> sdispls,
                     std::span<const MPI_Datatype> send_types, void* recv,
                     std::span<const int> recvcounts,
                     std::span<const int> rdispls,
                     std::span<const MPI_Datatype> recv_types) {
  const InterCall call(comm, kAlltoallw);
  const int n = call.remote_size();
  call.reject_in_place(send, "send");
  call.reject_in_place(recv, "recv");
  call.check_counts(sendcounts, n, "sendcounts");
  call.check_length(sdispls.size(), n, "sdispls");
  call.check_datatypes(send_types, n, "send_types");
  call.check_counts(recvcounts, n, "recvcounts");
  call.check_length(rdispls.size(), n, "rdispls");
  call.check_datatypes(recv_types, n, "recv_types");
  exchange_pairwise(
      call, {send, std::vector<int>(sendcounts.begin(), sendcounts.end()),
             scaled(sdispls, 1),
             std::vector<MPI_Datatype>(send_types.begin(), send_types.end()),
             recv, std::vector<int>(recvcounts.begin(), recvcounts.end()),
             scaled(rdispls, 1),
             std::vector<MPI_Datatype>(recv_types.begin(), recv_types.end())});
}

void inter_allreduce(const Comm& comm, const void* send, void* recv, int count,
                     MPI_Datatype datatype, MPI_Op op) {
  allreduce_core(InterCall(comm, kAllreduce), {send, count, datatype, kRaw},
                 {recv, count, datatype, kRaw}, op);
}

void inter_reduce_scatter(const Comm& comm, const void* send, void* recv,
                          std::span<const int> recvcounts,
                          MPI_Datatype datatype, MPI_Op op) {
  reduce_scatter_core(InterCall(comm, kReduceScatter),
                      {send, 0, datatype, kRaw}, {recv, 0, datatype, kRaw},
                      recvcounts, op);
}

void inter_reduce_scatter_block(const Comm& comm, const void* send, void* recv,
                                int recv_count, MPI_Datatype datatype,
                                MPI_Op op) {
  reduce_scatter_block_core(InterCall(comm, kReduceScatterBlock),
                            {send, recv_count, datatype, kRaw},
                            {recv, recv_count, datatype, kRaw}, op);
}

}  // namespace classic::internal
