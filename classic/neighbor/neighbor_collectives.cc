// The neighbourhood collectives: each checks its arguments against the
// caller's neighbours, lays its blocks out, and hands them to the
// NeighborExchange. One core per collective serves its raw and typed,
// blocking and non-blocking forms.
#include "classic/neighbor/neighbor_collectives.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "classic/base/internal/buffers.h"
#include "classic/base/internal/transport.h"
#include "classic/exec/executor.h"
#include "classic/exec/mode.h"
#include "classic/exec/plan.h"
#include "classic/neighbor/internal/neighbor_checks.h"
#include "classic/neighbor/internal/neighbor_exchange.h"

namespace classic {
namespace {

using internal::NeighborChecks;
using internal::NeighborExchange;
using internal::Side;

using internal::kRaw;
using internal::Names;
using internal::RecvBlock;
using internal::RecvBlocks;
using internal::SendBlock;
using internal::SendBlocks;

constexpr Names kAllgather{"classic::neighbor_allgather",
                           "classic::ineighbor_allgather",
                           "classic::neighbor_allgather_init"};
constexpr Names kAllgatherv{"classic::neighbor_allgatherv",
                            "classic::ineighbor_allgatherv",
                            "classic::neighbor_allgatherv_init"};
constexpr Names kAlltoall{"classic::neighbor_alltoall",
                          "classic::ineighbor_alltoall",
                          "classic::neighbor_alltoall_init"};
constexpr Names kAlltoallv{"classic::neighbor_alltoallv",
                           "classic::ineighbor_alltoallv",
                           "classic::neighbor_alltoallv_init"};
constexpr Names kAlltoallw{"classic::neighbor_alltoallw",
                           "classic::ineighbor_alltoallw",
                           "classic::neighbor_alltoallw_init"};

// ---- blocks -----------------------------------------------------------------

MPI_Aint extent_of(MPI_Datatype datatype) {
  return transport::extent_of(datatype, "classic::neighbor_collectives");
}

// Blocks of `count` elements one after the other: block i at i * count
// extents.
template <typename Data>
internal::UniformBlocks consecutive(Plan::Space space,
                                    const internal::Block<Data>& buffer) {
  return {space, buffer.count, buffer.datatype,
          MPI_Aint{buffer.count} * extent_of(buffer.datatype)};
}

// Block i at displs[i] extents.
template <typename Data>
std::vector<Plan::Block> placed_blocks(Plan::Space space,
                                       const internal::Blocks<Data>& layout) {
  const MPI_Aint extent = extent_of(layout.datatype);
  std::vector<Plan::Block> result;
  result.reserve(layout.counts.size());
  for (std::size_t i = 0; i < layout.counts.size(); ++i) {
    result.push_back(
        {space, layout.displs[i] * extent, layout.counts[i], layout.datatype});
  }
  return result;
}

// Block i has counts[i] elements of datatypes[i] at displs[i] bytes.
std::vector<Plan::Block> typed_blocks(Plan::Space space,
                                      std::span<const int> counts,
                                      std::span<const MPI_Aint> displs,
                                      std::span<const MPI_Datatype> datatypes) {
  std::vector<Plan::Block> result;
  result.reserve(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    result.push_back({space, displs[i], counts[i], datatypes[i]});
  }
  return result;
}

// ---- checks -----------------------------------------------------------------

template <typename Data>
void check_buffer(const NeighborChecks& check,
                  const internal::Block<Data>& buffer, std::int64_t blocks,
                  const char* name) {
  check.reject_in_place(buffer.data, name);
  check.count(buffer.count, name);
  check.datatype(buffer.datatype, name);
  check.capacity(buffer.capacity, blocks * buffer.count, name);
}

template <typename Data>
void check_layout(const NeighborChecks& check,
                  const internal::Blocks<Data>& layout, Side side,
                  const char* name, const char* counts_name,
                  const char* displs_name) {
  check.reject_in_place(layout.data, name);
  check.counts(layout.counts, side, counts_name);
  check.length(layout.displs.size(), side, displs_name);
  check.datatype(layout.datatype, name);
  check.placement(layout.counts, layout.displs, layout.capacity, side, name);
}

void check_apart(const NeighborChecks& check, internal::In send,
                 internal::Out recv) {
  check.apart(send.data, send.size * send.element_bytes, recv.data,
              recv.size * recv.element_bytes);
}

// ---- the cores --------------------------------------------------------------

Request allgather_core(const NeighborExchange& exchange, SendBlock send,
                       RecvBlock recv, Mode mode) {
  const NeighborChecks check(exchange);
  check_buffer(check, send, 1, "send");
  check_buffer(check, recv, exchange.indegree(), "recv");
  return exchange.run({send.data, recv.data},
                      internal::UniformBlocks{Plan::Space::send, send.count,
                                              send.datatype, /*stride=*/0},
                      consecutive(Plan::Space::recv, recv), mode);
}

Request allgatherv_core(const NeighborExchange& exchange, SendBlock send,
                        RecvBlocks recv, Mode mode) {
  const NeighborChecks check(exchange);
  check_buffer(check, send, 1, "send");
  check_layout(check, recv, Side::sources, "recv", "recvcounts", "displs");
  const std::vector<Plan::Block> sends(
      static_cast<std::size_t>(exchange.outdegree()),
      Plan::Block{Plan::Space::send, 0, send.count, send.datatype});
  return exchange.run({send.data, recv.data}, sends,
                      placed_blocks(Plan::Space::recv, recv), mode);
}

Request alltoall_core(const NeighborExchange& exchange, SendBlock send,
                      RecvBlock recv, Mode mode) {
  const NeighborChecks check(exchange);
  check_buffer(check, send, exchange.outdegree(), "send");
  check_buffer(check, recv, exchange.indegree(), "recv");
  return exchange.run({send.data, recv.data},
                      consecutive(Plan::Space::send, send),
                      consecutive(Plan::Space::recv, recv), mode);
}

Request alltoallv_core(const NeighborExchange& exchange, SendBlocks send,
                       RecvBlocks recv, Mode mode) {
  const NeighborChecks check(exchange);
  check_layout(check, send, Side::destinations, "send", "sendcounts",
               "sdispls");
  check_layout(check, recv, Side::sources, "recv", "recvcounts", "rdispls");
  return exchange.run({send.data, recv.data},
                      placed_blocks(Plan::Space::send, send),
                      placed_blocks(Plan::Space::recv, recv), mode);
}

Request alltoallw_core(const Comm& comm, const void* send,
                       std::span<const int> sendcounts,
                       std::span<const MPI_Aint> sdispls,
                       std::span<const MPI_Datatype> send_types, void* recv,
                       std::span<const int> recvcounts,
                       std::span<const MPI_Aint> rdispls,
                       std::span<const MPI_Datatype> recv_types, Mode mode) {
  const NeighborExchange exchange(comm, kAlltoallw(mode));
  const NeighborChecks check(exchange);
  check.reject_in_place(send, "send");
  check.counts(sendcounts, Side::destinations, "sendcounts");
  check.length(sdispls.size(), Side::destinations, "sdispls");
  check.datatypes(send_types, Side::destinations, "send_types");
  check.reject_in_place(recv, "recv");
  check.counts(recvcounts, Side::sources, "recvcounts");
  check.length(rdispls.size(), Side::sources, "rdispls");
  check.datatypes(recv_types, Side::sources, "recv_types");
  return exchange.run(
      {send, recv},
      typed_blocks(Plan::Space::send, sendcounts, sdispls, send_types),
      typed_blocks(Plan::Space::recv, recvcounts, rdispls, recv_types), mode);
}

}  // namespace

// ---- typed forms ------------------------------------------------------------

namespace internal {

Request neighbor_allgather_erased(const Comm& comm, In send, Out recv,
                                  Mode mode) {
  const NeighborExchange exchange(comm, kAllgather(mode));
  const NeighborChecks check(exchange);
  const int count = check.count_of(send.size, "send");
  check_apart(check, send, recv);
  return allgather_core(exchange, {send.data, count, send.datatype, send.size},
                        {recv.data, count, recv.datatype, recv.size}, mode);
}

Request neighbor_allgatherv_erased(const Comm& comm, In send, Out recv,
                                   std::span<const int> recvcounts,
                                   std::span<const int> displs, Mode mode) {
  const NeighborExchange exchange(comm, kAllgatherv(mode));
  const NeighborChecks check(exchange);
  const int count = check.count_of(send.size, "send");
  check_apart(check, send, recv);
  return allgatherv_core(
      exchange, {send.data, count, send.datatype, send.size},
      {recv.data, recvcounts, displs, recv.datatype, recv.size}, mode);
}

// The count of one block: from send, or from recv when there are no
// destinations.
Request neighbor_alltoall_erased(const Comm& comm, In send, Out recv,
                                 Mode mode) {
  const NeighborExchange exchange(comm, kAlltoall(mode));
  const NeighborChecks check(exchange);
  const int count =
      exchange.outdegree() > 0
          ? check.per_block(send.size, exchange.outdegree(), "send")
      : exchange.indegree() > 0
          ? check.per_block(recv.size, exchange.indegree(), "recv")
          : 0;
  check_apart(check, send, recv);
  return alltoall_core(exchange, {send.data, count, send.datatype, send.size},
                       {recv.data, count, recv.datatype, recv.size}, mode);
}

Request neighbor_alltoallv_erased(const Comm& comm, In send,
                                  std::span<const int> sendcounts,
                                  std::span<const int> sdispls, Out recv,
                                  std::span<const int> recvcounts,
                                  std::span<const int> rdispls, Mode mode) {
  const NeighborExchange exchange(comm, kAlltoallv(mode));
  check_apart(NeighborChecks(exchange), send, recv);
  return alltoallv_core(
      exchange, {send.data, sendcounts, sdispls, send.datatype, send.size},
      {recv.data, recvcounts, rdispls, recv.datatype, recv.size}, mode);
}

}  // namespace internal

// ---- raw forms --------------------------------------------------------------

namespace {

Request raw_allgather(const Comm& comm, const void* send, int send_count,
                      MPI_Datatype send_type, void* recv, int recv_count,
                      MPI_Datatype recv_type, Mode mode) {
  return allgather_core(NeighborExchange(comm, kAllgather(mode)),
                        {send, send_count, send_type, kRaw},
                        {recv, recv_count, recv_type, kRaw}, mode);
}

Request raw_allgatherv(const Comm& comm, const void* send, int send_count,
                       MPI_Datatype send_type, void* recv,
                       std::span<const int> recvcounts,
                       std::span<const int> displs, MPI_Datatype recv_type,
                       Mode mode) {
  return allgatherv_core(NeighborExchange(comm, kAllgatherv(mode)),
                         {send, send_count, send_type, kRaw},
                         {recv, recvcounts, displs, recv_type, kRaw}, mode);
}

Request raw_alltoall(const Comm& comm, const void* send, int send_count,
                     MPI_Datatype send_type, void* recv, int recv_count,
                     MPI_Datatype recv_type, Mode mode) {
  return alltoall_core(NeighborExchange(comm, kAlltoall(mode)),
                       {send, send_count, send_type, kRaw},
                       {recv, recv_count, recv_type, kRaw}, mode);
}

Request raw_alltoallv(const Comm& comm, const void* send,
                      std::span<const int> sendcounts,
                      std::span<const int> sdispls, MPI_Datatype send_type,
                      void* recv, std::span<const int> recvcounts,
                      std::span<const int> rdispls, MPI_Datatype recv_type,
                      Mode mode) {
  return alltoallv_core(NeighborExchange(comm, kAlltoallv(mode)),
                        {send, sendcounts, sdispls, send_type, kRaw},
                        {recv, recvcounts, rdispls, recv_type, kRaw}, mode);
}

}  // namespace

void neighbor_allgather(const Comm& comm, const void* send, int send_count,
                        MPI_Datatype send_type, void* recv, int recv_count,
                        MPI_Datatype recv_type) {
  (void)raw_allgather(comm, send, send_count, send_type, recv, recv_count,
                      recv_type, Mode::blocking);
}

void neighbor_allgatherv(const Comm& comm, const void* send, int send_count,
                         MPI_Datatype send_type, void* recv,
                         std::span<const int> recvcounts,
                         std::span<const int> displs, MPI_Datatype recv_type) {
  (void)raw_allgatherv(comm, send, send_count, send_type, recv, recvcounts,
                       displs, recv_type, Mode::blocking);
}

void neighbor_alltoall(const Comm& comm, const void* send, int send_count,
                       MPI_Datatype send_type, void* recv, int recv_count,
                       MPI_Datatype recv_type) {
  (void)raw_alltoall(comm, send, send_count, send_type, recv, recv_count,
                     recv_type, Mode::blocking);
}

void neighbor_alltoallv(const Comm& comm, const void* send,
                        std::span<const int> sendcounts,
                        std::span<const int> sdispls, MPI_Datatype send_type,
                        void* recv, std::span<const int> recvcounts,
                        std::span<const int> rdispls, MPI_Datatype recv_type) {
  (void)raw_alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                      recvcounts, rdispls, recv_type, Mode::blocking);
}

void neighbor_alltoallw(const Comm& comm, const void* send,
                        std::span<const int> sendcounts,
                        std::span<const MPI_Aint> sdispls,
                        std::span<const MPI_Datatype> send_types, void* recv,
                        std::span<const int> recvcounts,
                        std::span<const MPI_Aint> rdispls,
                        std::span<const MPI_Datatype> recv_types) {
  (void)alltoallw_core(comm, send, sendcounts, sdispls, send_types, recv,
                       recvcounts, rdispls, recv_types, Mode::blocking);
}

Request ineighbor_allgather(const Comm& comm, const void* send, int send_count,
                            MPI_Datatype send_type, void* recv, int recv_count,
                            MPI_Datatype recv_type) {
  return raw_allgather(comm, send, send_count, send_type, recv, recv_count,
                       recv_type, Mode::nonblocking);
}

Request ineighbor_allgatherv(const Comm& comm, const void* send, int send_count,
                             MPI_Datatype send_type, void* recv,
                             std::span<const int> recvcounts,
                             std::span<const int> displs,
                             MPI_Datatype recv_type) {
  return raw_allgatherv(comm, send, send_count, send_type, recv, recvcounts,
                        displs, recv_type, Mode::nonblocking);
}

Request ineighbor_alltoall(const Comm& comm, const void* send, int send_count,
                           MPI_Datatype send_type, void* recv, int recv_count,
                           MPI_Datatype recv_type) {
  return raw_alltoall(comm, send, send_count, send_type, recv, recv_count,
                      recv_type, Mode::nonblocking);
}

Request ineighbor_alltoallv(const Comm& comm, const void* send,
                            std::span<const int> sendcounts,
                            std::span<const int> sdispls,
                            MPI_Datatype send_type, void* recv,
                            std::span<const int> recvcounts,
                            std::span<const int> rdispls,
                            MPI_Datatype recv_type) {
  return raw_alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                       recvcounts, rdispls, recv_type, Mode::nonblocking);
}

Request ineighbor_alltoallw(const Comm& comm, const void* send,
                            std::span<const int> sendcounts,
                            std::span<const MPI_Aint> sdispls,
                            std::span<const MPI_Datatype> send_types,
                            void* recv, std::span<const int> recvcounts,
                            std::span<const MPI_Aint> rdispls,
                            std::span<const MPI_Datatype> recv_types) {
  return alltoallw_core(comm, send, sendcounts, sdispls, send_types, recv,
                        recvcounts, rdispls, recv_types, Mode::nonblocking);
}

Request neighbor_allgather_init(const Comm& comm, const void* send,
                                int send_count, MPI_Datatype send_type,
                                void* recv, int recv_count,
                                MPI_Datatype recv_type) {
  return raw_allgather(comm, send, send_count, send_type, recv, recv_count,
                       recv_type, Mode::persistent);
}

Request neighbor_allgatherv_init(const Comm& comm, const void* send,
                                 int send_count, MPI_Datatype send_type,
                                 void* recv, std::span<const int> recvcounts,
                                 std::span<const int> displs,
                                 MPI_Datatype recv_type) {
  return raw_allgatherv(comm, send, send_count, send_type, recv, recvcounts,
                        displs, recv_type, Mode::persistent);
}

Request neighbor_alltoall_init(const Comm& comm, const void* send,
                               int send_count, MPI_Datatype send_type,
                               void* recv, int recv_count,
                               MPI_Datatype recv_type) {
  return raw_alltoall(comm, send, send_count, send_type, recv, recv_count,
                      recv_type, Mode::persistent);
}

Request neighbor_alltoallv_init(const Comm& comm, const void* send,
                                std::span<const int> sendcounts,
                                std::span<const int> sdispls,
                                MPI_Datatype send_type, void* recv,
                                std::span<const int> recvcounts,
                                std::span<const int> rdispls,
                                MPI_Datatype recv_type) {
  return raw_alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                       recvcounts, rdispls, recv_type, Mode::persistent);
}

Request neighbor_alltoallw_init(const Comm& comm, const void* send,
                                std::span<const int> sendcounts,
                                std::span<const MPI_Aint> sdispls,
                                std::span<const MPI_Datatype> send_types,
                                void* recv, std::span<const int> recvcounts,
                                std::span<const MPI_Aint> rdispls,
                                std::span<const MPI_Datatype> recv_types) {
  return alltoallw_core(comm, send, sendcounts, sdispls, send_types, recv,
                        recvcounts, rdispls, recv_types, Mode::persistent);
}

Request neighbor_allgather(const Comm& comm, const void* send, int send_count,
                           MPI_Datatype send_type, void* recv, int recv_count,
                           MPI_Datatype recv_type, Mode mode) {
  return raw_allgather(comm, send, send_count, send_type, recv, recv_count,
                       recv_type, mode);
}

Request neighbor_allgatherv(const Comm& comm, const void* send, int send_count,
                            MPI_Datatype send_type, void* recv,
                            std::span<const int> recvcounts,
                            std::span<const int> displs, MPI_Datatype recv_type,
                            Mode mode) {
  return raw_allgatherv(comm, send, send_count, send_type, recv, recvcounts,
                        displs, recv_type, mode);
}

Request neighbor_alltoall(const Comm& comm, const void* send, int send_count,
                          MPI_Datatype send_type, void* recv, int recv_count,
                          MPI_Datatype recv_type, Mode mode) {
  return raw_alltoall(comm, send, send_count, send_type, recv, recv_count,
                      recv_type, mode);
}

Request neighbor_alltoallv(const Comm& comm, const void* send,
                           std::span<const int> sendcounts,
                           std::span<const int> sdispls, MPI_Datatype send_type,
                           void* recv, std::span<const int> recvcounts,
                           std::span<const int> rdispls, MPI_Datatype recv_type,
                           Mode mode) {
  return raw_alltoallv(comm, send, sendcounts, sdispls, send_type, recv,
                       recvcounts, rdispls, recv_type, mode);
}

Request neighbor_alltoallw(const Comm& comm, const void* send,
                           std::span<const int> sendcounts,
                           std::span<const MPI_Aint> sdispls,
                           std::span<const MPI_Datatype> send_types, void* recv,
                           std::span<const int> recvcounts,
                           std::span<const MPI_Aint> rdispls,
                           std::span<const MPI_Datatype> recv_types,
                           Mode mode) {
  return alltoallw_core(comm, send, sendcounts, sdispls, send_types, recv,
                        recvcounts, rdispls, recv_types, mode);
}

}  // namespace classic
