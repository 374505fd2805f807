// Derived datatypes freed by the user while an operation that uses them is
// pending, or between a persistent request's init and its starts: MPI says
// the communication completes normally (MPI_Type_free), so the operation
// must deliver exactly what it delivers with the datatype alive: classic's
// neighbourhood collectives (non-blocking and persistent, restarted) and
// XX
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/request.h"

namespace {

using classic::Comm;
using classic::Request;

// A ring: each process sends to the next and receives from the previous.
Comm ring() {
  const Comm world = Comm::world();
  const int n = world.size();
  const std::vector<int> sources = {(world.rank() + n - 1) % n};
  const std::vector<int> destinations = {(world.rank() + 1) % n};
  return classic::dist_graph_create_adjacent(
      world, sources, classic::unweighted, destinations, classic::unweighted);
}

// Every other double of 4: a strided vector type (extent 3 doubles).
MPI_Datatype every_other() {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &type);
  MPI_Type_commit(&type);
  return type;
}

int previous() {
  const Comm world = Comm::world();
  return (world.rank() + world.size() - 1) % world.size();
}

TEST(FreedDatatype, PersistentExchangeRestartsAfterTheFree) {
  const Comm graph = ring();
  std::vector<double> send(4);
  std::vector<double> recv(4, -1.0);
  MPI_Datatype type = every_other();
  Request request = classic::neighbor_alltoall_init(graph, send.data(), 1, type,
                                                    recv.data(), 1, type);
  MPI_Type_free(&type);
  // Freed handles may be reused: a new type with another layout.
  MPI_Datatype other = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(3, MPI_DOUBLE, &other);
  MPI_Type_commit(&other);
  for (int step = 0; step < 3; ++step) {
    const int me = Comm::world().rank();
    send = {100.0 * me + step, -7.0, 100.0 * me + step + 0.5, -7.0};
    recv.assign(4, -1.0);
    classic::start(request);
    classic::wait(request);
    const double from = 100.0 * previous() + step;
    EXPECT_EQ(recv, (std::vector<double>{from, -1.0, from + 0.5, -1.0}))
        << "step " << step;
  }
  MPI_Type_free(&other);
}

TEST(FreedDatatype, PendingExchangeCompletesAfterTheFree) {
  const Comm graph = ring();
  const int me = Comm::world().rank();
  const std::vector<double> send = {1.0 * me, -7.0, 2.0 * me, -7.0};
  std::vector<double> recv(4, -1.0);
  MPI_Datatype type = every_other();
  Request request = classic::ineighbor_alltoall(graph, send.data(), 1, type,
                                                recv.data(), 1, type);
  MPI_Type_free(&type);
  classic::wait(request);
  EXPECT_EQ(recv, (std::vector<double>{1.0 * previous(), -1.0, 2.0 * previous(),
                                       -1.0}));
}

}  // namespace
