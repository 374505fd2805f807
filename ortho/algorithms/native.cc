// "native": on fully connected and bipartite communicators every operation
// means what MPI says, and classic's collectives run it.
#include <limits>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "classic/collectives/collectives.h"
#include "classic/collectives/collectives_in_mode.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/algorithms/registry.h"

namespace ortho::algorithms {
namespace {

namespace typed = classic::internal;

// alltoallw's byte displacements as the int ones of MPI-1's alltoallw
// (ortho's alltoallw takes MPI_Aint, as MPI-4's alltoallw_c and the
// neighbourhood form do, so one signature serves every structure).
std::vector<int> int_displacements(std::span<const MPI_Aint> displs,
                                   const char* name, const char* function) {
  std::vector<int> narrowed(displs.size());
  for (std::size_t i = 0; i < displs.size(); ++i) {
    if (displs[i] < std::numeric_limits<int>::min() ||
        displs[i] > std::numeric_limits<int>::max()) {
      throw classic::Error(
          classic::ErrorClass::arg, function,
          classic::error_text::entry(name, i, displs[i]) +
              " does not fit the int displacements of alltoallw on a "
              "fully connected or bipartite communicator");
    }
    narrowed[i] = static_cast<int>(displs[i]);
  }
  return narrowed;
}

classic::Request run_typed(const classic::Comm& comm, const Call& c) {
  const classic::Mode m = c.mode;
  switch (c.operation) {
    case Operation::bcast:
      return typed::bcast(comm, c.typed_recv(), c.root, m);
    case Operation::gather:
      return typed::gather(comm, c.typed_send(), c.typed_recv(), c.root, m);
    case Operation::gatherv:
      return typed::gatherv(comm, c.typed_send(), c.typed_recv(), c.recv.counts,
                            c.recv.displs, c.root, m);
    case Operation::scatter:
      return typed::scatter(comm, c.typed_send(), c.typed_recv(), c.root, m);
    case Operation::scatterv:
      return typed::scatterv(comm, c.typed_send(), c.send.counts, c.send.displs,
                             c.typed_recv(), c.root, m);
    case Operation::allgather:
      return typed::allgather(comm, c.typed_send(), c.typed_recv(), m);
    case Operation::allgatherv:
      return typed::allgatherv(comm, c.typed_send(), c.typed_recv(),
                               c.recv.counts, c.recv.displs, m);
    case Operation::alltoall:
      return typed::alltoall(comm, c.typed_send(), c.typed_recv(), m);
    case Operation::alltoallv:
      return typed::alltoallv(comm, c.typed_send(), c.send.counts,
                              c.send.displs, c.typed_recv(), c.recv.counts,
                              c.recv.displs, m);
    case Operation::reduce:
      return typed::reduce(comm, c.typed_send(), c.typed_recv(), c.op, c.root,
                           m);
    case Operation::allreduce:
      return typed::allreduce(comm, c.typed_send(), c.typed_recv(), c.op, m);
    case Operation::reduce_scatter:
      return typed::reduce_scatter(comm, c.typed_send(), c.typed_recv(),
                                   c.recv.counts, c.op, m);
    case Operation::reduce_scatter_block:
      return typed::reduce_scatter_block(comm, c.typed_send(), c.typed_recv(),
                                         c.op, m);
    case Operation::scan:
      return typed::scan(comm, c.typed_send(), c.typed_recv(), c.op, m);
    case Operation::exscan:
      return typed::exscan(comm, c.typed_send(), c.typed_recv(), c.op, m);
    default:
      break;  // barrier and the w variants have raw forms only
  }
  throw classic::Error(classic::ErrorClass::intern, c.function(),
                       "no typed form of this operation");
}

classic::Request run_raw(const classic::Comm& comm, const Call& c) {
  const classic::Mode m = c.mode;
  const SendSide& s = c.send;
  const RecvSide& r = c.recv;
  switch (c.operation) {
    case Operation::barrier:
      return classic::barrier(comm, m);
    case Operation::bcast:
      return classic::bcast(comm, r.data, r.count, r.datatype, c.root, m);
    case Operation::gather:
      return classic::gather(comm, s.data, s.count, s.datatype, r.data, r.count,
                             r.datatype, c.root, m);
    case Operation::gatherv:
      return classic::gatherv(comm, s.data, s.count, s.datatype, r.data,
                              r.counts, r.displs, r.datatype, c.root, m);
    case Operation::scatter:
      return classic::scatter(comm, s.data, s.count, s.datatype, r.data,
                              r.count, r.datatype, c.root, m);
    case Operation::scatterv:
      return classic::scatterv(comm, s.data, s.counts, s.displs, s.datatype,
                               r.data, r.count, r.datatype, c.root, m);
    case Operation::allgather:
      return classic::allgather(comm, s.data, s.count, s.datatype, r.data,
                                r.count, r.datatype, m);
    case Operation::allgatherv:
      return classic::allgatherv(comm, s.data, s.count, s.datatype, r.data,
                                 r.counts, r.displs, r.datatype, m);
    case Operation::alltoall:
      return classic::alltoall(comm, s.data, s.count, s.datatype, r.data,
                               r.count, r.datatype, m);
    case Operation::alltoallv:
      return classic::alltoallv(comm, s.data, s.counts, s.displs, s.datatype,
                                r.data, r.counts, r.displs, r.datatype, m);
    case Operation::alltoallw: {
      const std::vector<int> sdispls =
          int_displacements(s.byte_displs, "sdispls", c.function());
      const std::vector<int> rdispls =
          int_displacements(r.byte_displs, "rdispls", c.function());
      return classic::alltoallw(comm, s.data, s.counts, sdispls, s.datatypes,
                                r.data, r.counts, rdispls, r.datatypes, m);
    }
    case Operation::reduce:
      return classic::reduce(comm, s.data, r.data, s.count, s.datatype, c.op,
                             c.root, m);
    case Operation::allreduce:
      return classic::allreduce(comm, s.data, r.data, s.count, s.datatype, c.op,
                                m);
    case Operation::reduce_scatter:
      return classic::reduce_scatter(comm, s.data, r.data, r.counts, s.datatype,
                                     c.op, m);
    case Operation::reduce_scatter_block:
      return classic::reduce_scatter_block(comm, s.data, r.data, r.count,
                                           s.datatype, c.op, m);
    case Operation::scan:
      return classic::scan(comm, s.data, r.data, s.count, s.datatype, c.op, m);
    case Operation::exscan:
      return classic::exscan(comm, s.data, r.data, s.count, s.datatype, c.op,
                             m);
    case Operation::allgatherw:
      break;  // directed graphs only (operation.h)
  }
  throw classic::Error(classic::ErrorClass::intern, c.function(),
                       "allgatherw reached the native algorithm");
}

classic::Request run(const classic::Comm& comm, const Table& /*table*/,
                     const Call& call) {
  return call.form == Form::typed ? run_typed(comm, call) : run_raw(comm, call);
}

// Every operation that has a meaning on a fully connected or bipartite
// communicator.
void offer(Table& table) {
  if (table.structure == Structure::directed_graph) return;
  for (Operation operation : all_operations()) {
    if (defined_on(operation, table.structure))
      table.offer(operation, native());
  }
}

// The baseline there, unpriced: classic's collectives.
Pricer price(const Table& /*table*/, Operation /*operation*/) {
  return [](classic::Mode, std::size_t) { return 0.0; };
}

}  // namespace

extern constinit const Registration kNative{.algorithm = {"native", &run},
                                            .offer = &offer,
                                            .price = &price,
                                            .baseline = true};

const Algorithm& native() { return kNative.algorithm; }

}  // namespace ortho::algorithms
