// "combining" for allreduce on box (Chebyshev) stencils: the reduction over
// a process's Moore neighbourhood of depth r separates by dimension. Going
// through the dimensions from the last to the first, every process sends
// F (the reduction over the box of the dimensions done so far, itself
// included) to its 2r neighbours in the current dimension and folds what
// arrives into F and into E (the same box without itself). After d rounds
// E is the neighbourhood's reduction: 2rd messages of one block each
// (Game of Life: 4 instead of 8), no extra volume. The fold order differs
// from the direct algorithm's neighbour order, so commutative ops only; a
// non-commutative op, or in place, runs the direct algorithm.
#include <memory>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/datatype_layout.h"
#include "classic/base/op.h"
#include "classic/exec/executor.h"
#include "classic/exec/plan.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/combining/combining.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/algorithms/pricing.h"
#include "ortho/algorithms/registry.h"

namespace ortho::algorithms {
namespace {

using classic::Plan;
using Space = Plan::Space;

Plan box_plan(const Combining& c, int count, MPI_Datatype datatype, MPI_Op op,
              const char* function) {
  const int d = c.geometry.ndims();
  const int r = c.box_depth;
  const classic::DatatypeLayout layout =
      classic::datatype_layout(datatype, function);
  const MPI_Aint span =
      count == 0 ? 0 : (count - 1) * layout.extent + layout.true_extent;
  const MPI_Aint stride = (span + 15) / 16 * 16;
  const auto scratch = [&](int slot) {
    return Plan::Block{.space = Space::scratch,
                       .displacement = slot * stride - layout.true_lower_bound,
                       .count = count,
                       .datatype = datatype};
  };
  const Plan::Block own{.space = Space::send,
                        .displacement = 0,
                        .count = count,
                        .datatype = datatype};
  const Plan::Block result{.space = Space::recv,
                           .displacement = 0,
                           .count = count,
                           .datatype = datatype};
  const Plan::Block full = scratch(0);  // F
  Plan plan;
  plan.scratch_bytes = (2 * r + 1) * stride;
  if (c.rank >= c.geometry.size()) return plan;  // off the grid: nothing
  bool have_result = false;                      // E holds something
  for (int dim = d - 1; dim >= 0; --dim) {
    Plan::Round& round = plan.rounds.emplace_back();
    const bool first = dim == d - 1;
    const bool last = dim == 0;
    std::vector<int> offset(static_cast<std::size_t>(d), 0);
    int k = 0;
    for (int t = -r; t <= r; ++t) {
      if (t == 0) continue;
      offset[static_cast<std::size_t>(dim)] = t;
      const int from = c.geometry.relative_rank(c.rank, offset);
      offset[static_cast<std::size_t>(dim)] = -t;
      const int to = c.geometry.relative_rank(c.rank, offset);
      const Plan::Block incoming = scratch(1 + k);
      if (to != classic::proc_null) {
        round.sends.push_back(
            {.peer = to, .tag = k, .blocks = {first ? own : full}});
      }
      if (from != classic::proc_null) {
        round.receives.push_back(
            {.peer = from, .tag = k, .blocks = {incoming}});
      }
      ++k;
    }
    // E = E op incoming...; F = F op incoming... (F starts as the own block).
    if (first && !last) {
      round.local.push_back(
          {.kind = Plan::Local::Kind::copy, .from = own, .to = full});
    }
    for (const Plan::Message& message : round.receives) {
      const Plan::Block& incoming = message.blocks.front();
      if (have_result) {
        round.local.push_back({.kind = Plan::Local::Kind::reduce,
                               .from = incoming,
                               .to = result,
                               .op = op});
      } else {
        round.local.push_back(
            {.kind = Plan::Local::Kind::copy, .from = incoming, .to = result});
        have_result = true;
      }
      if (!last) {
        round.local.push_back({.kind = Plan::Local::Kind::reduce,
                               .from = incoming,
                               .to = full,
                               .op = op});
      }
    }
  }
  return plan;
}

// MPI's predefined reduction ops (whose handles never change meaning).
bool predefined(MPI_Op op) {
  for (MPI_Op known :
       {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR,
        MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC}) {
    if (op == known) return true;
  }
  return false;
}

// `call` is raw and checked (internal/rooted.h).
classic::Request run(const classic::Comm& comm, const Table& table,
                     const Call& call) {
  const bool in_place = call.send.data == MPI_IN_PLACE;
  if (in_place || !classic::op_commutative(call.op, call.function())) {
    return direct().run(comm, table, call);
  }
  const int count = call.send.count;
  const MPI_Datatype datatype = call.send.datatype;
  const bool cacheable =
      classic::datatype_layout(datatype, call.function()).predefined &&
      predefined(call.op);
  const Combining& stencil = *combining_of(table);
  const auto plan = stencil.allreduce_plans.get(
      {count, datatype, count, datatype, call.op}, cacheable, [&] {
        return box_plan(stencil, count, datatype, call.op, call.function());
      });
  return classic::execute(comm, plan, {call.send.data, call.recv.data},
                          call.mode, call.function());
}

// allreduce on box stencils: fewer messages and blocks to reduce, no extra
// volume, but d dependent rounds, which cost more than they save on small
// blocks where rounds are dear (oversubscribed cores).
void offer(Table& table) {
  const Combining* stencil = combining_of(table);
  if (stencil != nullptr && stencil->box_depth > 0) {
    table.offer(Operation::allreduce, box_allreduce());
  }
}

// The box's rounds on the single-host cost model; not priced over several
// hosts (its model has no hosts: there node_aware and direct compete).
Pricer price(const Table& table, Operation /*operation*/) {
  if (scale_of(table) != Scale::one_host) return {};
  const Combining& stencil = *combining_of(table);
  return [prices = stencil.prices, traffic = box_allreduce_traffic(stencil)](
             classic::Mode, std::size_t bytes) {
    return model_ns(prices, traffic, bytes);
  };
}

}  // namespace

extern constinit const Registration kBoxAllreduce{
    .algorithm = {"combining", &run}, .offer = &offer, .price = &price};

const Algorithm& box_allreduce() { return kBoxAllreduce.algorithm; }

}  // namespace ortho::algorithms
