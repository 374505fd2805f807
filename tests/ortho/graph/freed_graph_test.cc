// ortho's persistent collectives outlive their communicator's free(): a
// request made by alltoall_init / allgather_init on a Moore-stencil graph
// starts, completes and restarts after graph.free(), also when it was
// active at the free, with each algorithm the graph offers (direct,
// per_peer, combining) and with the default choice, which tunes over the
// request's first starts. Each run's result must equal a blocking call's on
// the same data made before the free.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "ortho/table.h"
#include "tests/ortho/testing/moore_torus.h"

namespace {

using classic::Comm;
using classic::Request;

// Enough starts for a tuned request (the default choice) to measure every
// candidate, agree and run the winner after the free.
constexpr int kRuns = 20;
constexpr int kCount = 3;

enum class Operation { allgather, alltoall };

struct Exchange {
  Exchange(const Comm& graph, Operation operation)
      : operation(operation),
        out(classic::dist_graph_neighbors_count(graph).outdegree),
        in(classic::dist_graph_neighbors_count(graph).indegree),
        me(graph.rank()),
        send(static_cast<std::size_t>(
            (operation == Operation::alltoall ? out : 1) * kCount)),
        recv(static_cast<std::size_t>(in * kCount), -1) {}

  void fill(int run) {
    for (std::size_t i = 0; i < send.size(); ++i) {
      send[i] = 100000 * run + 1000 * me + static_cast<int>(i);
    }
  }
  void blocking(const Comm& graph) {
    if (operation == Operation::alltoall) {
      ortho::alltoall(graph, send.data(), kCount, MPI_INT, recv.data(), kCount,
                      MPI_INT);
    } else {
      ortho::allgather(graph, send.data(), kCount, MPI_INT, recv.data(), kCount,
                       MPI_INT);
    }
  }
  Request persistent(const Comm& graph) {
    return operation == Operation::alltoall
               ? ortho::alltoall_init(graph, send.data(), kCount, MPI_INT,
                                      recv.data(), kCount, MPI_INT)
               : ortho::allgather_init(graph, send.data(), kCount, MPI_INT,
                                       recv.data(), kCount, MPI_INT);
  }

  Operation operation;
  int out;
  int in;
  int me;
  std::vector<int> send;
  std::vector<int> recv;
};

struct Case {
  Operation operation;
  const char* algorithm;
  bool active_at_free;
};

std::string name_of(const ::testing::TestParamInfo<Case>& info) {
  return std::string(info.param.operation == Operation::alltoall
                         ? "alltoall"
                         : "allgather") +
         "_" +
         (*info.param.algorithm == '\0' ? "default" : info.param.algorithm) +
         (info.param.active_at_free ? "_active" : "_inactive");
}

class FreedGraph : public ::testing::TestWithParam<Case> {};

TEST_P(FreedGraph, PersistentRequestRunsAfterFree) {
  const Case& c = GetParam();
  Comm graph = ortho_testing::moore_torus();
  ortho::set_algorithm(graph, c.algorithm);
  Exchange exchange(graph, c.operation);
  std::vector<std::vector<int>> expected;
  for (int run = 0; run < kRuns; ++run) {
    exchange.fill(run);
    exchange.blocking(graph);
    expected.push_back(exchange.recv);
  }
  Request request = exchange.persistent(graph);
  int run = 0;
  if (c.active_at_free) {
    exchange.fill(run);
    classic::start(request);
  }
  graph.free();
  if (c.active_at_free) {
    classic::wait(request);
    ASSERT_EQ(exchange.recv, expected[0]) << "run 0 (active at the free)";
    ++run;
  }
  for (; run < kRuns; ++run) {
    std::fill(exchange.recv.begin(), exchange.recv.end(), -1);
    exchange.fill(run);
    classic::start(request);
    classic::wait(request);
    ASSERT_EQ(exchange.recv, expected[static_cast<std::size_t>(run)])
        << "run " << run;
  }
}

INSTANTIATE_TEST_SUITE_P(
    AlgorithmsAndStates, FreedGraph,
    ::testing::Values(Case{Operation::alltoall, "direct", false},
                      Case{Operation::alltoall, "direct", true},
                      Case{Operation::alltoall, "per_peer", true},
                      Case{Operation::alltoall, "combining", false},
                      Case{Operation::alltoall, "combining", true},
                      Case{Operation::allgather, "direct", true},
                      Case{Operation::allgather, "combining", true},
                      Case{Operation::alltoall, "mpi", true},
                      Case{Operation::alltoall, "", true},
                      Case{Operation::allgather, "", false}),
    name_of);

// Another handle of the freed graph is refused in the name of ortho's call.
TEST(FreedGraphHandle, NewCallsNameTheUsersFunction) {
  Comm graph = ortho_testing::moore_torus();
  const Comm copy = graph;
  Exchange exchange(graph, Operation::alltoall);
  Request request = exchange.persistent(graph);
  graph.free();
  try {
    (void)exchange.persistent(copy);
    FAIL() << "alltoall_init on a freed graph returned";
  } catch (const classic::Error& error) {
    EXPECT_EQ(error.error_class(), classic::ErrorClass::comm);
    EXPECT_EQ(std::string(error.what()).rfind("ortho::alltoall_init: ", 0), 0U)
        << error.what();
  }
}

}  // namespace
