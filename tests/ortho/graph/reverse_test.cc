// ortho::reverse beyond the differential test (neighborhood_vs_openmpi_test
// runs the reverse of random graphs against Open MPI): what it refuses,
// that its first call sets up nothing collective, that an override of the
// graph it cannot serve raises instead of running something else, and that
// a classic Cartesian topology is its own reverse; across hosts, that
// node_aware serves it too.
#include "ortho/reverse.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/p2p/request.h"
#include "classic/topology/cartesian.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/table.h"
#include "tests/testing/errors.h"

namespace {

using classic::Comm;
using orthocomm_test::expect_thrown;
using orthocomm_test::thrown_by;

// Every process sends to rank + 1 and to itself (a line with self loops).
Comm open_ring_with_loops() {
  const Comm world = Comm::world();
  const int me = world.rank();
  const int size = world.size();
  std::vector<int> sources{me};
  std::vector<int> destinations{me};
  if (me > 0) sources.push_back(me - 1);
  if (me + 1 < size) destinations.push_back(me + 1);
  return ortho::dist_graph_create_adjacent(world, sources, classic::unweighted,
                                           destinations, classic::unweighted);
}

TEST(Reverse, OfAFullyConnectedCommunicatorIsATopologyError) {
  const Comm world = Comm::world();
  std::vector<int> send(static_cast<std::size_t>(world.size()), 1);
  std::vector<int> recv(send.size(), 0);
  expect_thrown(
      thrown_by([&] {
        ortho::alltoall(ortho::reverse(world), std::span(send),
                        std::span(recv));
      }),
      classic::ErrorClass::topology,
      {"ortho::reverse(comm)", "fully connected", "only a directed graph"},
      "ortho::alltoall(ortho::reverse): ");
  expect_thrown(thrown_by([&] {
                  (void)ortho::ialltoall(ortho::reverse(world), std::span(send),
                                         std::span(recv));
                }),
                classic::ErrorClass::topology, {},
                "ortho::ialltoall(ortho::reverse): ");
  EXPECT_EQ(recv, std::vector<int>(send.size(), 0)) << "nothing was received";
}

// Each process runs its reverse calls alone, one after the other, on a
// graph of self loops: if a reverse call set anything up collectively (a
// communicator, an analysis) or tuned (an agreement), the process would wait
// for the others here and never reach the barrier.
TEST(Reverse, ItsCallsSetUpNothingCollective) {
  const Comm world = Comm::world();
  const int me = world.rank();
  const std::vector<int> self{me};
  const Comm loops = ortho::dist_graph_create_adjacent(
      world, self, classic::unweighted, self, classic::unweighted);
  for (int turn = 0; turn < world.size(); ++turn) {
    if (turn == me) {
      for (int call = 0; call < 100; ++call) {
        const std::vector<int> send{1000 * me + call};
        std::vector<int> recv(1, -1);
        ortho::alltoall(ortho::reverse(loops), std::span(send),
                        std::span(recv));
        ASSERT_EQ(recv, send) << "call " << call;
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

TEST(Reverse, AnOverrideTheReverseCannotServeRaises) {
  const Comm ring = open_ring_with_loops();
  ortho::set_algorithm(ring, "alltoall=mpi");
  std::vector<int> send(2, 0);
  std::vector<int> recv(2, 0);
  expect_thrown(thrown_by([&] {
                  ortho::alltoall(ortho::reverse(ring), send.data(), 1, MPI_INT,
                                  recv.data(), 1, MPI_INT);
                }),
                classic::ErrorClass::arg, {"alltoall=mpi", "'mpi'", "reverse"},
                "ortho::alltoall(ortho::reverse): ");
  // The graph itself still runs what was forced.
  ortho::alltoall(ring, send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT);
  EXPECT_EQ(ortho::selected_algorithm(ring, ortho::Operation::alltoall), "mpi");
}

// On a classic Cartesian topology, periodic and not, every direction: the
// reverse delivers what the forward exchange delivers.
TEST(Reverse, OfACartesianTopologyIsItself) {
  const Comm world = Comm::world();
  for (const bool periodic : {false, true}) {
    SCOPED_TRACE(periodic ? "periodic" : "open");
    const std::vector<int> dims{world.size(), 1};
    const std::vector<bool> periods{periodic, true};
    const Comm cart =
        classic::cart_create(world, dims, periods, classic::Reorder::no);
    std::vector<int> send(4);
    for (std::size_t i = 0; i < send.size(); ++i) {
      send[i] = 10 * world.rank() + static_cast<int>(i);
    }
    std::vector<int> forward(4, -1);
    std::vector<int> reverse(4, -1);
    ortho::alltoall(cart, std::span(send), std::span(forward));
    classic::Request request = ortho::ialltoall(
        ortho::reverse(cart), std::span(send), std::span(reverse));
    classic::wait(request);
    EXPECT_EQ(reverse, forward);
  }
}

// Across hosts (ORTHO_HOSTS=2: reverse_2_hosts_test) node_aware serves the
// reverse from the graph its analysis gathered, turned around: forced on
// the graph, it runs the reverse's exchanges and delivers what MPI's would
// on the transposed graph (to the in-neighbours {me, me - 1}, from the
// out-neighbours {me, me + 1}).
TEST(Reverse, NodeAwareServesItAcrossHosts) {
  const Comm world = Comm::world();
  const char* hosts = std::getenv("ORTHO_HOSTS");
  if (hosts == nullptr || std::atoi(hosts) < 2 || world.size() < 2) {
    GTEST_SKIP() << "one host: direct serves the reverse";
  }
  const Comm ring = open_ring_with_loops();
  ortho::set_algorithm(ring, "node_aware");
  const ortho::Reverse reverse = ortho::reverse(ring);
  EXPECT_EQ(ortho::selected_algorithm(reverse, ortho::Operation::alltoall),
            "node_aware");
  EXPECT_EQ(ortho::selected_algorithm(reverse, ortho::Operation::allgather),
            "node_aware");
  const int me = world.rank();
  const bool last = me + 1 == world.size();
  const int out = me > 0 ? 2 : 1;  // the reverse's destinations
  const int in = last ? 1 : 2;     // and sources
  for (int call = 0; call < 3; ++call) {
    std::vector<int> send(static_cast<std::size_t>(out));
    for (int i = 0; i < out; ++i) {
      send[static_cast<std::size_t>(i)] = 100 * me + 10 * call + i;
    }
    std::vector<int> recv(static_cast<std::size_t>(in), -1);
    ortho::alltoall(reverse, send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT);
    std::vector<int> expected{100 * me + 10 * call};
    if (!last) expected.push_back(100 * (me + 1) + 10 * call + 1);
    EXPECT_EQ(recv, expected) << "alltoall, call " << call;

    const int mine = 1000 * me + call;
    std::vector<int> gathered(static_cast<std::size_t>(in), -1);
    ortho::allgather(reverse, &mine, 1, MPI_INT, gathered.data(), 1, MPI_INT);
    std::vector<int> expected_gathered{mine};
    if (!last) expected_gathered.push_back(1000 * (me + 1) + call);
    EXPECT_EQ(gathered, expected_gathered) << "allgather, call " << call;
  }
}

}  // namespace
