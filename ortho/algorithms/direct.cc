// "direct": on directed graphs every edge carries its own message, in one
// round. allgather(v) and alltoall(v, w) are classic's neighbourhood
// collectives; the operations MPI has no neighbourhood form of run the
// plans of graph_plans.h. Their arguments are checked here, before any
// message: the operations MPI defines have MPI's checks in classic.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "classic/base/constants.h"
#include "classic/base/datatype_layout.h"
#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "classic/exec/executor.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/graph_plans.h"
#include "ortho/algorithms/registry.h"

namespace ortho::algorithms {
namespace {

using classic::Error;
using classic::ErrorClass;
namespace text = classic::error_text;

// ---- typed calls become raw ones ------------------------------------------

// Fills the counts a typed call leaves to the spans, checking that every
// block lies inside its span.
Call raw_from_typed(const Call& typed, const Neighbourhood& n,
                    const Checks& check) {
  Call c = typed;
  c.form = Form::raw;
  c.send.count = check.size_of(c.send.elements);
  c.recv.count = check.size_of(c.recv.elements);
  const bool root = n.rank == c.root;
  const bool send_in_place = c.send.data == MPI_IN_PLACE;
  const bool recv_in_place = c.recv.data == MPI_IN_PLACE;
  switch (c.operation) {
    case Operation::gather:
      if (!root) break;
      if (send_in_place) {
        c.recv.count =
            check.per_block(c.recv.elements, n.sources.size(), "recv");
        c.send.count = c.recv.count;
      } else {
        c.recv.count = c.send.count;
        check.holds(c.recv.elements, n.sources.size() * c.send.count, "recv");
      }
      break;
    case Operation::gatherv:
      if (root) {
        check.inside(c.recv.counts, c.recv.displs, c.recv.elements, "recv");
      }
      break;
    case Operation::scatter:
      if (!root) break;
      if (recv_in_place) {
        c.send.count =
            check.per_block(c.send.elements, n.destinations.size(), "send");
        c.recv.count = c.send.count;
      } else {
        c.send.count = c.recv.count;
        check.holds(c.send.elements, n.destinations.size() * c.recv.count,
                    "send");
      }
      break;
    case Operation::scatterv:
      if (root) {
        check.inside(c.send.counts, c.send.displs, c.send.elements, "send");
      }
      break;
    case Operation::reduce:
      if (root) {
        if (!send_in_place) check.holds(c.recv.elements, c.send.count, "recv");
        if (send_in_place) c.send.count = c.recv.count;
      }
      break;
    case Operation::allreduce:
      if (send_in_place) {
        c.send.count = c.recv.count;
      } else {
        check.holds(c.recv.elements, c.send.count, "recv");
      }
      break;
    default:
      break;
  }
  return c;
}

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
      check.elements(s.count, s.datatype, "count", "datatype");
      check.op(c.op);
      check.not_in_place(r.data, "recv", "(allreduce's recv)");
      return allreduce_plan(n, {s.count, s.datatype}, c.op,
                            s.data == MPI_IN_PLACE);
    case Operation::allgatherw:
      check.elements(s.count, s.datatype, "send_count", "send_type");
      check.not_in_place(s.data, "send", "(allgatherw has no in-place form)");
      check.not_in_place(r.data, "recv", "(allgatherw has no in-place form)");
      check.length(r.counts.size(), n.sources.size(), "recvcounts", "indegree");
      check.length(r.byte_displs.size(), n.sources.size(), "rdispls",
                   "indegree");
      check.length(r.datatypes.size(), n.sources.size(), "recv_types",
                   "indegree");
      check.counts(r.counts, "recvcounts");
      check.datatypes(r.datatypes, "recv_types");
      return allgatherw_plan(n, {s.count, s.datatype}, r.counts, r.byte_displs,
                             r.datatypes);
    default:
      break;
  }
  throw Error(ErrorClass::intern, c.function(),
              "no graph plan for this operation");
}

// allgather(v) and alltoall(v, w): MPI's neighbourhood collectives.
classic::Request run_neighbourhood(const classic::Comm& comm, const Call& c) {
  namespace typed = classic::internal;
  const classic::Mode m = c.mode;
  const SendSide& s = c.send;
  const RecvSide& r = c.recv;
  if (c.form == Form::typed) {
    switch (c.operation) {
      case Operation::allgather:
        return typed::neighbor_allgather_erased(comm, c.typed_send(),
                                                c.typed_recv(), m);
      case Operation::allgatherv:
        return typed::neighbor_allgatherv_erased(
            comm, c.typed_send(), c.typed_recv(), r.counts, r.displs, m);
      case Operation::alltoall:
        return typed::neighbor_alltoall_erased(comm, c.typed_send(),
                                               c.typed_recv(), m);
      default:
        return typed::neighbor_alltoallv_erased(comm, c.typed_send(), s.counts,
                                                s.displs, c.typed_recv(),
                                                r.counts, r.displs, m);
    }
  }
  switch (c.operation) {
    case Operation::allgather:
      return classic::neighbor_allgather(comm, s.data, s.count, s.datatype,
                                         r.data, r.count, r.datatype, m);
    case Operation::allgatherv:
      return classic::neighbor_allgatherv(comm, s.data, s.count, s.datatype,
                                          r.data, r.counts, r.displs,
                                          r.datatype, m);
    case Operation::alltoall:
      return classic::neighbor_alltoall(comm, s.data, s.count, s.datatype,
                                        r.data, r.count, r.datatype, m);
    case Operation::alltoallv:
      return classic::neighbor_alltoallv(comm, s.data, s.counts, s.displs,
                                         s.datatype, r.data, r.counts, r.displs,
                                         r.datatype, m);
    default:
      return classic::neighbor_alltoallw(comm, s.data, s.counts, s.byte_displs,
                                         s.datatypes, r.data, r.counts,
                                         r.byte_displs, r.datatypes, m);
  }
}

bool is_neighbourhood_collective(Operation operation) {
  switch (operation) {
    case Operation::allgather:
    case Operation::allgatherv:
    case Operation::alltoall:
    case Operation::alltoallv:
    case Operation::alltoallw:
      return true;
    default:
      return false;
  }
}

classic::Request run(const classic::Comm& comm, const Table& table,
                     const Call& call) {
  if (is_neighbourhood_collective(call.operation)) {
    try {
      return run_neighbourhood(comm, call);
    } catch (const Error& error) {
      // classic's neighbourhood collectives name themselves; on a directed
      // graph ortho's errors name ortho's function.
      throw error.raised_by(call.function());
    }
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
