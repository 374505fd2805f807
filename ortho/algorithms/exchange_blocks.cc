// alltoallv and alltoallw on Cartesian stencils along alltoall's schedule,
// after a size exchange over it (combining.h); named "combining".
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
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

// The alltoall schedule over one int64 per block: every process learns
// the byte size of each block it receives (in the caller's source order,
// first) and of each block it relays (after them, per scratch slot). The
// same plan for every call: built once.
std::shared_ptr<const Plan> sizes_plan(const Combining& combining,
                                       std::size_t in, const char* function) {
  const auto temps = static_cast<std::size_t>(combining.alltoall.temp_slots);
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
  return combining.size_plans.get(shape, true, build);
}

// The places sizes_plan's round fills.
std::size_t sizes_learnt(const Combining& combining, const Exchange& blocks) {
  return blocks.recv.size() +
         static_cast<std::size_t>(combining.alltoall.temp_slots);
}

// The schedule over the blocks themselves, once their sizes are known.
std::shared_ptr<const Plan> blocks_plan(const Table& table,
                                        const Combining& combining,
                                        const Exchange& blocks,
                                        const std::vector<std::int64_t>& sizes,
                                        const char* function) {
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
  return std::make_shared<const Plan>(std::move(plan));
}

// A non-blocking call's sizes and blocks, one after the other on one
// request, so that the call waits for no peer (MPI: its initiation is
// local); what the request holds until it goes.
struct Followed {
  std::shared_ptr<const Table> table;  // keeps the schedule too
  Exchange blocks;
  classic::HeldDatatypes held;  // blocks' derived datatypes
  std::vector<std::int64_t> sent;
  std::vector<std::int64_t> sizes;
  classic::PlanBuffers buffers;
};

classic::Request run_followed(const classic::Comm& comm, const Table& table,
                              const Call& call, Exchange blocks) {
  const char* function = call.function();
  const Combining& combining = *combining_of(table);
  auto f = std::make_shared<Followed>();
  f->table = internal::shared_table(table, function);
  f->blocks = std::move(blocks);
  f->held.hold(f->blocks.send, function);
  f->held.hold(f->blocks.recv, function);
  f->sent = send_bytes(f->blocks, function);
  f->sizes.assign(sizes_learnt(combining, f->blocks), 0);
  f->buffers = {call.send.data, call.recv.data};
  return classic::execute_followed(
      comm, sizes_plan(combining, f->blocks.recv.size(), function),
      {f->sent.data(), f->sizes.data()},
      [f, function]() -> classic::FollowingPlan {
        return {blocks_plan(*f->table, *combining_of(*f->table), f->blocks,
                            f->sizes, function),
                f->buffers};
      },
      function);
}

// alltoallv and alltoallw: the alltoall schedule with each block its own
// size and datatype. A relay cannot know the sizes of the blocks it
// forwards (MPI tells a process the sizes of its own blocks only), so the
// schedule first carries every block's byte size, then the blocks. Relayed
// blocks wait in scratch as bytes and travel as MPI_PACKED, which matches
// any type signature (MPI-1, 3.13; the packed form is the native one in a
// homogeneous job, Open MPI's case). The size exchange runs in persistent
// mode once, at initialisation (the selected case), blocking as the
// *_init is collective; in the other modes at every call, the non-blocking
// form's on its request before the blocks.
classic::Request run_exchange_blocks(const classic::Comm& comm,
                                     const Table& table, const Call& call) {
  const Checks check(comm, call);
  const char* function = call.function();
  Exchange blocks = normalise(table, call, check);
  if (call.mode == classic::Mode::nonblocking) {
    return run_followed(comm, table, call, std::move(blocks));
  }
  const Combining& combining = *combining_of(table);
  std::vector<std::int64_t> sent = send_bytes(blocks, function);
  std::vector<std::int64_t> sizes(sizes_learnt(combining, blocks), 0);
  // Blocking: complete on return, the request null.
  (void)classic::execute(
      comm, sizes_plan(combining, blocks.recv.size(), function),
      {sent.data(), sizes.data()}, classic::Mode::blocking, function);
  return classic::execute(
      comm, blocks_plan(table, combining, blocks, sizes, function),
      {call.send.data, call.recv.data}, call.mode, function);
}

}  // namespace

const Algorithm& exchange_blocks() {
  static constexpr Algorithm kExchangeBlocks{"combining", &run_exchange_blocks};
  return kExchangeBlocks;
}

}  // namespace ortho::algorithms
