// "common_neighbours": allgather(v, w) and alltoall(v, w) on directed
// graphs along the routes of common_neighbours_routes.h, after Mirsadeghi,
// Träff, Balaji and Afsahi (HiPC 2017): processes of one host with common
// out-neighbours pair up, give each other the blocks the other forwards,
// and one of the two sends both blocks to each common neighbour in one
// message. Fewer messages than direct, one more round.
//
// The pairs come from the whole graph, which the table shares with
// node_aware (node_aware_of: gathered with the table where the graph spans
// several hosts, otherwise by the first call, collectively). Plans,
// relayed blocks and the size exchange of the v and w forms are
// node_aware's (node_aware_plans.h): relayed blocks wait in scratch and
// travel as MPI_PACKED; allgather and alltoall keep their plan for the
// next call with the same arguments; the v and w forms carry the relayed
// sizes inside a blocking call's messages (node_aware/self_sized.h) and
// learn them first otherwise, persistent calls once at initialisation
// (exchange_sizes: the routes over 8 bytes a block). A partner is a
// process with edges, so it knows the size of allgather's and alltoall's
// blocks from its own arguments.
#include "ortho/algorithms/common_neighbours/common_neighbours.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "classic/base/error.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/node_aware/node_aware_plans.h"
#include "ortho/algorithms/node_aware_model.h"
#include "ortho/algorithms/pricing.h"
#include "ortho/algorithms/registry.h"
#include "ortho/algorithms/traffic_counts.h"

namespace ortho::algorithms {

using node_routes::Payload;
using node_routes::Routes;

namespace {

// The fewest common out-neighbours of a pair: ORTHO_LEAST_COMMON=K, for
// tests and experiments (1 pairs processes on small graphs), otherwise
// common_routes::kLeastCommon.
int least_common() {
  const char* value = std::getenv("ORTHO_LEAST_COMMON");
  if (value == nullptr) return common_routes::kLeastCommon;
  char* end = nullptr;
  const std::int64_t least = std::strtoll(value, &end, 10);
  if (end == value || *end != '\0' || least < 1 || least > 1 << 20) {
    throw classic::Error(classic::ErrorClass::arg, "ortho (environment)",
                         std::string("ORTHO_LEAST_COMMON = '") + value +
                             "' is no positive number of neighbours");
  }
  return static_cast<int>(least);
}

}  // namespace

CommonNeighbours::CommonNeighbours(std::shared_ptr<const NodeAware> whole)
    : whole_(std::move(whole)),
      grouping_(common_routes::groups(whole_->graph(), least_common())) {}

const Routes& CommonNeighbours::routes(Operation operation) const {
  const Payload payload = NodeAware::payload_of(operation);
  std::optional<Routes>& kept = routes_[static_cast<std::size_t>(payload)];
  if (!kept) {
    kept = common_routes::routes(whole_->graph(), grouping_, whole_->rank(),
                                 whole_->sources(), payload);
  }
  return *kept;
}

namespace {

// What identifies the algorithm's pairs among the table's algorithm states.
constexpr char kStateOfCommonNeighbours = 0;

// The pairs where they have been found, otherwise null.
const CommonNeighbours* pairs_of(const Table& table) {
  return static_cast<const CommonNeighbours*>(
      table.find_state(&kStateOfCommonNeighbours));
}

// The table's pairs: found with the table where the graph spans several
// hosts, otherwise by the first call (collective then, with the gather of
// the graph).
const CommonNeighbours& common_neighbours_of(const classic::Comm& comm,
                                             const Table& table) {
  if (const CommonNeighbours* found = pairs_of(table)) return *found;
  node_aware_of(comm, table);
  auto pairs = std::make_shared<CommonNeighbours>(node_aware_state(table));
  table.state_of(&kStateOfCommonNeighbours) = pairs;
  return *pairs;
}

const Routes& routes_of(const classic::Comm& comm, const Table& table,
                        Operation operation) {
  return common_neighbours_of(comm, table).routes(operation);
}

// What identifies common_neighbours' plans among an operation's last plans.
constexpr char kPlansOfCommonNeighbours = 0;

classic::Request run(const classic::Comm& comm, const Table& table,
                     const Call& call) {
  return run_along(comm, table, call, &kPlansOfCommonNeighbours, &routes_of,
                   &exchange_sizes);
}

constexpr Operation kOperations[] = {
    Operation::allgather, Operation::allgatherv, Operation::allgatherw,
    Operation::alltoall,  Operation::alltoallv,  Operation::alltoallw};

// The pairs, where node_aware's analysis gathered the graph and agreed on
// the prices (the graph spans several hosts): found by the first price,
// which comes after every analysis, so that the registry's order does not
// matter. Nothing is exchanged: what it needs the table has. On one host
// nothing is gathered at creation (it would add a gather and an agreement
// to the making of every graph) and the algorithm runs only where forced.
const CommonNeighbours* priced_pairs(const Table& table) {
  if (const CommonNeighbours* found = pairs_of(table)) return found;
  std::shared_ptr<const NodeAware> whole = node_aware_state(table);
  if (!table.pairs_by_order() || whole == nullptr || !whole->prices()) {
    return nullptr;
  }
  auto pairs = std::make_shared<CommonNeighbours>(std::move(whole));
  table.state_of(&kStateOfCommonNeighbours) = pairs;
  return pairs.get();
}

// Offered on the graphs whose neighbours pair by order (not a classic
// Cartesian topology, whose repeated neighbours pair by direction).
void offer(Table& table) {
  if (!table.pairs_by_order()) return;
  // A reverse: along node_aware's graph turned around, where it has one.
  if (table.reverse && node_aware_state(table) == nullptr) return;
  for (const Operation operation : kOperations) {
    table.offer(operation, common_neighbours());
  }
}

// Its two rounds' loads on the host model where the table found pairs:
// allgather and alltoall in every mode, the v and w forms blocking (their
// sizes travel inside the messages) and persistent (their size exchange
// runs once, at initialisation), not non-blocking (the routes run twice).
Pricer price(const Table& table, Operation operation) {
  const CommonNeighbours* pairs = priced_pairs(table);
  if (pairs == nullptr || scale_of(table) != Scale::hosts) return {};
  const std::shared_ptr<const NodeAware> whole = node_aware_state(table);
  const bool sized = NodeAware::exchanges_sizes(operation);
  return [whole, prices = *whole->prices(), sized,
          loads = common_routes::loads(whole->graph(), pairs->grouping(),
                                       NodeAware::payload_of(operation))](
             classic::Mode mode, std::size_t bytes) -> std::optional<double> {
    if (sized && mode == classic::Mode::nonblocking) return std::nullopt;
    return common_neighbours_call_ns(whole->graph(), loads, prices, bytes);
  };
}

// Its routes for the exchanges, once the communicator has run it or its
// table priced it.
std::optional<ortho::Traffic> traffic_of(const classic::Comm& comm,
                                         const Table& table,
                                         Operation operation,
                                         std::size_t block_bytes,
                                         classic::Mode mode) {
  const CommonNeighbours* pairs = pairs_of(table);
  if (pairs == nullptr || !is_exchange(operation)) return std::nullopt;
  return routes_traffic(pairs->routes(operation), table, comm.rank(), operation,
                        block_bytes, mode, SizesLearnt::along_routes);
}

}  // namespace

extern constinit const Registration kCommonNeighbours{
    .algorithm = {"common_neighbours", &run},
    .offer = &offer,
    .price = &price,
    .reversible = true,
    .traffic = &traffic_of};

const Algorithm& common_neighbours() { return kCommonNeighbours.algorithm; }

}  // namespace ortho::algorithms
