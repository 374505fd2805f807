#include "ortho/internal/rooted.h"

#include "classic/base/constants.h"

namespace ortho::algorithms {
namespace {

// Fills the counts a typed call leaves to its spans; raises where a block
// does not lie inside its span.
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

void check_gather(const Call& c, const Neighbourhood& n, const Checks& check) {
  const SendSide& s = c.send;
  const RecvSide& r = c.recv;
  const bool root = n.rank == c.root;
  check.root(c.root);
  if (!root) check.not_in_place(s.data, "send", "off the root");
  if (!(root && s.data == MPI_IN_PLACE)) {
    check.elements(s.count, s.datatype, "send_count", "send_type");
  }
  if (!root) return;
  check.not_in_place(r.data, "recv", "(gather's recv at the root)");
  check.datatype(r.datatype, "recv_type");
  if (c.operation == Operation::gather) {
    check.count(r.count, "recv_count");
    return;
  }
  check.length(r.counts.size(), n.sources.size(), "recvcounts", "indegree");
  check.length(r.displs.size(), n.sources.size(), "displs", "indegree");
  check.counts(r.counts, "recvcounts");
}

void check_scatter(const Call& c, const Neighbourhood& n, const Checks& check) {
  const SendSide& s = c.send;
  const RecvSide& r = c.recv;
  const bool root = n.rank == c.root;
  check.root(c.root);
  if (!root) check.not_in_place(r.data, "recv", "off the root");
  if (!(root && r.data == MPI_IN_PLACE)) {
    check.elements(r.count, r.datatype, "recv_count", "recv_type");
  }
  if (!root) return;
  check.not_in_place(s.data, "send", "(scatter's send at the root)");
  check.datatype(s.datatype, "send_type");
  if (c.operation == Operation::scatter) {
    check.count(s.count, "send_count");
    return;
  }
  check.length(s.counts.size(), n.destinations.size(), "sendcounts",
               "outdegree");
  check.length(s.displs.size(), n.destinations.size(), "displs", "outdegree");
  check.counts(s.counts, "sendcounts");
}

void check_raw(const Call& c, const Neighbourhood& n, const Checks& check) {
  const bool root = n.rank == c.root;
  switch (c.operation) {
    case Operation::bcast:
      check.root(c.root);
      check.elements(c.recv.count, c.recv.datatype, "count", "datatype");
      check.not_in_place(c.recv.data, "buffer", "(bcast has no in-place form)");
      return;
    case Operation::gather:
    case Operation::gatherv:
      check_gather(c, n, check);
      return;
    case Operation::scatter:
    case Operation::scatterv:
      check_scatter(c, n, check);
      return;
    case Operation::reduce:
      check.root(c.root);
      check.elements(c.send.count, c.send.datatype, "count", "datatype");
      check.op(c.op);
      if (!root) check.not_in_place(c.send.data, "send", "off the root");
      if (root) check.not_in_place(c.recv.data, "recv", "(reduce's recv)");
      return;
    case Operation::allreduce:
      check.elements(c.send.count, c.send.datatype, "count", "datatype");
      check.op(c.op);
      check.not_in_place(c.recv.data, "recv", "(allreduce's recv)");
      return;
    default:
      return;  // barrier has no arguments to check
  }
}

}  // namespace

Call normalise_rooted(const Neighbourhood& n, const Call& call,
                      const Checks& check) {
  Call raw = call.form == Form::typed ? raw_from_typed(call, n, check) : call;
  check_raw(raw, n, check);
  return raw;
}

}  // namespace ortho::algorithms
