// "combining" for allgather and alltoall on Cartesian stencils (Träff and
// Hunold's message combining, combining.h), and the registration of
// message combining: which operations combine, from the cost model.
#include "ortho/algorithms/combining.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/datatype_layout.h"
#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/combining.h"
#include "ortho/algorithms/combining_plans.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/algorithms/registry.h"
#include "ortho/internal/exchange.h"
#include "ortho/internal/last_plan.h"

namespace ortho::algorithms {
namespace {

using combining_plans::Layout;
using combining_plans::layout_of;
using combining_plans::PlanBuilder;
using Plan = classic::Plan;
using Space = Plan::Space;

// What identifies combining's plans among an operation's last plans.
constexpr char kPlansOfCombining = 0;

classic::Request run(const classic::Comm& comm, const Table& table,
                     const Call& call) {
  internal::LastPlan& last =
      table.last_plans[static_cast<std::size_t>(call.operation)];
  if (const auto* plan = last.find(&kPlansOfCombining, call)) {
    return classic::execute(comm, *plan, {call.send.data, call.recv.data},
                            call.mode, call.function());
  }
  const Checks check(comm, call);
  const Exchange blocks = normalise(table, call, check);
  Call c = call;
  c.send.count = blocks.send_count;
  c.recv.count = blocks.recv_count;
  const Combining& combining = *table.combining;
  // Plans over derived datatypes are made afresh at every call: a handle
  // freed and made again may name another layout.
  const bool cacheable =
      classic::datatype_layout(c.send.datatype, c.function()).predefined &&
      classic::datatype_layout(c.recv.datatype, c.function()).predefined;
  const Layout layout =
      layout_of({c.send.count, c.send.datatype},
                {c.recv.count, c.recv.datatype}, c.function());
  auto plan = std::make_shared<const Plan>(
      c.operation == Operation::allgather
          ? PlanBuilder(combining, combining.allgather, layout).build()
          : PlanBuilder(combining, combining.alltoall, layout).build());
  if (cacheable) last.keep(&kPlansOfCombining, call, plan);
  return classic::execute(comm, std::move(plan), {c.send.data, c.recv.data},
                          c.mode, c.function());
}

// Cartesian stencils (Table::combining): allgather and alltoall combine
// up to the block size where the cost model prices combining cheaper than
// direct (ortho/algorithms/cost_model.h), alltoallv and alltoallw when
// persistent, allgatherv and allgatherw where allgather does.
void adopt(Table& table) {
  if (!table.combining) return;
  const Combining& c = *table.combining;
  const Traffic direct = direct_traffic(c);
  for (const auto& [operation, collective] :
       {std::pair{Operation::allgather, stencils::Collective::allgather},
        std::pair{Operation::alltoall, stencils::Collective::alltoall}}) {
    table.offer(operation, algorithms::combining());
    const std::optional<std::size_t> limit =
        cheaper_up_to(c.prices, direct, combining_traffic(c, collective),
                      kMostCombinedBlockBytes);
    if (!limit) continue;  // nothing to gain
    table.choice(operation).take_up_to(algorithms::combining(), *limit);
  }
  // alltoallv and alltoallw pay for a size exchange first, and their block
  // sizes differ between processes, so a size-aware choice agrees on the
  // largest block before choosing. Persistent calls pay both once, at
  // initialisation, and take combining up to alltoall's crossover. The
  // other modes would pay them at every call: measured over TCP loopback
  // (combining_benchmark, 4 processes), the schedule run twice beat direct
  // by 10-20 %, and the agreement (an allreduce) took that and more; they
  // stay direct.
  const std::optional<std::size_t> persistent_limit = cheaper_up_to(
      c.prices, direct, combining_traffic(c, stencils::Collective::alltoall),
      kMostCombinedBlockBytes);
  for (Operation operation : {Operation::alltoallv, Operation::alltoallw}) {
    table.offer(operation, exchange_blocks());
    if (!persistent_limit) continue;
    Choice& choice = table.choice(operation);
    choice.take_up_to(exchange_blocks(), *persistent_limit,
                      {classic::Mode::persistent});
    choice.agreed_size = true;
  }
  // allgatherv and allgatherw follow allgather where no block waits in
  // scratch (the relay trees forward from receive slots).
  const bool gathers_from_slots = table.combining->allgather.temp_slots == 0;
  for (Operation operation : {Operation::allgatherv, Operation::allgatherw}) {
    if (gathers_from_slots) table.offer(operation, gather_blocks());
  }
  const Choice& allgather = table.choice(Operation::allgather);
  if (allgather.select(0) == algorithms::combining() && gathers_from_slots) {
    for (Operation operation : {Operation::allgatherv, Operation::allgatherw}) {
      table.choice(operation) = Choice::only(gather_blocks());
    }
  }
}

}  // namespace

extern constinit const Registration kCombining{{"combining", &run}, &adopt};

const Algorithm& combining() { return kCombining.algorithm; }

}  // namespace ortho::algorithms
