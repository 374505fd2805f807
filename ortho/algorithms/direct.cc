// "direct": on directed graphs every edge carries its own message, in one
// round. allgather(v, w) and alltoall(v, w) send the blocks of their
// normalisation (internal/exchange.h), the plan kept for the next call with
// the same arguments; the other operations run the plans of graph_plans.h,
// their arguments checked here, before any message.
#include <cstdint>
#include <memory>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/exec/executor.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/graph_plans.h"
#include "ortho/algorithms/raw_call.h"
#include "ortho/algorithms/registry.h"
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

classic::Plan plan_for(const Call& c, const Neighbourhood& n,
                       const Checks& check) {
  const SendSide& s = c.send;
  const RecvSide& r = c.recv;
  const bool root = n.rank == c.root;
  switch (c.operation) {
    case Operation::barrier:
      return barrier_plan(n);
    case Operation::bcast:
      check.root(c.root);
      check.elements(r.count, r.datatype, "count", "datatype");
      check.not_in_place(r.data, "buffer", "(bcast has no in-place form)");
      return bcast_plan(n, {r.count, r.datatype}, c.root);
    case Operation::gather:
    case Operation::gatherv: {
      check.root(c.root);
      const bool in_place = root && s.data == MPI_IN_PLACE;
      if (!root) check.not_in_place(s.data, "send", "off the root");
      if (!in_place) {
        check.elements(s.count, s.datatype, "send_count", "send_type");
      }
      if (!root) {
        return gather_plan(n, {s.count, s.datatype}, {}, c.root, false);
      }
      check.not_in_place(r.data, "recv", "(gather's recv at the root)");
      check.datatype(r.datatype, "recv_type");
      if (c.operation == Operation::gather) {
        check.count(r.count, "recv_count");
        return gather_plan(n, {s.count, s.datatype}, {r.count, r.datatype},
                           c.root, in_place);
      }
      check.length(r.counts.size(), n.sources.size(), "recvcounts", "indegree");
      check.length(r.displs.size(), n.sources.size(), "displs", "indegree");
      check.counts(r.counts, "recvcounts");
      return gatherv_plan(n, {s.count, s.datatype}, r.counts, r.displs,
                          r.datatype, c.root, in_place);
    }
    case Operation::scatter:
    case Operation::scatterv: {
      check.root(c.root);
      const bool in_place = root && r.data == MPI_IN_PLACE;
      if (!root) check.not_in_place(r.data, "recv", "off the root");
      if (!in_place) {
        check.elements(r.count, r.datatype, "recv_count", "recv_type");
      }
      if (!root) {
        return scatter_plan(n, {}, {r.count, r.datatype}, c.root, false);
      }
      check.not_in_place(s.data, "send", "(scatter's send at the root)");
      check.datatype(s.datatype, "send_type");
      if (c.operation == Operation::scatter) {
        check.count(s.count, "send_count");
        return scatter_plan(n, {s.count, s.datatype}, {r.count, r.datatype},
                            c.root, in_place);
      }
      check.length(s.counts.size(), n.destinations.size(), "sendcounts",
                   "outdegree");
      check.length(s.displs.size(), n.destinations.size(), "displs",
                   "outdegree");
      check.counts(s.counts, "sendcounts");
      return scatterv_plan(n, s.counts, s.displs, s.datatype,
                           {r.count, r.datatype}, c.root, in_place);
    }
    case Operation::reduce: {
      check.root(c.root);
      check.elements(s.count, s.datatype, "count", "datatype");
      check.op(c.op);
      const bool in_place = root && s.data == MPI_IN_PLACE;
      if (!root) check.not_in_place(s.data, "send", "off the root");
      if (root) check.not_in_place(r.data, "recv", "(reduce's recv)");
      return reduce_plan(n, {s.count, s.datatype}, c.op, c.root, in_place);
    }
    case Operation::allreduce:
      return allreduce_plan(n, allreduce_operand(c, check), c.op,
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
      table.last_plans[static_cast<std::size_t>(call.operation)];
  const std::shared_ptr<const classic::Plan>* plan =
      last.find(&kPlansOfDirect, call);
  if (plan == nullptr) {
    const Checks check(comm, call);
    plan = &last.keep(&kPlansOfDirect, call,
                      edge_plan(table, normalise(table, call, check)));
  }
  return classic::execute(comm, *plan, {call.send.data, call.recv.data},
                          call.mode, call.function());
}

classic::Request run(const classic::Comm& comm, const Table& table,
                     const Call& call) {
  if (is_exchange(call.operation)) {
    return run_exchange(comm, table, call);
  }
  const Neighbourhood n{comm.rank(), table.sources, table.destinations};
  const Checks check(comm, call);
  if (call.form == Form::typed) {
    const Call raw = raw_from_typed(call, n, check);
    return execute(comm, raw, plan_for(raw, n, check));
  }
  return execute(comm, call, plan_for(call, n, check));
}

// The default for every operation that has a meaning on a directed graph.
void adopt(Table& table) {
  if (table.structure != Structure::directed_graph) return;
  for (Operation operation : all_operations()) {
    if (!defined_on(operation, table.structure)) continue;
    table.choice(operation) = Choice::only(direct());
    table.offer(operation, direct());
  }
}

}  // namespace

extern constinit const Registration kDirect{{"direct", &run}, &adopt};

const Algorithm& direct() { return kDirect.algorithm; }

}  // namespace ortho::algorithms
