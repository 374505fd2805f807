// "node_aware": allgather(v, w), alltoall(v, w) and allreduce on directed
// graphs whose processes sit on several hosts, along the routes of
// node_aware_routes.h: at most one message per ordered pair of hosts
// crosses between them. allreduce sends allgather's blocks and reduces
// them where they arrive.
//
// Where a new graph spans several hosts, its table gathers every process's
// destinations (collective: an allgather of the out-degrees and one of the
// lists, on the base communicator) and asks the cost model
// (node_aware_model.h) up to which block size node_aware beats direct;
// elsewhere (forced on one host) its first call gathers them. Relayed blocks
// wait in scratch as bytes and travel as MPI_PACKED, which matches any type
// signature. In allgather and alltoall every block has the same size everywhere
// (MPI), so a relay knows it from its own arguments and the plan is kept for
// the next call with the same arguments. In the v and w forms a relay cannot
// know the sizes of the blocks it forwards (MPI tells a process only its own).
// A blocking call sends them inside the messages that carry the blocks to
// and between the relays, which receive those messages whatever their size
// (node_aware/self_sized.h). Persistent and non-blocking calls first learn
// them within the hosts (node_aware_plans.h, local_sizes: every relayed
// block's size is known on both its hosts, by its source and by its
// destination, so one round of small messages within each host tells the
// relays, and nothing more crosses between hosts), then run the blocks:
// persistent calls once, at initialisation; non-blocking calls at every
// call (waiting for it). A block that a receiving relay needs itself lands
// in its own receive block where that block has exactly the block's size,
// and is handed on from there.
#include "ortho/algorithms/node_aware/node_aware.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "classic/collectives/collectives.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "ortho/algorithms/agreed_prices.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/combining/combining.h"
#include "ortho/algorithms/combining/combining_loads.h"
#include "ortho/algorithms/graph_plans.h"
#include "ortho/algorithms/node_aware/node_aware_plans.h"
#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "ortho/algorithms/node_aware_model.h"
#include "ortho/algorithms/pricing.h"
#include "ortho/algorithms/registry.h"
#include "ortho/algorithms/traffic_counts.h"
#include "ortho/internal/exchange.h"
#include "ortho/internal/last_plan.h"
#include "stencils/schedule.h"

namespace ortho::algorithms {

using classic::Plan;
using node_routes::Payload;
using node_routes::Routes;
using Space = Plan::Space;

NodeAware::NodeAware(node_routes::HostGraph graph, int rank,
                     std::vector<int> sources,
                     std::vector<std::vector<int>> sources_of_rank)
    : graph_(std::move(graph)),
      rank_(rank),
      sources_(std::move(sources)),
      sources_of_rank_(std::move(sources_of_rank)) {}

NodeAware NodeAware::reversed() const {
  NodeAware turned(
      {.host_of_rank = graph_.host_of_rank, .destinations = sources_of_rank_},
      rank_, graph_.destinations[static_cast<std::size_t>(rank_)],
      graph_.destinations);
  turned.prices_ = prices_;
  return turned;
}

Payload NodeAware::payload_of(Operation operation) {
  return operation == Operation::alltoall ||
                 operation == Operation::alltoallv ||
                 operation == Operation::alltoallw
             ? Payload::per_edge
             : Payload::per_source;
}

const Routes& NodeAware::routes(Operation operation) const {
  const Payload payload = payload_of(operation);
  std::optional<Routes>& kept =
      payload == Payload::per_edge ? per_edge_ : per_source_;
  if (!kept) kept = node_routes::routes(graph_, rank_, sources_, payload);
  return *kept;
}

bool NodeAware::relays() const {
  if (!relays_) {
    relays_ = false;
    for (std::size_t s = 0; s < graph_.destinations.size() && !*relays_; ++s) {
      for (const int d : graph_.destinations[s]) {
        if (graph_.host_of_rank[static_cast<std::size_t>(d)] !=
            graph_.host_of_rank[s]) {
          relays_ = true;
          break;
        }
      }
    }
  }
  return *relays_;
}

namespace {

// Every process's view of the whole graph, and of each process's
// in-neighbours in its order (a reverse's routes need them): an allgather
// of the degrees and one of the lists over `over` (collective).
std::shared_ptr<NodeAware> gathered(const classic::Comm& over, int rank,
                                    const Table& table) {
  const auto size = static_cast<std::size_t>(over.size());
  const std::array<int, 2> degree{static_cast<int>(table.destinations.size()),
                                  static_cast<int>(table.sources.size())};
  std::vector<int> degrees(2 * size);
  classic::allgather(over, std::span<const int>(degree),
                     std::span<int>(degrees));
  std::vector<int> counts(size);
  for (std::size_t r = 0; r < size; ++r) {
    counts[r] = degrees[2 * r] + degrees[2 * r + 1];
  }
  std::vector<int> displs(size, 0);
  std::partial_sum(counts.begin(), counts.end() - 1, displs.begin() + 1);
  std::vector<int> mine = table.destinations;
  mine.insert(mine.end(), table.sources.begin(), table.sources.end());
  std::vector<int> all(static_cast<std::size_t>(
      std::accumulate(counts.begin(), counts.end(), 0)));
  classic::allgatherv(over, std::span<const int>(mine), std::span<int>(all),
                      counts, displs);
  node_routes::HostGraph graph;
  graph.host_of_rank = table.host_of_rank;
  graph.destinations.resize(size);
  std::vector<std::vector<int>> sources_of_rank(size);
  for (std::size_t r = 0; r < size; ++r) {
    const auto first = all.begin() + displs[r];
    const auto middle = first + degrees[2 * r];
    graph.destinations[r].assign(first, middle);
    sources_of_rank[r].assign(middle, middle + degrees[2 * r + 1]);
  }
  return std::make_shared<NodeAware>(std::move(graph), rank, table.sources,
                                     std::move(sources_of_rank));
}

// What identifies node_aware's plans among an operation's last plans, and
// its view of the graph among the table's algorithm states.
constexpr char kPlansOfNodeAware = 0;
constexpr char kStateOfNodeAware = 0;

}  // namespace

const NodeAware& node_aware_of(const classic::Comm& comm, const Table& table) {
  if (const void* made = table.find_state(&kStateOfNodeAware)) {
    return *static_cast<const NodeAware*>(made);
  }
  std::shared_ptr<NodeAware> view =
      gathered(table.base.is_null() ? comm : table.base, comm.rank(), table);
  table.state_of(&kStateOfNodeAware) = view;
  return *view;
}

std::shared_ptr<NodeAware> node_aware_state(const Table& table) {
  return std::static_pointer_cast<NodeAware>(
      table.shared_state(&kStateOfNodeAware));
}

namespace {

const Routes& routes_of(const classic::Comm& comm, const Table& table,
                        Operation operation) {
  return node_aware_of(comm, table).routes(operation);
}

// allreduce: the operands travel allgather's routes into one scratch slot
// per source and fold there as direct's do, in source order (so
// non-commutative ops see the order MPI gives them).
classic::Request run_allreduce(const classic::Comm& comm, const Table& table,
                               const Call& call) {
  const char* function = call.function();
  const void* const send =
      call.send.data == MPI_IN_PLACE ? nullptr : call.send.data;
  internal::LastPlan& last =
      table.last_plans[static_cast<std::size_t>(call.operation)].of(
          &kPlansOfNodeAware);
  const std::uint64_t shape = internal::shape_of(table, call);
  if (const auto* kept = last.find(&kPlansOfNodeAware, shape)) {
    return classic::execute(comm, *kept, {send, call.recv.data}, call.mode,
                            function);
  }
  const Neighbourhood n{comm.rank(), table.sources, table.destinations};
  // Raw and checked by the dispatch (internal/rooted.h).
  const Elements operand{call.send.count, call.send.datatype};
  const Plan::Block result{.space = Space::recv,
                           .displacement = 0,
                           .count = operand.count,
                           .datatype = operand.datatype};
  Plan::Block own = result;
  if (send != nullptr) own.space = Space::send;
  const OperandSlots operands = operand_slots(n.sources.size(), operand);
  Exchange blocks;
  blocks.send.assign(n.destinations.size(), own);
  blocks.recv = operands.slots;
  const Routes& routes = node_aware_of(comm, table).routes(call.operation);
  Plan plan = data_plan(routes, blocks, uniform_sizes(routes, blocks, function),
                        table, operands.bytes, function);
  Plan::Round fold;
  fold_operands(fold.local, operands.slots, result, call.op);
  if (!fold.local.empty()) plan.rounds.push_back(std::move(fold));
  return classic::execute(
      comm,
      last.keep(&kPlansOfNodeAware, shape,
                std::make_shared<const Plan>(std::move(plan))),
      {send, call.recv.data}, call.mode, function);
}

classic::Request run_any(const classic::Comm& comm, const Table& table,
                         const Call& call) {
  return call.operation == Operation::allreduce
             ? run_allreduce(comm, table, call)
             : run_along(comm, table, call, &kPlansOfNodeAware, &routes_of,
                         node_aware_of(comm, table).relays() ? &local_sizes
                                                             : &own_sizes);
}

// Where the graph spans several hosts, its whole graph and the job's facts
// for the host model (collective over `comm`: the graph's gather, an
// agreement on the prices): what every algorithm on the table prices its
// calls with there (pricing.h).
void analyse(const classic::Comm& comm, Table& table) {
  if (!table.pairs_by_order() || table.hosts() < 2) return;
  const classic::Comm& over = table.base.is_null() ? comm : table.base;
  std::shared_ptr<NodeAware> view = gathered(over, comm.rank(), table);
  const JobFacts job = agreed_job(over);
  view->set_prices(job.machine
                       ? host_prices(*job.machine, job.processes_per_core)
                       : host_prices(job.processes_per_core));
  table.state_of(&kStateOfNodeAware) = std::move(view);
}

// A reverse's view of the graph: the forward graph's, turned around, where
// its analysis gathered one (several hosts; on one host node_aware is
// direct's messages, and direct serves the reverse).
void turn_around(const Table& forward, Table& reverse) {
  const std::shared_ptr<const NodeAware> view = node_aware_state(forward);
  if (view == nullptr || !view->prices()) return;
  reverse.state_of(&kStateOfNodeAware) =
      std::make_shared<NodeAware>(view->reversed());
}

// Offered on the graphs whose neighbours pair by order (not a classic
// Cartesian topology, whose repeated neighbours pair by direction); on a
// reverse, where it has the graph turned around.
void offer(Table& table) {
  if (!table.pairs_by_order()) return;
  if (table.reverse && table.find_state(&kStateOfNodeAware) == nullptr) return;
  for (Operation operation :
       {Operation::allgather, Operation::allgatherv, Operation::allgatherw,
        Operation::alltoall, Operation::alltoallv, Operation::alltoallw,
        Operation::allreduce}) {
    table.offer(operation, node_aware());
  }
}

// Its routes' loads on the host model, where the graph spans several hosts
// (never on one host, where it is direct's messages behind a gathered
// graph), in every mode; the non-blocking v and w forms also pay their
// round of sizes within the hosts at every call: a round within a host and
// the busiest process's messages of steps 0 and 2 (a blocking call's sizes
// travel inside its messages; a persistent request learns them once).
Pricer price(const Table& table, Operation operation) {
  if (scale_of(table) != Scale::hosts) return {};
  const std::shared_ptr<const NodeAware> model = node_aware_state(table);
  std::vector<node_routes::Load> loads =
      node_routes::loads(model->graph(), NodeAware::payload_of(operation));
  double sizes_ns = 0;
  if (NodeAware::exchanges_sizes(operation)) {
    int messages = 0;
    for (const node_routes::Load& load : loads) {
      messages = std::max(messages, load[0].messages + load[2].messages);
    }
    sizes_ns = sizes_within_hosts_ns(*model->prices(), messages);
  }
  return [model, prices = *model->prices(), sizes_ns, loads = std::move(loads)](
             classic::Mode mode, std::size_t bytes) {
    return std::optional<double>(
        node_aware_call_ns(model->graph(), loads, prices, bytes) +
        (mode == classic::Mode::nonblocking ? sizes_ns : 0));
  };
}

// Its routes for the exchanges and allreduce (allgather's), once the
// communicator has its model (made with the table across hosts, otherwise
// by the first call).
std::optional<ortho::Traffic> traffic_of(const classic::Comm& comm,
                                         const Table& table,
                                         Operation operation,
                                         std::size_t block_bytes,
                                         classic::Mode mode) {
  const std::shared_ptr<const NodeAware> view = node_aware_state(table);
  if (view == nullptr ||
      (!is_exchange(operation) && operation != Operation::allreduce)) {
    return std::nullopt;
  }
  return routes_traffic(
      view->routes(operation), table, comm.rank(), operation, block_bytes, mode,
      view->relays() ? SizesLearnt::within_hosts : SizesLearnt::not_needed);
}

}  // namespace

extern constinit const Registration kNodeAware{
    .algorithm = {"node_aware", &run_any},
    .offer = &offer,
    .price = &price,
    .analyse = &analyse,
    .reversible = true,
    .reverse = &turn_around,
    .traffic = &traffic_of};

const Algorithm& node_aware() { return kNodeAware.algorithm; }

}  // namespace ortho::algorithms
