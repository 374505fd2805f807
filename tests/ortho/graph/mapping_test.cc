// Process mapping (ortho/mapping.h) on hand-computable cases. The hosts are
// given to the mapping step directly (white-box: ortho/internal/mapping.h),
// round-robin as Open MPI's --map-by node places ranks, so that one machine
// can test what several hosts would do; oracles are counted by hand (in the
// comments) and by brute force over the gathered global graph. Checked: the
// new ranks are a permutation with each process on its cell's host, the
// edges between hosts after mapping equal the known optimum and never
// exceed the identity's, the base communicator has the mapped order and
// the naming, collectives on the mapped communicator give per grid cell
// what they give on the unmapped one, and Reorder::no (or nothing to gain)
// keeps the ranks.
#include "ortho/internal/mapping.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <numeric>
#include <optional>
#include <vector>

#include "classic/base/constants.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/point_to_point.h"
#include "classic/p2p/request.h"
#include "naming/cart_name.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/mapping.h"
#include "ortho/structure.h"
#include "stencils/cart_neighbors.h"
#include "stencils/neighborhood.h"

namespace {

using classic::Comm;
using ortho::internal::Adjacency;
using stencils::Metric;

struct Grid {
  std::vector<int> dims;
  bool periodic;
  Metric metric;
};

// world, duplicated and named with the grid (16 processes).
Comm named(const Grid& grid) {
  Comm comm = Comm::world().dup();
  const std::vector<char> periods(grid.dims.size(), grid.periodic ? 1 : 0);
  const bool* flags = reinterpret_cast<const bool*>(periods.data());
  naming::cart_name(comm, grid.dims,
                    std::span<const bool>(flags, grid.dims.size()),
                    naming::Order::row_major);
  return comm;
}

Adjacency stencil_adjacency(const Comm& comm, Metric metric) {
  Adjacency a;
  a.sources = stencils::cart_neighbor_ranks(comm, comm.rank(), metric, 1, 1);
  a.destinations = a.sources;
  return a;
}

std::vector<int> round_robin(int processes, int hosts) {
  std::vector<int> host(static_cast<std::size_t>(processes));
  for (int r = 0; r < processes; ++r) {
    host[static_cast<std::size_t>(r)] = r % hosts;
  }
  return host;
}

// The world rank of each rank of `comm`.
std::vector<int> world_ranks(const Comm& comm) {
  std::vector<int> all(static_cast<std::size_t>(comm.size()));
  const int mine = Comm::world().rank();
  MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
  // Gathered in world order; reorder by rank of comm.
  std::vector<int> rank_in_comm(all.size());
  const int my_rank = comm.rank();
  MPI_Allgather(&my_rank, 1, MPI_INT, rank_in_comm.data(), 1, MPI_INT,
                MPI_COMM_WORLD);
  std::vector<int> result(all.size());
  for (std::size_t w = 0; w < all.size(); ++w) {
    result[static_cast<std::size_t>(rank_in_comm[w])] = static_cast<int>(w);
  }
  return result;
}

// Brute force: the directed edges of `graph` between hosts, where rank r of
// graph runs on host host_of_world[world rank of r].
std::int64_t edges_between_hosts(const Comm& graph,
                                 const std::vector<int>& host_of_world) {
  const std::vector<int> world_of = world_ranks(graph);
  const classic::DistGraphNeighbors mine = classic::dist_graph_neighbors(graph);
  const int my_host = host_of_world[static_cast<std::size_t>(
      world_of[static_cast<std::size_t>(graph.rank())])];
  std::int64_t crossing = 0;
  for (const int d : mine.destinations) {
    if (host_of_world[static_cast<std::size_t>(
            world_of[static_cast<std::size_t>(d)])] != my_host) {
      ++crossing;
    }
  }
  std::int64_t total = 0;
  MPI_Allreduce(&crossing, &total, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

// The graph of `adjacency` in comm's order (Reorder::no).
Comm unmapped(const Comm& comm, const Adjacency& a) {
  return ortho::dist_graph_create_adjacent(comm, a.sources, classic::unweighted,
                                           a.destinations, classic::unweighted,
                                           {}, classic::Reorder::no);
}

// Every rank's value of `mine`, in the order of comm's ranks.
std::vector<int> by_rank(const Comm& comm, int mine) {
  std::vector<int> all(static_cast<std::size_t>(comm.size()));
  std::vector<int> ranks(all.size());
  const int rank = comm.rank();
  MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Allgather(&rank, 1, MPI_INT, ranks.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> result(all.size());
  for (std::size_t w = 0; w < all.size(); ++w) {
    result[static_cast<std::size_t>(ranks[w])] = all[w];
  }
  return result;
}

// What the collectives deliver on `graph`, per grid cell (= rank of the
// graph), when each process contributes the values of its cell: the
// receive blocks of allgather, alltoall and gather, the results of
// allreduce, bcast and reduce, flattened and gathered in cell order.
std::vector<int> results_by_cell(const Comm& graph) {
  const int cell = graph.rank();
  const classic::DistGraphCounts counts =
      classic::dist_graph_neighbors_count(graph);
  const auto out = static_cast<std::size_t>(counts.outdegree);
  std::vector<int> send(out);
  for (std::size_t i = 0; i < out; ++i) {
    send[i] = 1000 * cell + static_cast<int>(i);
  }
  // The same length on every cell (degrees differ at a mesh's border):
  // allgather, alltoall, gather at cell 5 (kMaxDegree each), allreduce,
  // bcast from cell 3, reduce at cell 6 (one each).
  constexpr std::size_t kMaxDegree = 8;
  std::vector<int> mine(3 * kMaxDegree + 3, -1);
  ortho::allgather(graph, &send[0], 1, MPI_INT, &mine[0], 1, MPI_INT);
  ortho::alltoall(graph, send.data(), 1, MPI_INT, &mine[kMaxDegree], 1,
                  MPI_INT);
  const int value = cell + 1;
  ortho::allreduce(graph, &value, &mine[3 * kMaxDegree], 1, MPI_INT, MPI_SUM);
  ortho::gather(graph, &value, 1, MPI_INT, &mine[2 * kMaxDegree], 1, MPI_INT,
                /*root=*/5);
  int broadcast = cell == 3 ? 77 : -5;
  ortho::bcast(graph, &broadcast, 1, MPI_INT, /*root=*/3);
  mine[3 * kMaxDegree + 1] = broadcast;
  ortho::reduce(graph, &value, &mine[3 * kMaxDegree + 2], 1, MPI_INT, MPI_MAX,
                /*root=*/6);
  ortho::barrier(graph);
  std::vector<int> all(mine.size() * static_cast<std::size_t>(graph.size()));
  std::vector<int> cells(static_cast<std::size_t>(graph.size()));
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_INT, all.data(),
                static_cast<int>(mine.size()), MPI_INT, MPI_COMM_WORLD);
  MPI_Allgather(&cell, 1, MPI_INT, cells.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> result(all.size());
  for (std::size_t w = 0; w < cells.size(); ++w) {
    std::copy_n(&all[w * mine.size()], mine.size(),
                &result[static_cast<std::size_t>(cells[w]) * mine.size()]);
  }
  return result;
}

class Mapping : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Comm::world().size() != 16) {
      GTEST_SKIP() << "the hand-counted cases have 16 processes";
    }
  }
};

// 4 x 4 torus, Moore stencil, 4 hosts, ranks round-robin (host r % 4).
// Identity: each cell's left, right and four diagonal neighbours are on
// other hosts (their ranks differ by 1 or 3 mod 4), the two vertical ones
// (r +- 4) on its own: 16 * 6 = 96 edges. Row strips: 96 as well (left and
// right stay). 2 x 2 blocks: every cell of a block touches the other three,
// so 16 * 5 = 80, the best block partition.
TEST_F(Mapping, MooreTorusOnFourHostsMeetsTheBlockOptimum) {
  const Comm comm = named({{4, 4}, true, Metric::chebyshev});
  const std::vector<int> hosts = round_robin(16, 4);
  const Adjacency adjacency = stencil_adjacency(comm, Metric::chebyshev);
  ortho::internal::Mapping mapping =
      ortho::internal::map_graph(comm, adjacency, {}, hosts);
  ASSERT_TRUE(mapping.graph.has_value());
  const Comm& graph = *mapping.graph;
  EXPECT_TRUE(mapping.facts.mapped());
  ASSERT_TRUE(mapping.facts.identity && mapping.facts.best_blocks);
  EXPECT_EQ(mapping.facts.identity->edges, 96);
  EXPECT_EQ(mapping.facts.best_blocks->edges, 80);
  // comm is a dup of world: its rank is the world rank.
  EXPECT_EQ(edges_between_hosts(graph, hosts), 80);
  EXPECT_EQ(edges_between_hosts(unmapped(comm, adjacency), hosts), 96);
  // The new ranks are a permutation; each host holds one 2 x 2 block.
  std::vector<int> world_of = world_ranks(graph);
  std::vector<int> sorted = world_of;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> all(16);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(sorted, all);
  for (int cell = 0; cell < 16; ++cell) {
    const int row = cell / 4;
    const int column = cell % 4;
    // The first cell of the cell's 2 x 2 block.
    const std::size_t corner = static_cast<std::size_t>(row / 2) * 8 +
                               static_cast<std::size_t>(column / 2) * 2;
    const int block_host = hosts[static_cast<std::size_t>(world_of[corner])];
    EXPECT_EQ(hosts[static_cast<std::size_t>(
                  world_of[static_cast<std::size_t>(cell)])],
              block_host)
        << "cell " << cell;
  }
}

// 8 x 2 mesh (not periodic), von Neumann, 2 hosts round-robin: host r % 2
// is the column, so each cell's neighbour in the other column is on the
// other host: 16 edges. Cutting the long dimension in halves (4 x 2 each)
// leaves the edges between rows 3 and 4: 2 columns x 2 directions = 4.
TEST_F(Mapping, MeshOnTwoHostsIsCutAcrossItsLongDimension) {
  const Comm comm = named({{8, 2}, false, Metric::manhattan});
  const std::vector<int> hosts = round_robin(16, 2);
  const Adjacency adjacency = stencil_adjacency(comm, Metric::manhattan);
  ortho::internal::Mapping mapping =
      ortho::internal::map_graph(comm, adjacency, {}, hosts);
  ASSERT_TRUE(mapping.graph.has_value());
  EXPECT_EQ(mapping.facts.identity->edges, 16);
  EXPECT_EQ(edges_between_hosts(*mapping.graph, hosts), 4);
}

// Data follows the grid cell: each collective gives cell c on the mapped
// communicator what it gives cell c on the unmapped one.
TEST_F(Mapping, CollectivesGiveEachCellWhatTheyGaveItUnmapped) {
  for (const Grid& grid : {Grid{{4, 4}, true, Metric::chebyshev},
                           Grid{{8, 2}, false, Metric::manhattan}}) {
    const Comm comm = named(grid);
    const Adjacency adjacency = stencil_adjacency(comm, grid.metric);
    ortho::internal::Mapping mapping = ortho::internal::map_graph(
        comm, adjacency, {}, round_robin(16, grid.dims[1] == 2 ? 2 : 4));
    ASSERT_TRUE(mapping.graph.has_value());
    const std::vector<int> mapped = results_by_cell(*mapping.graph);
    EXPECT_EQ(mapped, results_by_cell(unmapped(comm, adjacency)));
    // Something arrived: cell 3's out-neighbours got its bcast.
    EXPECT_GT(std::count(mapped.begin(), mapped.end(), 77), 0);
  }
}

// comm_base of a mapped communicator: the mapped order, and the naming.
TEST_F(Mapping, TheBaseHasTheMappedOrderAndTheNaming) {
  const Comm comm = named({{4, 4}, true, Metric::chebyshev});
  ortho::internal::Mapping mapping = ortho::internal::map_graph(
      comm, stencil_adjacency(comm, Metric::chebyshev), {}, round_robin(16, 4));
  ASSERT_TRUE(mapping.graph.has_value());
  const Comm base = ortho::comm_base(*mapping.graph);
  EXPECT_EQ(base.rank(), mapping.graph->rank());
  EXPECT_EQ(by_rank(base, Comm::world().rank()), world_ranks(*mapping.graph));
  EXPECT_TRUE(naming::cart_testall(base));
  EXPECT_EQ(naming::cart_get(base).size(), 16);
}

// Mapping sends messages (each cell's adjacency to its new process), but
// never where an application's pending receive on the communicator could
// take them.
TEST_F(Mapping, APendingReceiveOfTheApplicationTakesNothing) {
  const Comm comm = named({{4, 4}, true, Metric::chebyshev});
  std::vector<int> taken(64, -1);
  classic::Request pending = classic::irecv(
      comm, taken.data(), 64, MPI_INT, classic::any_source, classic::any_tag);
  ortho::internal::Mapping mapping = ortho::internal::map_graph(
      comm, stencil_adjacency(comm, Metric::chebyshev), {}, round_robin(16, 4));
  ASSERT_TRUE(mapping.graph.has_value());
  EXPECT_FALSE(classic::test(pending).has_value()) << "a message was taken";
  // Satisfy it: each process sends itself one int.
  const int mine = 5;
  classic::send(comm, &mine, 1, MPI_INT, comm.rank(), /*tag=*/9);
  classic::wait(pending);
  EXPECT_EQ(taken[0], 5);
}

// Nothing to gain: hosts already in 2 x 2 blocks keep their order.
TEST_F(Mapping, APlacementThatIsAlreadyBestIsKept) {
  const Comm comm = named({{4, 4}, true, Metric::chebyshev});
  std::vector<int> hosts(16);
  for (int cell = 0; cell < 16; ++cell) {
    hosts[static_cast<std::size_t>(cell)] = (cell / 8) * 2 + (cell % 4) / 2;
  }
  ortho::internal::Mapping mapping = ortho::internal::map_graph(
      comm, stencil_adjacency(comm, Metric::chebyshev), {}, hosts);
  EXPECT_FALSE(mapping.graph.has_value());
  EXPECT_FALSE(mapping.facts.mapped());
  ASSERT_TRUE(mapping.facts.identity.has_value());
  EXPECT_EQ(mapping.facts.identity->edges, 80);
}

// Any process count. On one real host (as under Bazel) Reorder::yes has
// nothing to place and keeps the order, as Reorder::no does; the report
// says so.
TEST(MappingOnThisMachine, ReorderKeepsRanksWhereThereIsOneHost) {
  Comm comm = Comm::world().dup();
  const std::vector<int> dims = {comm.size()};
  const bool periods[1] = {true};
  naming::cart_name(comm, dims, std::span<const bool>(periods, 1),
                    naming::Order::row_major);
  const Adjacency a = stencil_adjacency(comm, Metric::manhattan);
  for (const classic::Reorder reorder :
       {classic::Reorder::no, classic::Reorder::yes}) {
    const Comm graph = ortho::dist_graph_create_adjacent(
        comm, a.sources, classic::unweighted, a.destinations,
        classic::unweighted, {}, reorder);
    EXPECT_EQ(graph.rank(), comm.rank());
    const ortho::MappingReport report = ortho::mapping_report(graph);
    EXPECT_FALSE(report.mapped);
    if (report.hosts == 1) {
      EXPECT_EQ(report.traffic.edges, 0);
    }
  }
}

}  // namespace
