// allgatherv and allgatherw on Cartesian stencils along allgather's relay
// trees (combining.h); named "combining".
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
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/combining.h"
#include "ortho/algorithms/combining_plans.h"
#include "ortho/internal/exchange.h"

namespace ortho::algorithms {
namespace {

using combining_plans::Layout;
using combining_plans::layout_of;
using combining_plans::PlanBuilder;
using Plan = classic::Plan;
using Space = Plan::Space;

// allgatherv and allgatherw: the allgather schedule with a block of its
// own size and datatype per source. Relays forward blocks from their own
// receive slots, whose sizes MPI makes equal to the sender's.
classic::Request run_gather_blocks(const classic::Comm& comm,
                                   const Table& table, const Call& call) {
  const Checks check(comm, call);
  const std::size_t in = table.sources.size();
  Call c = call;
  if (c.form == Form::typed) {
    c.send.count = check.size_of(c.send.elements);
    check.inside(c.recv.counts, c.recv.displs, c.recv.elements, "recv");
  }
  check.elements(c.send.count, c.send.datatype, "send_count", "send_type");
  check.not_in_place(c.send.data, "send", "(no in-place form on a graph)");
  check.not_in_place(c.recv.data, "recv", "(no in-place form on a graph)");
  check.length(c.recv.counts.size(), in, "recvcounts", "indegree");
  check.counts(c.recv.counts, "recvcounts");
  const bool w = c.operation == Operation::allgatherw;
  if (w) {
    check.length(c.recv.byte_displs.size(), in, "rdispls", "indegree");
    check.length(c.recv.datatypes.size(), in, "recv_types", "indegree");
    check.datatypes(c.recv.datatypes, "recv_types");
  } else {
    check.length(c.recv.displs.size(), in, "displs", "indegree");
    check.datatype(c.recv.datatype, "recv_type");
  }
  Layout layout = layout_of({c.send.count, c.send.datatype},
                            {0, w ? MPI_BYTE : c.recv.datatype}, c.function());
  const MPI_Aint extent =
      w ? 1 : classic::datatype_layout(c.recv.datatype, c.function()).extent;
  for (std::size_t i = 0; i < in; ++i) {
    layout.recv_blocks.push_back(
        {.space = Space::recv,
         .displacement = w ? c.recv.byte_displs[i] : c.recv.displs[i] * extent,
         .count = c.recv.counts[i],
         .datatype = w ? c.recv.datatypes[i] : c.recv.datatype});
  }
  const Combining& combining = *table.combining;
  auto plan = std::make_shared<const Plan>(
      PlanBuilder(combining, combining.allgather, layout).build());
  return classic::execute(comm, std::move(plan), {c.send.data, c.recv.data},
                          c.mode, c.function());
}

}  // namespace

const Algorithm& gather_blocks() {
  static constexpr Algorithm kGatherBlocks{"combining", &run_gather_blocks};
  return kGatherBlocks;
}

}  // namespace ortho::algorithms
