// "mpi": the transport's own neighbourhood collectives (Open MPI's
// MPI_Neighbor_*, MPI_Ineighbor_* and MPIX_Neighbor_*_init) for
// allgather(v, w) and alltoall(v, w) on directed graphs, on an MPI
// distributed graph that mirrors the graph's edges in order
// (classic/neighbor/transport_graph.h): made by the first call that runs it
// (collective then: every process runs the same algorithm) and kept with
// the table. allgatherw, which MPI lacks, runs as alltoallw with the one
// send block for every destination. Not on a classic Cartesian topology,
// whose repeated neighbours pair by direction (MPI's distributed graphs
// pair them by order). Offered for overrides and comparisons: the
// baseline a user would write, run through ortho's dispatch and checks.
// A non-blocking call before the graph is made (by a blocking or
// persistent call) sends the transport's messages through ortho's
// executor, as making the graph would wait for the peers.
#include <array>
#include <memory>
#include <vector>

#include "classic/base/error.h"
#include "classic/exec/executor.h"
#include "classic/neighbor/transport_graph.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/registry.h"
#include "ortho/internal/call_shape.h"
#include "ortho/internal/exchange.h"
#include "ortho/internal/table.h"

namespace ortho::algorithms {
namespace {

// What identifies this algorithm's state in the table.
constexpr char kStateOfMpi = 0;

// The algorithm's state on a table: the transport's graph, and per
// operation the last call's key and block counts (a call like the last
// one needs neither checks nor normalisation: internal/last_plan.h).
struct State {
  std::shared_ptr<classic::TransportGraph> graph;
  struct Last {
    std::uint64_t shape = 0;  // the call's number (internal/call_shape.h)
    int send_count = 0;
    int recv_count = 0;
  };
  std::array<Last, kOperationCount> last;
};

// The state, without its graph until the first call's arguments are
// checked (local).
State& state_of(const Table& table) {
  std::shared_ptr<void>& slot = table.state_of(&kStateOfMpi);
  if (slot == nullptr) slot = std::make_shared<State>();
  return *static_cast<State*>(slot.get());
}

[[gnu::hot]] classic::Request run(const classic::Comm& comm, const Table& table,
                                  const Call& call) {
  const char* function = call.function();
  State& state = state_of(table);
  State::Last& last = state.last[static_cast<std::size_t>(call.operation)];
  const std::uint64_t shape = internal::shape_of(table, call);
  if (!internal::same_shape(last.shape, shape)) {
    // Every argument error is raised here, before any message.
    const Checks check(comm, call);
    const Exchange exchange = normalise(table, call, check);
    last.shape = shape;
    last.send_count = exchange.send_count;
    last.recv_count = exchange.recv_count;
  }
  if (state.graph == nullptr && call.mode == classic::Mode::nonblocking) {
    // Making the transport's graph is collective, and a non-blocking call
    // waits for no peer (MPI: its initiation is local): the same messages
    // as the transport's neighbourhood collectives, one per edge in one
    // round, through ortho's executor. Every process is here alike: the
    // graph is made by the same call on all of them.
    const Checks check(comm, call);
    return classic::execute(
        comm, edge_plan(table, normalise(table, call, check)),
        {call.send.data, call.recv.data}, call.mode, function);
  }
  if (state.graph == nullptr) {  // collective: every process runs mpi
    state.graph = std::make_shared<classic::TransportGraph>(
        comm, table.sources, table.destinations, function);
  }
  const classic::TransportGraph& graph = *state.graph;
  const SendSide& s = call.send;
  const RecvSide& r = call.recv;
  switch (call.operation) {
    case Operation::allgather:
      return classic::transport_neighbor_allgather(
          graph, call.mode, s.data, last.send_count, s.datatype, r.data,
          last.recv_count, r.datatype, function);
    case Operation::allgatherv:
      return classic::transport_neighbor_allgatherv(
          graph, call.mode, s.data, last.send_count, s.datatype, r.data,
          r.counts, r.displs, r.datatype, function);
    case Operation::allgatherw: {
      const std::size_t out = table.destinations.size();
      const std::vector<int> counts(out, last.send_count);
      const std::vector<MPI_Aint> displs(out, 0);
      const std::vector<MPI_Datatype> types(out, s.datatype);
      return classic::transport_neighbor_alltoallw(
          graph, call.mode, s.data, counts, displs, types, r.data, r.counts,
          r.byte_displs, r.datatypes, function);
    }
    case Operation::alltoall:
      return classic::transport_neighbor_alltoall(
          graph, call.mode, s.data, last.send_count, s.datatype, r.data,
          last.recv_count, r.datatype, function);
    case Operation::alltoallv:
      return classic::transport_neighbor_alltoallv(
          graph, call.mode, s.data, s.counts, s.displs, s.datatype, r.data,
          r.counts, r.displs, r.datatype, function);
    case Operation::alltoallw:
      return classic::transport_neighbor_alltoallw(
          graph, call.mode, s.data, s.counts, s.byte_displs, s.datatypes,
          r.data, r.counts, r.byte_displs, r.datatypes, function);
    default:
      break;
  }
  throw classic::Error(classic::ErrorClass::intern, function,
                       "the transport has no neighbourhood form of this call");
}

void offer(Table& table) {
  if (!table.pairs_by_order()) return;
  for (Operation operation :
       {Operation::allgather, Operation::allgatherv, Operation::allgatherw,
        Operation::alltoall, Operation::alltoallv, Operation::alltoallw}) {
    table.offer(operation, {"mpi", &run});
  }
}

}  // namespace

extern constinit const Registration kMpi{
    .algorithm = {"mpi", &run}, .offer = &offer, .measured = true};

}  // namespace ortho::algorithms
