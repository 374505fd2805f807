// "direct": on directed graphs every edge carries its own message, in one
// round. allgather(v, w) and alltoall(v, w) send the blocks of their
// normalisation (internal/exchange.h), the plan kept for the next call with
// the same arguments; the other operations run the plans of graph_plans.h
// on the call their normalisation (internal/rooted.h) made raw and checked.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/exec/executor.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/combining/combining.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/algorithms/graph_plans.h"
#include "ortho/algorithms/node_aware/node_aware.h"
#include "ortho/algorithms/node_aware_model.h"
#include "ortho/algorithms/pricing.h"
#include "ortho/algorithms/registry.h"
#include "ortho/algorithms/traffic_counts.h"
#include "ortho/internal/exchange.h"
#include "ortho/internal/last_plan.h"

namespace ortho::algorithms {
namespace {

using classic::Error;
using classic::ErrorClass;

// ---- raw calls --------------------------------------------------------------

classic::Request execute(const classic::Comm& comm, const Call& c,
                         classic::Plan plan) {
  return classic::execute(
      comm, std::make_shared<const classic::Plan>(std::move(plan)),
      {c.send.data == MPI_IN_PLACE ? nullptr : c.send.data,
       c.recv.data == MPI_IN_PLACE ? nullptr : c.recv.data},
      c.mode, c.function());
}

// The plan of a call that normalise_rooted() has made raw and checked.
classic::Plan plan_for(const Call& c, const Neighbourhood& n) {
  const SendSide& s = c.send;
  const RecvSide& r = c.recv;
  const bool root = n.rank == c.root;
  const bool send_in_place = root && s.data == MPI_IN_PLACE;
  const bool recv_in_place = root && r.data == MPI_IN_PLACE;
  switch (c.operation) {
    case Operation::barrier:
      return barrier_plan(n);
    case Operation::bcast:
      return bcast_plan(n, {r.count, r.datatype}, c.root);
    case Operation::gather:
      return gather_plan(n, {s.count, s.datatype},
                         root ? Elements{r.count, r.datatype} : Elements{},
                         c.root, send_in_place);
    case Operation::gatherv:
      return root ? gatherv_plan(n, {s.count, s.datatype}, r.counts, r.displs,
                                 r.datatype, c.root, send_in_place)
                  : gather_plan(n, {s.count, s.datatype}, {}, c.root, false);
    case Operation::scatter:
      return scatter_plan(n, root ? Elements{s.count, s.datatype} : Elements{},
                          {r.count, r.datatype}, c.root, recv_in_place);
    case Operation::scatterv:
      return root ? scatterv_plan(n, s.counts, s.displs, s.datatype,
                                  {r.count, r.datatype}, c.root, recv_in_place)
                  : scatter_plan(n, {}, {r.count, r.datatype}, c.root, false);
    case Operation::reduce:
      return reduce_plan(n, {s.count, s.datatype}, c.op, c.root, send_in_place);
    case Operation::allreduce:
      return allreduce_plan(n, {s.count, s.datatype}, c.op,
                            s.data == MPI_IN_PLACE);
    default:
      break;
  }
  throw Error(ErrorClass::intern, c.function(),
              "no graph plan for this operation");
}

// ---- the neighbourhood collectives
// -------------------------------------------

// What identifies direct's plans among an operation's last plans.
constexpr char kPlansOfDirect = 0;

// allgather(v, w) and alltoall(v, w): the plan of the call's normalised
// blocks, made once for a run of calls with the same arguments.
classic::Request run_exchange(const classic::Comm& comm, const Table& table,
                              const Call& call) {
  internal::LastPlan& last =
      table.last_plans[static_cast<std::size_t>(call.operation)].of(
          &kPlansOfDirect);
  const std::uint64_t shape = internal::shape_of(table, call);
  const std::shared_ptr<const classic::Plan>* plan =
      last.find(&kPlansOfDirect, shape);
  if (plan == nullptr) {
    const Checks check(comm, call);
    plan = &last.keep(&kPlansOfDirect, shape,
                      edge_plan(table, normalise(table, call, check)));
  }
  return classic::execute(comm, *plan, {call.send.data, call.recv.data},
                          call.mode, call.function());
}

[[gnu::hot]] classic::Request run(const classic::Comm& comm, const Table& table,
                                  const Call& call) {
  if (is_exchange(call.operation)) {
    return run_exchange(comm, table, call);
  }
  // Normalised by the dispatch (internal/rooted.h): raw and checked.
  const Neighbourhood n{comm.rank(), table.sources, table.destinations};
  return execute(comm, call, plan_for(call, n));
}

// Every operation that has a meaning on a directed graph.
void offer(Table& table) {
  if (table.structure != Structure::directed_graph) return;
  for (Operation operation : all_operations()) {
    if (defined_on(operation, table.structure)) {
      table.offer(operation, direct());
    }
  }
}

// The baseline: every edge its message in one round, on the table's scale
// (pricing.h); 0 where there is no model.
Pricer price(const Table& table, Operation operation) {
  switch (scale_of(table)) {
    case Scale::hosts: {
      const std::shared_ptr<const NodeAware> model = node_aware_state(table);
      const HostPrices prices = *model->prices();
      return [model, prices](classic::Mode, std::size_t bytes) {
        return direct_call_ns(model->graph(), prices, bytes);
      };
    }
    case Scale::one_host: {
      const Combining& stencil = *combining_of(table);
      Traffic traffic = direct_traffic(stencil);
      if (operation == Operation::allreduce) {
        traffic.reduced_blocks = traffic.blocks;  // folded at the receiver
      }
      const Prices prices = stencil.prices;
      return [traffic, prices](classic::Mode, std::size_t bytes) {
        return model_ns(prices, traffic, bytes);
      };
    }
    case Scale::unpriced:
      break;
  }
  return [](classic::Mode, std::size_t) { return 0.0; };
}

// One message per out-edge, in one round (a Cartesian stencil's: its
// schedule's direct counts); between hosts, the edges to other hosts.
std::optional<ortho::Traffic> traffic_of(const classic::Comm& comm,
                                         const Table& table, Operation,
                                         std::size_t block_bytes,
                                         classic::Mode) {
  const auto edges = static_cast<int>(
      std::count_if(table.destinations.begin(), table.destinations.end(),
                    [](int peer) { return peer != classic::proc_null; }));
  ortho::Traffic traffic{.messages = edges,
                         .bytes = static_cast<std::int64_t>(edges) *
                                  static_cast<std::int64_t>(block_bytes),
                         .rounds = edges > 0 ? 1 : 0,
                         .messages_between_hosts = std::nullopt,
                         .bytes_between_hosts = std::nullopt};
  if (const Combining* stencil = combining_of(table)) {
    traffic = counted(direct_traffic(*stencil), block_bytes);
  }
  if (!table.host_of_rank.empty()) {
    const int mine = table.host_of_rank[static_cast<std::size_t>(comm.rank())];
    const auto crossing = static_cast<int>(std::count_if(
        table.destinations.begin(), table.destinations.end(), [&](int peer) {
          return peer != classic::proc_null && peer != comm.rank() &&
                 table.host_of_rank[static_cast<std::size_t>(peer)] != mine;
        }));
    traffic.messages_between_hosts = crossing;
    traffic.bytes_between_hosts = static_cast<std::int64_t>(crossing) *
                                  static_cast<std::int64_t>(block_bytes);
  }
  return traffic;
}

}  // namespace

extern constinit const Registration kDirect{.algorithm = {"direct", &run},
                                            .offer = &offer,
                                            .price = &price,
                                            .baseline = true,
                                            .reversible = true,
                                            .traffic = &traffic_of};

const Algorithm& direct() { return kDirect.algorithm; }

}  // namespace ortho::algorithms
