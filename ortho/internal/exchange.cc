#include "ortho/internal/exchange.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "classic/base/datatype_layout.h"
#include "classic/base/error.h"

namespace ortho::algorithms {
namespace {

using classic::Plan;
using Space = Plan::Space;

// Blocks of `count` elements of `datatype`, `stride` bytes apart (or all at
// 0 when stride is 0), in `space`.
std::vector<Plan::Block> regular(Space space, std::size_t n, int count,
                                 MPI_Datatype datatype, MPI_Aint stride) {
  std::vector<Plan::Block> blocks(n);
  for (std::size_t i = 0; i < n; ++i) {
    blocks[i] = {.space = space,
                 .displacement = static_cast<MPI_Aint>(i) * stride,
                 .count = count,
                 .datatype = datatype};
  }
  return blocks;
}

// Blocks of the v forms (displacements in elements of one datatype).
std::vector<Plan::Block> varying(Space space, std::span<const int> counts,
                                 std::span<const int> displs,
                                 MPI_Datatype datatype, const char* function) {
  const MPI_Aint extent = classic::datatype_layout(datatype, function).extent;
  std::vector<Plan::Block> blocks(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    blocks[i] = {.space = space,
                 .displacement = displs[i] * extent,
                 .count = counts[i],
                 .datatype = datatype};
  }
  return blocks;
}

// Blocks of the w forms (byte displacements, a datatype per block; there
// is no common datatype, and none to ask about when the side is empty).
std::vector<Plan::Block> varying_w(Space space, std::span<const int> counts,
                                   std::span<const MPI_Aint> byte_displs,
                                   std::span<const MPI_Datatype> datatypes) {
  std::vector<Plan::Block> blocks(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    blocks[i] = {.space = space,
                 .displacement = byte_displs[i],
                 .count = counts[i],
                 .datatype = datatypes[i]};
  }
  return blocks;
}

std::size_t largest_bytes(const std::vector<Plan::Block>& blocks,
                          const char* function) {
  std::size_t largest = 0;
  for (const Plan::Block& block : blocks) {
    if (block.count == 0) continue;
    largest = std::max(
        largest,
        static_cast<std::size_t>(block.count) *
            static_cast<std::size_t>(
                classic::datatype_layout(block.datatype, function).size));
  }
  return largest;
}

// The blocks, after the checks.
Exchange blocks_of(const Table& table, const Call& call, const Checks& check) {
  const std::size_t in = table.sources.size();
  const std::size_t out = table.destinations.size();
  const SendSide& s = call.send;
  const RecvSide& r = call.recv;
  const char* function = call.function();
  check.not_in_place(s.data, "send", "(no in-place form on a graph)");
  check.not_in_place(r.data, "recv", "(no in-place form on a graph)");
  Exchange blocks;
  switch (call.operation) {
    case Operation::allgather:
    case Operation::alltoall: {
      const bool all = call.operation == Operation::alltoall;
      int send_count = s.count;
      int recv_count = r.count;
      if (call.form == Form::typed) {
        send_count = all ? (out > 0 ? check.per_block(s.elements, out, "send")
                                    : check.per_block(r.elements, in, "recv"))
                         : check.size_of(s.elements);
        recv_count = send_count;
        check.holds(r.elements, in * static_cast<std::size_t>(recv_count),
                    "recv");
      }
      check.elements(send_count, s.datatype, "send_count", "send_type");
      check.elements(recv_count, r.datatype, "recv_count", "recv_type");
      const MPI_Aint send_stride =
          all ? send_count *
                    classic::datatype_layout(s.datatype, function).extent
              : 0;
      blocks.send_count = send_count;
      blocks.recv_count = recv_count;
      blocks.send =
          regular(Space::send, out, send_count, s.datatype, send_stride);
      blocks.recv = regular(
          Space::recv, in, recv_count, r.datatype,
          recv_count * classic::datatype_layout(r.datatype, function).extent);
      return blocks;
    }
    case Operation::allgatherv:
    case Operation::allgatherw: {
      const int send_count =
          call.form == Form::typed ? check.size_of(s.elements) : s.count;
      check.elements(send_count, s.datatype, "send_count", "send_type");
      check.length(r.counts.size(), in, "recvcounts", "indegree");
      check.counts(r.counts, "recvcounts");
      const bool w = call.operation == Operation::allgatherw;
      check.length(w ? r.byte_displs.size() : r.displs.size(), in,
                   w ? "rdispls" : "displs", "indegree");
      if (w) {
        check.length(r.datatypes.size(), in, "recv_types", "indegree");
        check.datatypes(r.datatypes, "recv_types");
      } else {
        check.datatype(r.datatype, "recv_type");
      }
      if (call.form == Form::typed) {
        check.inside(r.counts, r.displs, r.elements, "recv");
      }
      blocks.send_count = send_count;
      blocks.send = regular(Space::send, out, send_count, s.datatype, 0);
      blocks.recv =
          w ? varying_w(Space::recv, r.counts, r.byte_displs, r.datatypes)
            : varying(Space::recv, r.counts, r.displs, r.datatype, function);
      return blocks;
    }
    default:
      break;
  }
  // alltoallv and alltoallw.
  check.length(s.counts.size(), out, "sendcounts", "outdegree");
  check.length(r.counts.size(), in, "recvcounts", "indegree");
  check.counts(s.counts, "sendcounts");
  check.counts(r.counts, "recvcounts");
  const bool w = call.operation == Operation::alltoallw;
  if (w) {
    check.length(s.byte_displs.size(), out, "sdispls", "outdegree");
    check.length(r.byte_displs.size(), in, "rdispls", "indegree");
    check.length(s.datatypes.size(), out, "send_types", "outdegree");
    check.length(r.datatypes.size(), in, "recv_types", "indegree");
    check.datatypes(s.datatypes, "send_types");
    check.datatypes(r.datatypes, "recv_types");
  } else {
    check.length(s.displs.size(), out, "sdispls", "outdegree");
    check.length(r.displs.size(), in, "rdispls", "indegree");
    check.datatype(s.datatype, "send_type");
    check.datatype(r.datatype, "recv_type");
    if (call.form == Form::typed) {
      check.inside(s.counts, s.displs, s.elements, "send");
      check.inside(r.counts, r.displs, r.elements, "recv");
    }
  }
  if (w) {
    blocks.send = varying_w(Space::send, s.counts, s.byte_displs, s.datatypes);
    blocks.recv = varying_w(Space::recv, r.counts, r.byte_displs, r.datatypes);
  } else {
    blocks.send =
        varying(Space::send, s.counts, s.displs, s.datatype, function);
    blocks.recv =
        varying(Space::recv, r.counts, r.displs, r.datatype, function);
  }
  return blocks;
}

}  // namespace

std::int64_t bytes_of(const Plan::Block& block, const char* function) {
  return std::int64_t{block.count} *
         classic::datatype_layout(block.datatype, function).size;
}

std::vector<std::int64_t> send_bytes(const Exchange& exchange,
                                     const char* function) {
  std::vector<std::int64_t> bytes(exchange.send.size());
  std::transform(
      exchange.send.begin(), exchange.send.end(), bytes.begin(),
      [function](const Plan::Block& b) { return bytes_of(b, function); });
  return bytes;
}

void check_room(const Table& table, const Exchange& exchange,
                std::span<const std::int64_t> sizes, const char* function) {
  for (std::size_t j = 0; j < exchange.recv.size(); ++j) {
    const std::int64_t room = bytes_of(exchange.recv[j], function);
    if (sizes[j] > room) {
      throw classic::Error(classic::ErrorClass::truncate, function,
                           "the block from source " + std::to_string(j) +
                               " (rank " + std::to_string(table.sources[j]) +
                               ") has " + std::to_string(sizes[j]) +
                               " bytes; receive block " + std::to_string(j) +
                               " holds " + std::to_string(room));
    }
  }
}

Exchange normalise(const Table& table, const Call& call, const Checks& check) {
  Exchange exchange = blocks_of(table, call, check);
  exchange.largest_send_bytes = largest_bytes(exchange.send, call.function());
  return exchange;
}

namespace {

// The tag of a block within the operation where two neighbours may be one
// process: graphs pair blocks in the order they are sent; on a Cartesian
// topology block 2d goes toward -1 in dimension d and block 2d + 1 toward
// +1, and receive block 2d comes from -1, so it travelled toward +1.
enum Channel : int { kInOrder = 0, kTowardMinus = 1, kTowardPlus = 2 };

int send_channel(bool cartesian, std::size_t block) {
  if (!cartesian) return kInOrder;
  return block % 2 == 0 ? kTowardMinus : kTowardPlus;
}

int receive_channel(bool cartesian, std::size_t block) {
  if (!cartesian) return kInOrder;
  return block % 2 == 0 ? kTowardPlus : kTowardMinus;
}

}  // namespace

std::shared_ptr<const Plan> edge_plan(const Table& table,
                                      std::span<const Plan::Block> send,
                                      std::span<const Plan::Block> recv) {
  auto plan = std::make_shared<Plan>();
  Plan::Round& round = plan->rounds.emplace_back();
  round.receives.reserve(recv.size());
  for (std::size_t j = 0; j < recv.size(); ++j) {
    round.receives.push_back({.peer = table.sources[j],
                              .tag = receive_channel(table.cartesian, j),
                              .blocks = {recv[j]}});
  }
  round.sends.reserve(send.size());
  for (std::size_t i = 0; i < send.size(); ++i) {
    round.sends.push_back({.peer = table.destinations[i],
                           .tag = send_channel(table.cartesian, i),
                           .blocks = {send[i]}});
  }
  return plan;
}

}  // namespace ortho::algorithms
