// Where ortho selects the node-aware algorithm, and what it sends between
// hosts: the hosts are planned with ORTHO_HOSTS (blocks of consecutive
// ranks), set alike on every process before each communicator is made.
// On one host node_aware is offered but never selected; on several it is
// the default where the cost model prefers it: for allgather, allreduce
// and alltoall at small blocks, alltoall direct from some size on, and for
// the persistent v and w forms; on a stencil the default steps through
// node_aware, combining and direct by size. The counters of ortho::traffic
// are checked against counts by hand on a complete graph over two hosts, and
// its results against direct's on a Moore stencil in every mode.
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "classic/topology/dims_create.h"
#include "naming/cart_name.h"
#include "ortho/dist_graph.h"
#include "ortho/explain.h"
#include "ortho/mapping.h"
#include "ortho/operation.h"
#include "ortho/raw_collectives.h"
#include "ortho/table.h"
#include "ortho/traffic.h"
#include "stencils/cart_neighbors.h"
#include "stencils/neighborhood.h"

namespace {

using classic::Mode;
using ortho::Operation;

// Every rank to every other (the same list as sources and destinations),
// planned on `hosts` hosts.
classic::Comm complete_graph(const char* hosts) {
  setenv("ORTHO_HOSTS", hosts, 1);
  const classic::Comm world = classic::Comm::world();
  std::vector<int> others;
  for (int r = 0; r < world.size(); ++r) {
    if (r != world.rank()) others.push_back(r);
  }
  classic::Comm graph = ortho::dist_graph_create_adjacent(
      world, others, classic::unweighted, others, classic::unweighted);
  unsetenv("ORTHO_HOSTS");
  return graph;
}

TEST(NodeAwareSelection, NeverOnOneHost) {
  const classic::Comm graph = complete_graph("1");
  for (Operation operation :
       {Operation::allgather, Operation::alltoall, Operation::allgatherv,
        Operation::alltoallv, Operation::allreduce}) {
    for (Mode mode : {Mode::blocking, Mode::persistent}) {
      EXPECT_EQ(ortho::selected_algorithm(graph, operation, 4, mode), "direct")
          << ortho::to_string(operation);
    }
  }
}

// Forced on one host, node_aware relays nothing: its v forms learn no
// sizes and send what direct sends.
TEST(NodeAwareSelection, VFormsOnOneHostSendWhatDirectSends) {
  const classic::Comm graph = complete_graph("1");
  const auto others = static_cast<std::size_t>(graph.size() - 1);
  std::vector<int> send(others, graph.rank());
  std::vector<int> recv(others, -1);
  const std::vector<int> counts(others, 1);
  std::vector<int> displs(others);
  std::iota(displs.begin(), displs.end(), 0);
  ortho::set_algorithm(graph, "alltoallv=node_aware");
  ortho::alltoallv(graph, send, counts, displs, recv, counts, displs);
  std::vector<int> expected;
  for (int r = 0; r < graph.size(); ++r) {
    if (r != graph.rank()) expected.push_back(r);
  }
  EXPECT_EQ(recv, expected);
  const auto node_aware =
      ortho::traffic(graph, Operation::alltoallv, "node_aware", sizeof(int));
  const auto direct =
      ortho::traffic(graph, Operation::alltoallv, "direct", sizeof(int));
  ASSERT_TRUE(node_aware && direct);
  EXPECT_EQ(node_aware->messages, direct->messages);
  EXPECT_EQ(node_aware->rounds, direct->rounds);
}

TEST(NodeAwareSelection, DefaultAcrossHosts) {
  const classic::Comm graph = complete_graph("2");
  // The planned hosts are the ones reported too.
  EXPECT_EQ(ortho::mapping_report(graph).hosts, 2);
  if (graph.size() < 4) {
    // One process a host: nothing to gather, the same messages cross.
    for (Operation operation : {Operation::allgather, Operation::alltoall}) {
      EXPECT_EQ(ortho::selected_algorithm(graph, operation, 4), "direct");
    }
    return;
  }
  for (Operation operation :
       {Operation::allgather, Operation::alltoall, Operation::allreduce}) {
    for (Mode mode : {Mode::blocking, Mode::nonblocking, Mode::persistent}) {
      EXPECT_EQ(ortho::selected_algorithm(graph, operation, 4, mode),
                "node_aware")
          << ortho::to_string(operation);
    }
  }
  // The v and w forms learn their relayed sizes within the hosts at every
  // non-blocking call (one round of small messages on shared memory):
  // priced in every mode, the non-blocking call above the persistent
  // request (which learnt them once) and the blocking one (which reads
  // them from its messages), and taken wherever the price is the lowest.
  const auto node_aware_ns = [&](Operation operation, Mode mode) {
    for (const auto& offered :
         ortho::explain(graph, operation, 4, mode).offered) {
      if (offered.algorithm == "node_aware") {
        return offered.modelled_ns.value_or(-1.0);
      }
    }
    return -1.0;
  };
  for (Operation operation : {Operation::allgatherv, Operation::alltoallw}) {
    EXPECT_EQ(ortho::selected_algorithm(graph, operation, 4, Mode::persistent),
              "node_aware");
    const double persistent = node_aware_ns(operation, Mode::persistent);
    const double blocking = node_aware_ns(operation, Mode::blocking);
    const double nonblocking = node_aware_ns(operation, Mode::nonblocking);
    EXPECT_GT(persistent, 0) << ortho::to_string(operation);
    EXPECT_GT(blocking, 0) << ortho::to_string(operation);
    EXPECT_GT(nonblocking, persistent) << ortho::to_string(operation);
    EXPECT_GT(nonblocking, blocking) << ortho::to_string(operation);
    const ortho::Explanation why = ortho::explain(graph, operation, 4);
    ASSERT_FALSE(why.offered.empty());
    EXPECT_EQ(why.selected, why.offered.front().algorithm)
        << ortho::to_string(why);
  }
  // alltoall's blocks all cross, relayed or not: from some size on the
  // relays' copies cost more than the messages saved, and node_aware does
  // not run from there on (common_neighbours, whose pairs relay less, may
  // in between); at the largest sizes every relay costs more than it
  // saves, and direct runs.
  std::size_t bytes = 4;
  while (bytes < (std::size_t{1} << 30) &&
         ortho::selected_algorithm(graph, Operation::alltoall, bytes) ==
             "node_aware") {
    bytes *= 2;
  }
  EXPECT_LT(bytes, std::size_t{1} << 30) << "node_aware at every size";
  for (; bytes <= (std::size_t{1} << 30); bytes *= 2) {
    EXPECT_NE(ortho::selected_algorithm(graph, Operation::alltoall, bytes),
              "node_aware")
        << bytes << " B";
  }
  EXPECT_EQ(ortho::selected_algorithm(graph, Operation::alltoall,
                                      std::size_t{1} << 30),
            "direct");
}

// 4 ranks on 2 hosts ({0, 1}, {2, 3}), each sending to the 3 others: direct
// sends 2 messages between hosts from every rank; node_aware one per
// ordered pair of hosts, from its relay: rank 0 (host 0 -> 1, relaying
// rank 1's blocks) and rank 3 (host 1 -> 0, relaying rank 2's).
TEST(NodeAwareSelection, MessagesBetweenHostsCountedExactly) {
  const classic::Comm graph = complete_graph("2");
  if (graph.size() != 4) GTEST_SKIP() << "the counts are for 4 processes";
  std::vector<int> send(3, graph.rank());
  std::vector<int> recv(3, -1);
  ortho::alltoall(graph, send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT);
  std::vector<int> expected_recv;
  for (int r = 0; r < 4; ++r) {
    if (r != graph.rank()) expected_recv.push_back(r);
  }
  EXPECT_EQ(recv, expected_recv);
  const auto direct =
      ortho::traffic(graph, Operation::alltoall, "direct", sizeof(int));
  const auto node_aware =
      ortho::traffic(graph, Operation::alltoall, "node_aware", sizeof(int));
  ASSERT_TRUE(direct && direct->messages_between_hosts);
  ASSERT_TRUE(node_aware && node_aware->messages_between_hosts);
  EXPECT_EQ(*direct->messages_between_hosts, 2);
  const int between[] = {1, 0, 0, 1};
  EXPECT_EQ(*node_aware->messages_between_hosts, between[graph.rank()]);
  // The relays' messages carry 4 blocks (their own 2, their mate's 2).
  EXPECT_EQ(*node_aware->bytes_between_hosts,
            between[graph.rank()] * 4 * static_cast<int>(sizeof(int)));
}

// The v forms' relayed sizes, on the same 4 processes: every call sends
// the same 1, 0, 0, 1 messages between hosts as alltoall, each with 4
// blocks of alltoallv (2 of allgatherv, one per source). The persistent
// request learnt the sizes at initialisation; a blocking call carries them
// in its messages, 8 bytes a block, in no more messages or rounds; a
// non-blocking one learns them within the hosts first, in one round more.
TEST(NodeAwareSelection, VFormsLearnTheirSizesWithinHosts) {
  const classic::Comm graph = complete_graph("2");
  if (graph.size() != 4) GTEST_SKIP() << "the counts are for 4 processes";
  const int between[] = {1, 0, 0, 1};
  for (Operation operation : {Operation::alltoallv, Operation::allgatherv}) {
    const int blocks = operation == Operation::alltoallv ? 4 : 2;
    const std::string name(ortho::to_string(operation));
    const auto blocking =
        ortho::traffic(graph, operation, "node_aware", sizeof(int));
    const auto nonblocking = ortho::traffic(graph, operation, "node_aware",
                                            sizeof(int), Mode::nonblocking);
    const auto persistent = ortho::traffic(graph, operation, "node_aware",
                                           sizeof(int), Mode::persistent);
    ASSERT_TRUE(blocking && blocking->messages_between_hosts);
    ASSERT_TRUE(nonblocking && nonblocking->messages_between_hosts);
    ASSERT_TRUE(persistent && persistent->messages_between_hosts);
    const int crossing = between[graph.rank()];
    for (const auto* counted : {&blocking, &nonblocking, &persistent}) {
      EXPECT_EQ(*(*counted)->messages_between_hosts, crossing) << name;
    }
    EXPECT_EQ(*persistent->bytes_between_hosts,
              crossing * blocks * static_cast<int>(sizeof(int)))
        << name;
    EXPECT_EQ(*nonblocking->bytes_between_hosts,
              *persistent->bytes_between_hosts)
        << name;
    EXPECT_EQ(*blocking->bytes_between_hosts,
              crossing * blocks *
                  static_cast<int>(sizeof(int) + sizeof(std::int64_t)))
        << name;
    EXPECT_EQ(blocking->rounds, persistent->rounds) << name;
    EXPECT_EQ(blocking->messages, persistent->messages) << name;
    EXPECT_EQ(nonblocking->rounds, persistent->rounds + 1) << name;
    EXPECT_GT(nonblocking->messages, persistent->messages) << name;
  }
  // And it runs: each rank receives every other rank's number.
  std::vector<int> send(3, graph.rank());
  std::vector<int> recv(3, -1);
  const std::vector<int> counts(3, 1);
  const std::vector<int> displs = {0, 1, 2};
  ortho::set_algorithm(graph, "alltoallv=node_aware");
  ortho::alltoallv(graph, send, counts, displs, recv, counts, displs);
  std::vector<int> expected;
  for (int r = 0; r < 4; ++r) {
    if (r != graph.rank()) expected.push_back(r);
  }
  EXPECT_EQ(recv, expected);
}

// allreduce sends allgather's blocks: each rank's block crosses to the
// other host once, so the host's two blocks cross in one message per
// ordered pair of hosts (2 in all).
TEST(NodeAwareSelection, AllreduceCrossesLikeAllgather) {
  const classic::Comm graph = complete_graph("2");
  if (graph.size() != 4) GTEST_SKIP() << "the counts are for 4 processes";
  const int mine = graph.rank() + 1;
  int sum = -1;
  ortho::allreduce(graph, &mine, &sum, 1, MPI_INT, MPI_SUM);
  EXPECT_EQ(sum, 10 - mine);
  for (Operation operation : {Operation::allgather, Operation::allreduce}) {
    const auto traffic =
        ortho::traffic(graph, operation, "node_aware", sizeof(int));
    ASSERT_TRUE(traffic && traffic->messages_between_hosts);
    const std::array<int, 2> mine_between{
        *traffic->messages_between_hosts,
        static_cast<int>(*traffic->bytes_between_hosts)};
    std::array<int, 2> all_between{};
    MPI_Allreduce(mine_between.data(), all_between.data(), 2, MPI_INT, MPI_SUM,
                  MPI_COMM_WORLD);
    EXPECT_EQ(all_between[0], 2) << ortho::to_string(operation);
    EXPECT_EQ(all_between[1], 2 * 2 * static_cast<int>(sizeof(int)))
        << ortho::to_string(operation);
  }
}

// A periodic Moore stencil on the world named as a 2-d grid (repeated
// neighbours where a dimension has size 1 or 2), planned on 2 hosts, with
// `algorithm` forced.
classic::Comm moore_graph(const char* algorithm) {
  setenv("ORTHO_HOSTS", "2", 1);
  const classic::Comm named = classic::Comm::world().dup();
  const std::vector<int> dims =
      classic::dims_create(named.size(), std::vector<int>{0, 0});
  naming::cart_name(named, dims, std::array<bool, 2>{true, true},
                    naming::Order::row_major);
  const std::vector<int> neighbours = stencils::cart_neighbor_ranks(
      named, named.rank(), stencils::Metric::chebyshev, 1, 1);
  classic::Comm graph = ortho::dist_graph_create_adjacent(
      named, neighbours, classic::unweighted, neighbours, classic::unweighted);
  unsetenv("ORTHO_HOSTS");
  ortho::set_algorithm(graph, algorithm);
  return graph;
}

// One allreduce (MPI_SUM) in `mode` on fresh buffers.
std::vector<int> reduced(const classic::Comm& graph, Mode mode, int call,
                         int ints) {
  std::vector<int> send(static_cast<std::size_t>(ints));
  std::iota(send.begin(), send.end(), 100000 * graph.rank() + 1000 * call);
  std::vector<int> recv(send.size(), -7);
  if (mode == Mode::blocking) {
    ortho::allreduce(graph, send.data(), recv.data(), ints, MPI_INT, MPI_SUM);
    return recv;
  }
  classic::Request request =
      mode == Mode::nonblocking
          ? ortho::iallreduce(graph, send.data(), recv.data(), ints, MPI_INT,
                              MPI_SUM)
          : ortho::allreduce_init(graph, send.data(), recv.data(), ints,
                                  MPI_INT, MPI_SUM);
  if (mode == Mode::persistent) classic::start(request);
  classic::wait(request);
  return recv;
}

// One call of allgather, alltoall or allreduce in `mode` on fresh buffers
// (distinct values per rank, call and block; the receive buffer poisoned).
std::vector<int> one_call(const classic::Comm& graph, Operation operation,
                          Mode mode, int call, int ints) {
  const auto degree = static_cast<int>(
      stencils::cart_neighbors_count(2, stencils::Metric::chebyshev, 1, 1));
  if (operation == Operation::allreduce) {
    return reduced(graph, mode, call, ints);
  }
  const bool all = operation == Operation::alltoall;
  std::vector<int> send(static_cast<std::size_t>((all ? degree : 1) * ints));
  std::iota(send.begin(), send.end(), 100000 * graph.rank() + 1000 * call);
  std::vector<int> recv(static_cast<std::size_t>(degree * ints), -7);
  classic::Request request;
  if (mode == Mode::blocking) {
    if (all) {
      ortho::alltoall(graph, send.data(), ints, MPI_INT, recv.data(), ints,
                      MPI_INT);
    } else {
      ortho::allgather(graph, send.data(), ints, MPI_INT, recv.data(), ints,
                       MPI_INT);
    }
    return recv;
  }
  if (mode == Mode::nonblocking) {
    request = all ? ortho::ialltoall(graph, send.data(), ints, MPI_INT,
                                     recv.data(), ints, MPI_INT)
                  : ortho::iallgather(graph, send.data(), ints, MPI_INT,
                                      recv.data(), ints, MPI_INT);
  } else {
    request = all ? ortho::alltoall_init(graph, send.data(), ints, MPI_INT,
                                         recv.data(), ints, MPI_INT)
                  : ortho::allgather_init(graph, send.data(), ints, MPI_INT,
                                          recv.data(), ints, MPI_INT);
    classic::start(request);
  }
  classic::wait(request);
  return recv;
}

TEST(NodeAwareSelection, EqualsDirectOnAStencilInEveryMode) {
  const classic::Comm direct = moore_graph("direct");
  const classic::Comm node_aware = moore_graph("node_aware");
  int call = 0;
  for (Operation operation :
       {Operation::allgather, Operation::alltoall, Operation::allreduce}) {
    for (Mode mode : {Mode::blocking, Mode::nonblocking, Mode::persistent}) {
      for (int ints : {1, 3, 1000}) {
        ++call;
        EXPECT_EQ(one_call(node_aware, operation, mode, call, ints),
                  one_call(direct, operation, mode, call, ints))
            << ortho::to_string(operation) << ", mode "
            << static_cast<int>(mode) << ", " << ints << " ints";
      }
    }
  }
}

// The default choice on the stencil over 2 planned hosts steps through
// node_aware, combining and direct by block size (node_aware_model.h,
// fastest_steps); at every size from 4 B to 20 KB, in each mode, a call
// with it delivers what direct's does.
TEST(NodeAwareSelection, TheDefaultStepsEqualDirectAtEverySize) {
  const classic::Comm direct = moore_graph("direct");
  const classic::Comm chosen = moore_graph("");
  int call = 0;
  for (Operation operation : {Operation::allgather, Operation::alltoall}) {
    for (Mode mode : {Mode::blocking, Mode::persistent}) {
      for (int ints : {1, 100, 500, 1000, 2000, 3000, 4096, 5000}) {
        ++call;
        const std::size_t bytes = sizeof(int) * static_cast<std::size_t>(ints);
        EXPECT_EQ(one_call(chosen, operation, mode, call, ints),
                  one_call(direct, operation, mode, call, ints))
            << ortho::to_string(operation) << ", mode "
            << static_cast<int>(mode) << ", " << ints << " ints, selected "
            << ortho::selected_algorithm(chosen, operation, bytes, mode);
      }
    }
  }
}

TEST(NodeAwareSelection, HostsThatAreNoNumberAreAnError) {
  for (const char* bad : {"0", "two", "2x", "-1"}) {
    setenv("ORTHO_HOSTS", bad, 1);
    const classic::Comm world = classic::Comm::world();
    try {
      (void)ortho::dist_graph_create_adjacent(
          world, std::vector<int>{}, classic::unweighted, std::vector<int>{},
          classic::unweighted);
      ADD_FAILURE() << "ORTHO_HOSTS = '" << bad << "' was taken";
    } catch (const classic::Error& error) {
      EXPECT_EQ(error.error_class(), classic::ErrorClass::arg);
      EXPECT_NE(std::string(error.what()).find("ORTHO_HOSTS"),
                std::string::npos)
          << error.what();
    }
    unsetenv("ORTHO_HOSTS");
  }
}

}  // namespace
