// Strict mode: on a directed ring (each process sends to its right
// neighbour and receives from its left one), point-to-point past the
// neighbourhood raises classic::Error naming both ranks, while neighbour
// traffic, proc_null and collectives work; off again, everything works;
// ortho::comm_dup keeps the mode; non-graph communicators are refused.
#include "ortho/strict.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/peer_restriction.h"
#include "classic/p2p/point_to_point.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/subgraph.h"

namespace {

using classic::Comm;
using classic::ErrorClass;

Comm ring() {
  const Comm world = Comm::world();
  const int p = world.size();
  const std::vector<int> right{(world.rank() + 1) % p};
  const std::vector<int> left{(world.rank() + p - 1) % p};
  return ortho::dist_graph_create_adjacent(world, left, classic::unweighted,
                                           right, classic::unweighted);
}

// Runs `call`; expects ErrorClass::rank with every phrase in `parts`.
template <class Call>
void expect_refused(Call&& call, const std::vector<std::string>& parts) {
  try {
    call();
    ADD_FAILURE() << "no error";
  } catch (const classic::Error& error) {
    EXPECT_EQ(error.error_class(), ErrorClass::rank) << error.what();
    for (const std::string& part : parts) {
      EXPECT_NE(std::string(error.what()).find(part), std::string::npos)
          << error.what() << " lacks '" << part << "'";
    }
  }
}

TEST(Strict, NeighbourTrafficPassesTheRestIsRefused) {
  const Comm graph = ring();
  const int p = graph.size();
  const int me = graph.rank();
  const int right = (me + 1) % p;
  const int left = (me + p - 1) % p;
  EXPECT_FALSE(ortho::strict(graph));
  ortho::set_strict(graph, true);
  EXPECT_TRUE(ortho::strict(graph));
  // Neighbour traffic: to the right, from the left.
  int value = me;
  int got = -1;
  classic::sendrecv(graph, &value, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left,
                    7);
  EXPECT_EQ(got, left);
  // proc_null is never a violation.
  classic::send(graph, &value, 1, MPI_INT, classic::proc_null, 0);
  if (p >= 3) {
    // The left neighbour is not an out-neighbour, the right one not an
    // in-neighbour.
    const std::string me_text = "rank " + std::to_string(me);
    expect_refused([&] { classic::send(graph, &value, 1, MPI_INT, left, 0); },
                   {"classic::send", "to rank " + std::to_string(left), me_text,
                    "out-neighbour"});
    expect_refused(
        [&] { (void)classic::recv(graph, &got, 1, MPI_INT, right, 0); },
        {"classic::recv", "from rank " + std::to_string(right), me_text,
         "in-neighbour"});
    expect_refused(
        [&] { (void)classic::isend(graph, &value, 1, MPI_INT, left, 0); },
        {"classic::isend"});
    expect_refused([&] { (void)classic::iprobe(graph, right, 0); },
                   {"classic::iprobe"});
  }
  // Collectives run on their own contexts.
  std::vector<int> all(1, -1);
  ortho::allgather(graph, std::span<const int>(&value, 1), std::span(all));
  EXPECT_EQ(all[0], left);
  // A duplicate made by ortho keeps the mode, classic's does not.
  const Comm copy = ortho::comm_dup(graph);
  EXPECT_TRUE(ortho::strict(copy));
  EXPECT_FALSE(ortho::strict(graph.dup()));
  ortho::set_strict(graph, false);
  EXPECT_FALSE(ortho::strict(graph));
}

// A wildcard receive under strict mode takes a message from an
// in-neighbour, and refuses (after receiving it) one from anyone else;
// blocking or non-blocking (then the completion refuses).
TEST(Strict, AnySourceAcceptsInNeighboursOnly) {
  const Comm graph = ring();
  const int p = graph.size();
  if (p < 3) GTEST_SKIP() << "needs a process that is no neighbour";
  const int me = graph.rank();
  const int right = (me + 1) % p;
  const int left = (me + p - 1) % p;
  int value = me;
  int got = -1;
  // Round 1, from the left neighbour: accepted.
  ortho::set_strict(graph, true);
  classic::Request sent = classic::isend(graph, &value, 1, MPI_INT, right, 1);
  const classic::Status status =
      classic::recv(graph, &got, 1, MPI_INT, classic::any_source, 1);
  EXPECT_EQ(status.source, left);
  classic::wait(sent);
  // Round 2, from the right neighbour (sent with strict mode off there).
  ortho::set_strict(graph, false);
  sent = classic::isend(graph, &value, 1, MPI_INT, left, 2);
  ortho::set_strict(graph, true);
  expect_refused(
      [&] {
        (void)classic::recv(graph, &got, 1, MPI_INT, classic::any_source, 2);
      },
      {"classic::recv", "from rank " + std::to_string(right), "in-neighbour"});
  EXPECT_EQ(got, right);  // received (consumed), then refused
  classic::wait(sent);
  // Round 3, non-blocking: the completion that finds the message checks it.
  ortho::set_strict(graph, false);
  sent = classic::isend(graph, &value, 1, MPI_INT, left, 3);
  ortho::set_strict(graph, true);
  got = -1;
  classic::Request pending =
      classic::irecv(graph, &got, 1, MPI_INT, classic::any_source, 3);
  expect_refused(
      [&] { (void)classic::wait(pending); },
      {"classic::wait", "from rank " + std::to_string(right), "in-neighbour"});
  EXPECT_EQ(got, right);
  classic::wait(sent);
  // Round 4, non-blocking from the in-neighbour: accepted by wait_all.
  sent = classic::isend(graph, &value, 1, MPI_INT, right, 4);
  std::vector<classic::Request> both;
  both.push_back(
      classic::irecv(graph, &got, 1, MPI_INT, classic::any_source, 4));
  both.push_back(std::move(sent));
  const std::vector<classic::Status> statuses = classic::wait_all(both);
  EXPECT_EQ(statuses[0].source, left);
  ortho::set_strict(graph, false);
}

TEST(Strict, OnlyDirectedGraphs) {
  try {
    ortho::set_strict(Comm::world(), true);
    ADD_FAILURE() << "no error";
  } catch (const classic::Error& error) {
    EXPECT_EQ(error.error_class(), ErrorClass::topology);
    EXPECT_NE(std::string(error.what()).find("ortho::set_strict"),
              std::string::npos);
  }
  try {
    const std::vector<int> outside{Comm::world().size()};
    classic::restrict_peers(Comm::world(), outside, outside);
    ADD_FAILURE() << "no error";
  } catch (const classic::Error& error) {
    EXPECT_EQ(error.error_class(), ErrorClass::rank);
  }
}

}  // namespace
