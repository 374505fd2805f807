// allgatherv and allgatherw on Cartesian stencils along allgather's relay
// trees (combining.h); named "combining".
#include <memory>
#include <utility>

#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/combining/combining.h"
#include "ortho/algorithms/combining/combining_plans.h"
#include "ortho/internal/exchange.h"

namespace ortho::algorithms {
namespace {

using combining_plans::Layout;
using combining_plans::layout_of;
using combining_plans::PlanBuilder;
using Plan = classic::Plan;

// allgatherv and allgatherw: the allgather schedule with a block of its
// own size and datatype per source. Relays forward blocks from their own
// receive slots, whose sizes MPI makes equal to the sender's.
classic::Request run_gather_blocks(const classic::Comm& comm,
                                   const Table& table, const Call& call) {
  const Checks check(comm, call);
  const Exchange blocks = normalise(table, call, check);
  const bool w = call.operation == Operation::allgatherw;
  Layout layout =
      layout_of({blocks.send_count, call.send.datatype},
                {0, w ? MPI_BYTE : call.recv.datatype}, call.function());
  layout.recv_blocks = blocks.recv;
  const Combining& combining = *combining_of(table);
  auto plan = std::make_shared<const Plan>(
      PlanBuilder(combining, combining.allgather, layout).build());
  return classic::execute(comm, std::move(plan),
                          {call.send.data, call.recv.data}, call.mode,
                          call.function());
}

}  // namespace

const Algorithm& gather_blocks() {
  static constexpr Algorithm kGatherBlocks{"combining", &run_gather_blocks};
  return kGatherBlocks;
}

}  // namespace ortho::algorithms
