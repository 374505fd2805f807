// ortho's barrier on directed graphs: it returns once every in-neighbour
// has entered it (docs/design.md, "What a collective means"), in each mode.
//
// Ordering, checked with each process's own clock only: all processes
// leave an MPI_Barrier of the world, then each sleeps its own delay (drawn
// from a shared seed, so every process knows every delay) before entering
// ortho's barrier. A process read its clock before entering the world
// barrier, which no in-neighbour left before that moment; an in-neighbour
// s enters ortho's barrier at least delay(s) after leaving the world
// barrier. So a correct barrier keeps the process inside for at least the
// largest delay of its in-neighbours (self loops aside), measured from that
// clock reading. Only this lower bound is asserted: an oversubscribed
// machine may make anything slower, never faster.
//
// Completion and isolation: on many random graphs the barrier completes in
// each mode (persistent ones started twice), processes without
// in-neighbours complete a non-blocking one locally, and a neighbourhood
// collective right after it on the same communicator still delivers the
// right blocks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "tests/ortho/graph/graph_testing.h"

namespace {

using classic::Comm;
using classic::Mode;
using ortho_graph_testing::at;
using ortho_graph_testing::Construction;
using ortho_graph_testing::Graph;
using ortho_graph_testing::Random;
using ortho_graph_testing::uniform;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr unsigned kSeed = 0xba771e5u;

class GraphBarrier : public ::testing::Test {
 protected:
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }
};

// The longest delay among the in-neighbours of `rank` other than itself.
milliseconds longest_delay_in(const Graph& graph, int rank,
                              const std::vector<milliseconds>& delays) {
  milliseconds longest{0};
  for (const int source : graph.in(rank)) {
    if (source != rank) longest = std::max(longest, delays[at(source)]);
  }
  return longest;
}

// The in-neighbours' delays that a barrier must wait for: one of them
// (sometimes none) the longest, on purpose.
std::vector<milliseconds> draw_delays(Random& shared, int p) {
  std::vector<milliseconds> delays(at(p));
  for (milliseconds& delay : delays) {
    delay = milliseconds(25 * uniform(shared, 0, 4));
  }
  return delays;
}

// One round: the world barrier, this process's delay, then `enter` (ortho's
// barrier in some mode, up to its completion); checks the lower bound.
template <class Enter>
void timed_round(const Graph& graph, Random& shared, const std::string& what,
                 Enter&& enter) {
  const int me = Comm::world().rank();
  const std::vector<milliseconds> delays = draw_delays(shared, graph.size);
  const milliseconds bound = longest_delay_in(graph, me, delays);
  const Clock::time_point before = Clock::now();
  MPI_Barrier(MPI_COMM_WORLD);
  std::this_thread::sleep_for(delays[at(me)]);
  enter();
  const auto inside = Clock::now() - before;
  EXPECT_GE(inside, bound)
      << what << ": left the barrier "
      << std::chrono::duration_cast<milliseconds>(inside).count()
      << " ms after the round began, before its in-neighbour that waited "
      << bound.count() << " ms had entered";
}

// Graphs where the ordering matters: random ones, a one-way ring with a
// self loop and a repeated edge, and a star into process 0.
std::vector<Graph> ordering_graphs(Random& shared, int p) {
  std::vector<Graph> graphs;
  graphs.push_back(ortho_graph_testing::random_graph(
      shared, p, Construction::adjacent_weighted));
  graphs.push_back(ortho_graph_testing::random_graph(
      shared, p, Construction::general_unweighted));
  std::vector<ortho_graph_testing::Edge> ring = {{0, 0, 0}};
  for (int r = 0; r < p; ++r) {
    ring.push_back({r, (r + 1) % p, 0});
    if (r == p - 1) ring.push_back({r, (r + 1) % p, 0});
  }
  graphs.push_back(ortho_graph_testing::graph_of(p, ring));
  std::vector<ortho_graph_testing::Edge> star;
  for (int r = 0; r < p; ++r) star.push_back({r, 0, 0});
  graphs.push_back(ortho_graph_testing::graph_of(p, star));
  return graphs;
}

TEST_F(GraphBarrier, NoProcessLeavesBeforeItsInNeighboursEntered) {
  const Comm world = Comm::world();
  const int p = world.size();
  Random shared(kSeed + static_cast<unsigned>(p));
  for (const Graph& graph : ordering_graphs(shared, p)) {
    SCOPED_TRACE("rank " + std::to_string(world.rank()) + " of " +
                 std::to_string(p) + ", " + graph.name());
    const Comm comm = ortho_graph_testing::make_comm(graph, world);
    ortho_graph_testing::expect_lists(comm, graph);
    timed_round(graph, shared, "barrier", [&] { ortho::barrier(comm); });
    timed_round(graph, shared, "ibarrier", [&] {
      classic::Request request = ortho::ibarrier(comm);
      classic::wait(request);
    });
    // A non-blocking barrier polled with test until it completes.
    timed_round(graph, shared, "ibarrier, polled", [&] {
      classic::Request request = ortho::ibarrier(comm);
      while (!classic::test(request).has_value()) {
        std::this_thread::yield();
      }
    });
    classic::Request persistent = ortho::barrier_init(comm);
    for (int start = 1; start <= 3; ++start) {
      timed_round(graph, shared, "barrier_init, start " + std::to_string(start),
                  [&] {
                    classic::start(persistent);
                    classic::wait(persistent);
                  });
    }
  }
}

// Many random graphs, each mode: the barrier completes, a process without
// in-neighbours (self loops aside) completes a non-blocking one at its
// first test, and an allgather of ranks right after it is exact.
TEST_F(GraphBarrier, CompletesOnRandomGraphsInEveryMode) {
  const Comm world = Comm::world();
  const int p = world.size();
  const int me = world.rank();
  Random shared(kSeed + 100u + static_cast<unsigned>(p));
  for (int g = 0; g < 60; ++g) {
    const Graph graph = ortho_graph_testing::random_graph(
        shared, p,
        static_cast<Construction>(g % ortho_graph_testing::kConstructions));
    SCOPED_TRACE("graph " + std::to_string(g) + ", rank " + std::to_string(me) +
                 " of " + std::to_string(p) + ", " + graph.name());
    const Comm comm = ortho_graph_testing::make_comm(graph, world);
    const std::vector<int>& in = graph.in(me);
    const std::vector<int>& out = graph.out(me);
    const bool idle =
        std::all_of(in.begin(), in.end(), [&](int s) { return s == me; }) &&
        std::all_of(out.begin(), out.end(), [&](int d) { return d == me; });
    const auto ranks_arrive = [&](const std::string& what) {
      const std::vector<int> got = ortho::allgather(comm, std::span(&me, 1));
      EXPECT_EQ(got, in) << "allgather of ranks after " << what;
    };
    ortho::barrier(comm);
    ranks_arrive("barrier");
    classic::Request request = ortho::ibarrier(comm);
    EXPECT_FALSE(request.is_null());
    if (idle) {
      EXPECT_TRUE(classic::test(request).has_value())
          << "a process without other neighbours did not complete its "
             "ibarrier locally";
    }
    classic::wait(request);
    ranks_arrive("ibarrier");
    classic::Request persistent = ortho::barrier_init(comm);
    EXPECT_TRUE(persistent.is_inactive());
    for (int start = 0; start < 2; ++start) {
      classic::start(persistent);
      classic::wait(persistent);
      EXPECT_TRUE(persistent.is_inactive());
      ranks_arrive("barrier_init, start " + std::to_string(start + 1));
    }
    // Two barriers outstanding at once, completed in reverse order.
    classic::Request first = ortho::ibarrier(comm);
    classic::start(persistent);
    classic::wait(persistent);
    classic::wait(first);
    ranks_arrive("two barriers at once");
  }
}

}  // namespace
