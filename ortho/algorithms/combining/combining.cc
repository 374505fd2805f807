// "combining" for allgather and alltoall on Cartesian stencils (Träff and
// Hunold's message combining, combining.h), and the registration of
// message combining: which operations combine, from the cost model.
#include "ortho/algorithms/combining/combining.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/combining/combining.h"
#include "ortho/algorithms/combining/combining_loads.h"
#include "ortho/algorithms/combining/combining_plans.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/algorithms/node_aware/node_aware.h"
#include "ortho/algorithms/node_aware_model.h"
#include "ortho/algorithms/pricing.h"
#include "ortho/algorithms/registry.h"
#include "ortho/algorithms/traffic_counts.h"
#include "ortho/internal/exchange.h"
#include "ortho/internal/last_plan.h"

namespace ortho::algorithms {
namespace {

using combining_plans::Layout;
using combining_plans::layout_of;
using combining_plans::PlanBuilder;
using Plan = classic::Plan;
using Space = Plan::Space;

// What identifies combining's plans among an operation's last plans, and
// its analysis among the table's algorithm states.
constexpr char kPlansOfCombining = 0;
constexpr char kStateOfCombining = 0;

classic::Request run(const classic::Comm& comm, const Table& table,
                     const Call& call) {
  internal::LastPlan& last =
      table.last_plans[static_cast<std::size_t>(call.operation)].of(
          &kPlansOfCombining);
  const std::uint64_t shape = internal::shape_of(table, call);
  if (const auto* plan = last.find(&kPlansOfCombining, shape)) {
    return classic::execute(comm, *plan, {call.send.data, call.recv.data},
                            call.mode, call.function());
  }
  const Checks check(comm, call);
  const Exchange blocks = normalise(table, call, check);
  Call c = call;
  c.send.count = blocks.send_count;
  c.recv.count = blocks.recv_count;
  const Combining& combining = *combining_of(table);
  const Layout layout =
      layout_of({c.send.count, c.send.datatype},
                {c.recv.count, c.recv.datatype}, c.function());
  // Kept by the call's number, which a call over a derived datatype never
  // matches (internal/call_shape.h): its plan is made afresh every call.
  const std::shared_ptr<const Plan>& plan = last.keep(
      &kPlansOfCombining, shape,
      std::make_shared<const Plan>(
          c.operation == Operation::allgather
              ? PlanBuilder(combining, combining.allgather, layout).build()
              : PlanBuilder(combining, combining.alltoall, layout).build()));
  return classic::execute(comm, plan, {c.send.data, c.recv.data}, c.mode,
                          c.function());
}

// Where every process names the same grid, whether the neighbourhoods are
// one stencil on it, and the schedules then (collective over `comm`: the
// detection's agreement and the agreed prices).
void analyse(const classic::Comm& comm, Table& table) {
  if (!table.grid) return;
  table.state_of(&kStateOfCombining) =
      detect_combining(comm, table.grid->geometry, table.destinations,
                       table.sources, table.grid->source_order);
}

// Cartesian stencils: allgather and alltoall, and the v and w forms from
// the same schedules (allgatherv and allgatherw where no block waits in
// scratch: the relay trees forward from receive slots).
void offer(Table& table) {
  const Combining* c = combining_of(table);
  if (c == nullptr) return;
  table.offer(Operation::allgather, algorithms::combining());
  table.offer(Operation::alltoall, algorithms::combining());
  table.offer(Operation::alltoallv, exchange_blocks());
  table.offer(Operation::alltoallw, exchange_blocks());
  if (c->allgather.temp_slots == 0) {
    table.offer(Operation::allgatherv, gather_blocks());
    table.offer(Operation::allgatherw, gather_blocks());
  }
}

bool alltoall_family(Operation operation) {
  return operation == Operation::alltoall ||
         operation == Operation::alltoallv || operation == Operation::alltoallw;
}

// The schedule's rounds priced on the table's scale (pricing.h), up to
// kMostCombinedBlockBytes. Over several hosts the host model's time is
// divided by kCombiningShareOfNodeAware: there combining's messages between
// hosts (one from every process) measured slower than the model prices
// them, against node_aware's one per pair of hosts
// (node_aware_model.h). alltoallv and alltoallw pay a size exchange
// first: priced in persistent mode only, which pays it once, at
// initialisation (measured over TCP loopback, the schedule run twice beat
// direct by 10-20 %, and the agreement on the size took that and more).
Pricer price(const Table& table, Operation operation) {
  const Combining& c = *combining_of(table);
  const stencils::Collective collective = alltoall_family(operation)
                                              ? stencils::Collective::alltoall
                                              : stencils::Collective::allgather;
  const bool persistent_only =
      operation == Operation::alltoallv || operation == Operation::alltoallw;
  const auto priced = [persistent_only](classic::Mode mode, std::size_t bytes) {
    return bytes <= kMostCombinedBlockBytes &&
           (!persistent_only || mode == classic::Mode::persistent);
  };
  if (scale_of(table) == Scale::hosts) {
    const std::shared_ptr<const NodeAware> model = node_aware_state(table);
    const HostPrices prices = *model->prices();
    const auto& rounds = collective == stencils::Collective::allgather
                             ? c.allgather.rounds
                             : c.alltoall.rounds;
    const auto eager = static_cast<std::size_t>(c.prices.eager_bytes);
    return [model, prices, priced, eager,
            messages = combining_loads::messages_of(
                rounds, c.geometry, model->graph().host_of_rank)](
               classic::Mode mode, std::size_t bytes) -> std::optional<double> {
      if (!priced(mode, bytes)) return std::nullopt;
      return combining_call_ns(model->graph(), messages, prices, bytes, eager) /
             kCombiningShareOfNodeAware;
    };
  }
  const Traffic traffic = combining_traffic(c, collective);
  return [prices = c.prices, traffic, priced](
             classic::Mode mode, std::size_t bytes) -> std::optional<double> {
    if (!priced(mode, bytes)) return std::nullopt;
    return model_ns(prices, traffic, bytes);
  };
}

// Its schedule's messages, split at the eager limit for allgather and
// alltoall; the v and w forms with their size exchange outside persistent
// mode; allreduce on a box stencil, the box's rounds.
std::optional<ortho::Traffic> traffic_of(const classic::Comm&,
                                         const Table& table,
                                         Operation operation,
                                         std::size_t block_bytes,
                                         classic::Mode mode) {
  const Combining* found = combining_of(table);
  if (found == nullptr) return std::nullopt;
  const Combining& c = *found;
  switch (operation) {
    case Operation::allgather:
    case Operation::alltoall: {
      const Traffic schedule =
          combining_traffic(c, operation == Operation::allgather
                                   ? stencils::Collective::allgather
                                   : stencils::Collective::alltoall);
      ortho::Traffic traffic = counted(schedule, block_bytes);
      // Messages the plans send as two at the eager limit.
      traffic.messages +=
          split_messages(schedule, block_bytes, c.prices.eager_bytes);
      return traffic;
    }
    case Operation::alltoallv:
    case Operation::alltoallw: {
      const Traffic schedule =
          combining_traffic(c, stencils::Collective::alltoall);
      if (mode == classic::Mode::persistent) {
        return counted(schedule, block_bytes);
      }
      return ortho::Traffic{
          .messages = 2 * schedule.messages,
          .bytes =
              static_cast<std::int64_t>(schedule.blocks) *
              static_cast<std::int64_t>(block_bytes + sizeof(std::int64_t)),
          .rounds = 2 * schedule.rounds,
          .messages_between_hosts = std::nullopt,
          .bytes_between_hosts = std::nullopt};
    }
    case Operation::allreduce:
      if (c.box_depth > 0) {
        return counted(box_allreduce_traffic(c), block_bytes);
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

}  // namespace

extern constinit const Registration kCombining{.algorithm = {"combining", &run},
                                               .offer = &offer,
                                               .price = &price,
                                               .analyse = &analyse,
                                               .traffic = &traffic_of};

const Combining* combining_of(const Table& table) {
  return static_cast<const Combining*>(table.find_state(&kStateOfCombining));
}

const Algorithm& combining() { return kCombining.algorithm; }

}  // namespace ortho::algorithms
