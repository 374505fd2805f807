// alltoallv and alltoallw on Cartesian stencils along alltoall's schedule,
// after a size exchange over it (combining.h); named "combining".
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
#include "ortho/algorithms/combining/combining.h"
#include "ortho/algorithms/combining/combining_plans.h"
#include "ortho/internal/exchange.h"

namespace ortho::algorithms {
namespace {

using combining_plans::Layout;
using combining_plans::layout_of;
using combining_plans::PlanBuilder;
using Plan = classic::Plan;
using Space = Plan::Space;

// Runs the alltoall schedule over one int64 per block: every process
// learns the byte size of each block it receives (in the caller's source
// order, first) and of each block it relays (after them, per scratch
// slot). Blocking.
std::vector<std::int64_t> exchange_sizes(const classic::Comm& comm,
                                         const Combining& combining,
                                         const Exchange& blocks,
                                         const char* function) {
  std::vector<std::int64_t> sent = send_bytes(blocks, function);
  const std::size_t in = blocks.recv.size();
  const auto temps = static_cast<std::size_t>(combining.alltoall.temp_slots);
  std::vector<std::int64_t> sizes(in + temps, 0);
  // The same plan for every call (one int64 a block): built once.
  const auto build = [&] {
    Layout layout = layout_of({1, MPI_INT64_T}, {1, MPI_INT64_T}, function);
    for (std::size_t t = 0; t < temps; ++t) {
      layout.temp_blocks.push_back({.space = Space::recv,
                                    .displacement = static_cast<MPI_Aint>(
                                        (in + t) * sizeof(std::int64_t)),
                                    .count = 1,
                                    .datatype = MPI_INT64_T});
    }
    Plan plan = PlanBuilder(combining, combining.alltoall, layout).build();
    plan.scratch_bytes = 0;
    return plan;
  };
  const PlanCache::Shape shape{1, MPI_INT64_T, 1, MPI_INT64_T, MPI_OP_NULL};
  // Blocking: complete on return, the request null.
  (void)classic::execute(comm, combining.size_plans.get(shape, true, build),
                         {sent.data(), sizes.data()}, classic::Mode::blocking,
                         function);
  return sizes;
}

// alltoallv and alltoallw: the alltoall schedule with each block its own
// size and datatype. A relay cannot know the sizes of the blocks it
// forwards (MPI tells a process the sizes of its own blocks only), so the
// schedule first carries every block's byte size, then the blocks. Relayed
// blocks wait in scratch as bytes and travel as MPI_PACKED, which matches
// any type signature (MPI-1, 3.13; the packed form is the native one in a
// homogeneous job, Open MPI's case). The size exchange blocks: in
// persistent mode once, at initialisation (the selected case); in the other
// modes at every call, which the non-blocking form therefore waits for.
classic::Request run_exchange_blocks(const classic::Comm& comm,
                                     const Table& table, const Call& call) {
  const Checks check(comm, call);
  const char* function = call.function();
  const Exchange blocks = normalise(table, call, check);
  const Combining& combining = *combining_of(table);
  const std::vector<std::int64_t> sizes =
      exchange_sizes(comm, combining, blocks, function);
  check_room(table, blocks, sizes, function);
  Layout layout = layout_of({0, MPI_BYTE}, {0, MPI_BYTE}, function);
  layout.send_blocks = blocks.send;
  layout.recv_blocks = blocks.recv;
  MPI_Aint scratch = 0;
  for (std::size_t t = blocks.recv.size(); t < sizes.size(); ++t) {
    if (sizes[t] > std::numeric_limits<int>::max()) {
      throw classic::Error(classic::ErrorClass::count, function,
                           "a relayed block of " + std::to_string(sizes[t]) +
                               " bytes exceeds what one count can describe");
    }
    layout.temp_blocks.push_back({.space = Space::scratch,
                                  .displacement = scratch,
                                  .count = static_cast<int>(sizes[t]),
                                  .datatype = MPI_PACKED});
    scratch += (static_cast<MPI_Aint>(sizes[t]) + 15) / 16 * 16;
  }
  Plan plan = PlanBuilder(combining, combining.alltoall, layout).build();
  plan.scratch_bytes = scratch;
  return classic::execute(comm, std::make_shared<const Plan>(std::move(plan)),
                          {call.send.data, call.recv.data}, call.mode,
                          function);
}

}  // namespace

const Algorithm& exchange_blocks() {
  static constexpr Algorithm kExchangeBlocks{"combining", &run_exchange_blocks};
  return kExchangeBlocks;
}

}  // namespace ortho::algorithms
