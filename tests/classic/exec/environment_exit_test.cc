// Objects alive when the Environment ends: requests in every state
// (pending non-blocking collective, active and inactive persistent
// collectives, an active persistent neighbourhood exchange, a receive that
// nothing matches), communicators, groups and a derived datatype bound in a
// persistent plan, all kept in a static that is destroyed after main()
// returns. The program must end cleanly: exit status 0, no crash, no hang,
// and no leak report under ASan (the run is the test: mpirun's status and
// the harness's result line).
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "classic/collectives/collectives.h"
#include "classic/collectives/nonblocking_collectives.h"
#include "classic/collectives/persistent_collectives.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/groups/group.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/point_to_point.h"
#include "classic/p2p/request.h"

namespace {

using classic::Comm;
using classic::Request;

// Destroyed after main() returns, so after the Environment has ended.
struct Kept {
  std::vector<Comm> comms;
  std::vector<classic::Group> groups;
  std::vector<Request> requests;
  std::vector<int> ints = std::vector<int>(64, 0);
  std::vector<double> doubles = std::vector<double>(64, 0.0);
};

Kept& kept() {
  static Kept objects;
  return objects;
}

TEST(EnvironmentExit, ObjectsOutliveTheEnvironment) {
  Kept& k = kept();
  const Comm copy = Comm::world().dup();
  k.comms.push_back(copy);
  k.groups.push_back(copy.group());
  const int n = copy.size();
  const int me = copy.rank();
  // A pending non-blocking collective, never completed.
  k.requests.push_back(classic::ibarrier(copy));
  // An active persistent collective, started, never completed.
  Request active = classic::allreduce_init(copy, &k.ints[0], &k.ints[1], 1,
                                           MPI_INT, MPI_SUM);
  classic::start(active);
  k.requests.push_back(std::move(active));
  // An inactive persistent collective.
  k.requests.push_back(
      classic::bcast_init(copy, &k.ints[2], 1, MPI_INT, /*root=*/0));
  // An active persistent neighbourhood exchange on a ring, whose blocks
  // are a derived datatype freed by the user after init.
  const std::vector<int> sources = {(me + n - 1) % n};
  const std::vector<int> destinations = {(me + 1) % n};
  const Comm ring = classic::dist_graph_create_adjacent(
      copy, sources, classic::unweighted, destinations, classic::unweighted);
  k.comms.push_back(ring);
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  Request exchange = classic::neighbor_alltoall_init(
      ring, &k.doubles[0], 1, pair, &k.doubles[8], 1, pair);
  MPI_Type_free(&pair);
  classic::start(exchange);
  k.requests.push_back(std::move(exchange));
  // A receive that nothing matches.
  k.requests.push_back(
      classic::irecv(copy, &k.ints[10], 1, MPI_INT, me, /*tag=*/4242));
  SUCCEED();
}

}  // namespace
