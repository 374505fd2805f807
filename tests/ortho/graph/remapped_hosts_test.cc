// Simulated hosts (ORTHO_HOSTS=K) under a remap: Reorder::yes places a torus
// on the hosts and gives each process a new rank; the new communicator must
// find every process on the host it runs on (K blocks of consecutive world
// ranks), not on the block of its new rank. Oracles counted from the
// placement: the edges between hosts from each end's world rank, compared
// with mapping_report and with ortho::traffic for each algorithm whose
// traffic is exact per edge; and the neighbourhood collectives of every
// algorithm offered on the remapped graph against classic's reference.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/groups/group.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "naming/cart_name.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/mapping.h"
#include "ortho/table.h"
#include "ortho/traffic.h"
#include "stencils/cart_neighbors.h"
#include "stencils/neighborhood.h"

namespace {

using classic::Comm;

constexpr std::size_t kBlockBytes = 1000;

int simulated_hosts() {
  const char* value = std::getenv("ORTHO_HOSTS");
  return value == nullptr ? 1 : std::atoi(value);
}

// The host of the process with world rank `w`: K equal blocks of
// consecutive world ranks (the test runs where K divides the world).
int host_of_world_rank(int w) {
  return w / (Comm::world().size() / simulated_hosts());
}

// A Moore torus of the world's processes whose rows are shorter than the hosts'
// blocks, so that the identity cuts along rows and the mapping does better:
// 2 x 4 for 8 processes, 4 x 4 for 16.
Comm torus_graph(classic::Reorder reorder) {
  const int size = Comm::world().size();
  Comm named = Comm::world().dup();
  const std::vector<int> dims = {size / 4, 4};
  const bool periods[] = {true, true};
  naming::cart_name(named, dims, std::span<const bool>(periods, 2),
                    naming::Order::row_major);
  const std::vector<int> neighbours = stencils::cart_neighbor_ranks(
      named, named.rank(), stencils::Metric::chebyshev, 1, 1);
  return ortho::dist_graph_create_adjacent(named, neighbours,
                                           classic::unweighted, neighbours,
                                           classic::unweighted, {}, reorder);
}

// Brute force over the placement: the out-edges of this process of `graph`
// whose destination runs on another host.
std::int64_t my_edges_between_hosts(const Comm& graph) {
  const classic::Group group = graph.group();
  const int my_host = host_of_world_rank(group.world_rank_of(graph.rank()));
  std::int64_t crossing = 0;
  for (int d : classic::dist_graph_neighbors(graph).destinations) {
    if (host_of_world_rank(group.world_rank_of(d)) != my_host) ++crossing;
  }
  return crossing;
}

std::int64_t sum(std::int64_t mine) {
  std::int64_t total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

class RemappedHosts : public ::testing::Test {
 protected:
  void SetUp() override {
    const int size = Comm::world().size();
    if (simulated_hosts() < 2 || size % simulated_hosts() != 0 ||
        size % 4 != 0) {
      GTEST_SKIP() << "needs ORTHO_HOSTS >= 2 dividing a multiple of 4";
    }
  }
};

TEST_F(RemappedHosts, MappingReportCountsFromThePlacement) {
  const Comm graph = torus_graph(classic::Reorder::yes);
  const ortho::MappingReport report = ortho::mapping_report(graph);
  ASSERT_TRUE(report.mapped) << "the torus was expected to be remapped";
  EXPECT_EQ(report.hosts, simulated_hosts());
  const std::int64_t crossing = sum(my_edges_between_hosts(graph));
  EXPECT_EQ(report.traffic.edges, crossing);
  EXPECT_EQ(report.traffic.weight, crossing);  // unweighted: 1 an edge
  ASSERT_TRUE(report.best_blocks.has_value());
  EXPECT_EQ(report.traffic.edges, report.best_blocks->edges);
  ASSERT_TRUE(report.identity.has_value());
  EXPECT_LT(report.traffic.edges, report.identity->edges);
}

TEST_F(RemappedHosts, UnmappedGraphCountsTheSame) {
  // Without a remap the world's order is the placement's: the same count.
  const Comm graph = torus_graph(classic::Reorder::no);
  EXPECT_EQ(ortho::mapping_report(graph).traffic.edges,
            sum(my_edges_between_hosts(graph)));
}

TEST_F(RemappedHosts, DirectTrafficBetweenHostsIsPerEdge) {
  const Comm graph = torus_graph(classic::Reorder::yes);
  for (ortho::Operation operation :
       {ortho::Operation::allgather, ortho::Operation::alltoall}) {
    const std::optional<ortho::Traffic> traffic =
        ortho::traffic(graph, operation, "direct", kBlockBytes);
    ASSERT_TRUE(traffic.has_value());
    ASSERT_TRUE(traffic->bytes_between_hosts.has_value());
    ASSERT_TRUE(traffic->messages_between_hosts.has_value());
    const std::int64_t crossing = my_edges_between_hosts(graph);
    EXPECT_EQ(*traffic->messages_between_hosts, crossing);
    EXPECT_EQ(*traffic->bytes_between_hosts,
              crossing * static_cast<std::int64_t>(kBlockBytes));
  }
}

TEST_F(RemappedHosts, EveryAlgorithmDeliversClassicsResult) {
  const Comm graph = torus_graph(classic::Reorder::yes);
  const std::size_t degree =
      classic::dist_graph_neighbors(graph).sources.size();
  for (const char* algorithm :
       {"", "direct", "combining", "node_aware", "common_neighbours"}) {
    SCOPED_TRACE(std::string("algorithm '") + algorithm + "'");
    try {
      ortho::set_algorithm(graph, algorithm);
    } catch (const classic::Error& error) {
      EXPECT_EQ(error.error_class(), classic::ErrorClass::arg) << error.what();
      continue;  // not offered here
    }
    for (int call = 0; call < 2; ++call) {
      const int mine = 100 * graph.rank() + call;
      std::vector<int> expected(degree, -1);
      classic::neighbor_allgather(graph, &mine, 1, MPI_INT, expected.data(), 1,
                                  MPI_INT);
      std::vector<int> got(degree, -1);
      ortho::allgather(graph, &mine, 1, MPI_INT, got.data(), 1, MPI_INT);
      EXPECT_EQ(got, expected) << "allgather, call " << call;
      std::vector<int> send(degree);
      for (std::size_t i = 0; i < degree; ++i) {
        send[i] = mine * 10 + static_cast<int>(i);
      }
      classic::neighbor_alltoall(graph, send.data(), 1, MPI_INT,
                                 expected.data(), 1, MPI_INT);
      ortho::alltoall(graph, send.data(), 1, MPI_INT, got.data(), 1, MPI_INT);
      EXPECT_EQ(got, expected) << "alltoall, call " << call;
    }
  }
  ortho::set_algorithm(graph, "");
}

}  // namespace
