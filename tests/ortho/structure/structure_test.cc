// ortho::topo_test, comm_base and the per-communicator table: structures of
// every kind of communicator, bases that are local and keep the order, and
// the table that dup shares and set_algorithm changes.
#include "ortho/structure.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <span>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/graph/graph.h"
#include "classic/topology/cartesian.h"
#include "classic/topology/dims_create.h"
#include "classic/topology/topology.h"
#include "naming/cart_name.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/operation.h"
#include "ortho/subgraph.h"
#include "ortho/table.h"
#include "tests/testing/errors.h"

namespace {

using classic::Comm;
using ortho::Operation;
using ortho::Structure;

// A ring: each process receives from its left and sends to its right.
Comm ortho_ring(const Comm& comm) {
  const int p = comm.size();
  const int left = (comm.rank() + p - 1) % p;
  const int right = (comm.rank() + 1) % p;
  return ortho::dist_graph_create_adjacent(
      comm, std::array{left}, classic::unweighted, std::array{right},
      classic::unweighted);
}

TEST(TopoTest, FullyConnectedAndNamedIntraCommunicators) {
  Comm comm = Comm::world().dup();
  EXPECT_EQ(ortho::topo_test(comm), Structure::fully_connected);
  const std::vector<int> dims =
      classic::dims_create(comm.size(), std::array{0, 0});
  naming::cart_name(comm, dims, std::array{true, true},
                    naming::Order::row_major);
  // A Cartesian name carries no topology.
  EXPECT_EQ(ortho::topo_test(comm), Structure::fully_connected);
  EXPECT_EQ(ortho::comm_base(comm), comm);
}

TEST(TopoTest, ClassicTopologiesAreDirectedGraphs) {
  const Comm world = Comm::world();
  const std::vector<int> dims =
      classic::dims_create(world.size(), std::array{0, 0});
  const Comm cart = classic::cart_create(world, dims, std::array{true, false},
                                         classic::Reorder::no);
  EXPECT_EQ(ortho::topo_test(cart), Structure::directed_graph);
  const Comm graph = classic::dist_graph_create_adjacent(
      world, std::array{world.rank()}, classic::unweighted,
      std::array{world.rank()}, classic::unweighted);
  EXPECT_EQ(ortho::topo_test(graph), Structure::directed_graph);
  EXPECT_EQ(ortho::topo_test(ortho_ring(world)), Structure::directed_graph);
}

TEST(TopoTest, NullCommunicatorIsAnError) {
  orthocomm_test::expect_error([] { (void)ortho::topo_test(Comm()); },
                               classic::ErrorClass::comm,
                               {"ortho::topo_test", "null"});
  orthocomm_test::expect_error([] { (void)ortho::comm_base(Comm()); },
                               classic::ErrorClass::comm,
                               {"ortho::comm_base", "null"});
}

TEST(CommBase, OfAnOrthoGraphIsLocalAndKeepsTheOrder) {
  const Comm world = Comm::world();
  const Comm ring = ortho_ring(world);
  // Only the last process asks: were comm_base collective, it would wait
  // here for the others, which are already in the barrier below.
  if (world.rank() == world.size() - 1) {
    const Comm base = ortho::comm_base(ring);
    EXPECT_EQ(ortho::topo_test(base), Structure::fully_connected);
    EXPECT_EQ(base.compare(ring), classic::Comparison::congruent);
    EXPECT_EQ(ortho::comm_base(ring), base);  // the same every time
  }
  classic::barrier(world);
  // The base reaches every process, unlike the ring.
  const int one = 1;
  int total = 0;
  classic::allreduce(ortho::comm_base(ring), std::span(&one, 1),
                     std::span(&total, 1), MPI_SUM);
  EXPECT_EQ(total, world.size());
}

TEST(CommBase, OfAClassicGraphIsPreparedOnFirstUse) {
  const Comm world = Comm::world();
  const std::vector<int> dims =
      classic::dims_create(world.size(), std::array{0});
  const Comm cart =
      classic::cart_create(world, dims, std::array{true}, classic::Reorder::no);
  const Comm base = ortho::comm_base(cart);  // collective: the first use
  EXPECT_EQ(base.compare(cart), classic::Comparison::congruent);
  EXPECT_EQ(classic::topo_test(base), classic::TopologyKind::undefined);
}

TEST(Table, DupSharesTheGraphAndTheChoice) {
  const Comm ring = ortho_ring(Comm::world());
  EXPECT_EQ(ortho::selected_algorithm(ring, Operation::allgather), "direct");
  EXPECT_EQ(ortho::selected_algorithm(ring, Operation::scan), "");
  const Comm copy = ortho::comm_dup(ring);
  EXPECT_EQ(ortho::topo_test(copy), Structure::directed_graph);
  EXPECT_EQ(ortho::comm_base(copy), ortho::comm_base(ring));
  // The copy is a ring too: the left neighbour's rank arrives.
  const int me = copy.rank();
  const std::vector<int> got = ortho::allgather(copy, std::span(&me, 1));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], (me + copy.size() - 1) % copy.size());
}

TEST(Table, SetAlgorithmChecksItsSpec) {
  const Comm ring = ortho_ring(Comm::world());
  orthocomm_test::expect_error(
      [&] { ortho::set_algorithm(ring, "bogus"); }, classic::ErrorClass::arg,
      {"ortho::set_algorithm", "'bogus' is no algorithm", "direct"});
  orthocomm_test::expect_error(
      [&] { ortho::set_algorithm(ring, "allgatherx=direct"); },
      classic::ErrorClass::arg, {"'allgatherx' is no operation"});
  orthocomm_test::expect_error(
      [&] { ortho::set_algorithm(ring, "allgather=native"); },
      classic::ErrorClass::arg,
      {"allgather has no algorithm 'native' on a directed graph"});
  ortho::set_algorithm(ring, "allgather=direct,direct");
  EXPECT_EQ(ortho::selected_algorithm(ring, Operation::allgather), "direct");
  ortho::set_algorithm(ring, "");
  EXPECT_EQ(ortho::selected_algorithm(ring, Operation::bcast), "direct");
}

TEST(Operations, NamesAndDefinedness) {
  for (Operation operation : ortho::all_operations()) {
    EXPECT_EQ(ortho::operation_named(ortho::to_string(operation)), operation);
    EXPECT_TRUE(ortho::defined_on(operation, Structure::fully_connected) ||
                operation == Operation::allgatherw);
  }
  EXPECT_FALSE(ortho::operation_named("allgatherx").has_value());
  EXPECT_STREQ(
      ortho::function_name(Operation::allgather, classic::Mode::nonblocking),
      "ortho::iallgather");
  EXPECT_STREQ(ortho::function_name(Operation::reduce_scatter_block,
                                    classic::Mode::persistent),
               "ortho::reduce_scatter_block_init");
  EXPECT_FALSE(ortho::defined_on(Operation::scan, Structure::bipartite));
  EXPECT_FALSE(
      ortho::defined_on(Operation::reduce_scatter, Structure::directed_graph));
  EXPECT_TRUE(ortho::defined_on(Operation::allreduce, Structure::bipartite));
}

}  // namespace
