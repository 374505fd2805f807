// The cores of the neighbourhood collectives (neighbor_cores.h).
#include "classic/neighbor/internal/neighbor_cores.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "classic/base/internal/transport.h"
#include "classic/exec/plan.h"
#include "classic/neighbor/internal/neighbor_checks.h"

namespace classic::internal {
namespace {

// ---- blocks -----------------------------------------------------------------

MPI_Aint extent_of(MPI_Datatype datatype) {
  return transport::extent_of(datatype, "classic::neighbor_collectives");
}

// Blocks of `count` elements one after the other: block i at i * count
// extents.
template <typename Data>
UniformBlocks consecutive(Plan::Space space, const Block<Data>& buffer) {
  return {space, buffer.count, buffer.datatype,
          MPI_Aint{buffer.count} * extent_of(buffer.datatype)};
}

// Block i at displs[i] extents.
template <typename Data>
std::vector<Plan::Block> placed_blocks(Plan::Space space,
                                       const Blocks<Data>& layout) {
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
void check_buffer(const NeighborChecks& check, const Block<Data>& buffer,
                  std::int64_t blocks, const char* name) {
  check.reject_in_place(buffer.data, name);
  check.count(buffer.count, name);
  check.datatype(buffer.datatype, name);
  check.capacity(buffer.capacity, blocks * buffer.count, name);
}

template <typename Data>
void check_layout(const NeighborChecks& check, const Blocks<Data>& layout,
                  Side side, const char* name, const char* counts_name,
                  const char* displs_name) {
  check.reject_in_place(layout.data, name);
  check.counts(layout.counts, side, counts_name);
  check.length(layout.displs.size(), side, displs_name);
  check.datatype(layout.datatype, name);
  check.placement(layout.counts, layout.displs, layout.capacity, side, name);
}

}  // namespace

// ---- the cores --------------------------------------------------------------

Request neighbor_allgather_core(const NeighborExchange& exchange,
                                SendBlock send, RecvBlock recv, Mode mode) {
  const NeighborChecks check(exchange);
  check_buffer(check, send, 1, "send");
  check_buffer(check, recv, exchange.indegree(), "recv");
  return exchange.run(
      {send.data, recv.data},
      UniformBlocks{Plan::Space::send, send.count, send.datatype, /*stride=*/0},
      consecutive(Plan::Space::recv, recv), mode);
}

Request neighbor_allgatherv_core(const NeighborExchange& exchange,
                                 SendBlock send, RecvBlocks recv, Mode mode) {
  const NeighborChecks check(exchange);
  check_buffer(check, send, 1, "send");
  check_layout(check, recv, Side::sources, "recv", "recvcounts", "displs");
  const std::vector<Plan::Block> sends(
      static_cast<std::size_t>(exchange.outdegree()),
      Plan::Block{Plan::Space::send, 0, send.count, send.datatype});
  return exchange.run({send.data, recv.data}, sends,
                      placed_blocks(Plan::Space::recv, recv), mode);
}

Request neighbor_alltoall_core(const NeighborExchange& exchange, SendBlock send,
                               RecvBlock recv, Mode mode) {
  const NeighborChecks check(exchange);
  check_buffer(check, send, exchange.outdegree(), "send");
  check_buffer(check, recv, exchange.indegree(), "recv");
  return exchange.run({send.data, recv.data},
                      consecutive(Plan::Space::send, send),
                      consecutive(Plan::Space::recv, recv), mode);
}

Request neighbor_alltoallv_core(const NeighborExchange& exchange,
                                SendBlocks send, RecvBlocks recv, Mode mode) {
  const NeighborChecks check(exchange);
  check_layout(check, send, Side::destinations, "send", "sendcounts",
               "sdispls");
  check_layout(check, recv, Side::sources, "recv", "recvcounts", "rdispls");
  return exchange.run({send.data, recv.data},
                      placed_blocks(Plan::Space::send, send),
                      placed_blocks(Plan::Space::recv, recv), mode);
}

Request neighbor_alltoallw_core(
    const NeighborExchange& exchange, const void* send,
    std::span<const int> sendcounts, std::span<const MPI_Aint> sdispls,
    std::span<const MPI_Datatype> send_types, void* recv,
    std::span<const int> recvcounts, std::span<const MPI_Aint> rdispls,
    std::span<const MPI_Datatype> recv_types, Mode mode) {
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

}  // namespace classic::internal
