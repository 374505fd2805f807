#include "ortho/algorithms/raw_call.h"

#include "classic/base/constants.h"

namespace ortho::algorithms {

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

Elements allreduce_operand(const Call& raw, const Checks& check) {
  check.elements(raw.send.count, raw.send.datatype, "count", "datatype");
  check.op(raw.op);
  check.not_in_place(raw.recv.data, "recv", "(allreduce's recv)");
  return {raw.send.count, raw.send.datatype};
}

}  // namespace ortho::algorithms
