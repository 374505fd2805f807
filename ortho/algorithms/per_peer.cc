// "per_peer": one message per distinct peer, in one round. Where a process
// has several edges to one peer (repeated edges; on small tori, offsets
// that wrap onto one process: the 26 Moore offsets on a 2 x 2 x 1 torus
// reach 3 other processes), their blocks travel together, in edge order
// on both sides, which is MPI's pairing of repeated edges; edges to itself
// become local copies. Same volume as the direct algorithm, fewer
// messages.
#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/datatype_layout.h"
#include "classic/collectives/collectives.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/checks.h"

namespace ortho::algorithms {
namespace {

using classic::Plan;
using Space = Plan::Space;

// The plan from one block per edge on each side.
Plan per_peer_plan(int rank, std::span<const int> sources,
                   std::span<const int> destinations,
                   const std::vector<Plan::Block>& send,
                   const std::vector<Plan::Block>& recv) {
  Plan plan;
  Plan::Round& round = plan.rounds.emplace_back();
  std::vector<int> done;
  for (std::size_t i = 0; i < destinations.size(); ++i) {
    const int peer = destinations[i];
    if (peer == classic::proc_null || peer == rank ||
        std::find(done.begin(), done.end(), peer) != done.end()) {
      continue;
    }
    done.push_back(peer);
    Plan::Message message{.peer = peer, .tag = 0, .blocks = {}};
    for (std::size_t k = i; k < destinations.size(); ++k) {
      if (destinations[k] == peer) message.blocks.push_back(send[k]);
    }
    round.sends.push_back(std::move(message));
  }
  done.clear();
  for (std::size_t j = 0; j < sources.size(); ++j) {
    const int peer = sources[j];
    if (peer == classic::proc_null || peer == rank ||
        std::find(done.begin(), done.end(), peer) != done.end()) {
      continue;
    }
    done.push_back(peer);
    Plan::Message message{.peer = peer, .tag = 0, .blocks = {}};
    for (std::size_t k = j; k < sources.size(); ++k) {
      if (sources[k] == peer) message.blocks.push_back(recv[k]);
    }
    round.receives.push_back(std::move(message));
  }
  // Edges to itself: the k-th such destination block to the k-th such
  // source block.
  std::size_t j = 0;
  for (std::size_t i = 0; i < destinations.size(); ++i) {
    if (destinations[i] != rank) continue;
    while (j < sources.size() && sources[j] != rank) ++j;
    if (j == sources.size()) break;
    round.local.push_back(
        {.kind = Plan::Local::Kind::copy, .from = send[i], .to = recv[j++]});
  }
  return plan;
}

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

// The blocks of each side, in edge order, checked.
struct EdgeBlocks {
  std::vector<Plan::Block> send;
  std::vector<Plan::Block> recv;
};

EdgeBlocks edge_blocks(const Table& table, const Call& call,
                       const Checks& check) {
  const std::size_t in = table.sources.size();
  const std::size_t out = table.destinations.size();
  const SendSide& s = call.send;
  const RecvSide& r = call.recv;
  const char* function = call.function();
  check.not_in_place(s.data, "send", "(no in-place form on a graph)");
  check.not_in_place(r.data, "recv", "(no in-place form on a graph)");
  EdgeBlocks blocks;
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

classic::Request run(const classic::Comm& comm, const Table& table,
                     const Call& call) {
  const Checks check(comm, call);
  const EdgeBlocks blocks = edge_blocks(table, call, check);
  auto plan = std::make_shared<const Plan>(
      per_peer_plan(comm.rank(), table.sources, table.destinations, blocks.send,
                    blocks.recv));
  return classic::execute(comm, std::move(plan),
                          {call.send.data, call.recv.data}, call.mode,
                          call.function());
}

}  // namespace

void select_per_peer(Table& table) {
  for (Operation operation :
       {Operation::allgather, Operation::allgatherv, Operation::allgatherw,
        Operation::alltoall, Operation::alltoallv, Operation::alltoallw}) {
    Choice choice;
    choice.primary = per_peer();
    choice.alternative = table.choice(operation).primary;
    table.choice(operation) = choice;
    table.offer(operation, per_peer());
  }
  table.default_choices = table.choices;
}

const Algorithm& per_peer() {
  static constexpr Algorithm kPerPeer{"per_peer", &run};
  return kPerPeer;
}

}  // namespace ortho::algorithms
