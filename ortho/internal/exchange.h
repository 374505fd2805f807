// The normalisation of a neighbourhood collective (allgather(v, w),
// alltoall(v, w) on a directed graph): the caller's MPI-shaped arguments
// and the communicator's neighbourhood become one validated description of
// the exchange, its blocks one per edge in edge order as plan blocks. Every
// argument error is raised here, on the process that made it, naming the
// caller's function, before any message or agreement: a size-aware choice
// that agrees on the largest block (ortho/internal/table.h) normalises first,
// and every algorithm of these operations starts from it. The other graph
// collectives' normalisation: internal/rooted.h.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_EXCHANGE_H_
#define ORTHOCOMM_ORTHO_INTERNAL_EXCHANGE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "classic/exec/plan.h"
#include "ortho/algorithms/checks.h"
#include "ortho/call.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"
#include "ortho/operation.h"

namespace ortho::algorithms {

struct Exchange {
  std::vector<classic::Plan::Block> send;  // per destination
  std::vector<classic::Plan::Block> recv;  // per source
  // The bytes of the largest send block (count times the datatype's size).
  std::size_t largest_send_bytes = 0;
  // allgather(v, w) and alltoall: the count of the one send block (of the
  // call's send datatype), the same along every edge and known also
  // without one; allgather and alltoall: the count of every receive block.
  // A typed call's counts follow from its spans.
  int send_count = 0;
  int recv_count = 0;
};

// Whether `operation` is one normalise() takes: allgather(v, w) and
// alltoall(v, w), an exchange of one block per edge on a directed graph.
inline bool is_exchange(Operation operation) {
  switch (operation) {
    case Operation::allgather:
    case Operation::allgatherv:
    case Operation::allgatherw:
    case Operation::alltoall:
    case Operation::alltoallv:
    case Operation::alltoallw:
      return true;
    default:
      return false;
  }
}

// Raises classic::Error (through `check`) for arguments that do not fit the
// table's neighbourhood.
Exchange normalise(const Table& table, const Call& call, const Checks& check);

// The bytes of a block's data (count times its datatype's size).
std::int64_t bytes_of(const classic::Plan::Block& block, const char* function);

// The bytes of each send block, in destination order: what the algorithms
// that relay blocks of v and w forms exchange before the blocks.
std::vector<std::int64_t> send_bytes(const Exchange& exchange,
                                     const char* function);

// Raises classic::Error (truncate) where sizes[j], the bytes that source
// j sends, exceed receive block j.
void check_room(const Table& table, const Exchange& exchange,
                std::span<const std::int64_t> sizes, const char* function);

// One message per edge in one round: send[i] to destinations[i], recv[j]
// from sources[j], tagged so that repeated neighbours pair as MPI says
// (Table::cartesian): by order on graphs, by direction on a Cartesian
// topology.
std::shared_ptr<const classic::Plan> edge_plan(
    const Table& table, std::span<const classic::Plan::Block> send,
    std::span<const classic::Plan::Block> recv);
inline std::shared_ptr<const classic::Plan> edge_plan(
    const Table& table, const Exchange& exchange) {
  return edge_plan(table, exchange.send, exchange.recv);
}

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_INTERNAL_EXCHANGE_H_
