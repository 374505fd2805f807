// The simulator's counts against ortho's own: for every process, every
// algorithm, both exchanges and their blocking v forms, the messages,
// bytes and rounds the
// simulator builds from the MPI-free cores equal what ortho::traffic
// counts from the plans the communicator runs (and, where ortho knows
// them, those between hosts), on a 3-d Moore torus and on Erdős–Rényi
// graphs, the job planned on 2 hosts of consecutive ranks (ORTHO_HOSTS).
// Each forced algorithm first runs one call, so that its state exists.
#include "ortho/traffic.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/topology/dims_create.h"
#include "experiments/simulate/exchange.h"
#include "experiments/simulate/workload.h"
#include "experiments/sparse_graphs.h"
#include "naming/cart_name.h"
#include "ortho/dist_graph.h"
#include "ortho/operation.h"
#include "ortho/raw_collectives.h"
#include "ortho/table.h"
#include "stencils/cart_neighbors.h"

namespace {

constexpr int kHosts = 2;
constexpr std::size_t kBlockBytes = 8;

simulate::Shape shape_of(const classic::Comm& world) {
  return {.nodes = kHosts,
          .processes_per_node = world.size() / kHosts,
          .placement = simulate::Placement::by_slot};
}

classic::Comm graph_on_hosts(const classic::Comm& base,
                             const std::vector<int>& destinations,
                             const std::vector<int>& sources) {
  setenv("ORTHO_HOSTS", std::to_string(kHosts).c_str(), 1);
  classic::Comm graph = ortho::dist_graph_create_adjacent(
      base, sources, classic::unweighted, destinations, classic::unweighted);
  unsetenv("ORTHO_HOSTS");
  return graph;
}

// One call of `operation` on blocks of kBlockBytes (two ints).
void run_once(const classic::Comm& graph, ortho::Operation operation,
              int out_degree, int in_degree) {
  const int blocks = operation == ortho::Operation::allgather ? 1 : out_degree;
  std::vector<int> send(static_cast<std::size_t>(2 * blocks), graph.rank());
  std::vector<int> recv(static_cast<std::size_t>(2 * in_degree) + 2, -1);
  if (operation == ortho::Operation::allgather) {
    ortho::allgather(graph, send.data(), 2, MPI_INT, recv.data(), 2, MPI_INT);
  } else {
    ortho::alltoall(graph, send.data(), 2, MPI_INT, recv.data(), 2, MPI_INT);
  }
}

// Compares every algorithm the workload runs on `graph`'s process: the
// exchanges, and their v forms in a blocking call (the sizes first, as each
// algorithm learns them) where ortho counts them.
void expect_same_counts(const classic::Comm& graph,
                        const simulate::Workload& workload, int out_degree,
                        int in_degree) {
  using simulate::Operation;
  const std::array<std::pair<Operation, ortho::Operation>, 4> operations = {{
      {Operation::allgather, ortho::Operation::allgather},
      {Operation::alltoall, ortho::Operation::alltoall},
      {Operation::allgatherv, ortho::Operation::allgatherv},
      {Operation::alltoallv, ortho::Operation::alltoallv},
  }};
  for (const auto& [simulated, operation] : operations) {
    for (const simulate::Algorithm algorithm : simulate::kAlgorithms) {
      const std::string name(simulate::name_of(algorithm));
      const auto exchange =
          simulate::exchange(workload, algorithm, simulated, kBlockBytes, 4096);
      if (!exchange) continue;
      ortho::set_algorithm(graph, name.c_str());
      // The uniform form's call makes the algorithm's state (its v form's
      // counts come from the same routes or schedules).
      run_once(graph,
               simulate::per_source(simulated) ? ortho::Operation::allgather
                                               : ortho::Operation::alltoall,
               out_degree, in_degree);
      const auto counted = ortho::traffic(graph, operation, name, kBlockBytes);
      const std::string where = name + " " +
                                std::string(ortho::to_string(operation)) +
                                " rank " + std::to_string(graph.rank());
      if (simulate::sized(simulated) && !counted) {
        // ortho does not count combining's allgatherv ahead of the call.
        EXPECT_EQ(name, "combining") << where << ": not counted";
        continue;
      }
      ASSERT_TRUE(counted) << where;
      const simulate::Counts mine =
          simulate::counts_of(*exchange, graph.rank());
      EXPECT_EQ(mine.messages, counted->messages) << where;
      EXPECT_EQ(mine.bytes, counted->bytes) << where;
      EXPECT_EQ(mine.rounds, counted->rounds) << where;
      if (counted->messages_between_hosts) {
        EXPECT_EQ(mine.messages_between, *counted->messages_between_hosts)
            << where;
        EXPECT_EQ(mine.bytes_between, *counted->bytes_between_hosts) << where;
      } else {
        EXPECT_EQ(name, "combining") << where << ": hosts not counted";
      }
    }
  }
}

TEST(SimulatedCounts, EqualOrthosOnA3dMooreTorus) {
  const classic::Comm world = classic::Comm::world();
  if (world.size() % kHosts != 0 || world.size() < 8) {
    GTEST_SKIP() << "needs an even number of processes, at least 8";
  }
  const classic::Comm named = world.dup();
  const std::vector<int> dims =
      classic::dims_create(named.size(), std::vector<int>{0, 0, 0});
  naming::cart_name(named, dims, std::array<bool, 3>{true, true, true},
                    naming::Order::row_major);
  const std::vector<int> neighbours = stencils::cart_neighbor_ranks(
      named, named.rank(), stencils::Metric::chebyshev, 1, 1);
  const classic::Comm graph = graph_on_hosts(named, neighbours, neighbours);
  const simulate::Workload workload = simulate::stencil_workload(
      *simulate::parse_stencil("moore3d"), shape_of(world));
  ASSERT_EQ(workload.graph.destinations[static_cast<std::size_t>(world.rank())],
            neighbours);
  const auto degree = static_cast<int>(neighbours.size());
  expect_same_counts(graph, workload, degree, degree);
}

TEST(SimulatedCounts, EqualOrthosOnRandomGraphs) {
  const classic::Comm world = classic::Comm::world();
  if (world.size() % kHosts != 0) GTEST_SKIP() << "needs an even size";
  for (const char* name : {"er_0.3_s1", "er_0.6_s7", "geo_0.5_s3"}) {
    const simulate::Workload workload =
        simulate::graph_workload(name, shape_of(world));
    const experiments::Graph sources =
        experiments::reversed(workload.graph.destinations);
    const auto rank = static_cast<std::size_t>(world.rank());
    const classic::Comm graph =
        graph_on_hosts(world, workload.graph.destinations[rank], sources[rank]);
    SCOPED_TRACE(name);
    expect_same_counts(
        graph, workload,
        static_cast<int>(workload.graph.destinations[rank].size()),
        static_cast<int>(sources[rank].size()));
  }
}

}  // namespace
