// "spread_relays": allgather(v, w) and alltoall(v, w) on directed graphs
// whose processes sit on several hosts, along spread_relays_routes.h: each
// process sends one message per other host its edges reach, to a relay
// there chosen by load, which hands the blocks out within its host. Two
// rounds where node_aware takes three, and the relaying spread over every
// host's processes where node_aware gives a pair of hosts one relay at each
// end: it sends more messages between hosts than node_aware (one per
// process and host rather than one per pair of hosts) and far fewer than
// direct.
//
// Its state on a table is its routes, one per payload, made at first use
// from the whole graph node_aware's view holds (node_aware.h: made with the
// table where the graph spans several hosts, otherwise by the first call
// that needs it, collectively). Relayed blocks wait in scratch as bytes
// and travel as MPI_PACKED; the v and w forms learn their sizes as
// node_aware's do: inside the messages of a blocking call
// (node_aware/self_sized.h), in a round within the hosts first otherwise
// (node_aware_plans.h, local_sizes; a persistent request at its
// initialisation).
#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "ortho/algorithms/agreed_prices.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/node_aware/node_aware.h"
#include "ortho/algorithms/node_aware/node_aware_plans.h"
#include "ortho/algorithms/node_aware_model.h"
#include "ortho/algorithms/pricing.h"
#include "ortho/algorithms/registry.h"
#include "ortho/algorithms/spread_relays/spread_relays_routes.h"
#include "ortho/algorithms/traffic_counts.h"

namespace ortho::algorithms {

extern const Registration kSpreadRelays;  // at the end of this file

namespace {

using node_routes::Routes;

// What identifies its plans among an operation's last plans, and its
// routes among the table's algorithm states.
constexpr char kPlansOfSpreadRelays = 0;
constexpr char kStateOfSpreadRelays = 0;

// The routes of both payloads, made at first use.
struct SpreadRelays {
  std::optional<Routes> per_edge;
  std::optional<Routes> per_source;
};

// This process's routes for `operation` on the whole graph `view` holds.
const Routes& routes_on(const NodeAware& view, const Table& table,
                        Operation operation) {
  std::shared_ptr<void>& slot = table.state_of(&kStateOfSpreadRelays);
  if (slot == nullptr) slot = std::make_shared<SpreadRelays>();
  auto& state = *static_cast<SpreadRelays*>(slot.get());
  const node_routes::Payload payload = NodeAware::payload_of(operation);
  std::optional<Routes>& kept = payload == node_routes::Payload::per_edge
                                    ? state.per_edge
                                    : state.per_source;
  if (!kept) {
    kept = spread_routes::routes(view.graph(), view.rank(), view.sources(),
                                 payload);
  }
  return *kept;
}

// The view first: making it takes a slot of the table's states, which
// would move this algorithm's.
const Routes& routes_of(const classic::Comm& comm, const Table& table,
                        Operation operation) {
  return routes_on(node_aware_of(comm, table), table, operation);
}

classic::Request run(const classic::Comm& comm, const Table& table,
                     const Call& call) {
  return run_along(
      comm, table, call, &kPlansOfSpreadRelays, &routes_of,
      node_aware_of(comm, table).relays() ? &local_sizes : &own_sizes);
}

void offer(Table& table) {
  if (!table.pairs_by_order()) return;
  // A reverse: along node_aware's graph turned around, where it has one.
  if (table.reverse && node_aware_state(table) == nullptr) return;
  for (const Operation operation :
       {Operation::allgather, Operation::allgatherv, Operation::allgatherw,
        Operation::alltoall, Operation::alltoallv, Operation::alltoallw}) {
    table.offer(operation, kSpreadRelays.algorithm);
  }
}

// Its two rounds on the host model where the graph spans several hosts and
// a machine file gives the prices (ORTHO_MACHINE), in every mode; the
// non-blocking v and w forms also pay their round of sizes within the
// hosts: a round within a host and the busiest process's messages within
// its host. The built-in prices describe this project's simulated
// hosts (4 processes a host at most, TCP between them), where node_aware
// measured faster at nearly every point and the model did not tell the
// two apart (docs/algorithms.md): there it runs only where forced.
Pricer price(const Table& table, Operation operation) {
  if (!table.pairs_by_order() || scale_of(table) != Scale::hosts ||
      !prices_from_machine_file()) {
    return {};
  }
  const std::shared_ptr<const NodeAware> view = node_aware_state(table);
  std::vector<std::vector<node_routes::SplitLoad>> loads =
      spread_routes::loads(view->graph(), NodeAware::payload_of(operation));
  double sizes_ns = 0;
  if (NodeAware::exchanges_sizes(operation)) {
    int messages = 0;
    for (std::size_t r = 0; r < loads[0].size(); ++r) {
      messages = std::max(
          messages, loads[0][r].within.messages + loads[1][r].within.messages);
    }
    sizes_ns = sizes_within_hosts_ns(*view->prices(), messages);
  }
  return [view, prices = *view->prices(), sizes_ns, loads = std::move(loads)](
             classic::Mode mode, std::size_t bytes) {
    return std::optional<double>(
        split_rounds_call_ns(view->graph(), loads, prices, bytes) +
        (mode == classic::Mode::nonblocking ? sizes_ns : 0));
  };
}

// Its routes' counts, once the communicator has the whole graph (made with
// the table across hosts, otherwise by a first call).
std::optional<ortho::Traffic> traffic_of(const classic::Comm& comm,
                                         const Table& table,
                                         Operation operation,
                                         std::size_t block_bytes,
                                         classic::Mode mode) {
  const std::shared_ptr<const NodeAware> view = node_aware_state(table);
  if (view == nullptr || !table.pairs_by_order() || !is_exchange(operation)) {
    return std::nullopt;
  }
  return routes_traffic(
      routes_on(*view, table, operation), table, comm.rank(), operation,
      block_bytes, mode,
      view->relays() ? SizesLearnt::within_hosts : SizesLearnt::not_needed);
}

}  // namespace

extern constinit const Registration kSpreadRelays{
    .algorithm = {"spread_relays", &run},
    .offer = &offer,
    .price = &price,
    .reversible = true,
    .traffic = &traffic_of};

}  // namespace ortho::algorithms
