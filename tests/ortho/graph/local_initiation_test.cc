// A non-blocking exchange returns without waiting for its peers: MPI makes
// the initiation of every non-blocking collective local (MPI-4.1, 6.12), so
// a program may initiate one and then do what its peers wait for before
// they initiate theirs. Here rank 0 initiates and then sends a token to
// rank 1; every other rank receives the token from the one before,
// initiates, and passes the token on; then all wait. An algorithm that
// learns something from its peers inside the initiating call (the relayed
// blocks' sizes of a v or w form, the size band the processes agree on, a
// communicator made collectively) hangs rank 0 there, and the hang
// watchdog names the case. Each algorithm forced in turn and the default
// selection, on a complete graph over 2 planned hosts (ORTHO_HOSTS) so that
// the relaying algorithms relay, and combining on a 2-d Moore torus; every
// result against classic's blocking neighbour collective.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/point_to_point.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/reverse.h"
#include "ortho/table.h"
#include "tests/harness/case_label.h"
#include "tests/ortho/testing/complete_graph.h"
#include "tests/ortho/testing/moore_torus.h"

namespace {

using classic::Comm;

// Initiates on rank 0 first, on rank k once rank k - 1 has initiated (the
// token on the world), then waits.
void initiate_in_turn(const std::function<classic::Request()>& initiate) {
  const Comm world = Comm::world();
  const int me = world.rank();
  constexpr int kTokenTag = 7301;
  int token = 0;
  if (me > 0) {
    (void)classic::recv(world, &token, 1, MPI_INT, me - 1, kTokenTag);
  }
  classic::Request request = initiate();
  if (me + 1 < world.size()) {
    classic::send(world, &token, 1, MPI_INT, me + 1, kTokenTag);
  }
  (void)classic::wait(request);
}

// The neighbour lists of `graph` (its reverse's where `reverse`).
struct Lists {
  std::vector<int> sources, destinations;
};
Lists lists_of(const Comm& graph, bool reverse) {
  classic::DistGraphNeighbors neighbours = classic::dist_graph_neighbors(graph);
  Lists lists{std::move(neighbours.sources),
              std::move(neighbours.destinations)};
  if (reverse) std::swap(lists.sources, lists.destinations);
  return lists;
}

int datum(int from, int to, int index) {
  return from * 1000003 + to * 1009 + index * 7 + 1;
}

// One non-blocking exchange of each form, counts differing by pair, against
// classic's blocking one (on the reversed lists where `reverse`).
void check_forms(const Comm& graph, bool reverse, const std::string& label) {
  const int me = graph.rank();
  const Lists lists = lists_of(graph, reverse);
  const ortho::Reverse reversed = ortho::reverse(graph);
  const ortho::ExchangeComm on =
      reverse ? ortho::ExchangeComm(reversed) : ortho::ExchangeComm(graph);
  // The transposed graph's classic communicator, for the reference.
  const Comm reference = reverse
                             ? classic::dist_graph_create_adjacent(
                                   graph, lists.sources, classic::unweighted,
                                   lists.destinations, classic::unweighted)
                             : graph;
  const auto count = [](int from, int to) { return 1 + (from + 2 * to) % 3; };
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls, send;
  for (const int d : lists.destinations) {
    sdispls.push_back(static_cast<int>(send.size()));
    sendcounts.push_back(count(me, d));
    for (int i = 0; i < count(me, d); ++i) send.push_back(datum(me, d, i));
  }
  int received = 0;
  for (const int s : lists.sources) {
    rdispls.push_back(received);
    recvcounts.push_back(count(s, me));
    received += count(s, me);
  }
  const auto bytes = [](const std::vector<int>& displs) {
    std::vector<MPI_Aint> b(displs.size());
    for (std::size_t i = 0; i < displs.size(); ++i) {
      b[i] = MPI_Aint{displs[i]} * MPI_Aint{sizeof(int)};
    }
    return b;
  };
  const std::vector<MPI_Datatype> send_types(sendcounts.size(), MPI_INT);
  const std::vector<MPI_Datatype> recv_types(recvcounts.size(), MPI_INT);
  const std::size_t in = lists.sources.size();
  const int own = 2;  // allgather's block
  const std::vector<int> own_block = {datum(me, me, 0), datum(me, me, 1)};
  const std::vector<int> own_counts(in, own);
  std::vector<int> own_displs;
  for (std::size_t i = 0; i < in; ++i) {
    own_displs.push_back(static_cast<int>(i) * own);
  }
  std::vector<int> uniform_send;
  for (const int d : lists.destinations) {
    uniform_send.push_back(datum(me, d, 0));
    uniform_send.push_back(datum(me, d, 1));
  }

  struct Form {
    const char* name;
    std::size_t size;
    std::function<void(int*)> expected;
    std::function<classic::Request(int*)> initiate;
  };
  const Form forms[] = {
      {"allgather", in * own,
       [&](int* r) {
         classic::neighbor_allgather(reference, own_block.data(), own, MPI_INT,
                                     r, own, MPI_INT);
       },
       [&](int* r) {
         return ortho::iallgather(on, own_block.data(), own, MPI_INT, r, own,
                                  MPI_INT);
       }},
      {"allgatherv", in * own,
       [&](int* r) {
         classic::neighbor_allgatherv(reference, own_block.data(), own, MPI_INT,
                                      r, own_counts, own_displs, MPI_INT);
       },
       [&](int* r) {
         return ortho::iallgatherv(on, own_block.data(), own, MPI_INT, r,
                                   own_counts, own_displs, MPI_INT);
       }},
      {"alltoall", in * own,
       [&](int* r) {
         classic::neighbor_alltoall(reference, uniform_send.data(), own,
                                    MPI_INT, r, own, MPI_INT);
       },
       [&](int* r) {
         return ortho::ialltoall(on, uniform_send.data(), own, MPI_INT, r, own,
                                 MPI_INT);
       }},
      {"alltoallv", static_cast<std::size_t>(received),
       [&](int* r) {
         classic::neighbor_alltoallv(reference, send.data(), sendcounts,
                                     sdispls, MPI_INT, r, recvcounts, rdispls,
                                     MPI_INT);
       },
       [&](int* r) {
         return ortho::ialltoallv(on, send.data(), sendcounts, sdispls, MPI_INT,
                                  r, recvcounts, rdispls, MPI_INT);
       }},
      {"alltoallw", static_cast<std::size_t>(received),
       [&](int* r) {
         classic::neighbor_alltoallw(reference, send.data(), sendcounts,
                                     bytes(sdispls), send_types, r, recvcounts,
                                     bytes(rdispls), recv_types);
       },
       [&](int* r) {
         return ortho::ialltoallw(on, send.data(), sendcounts, bytes(sdispls),
                                  send_types, r, recvcounts, bytes(rdispls),
                                  recv_types);
       }},
  };
  for (const Form& form : forms) {
    const std::string name = label + ", " + form.name;
    const orthocomm_test::CaseLabel case_label(name);  // for a hang's report
    std::vector<int> expected(form.size, -1);
    form.expected(expected.data());
    // Twice: a second call with the same arguments may take what the
    // first kept.
    for (int call = 0; call < 2; ++call) {
      std::vector<int> got(form.size, -1);
      initiate_in_turn([&] { return form.initiate(got.data()); });
      EXPECT_EQ(got, expected) << name << ", call " << call << ", rank " << me;
    }
  }
}

class LocalInitiation : public testing::TestWithParam<const char*> {};

TEST_P(LocalInitiation, OnACompleteGraphOverTwoHosts) {
  const Comm graph = ortho_testing::complete_graph();
  const std::string algorithm = GetParam();
  ortho::set_algorithm(graph, algorithm);
  const std::string label = algorithm.empty() ? "selected" : algorithm;
  check_forms(graph, false, label);
  check_forms(graph, true, label + ", reversed");
}

// The neighbourhood reduction, the broadcast to out-neighbours and the
// barrier over in-neighbours, started in turn likewise.
TEST_P(LocalInitiation, ReductionBroadcastAndBarrier) {
  const Comm graph = ortho_testing::complete_graph();
  const std::string algorithm = GetParam();
  ortho::set_algorithm(graph, algorithm);
  const std::string label = algorithm.empty() ? "selected" : algorithm;
  const int me = graph.rank();
  const int n = graph.size();
  {
    const orthocomm_test::CaseLabel case_label(label + ", allreduce");
    const std::vector<int> mine = {me, 2 * me};
    std::vector<int> sum(2, -1);
    initiate_in_turn([&] {
      return ortho::iallreduce(graph, mine.data(), sum.data(), 2, MPI_INT,
                               MPI_SUM);
    });
    // Over the in-neighbours: every other process.
    const int others = n * (n - 1) / 2 - me;
    EXPECT_EQ(sum, (std::vector<int>{others, 2 * others}))
        << label << ", rank " << me;
  }
  {
    const orthocomm_test::CaseLabel case_label(label + ", bcast");
    int value = me == 0 ? 4242 : -1;
    initiate_in_turn(
        [&] { return ortho::ibcast(graph, &value, 1, MPI_INT, 0); });
    EXPECT_EQ(value, 4242) << label << ", rank " << me;
  }
  const orthocomm_test::CaseLabel case_label(label + ", barrier");
  initiate_in_turn([&] { return ortho::ibarrier(graph); });
}

INSTANTIATE_TEST_SUITE_P(Algorithms, LocalInitiation,
                         testing::Values("", "direct", "node_aware",
                                         "common_neighbours", "spread_relays",
                                         "mpi"));

TEST(LocalInitiationOnATorus, Combining) {
  const Comm torus = ortho_testing::moore_torus();
  for (const char* algorithm : {"", "combining"}) {
    ortho::set_algorithm(torus, algorithm);
    check_forms(torus, false, std::string("torus, ") + algorithm);
  }
}

}  // namespace
