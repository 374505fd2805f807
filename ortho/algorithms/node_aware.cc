// "node_aware": allgather(v, w) and alltoall(v, w) on directed graphs whose
// processes sit on several hosts, along the routes of node_aware_routes.h:
// at most one message per ordered pair of hosts crosses between them.
//
// Its first call on a communicator gathers every process's destinations
// (collective: an allgather of the out-degrees and one of the lists, on the
// base communicator). Relayed blocks wait in scratch as bytes and travel
// as MPI_PACKED, which matches any type signature. In allgather and
// alltoall every block has the same size everywhere (MPI), so a relay
// knows it from its own arguments and the plan is kept for the next call
// with the same arguments. In the v and w forms a relay cannot know the
// sizes of the blocks it forwards (MPI tells a process only its own), so
// the call first runs the routes over one int64 per block (the byte
// sizes), then the blocks: persistent calls once, at initialisation;
// blocking and non-blocking calls at every call (the non-blocking form
// waits for it). A block that a receiving relay needs
// itself lands in its own receive block where that block has exactly the
// block's size, and is handed on from there.
#include "ortho/algorithms/node_aware.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/datatype_layout.h"
#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/node_aware_routes.h"
#include "ortho/algorithms/registry.h"
#include "ortho/internal/exchange.h"
#include "ortho/internal/last_plan.h"

namespace ortho::algorithms {

using classic::Plan;
using node_routes::Payload;
using node_routes::Routes;
using node_routes::Slot;
using Space = Plan::Space;

NodeAware::NodeAware(node_routes::HostGraph graph, int rank,
                     std::vector<int> sources)
    : graph_(std::move(graph)), rank_(rank), sources_(std::move(sources)) {}

const Routes& NodeAware::routes(Operation operation) const {
  const Payload payload = operation == Operation::allgather ||
                                  operation == Operation::allgatherv ||
                                  operation == Operation::allgatherw
                              ? Payload::per_source
                              : Payload::per_edge;
  std::optional<Routes>& kept =
      payload == Payload::per_edge ? per_edge_ : per_source_;
  if (!kept) kept = node_routes::routes(graph_, rank_, sources_, payload);
  return *kept;
}

namespace {

// The table's node-aware view, made by the first call (collective).
const NodeAware& node_aware_of(const classic::Comm& comm, const Table& table) {
  if (table.node_aware != nullptr) return *table.node_aware;
  const classic::Comm& over = table.base.is_null() ? comm : table.base;
  const int size = over.size();
  const int degree = static_cast<int>(table.destinations.size());
  std::vector<int> degrees(static_cast<std::size_t>(size));
  classic::allgather(over, std::span<const int>(&degree, 1),
                     std::span<int>(degrees));
  std::vector<int> displs(static_cast<std::size_t>(size), 0);
  std::partial_sum(degrees.begin(), degrees.end() - 1, displs.begin() + 1);
  std::vector<int> all(static_cast<std::size_t>(
      std::accumulate(degrees.begin(), degrees.end(), 0)));
  classic::allgatherv(over, std::span<const int>(table.destinations),
                      std::span<int>(all), degrees, displs);
  node_routes::HostGraph graph;
  graph.host_of_rank = table.host_of_rank;
  graph.destinations.resize(static_cast<std::size_t>(size));
  for (std::size_t r = 0; r < graph.destinations.size(); ++r) {
    const auto first = all.begin() + displs[r];
    graph.destinations[r].assign(first, first + degrees[r]);
  }
  table.node_aware =
      std::make_shared<NodeAware>(std::move(graph), comm.rank(), table.sources);
  return *table.node_aware;
}

// A plan of the routes' three steps with `block` placing each slot.
template <class Place>
Plan plan_of(const Routes& routes, Place block) {
  Plan plan;
  for (const node_routes::Step& step : routes.steps) {
    Plan::Round round;
    for (const node_routes::Transfer& t : step.receives) {
      Plan::Message& m = round.receives.emplace_back();
      m.peer = t.peer;
      m.tag = t.tag;
      for (const Slot& slot : t.slots) m.blocks.push_back(block(slot));
    }
    for (const node_routes::Transfer& t : step.sends) {
      Plan::Message& m = round.sends.emplace_back();
      m.peer = t.peer;
      m.tag = t.tag;
      for (const Slot& slot : t.slots) m.blocks.push_back(block(slot));
    }
    for (const node_routes::Copy& copy : step.copies) {
      const Plan::Block from = block(copy.from);
      const Plan::Block to = block({Slot::Kind::recv, copy.to});
      if (from == to) continue;  // landed there
      round.local.push_back(
          {.kind = Plan::Local::Kind::copy, .from = from, .to = to});
    }
    if (!round.receives.empty() || !round.sends.empty() ||
        !round.local.empty()) {
      plan.rounds.push_back(std::move(round));
    }
  }
  return plan;
}

// The byte size of every block this process receives (by source, first)
// and relays (by scratch slot, after them): the routes run over one int64
// per block. Blocking.
std::vector<std::int64_t> exchange_sizes(const classic::Comm& comm,
                                         const Routes& routes,
                                         const Exchange& blocks,
                                         const char* function) {
  std::vector<std::int64_t> sent = send_bytes(blocks, function);
  const std::size_t in = blocks.recv.size();
  std::vector<std::int64_t> sizes(
      in + static_cast<std::size_t>(routes.scratch_slots), 0);
  const auto place = [in](const Slot& slot) {
    const std::size_t index =
        static_cast<std::size_t>(slot.index) +
        (slot.kind == Slot::Kind::scratch ? in : std::size_t{0});
    return Plan::Block{
        .space = slot.kind == Slot::Kind::send ? Space::send : Space::recv,
        .displacement = static_cast<MPI_Aint>(index * sizeof(std::int64_t)),
        .count = 1,
        .datatype = MPI_INT64_T};
  };
  (void)classic::execute(
      comm, std::make_shared<const Plan>(plan_of(routes, place)),
      {sent.data(), sizes.data()}, classic::Mode::blocking, function);
  return sizes;
}

// The blocks' plan, once the sizes are known.
Plan data_plan(const Routes& routes, const Exchange& blocks,
               const std::vector<std::int64_t>& sizes, const Table& table,
               const char* function) {
  const std::size_t in = blocks.recv.size();
  check_room(table, blocks, sizes, function);
  std::vector<Plan::Block> scratch(
      static_cast<std::size_t>(routes.scratch_slots));
  MPI_Aint offset = 0;
  for (std::size_t t = 0; t < scratch.size(); ++t) {
    const std::int64_t bytes = sizes[in + t];
    const int lands = routes.lands_in[t];
    if (lands >= 0 &&
        bytes ==
            bytes_of(blocks.recv[static_cast<std::size_t>(lands)], function)) {
      scratch[t] = blocks.recv[static_cast<std::size_t>(lands)];
      continue;
    }
    if (bytes > std::numeric_limits<int>::max()) {
      throw classic::Error(classic::ErrorClass::count, function,
                           "a relayed block of " + std::to_string(bytes) +
                               " bytes exceeds what one count can describe");
    }
    scratch[t] = {.space = Space::scratch,
                  .displacement = offset,
                  .count = static_cast<int>(bytes),
                  .datatype = MPI_PACKED};
    offset += (static_cast<MPI_Aint>(bytes) + 15) / 16 * 16;
  }
  Plan plan = plan_of(routes, [&](const Slot& slot) {
    const auto index = static_cast<std::size_t>(slot.index);
    switch (slot.kind) {
      case Slot::Kind::send:
        return blocks.send[index];
      case Slot::Kind::recv:
        return blocks.recv[index];
      case Slot::Kind::scratch:
        break;
    }
    return scratch[index];
  });
  plan.scratch_bytes = offset;
  return plan;
}

// allgather and alltoall: every block has the size of this process's own
// (MPI makes the type signature of the blocks the same on every process;
// relays have an edge, hence a block of their own). 0 for a process
// without edges, which relays nothing.
std::vector<std::int64_t> uniform_sizes(const Routes& routes,
                                        const Exchange& blocks,
                                        const char* function) {
  std::int64_t bytes = 0;
  if (!blocks.send.empty()) {
    bytes = bytes_of(blocks.send.front(), function);
  } else if (!blocks.recv.empty()) {
    bytes = bytes_of(blocks.recv.front(), function);
  }
  return std::vector<std::int64_t>(
      blocks.recv.size() + static_cast<std::size_t>(routes.scratch_slots),
      bytes);
}

// What identifies node_aware's plans among an operation's last plans.
constexpr char kPlansOfNodeAware = 0;

classic::Request run(const classic::Comm& comm, const Table& table,
                     const Call& call) {
  const char* function = call.function();
  const bool uniform = !NodeAware::exchanges_sizes(call.operation);
  internal::LastPlan& last =
      table.last_plans[static_cast<std::size_t>(call.operation)];
  if (uniform) {
    if (const auto* kept = last.find(&kPlansOfNodeAware, call)) {
      return classic::execute(comm, *kept, {call.send.data, call.recv.data},
                              call.mode, function);
    }
  }
  const Checks check(comm, call);
  const Exchange blocks = normalise(table, call, check);
  const Routes& routes = node_aware_of(comm, table).routes(call.operation);
  const std::vector<std::int64_t> sizes =
      uniform ? uniform_sizes(routes, blocks, function)
              : exchange_sizes(comm, routes, blocks, function);
  auto plan = std::make_shared<const Plan>(
      data_plan(routes, blocks, sizes, table, function));
  if (uniform) last.keep(&kPlansOfNodeAware, call, plan);
  return classic::execute(comm, std::move(plan),
                          {call.send.data, call.recv.data}, call.mode,
                          function);
}

// Where alltoall's blocks get too large for two relays: measured on 4
// simulated hosts x 4 processes (docs/experiments.md, "Node-aware
// collectives"), node_aware ran 1.5-2.4x Open MPI's alltoall at 4 KB
// blocks and 0.7x at 40 KB, where direct held 0.96-1.0. allgather's block
// crosses once per host and kept its lead at 40 KB (1.2-1.8x): no
// crossover.
constexpr std::size_t kAlltoallMostBlockBytes = std::size_t{16} * 1024;

// Offered on directed graphs, not on a classic Cartesian topology (whose
// repeated neighbours pair by direction, not by order). The default where
// the graph spans several hosts: for allgather and alltoall (the latter up
// to kAlltoallMostBlockBytes, direct above) in every mode, for the v and w
// forms in persistent mode, whose size exchange runs once, at
// initialisation (blocking and non-blocking calls would pay it every call:
// they keep their choice). Never on one host, where it is direct's
// messages behind a gathered graph.
void adopt(Table& table) {
  if (table.structure != Structure::directed_graph || table.cartesian) return;
  for (Operation operation :
       {Operation::allgather, Operation::allgatherv, Operation::allgatherw,
        Operation::alltoall, Operation::alltoallv, Operation::alltoallw}) {
    table.offer(operation, node_aware());
  }
  if (table.hosts() < 2) return;
  table.choice(Operation::allgather) = Choice::only(node_aware());
  Choice alltoall;
  alltoall.primary = node_aware();
  alltoall.alternative = direct();
  alltoall.crossover_bytes = kAlltoallMostBlockBytes;
  table.choice(Operation::alltoall) = alltoall;
  for (Operation operation : {Operation::allgatherv, Operation::allgatherw}) {
    Choice& choice = table.choice(operation);
    choice.persistent = node_aware();
    choice.persistent_crossover_bytes = Choice::kNever;
  }
  for (Operation operation : {Operation::alltoallv, Operation::alltoallw}) {
    Choice& choice = table.choice(operation);
    choice.alternative = direct();
    choice.persistent = node_aware();
    choice.persistent_crossover_bytes = kAlltoallMostBlockBytes;
    choice.agreed_size = true;
  }
}

}  // namespace

extern constinit const Registration kNodeAware{{"node_aware", &run}, &adopt};

const Algorithm& node_aware() { return kNodeAware.algorithm; }

}  // namespace ortho::algorithms
