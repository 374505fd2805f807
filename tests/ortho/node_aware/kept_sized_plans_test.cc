// node_aware's alltoallv keeps what it made for the next call with the
// same arguments. A non-blocking call makes its plan once the relayed
// blocks' sizes have arrived, and the next non-blocking call keeps it
// with those sizes (internal/last_plan.h, MadeLater, keep_sized): a relay
// learns the sizes again at every call and takes the kept plan only where
// they are the same. A blocking call keeps its run
// (node_aware/self_sized.h), whose relays read the sizes from the
// messages. On a complete directed graph over 2 planned hosts, calls
// repeat with the same counts (what is kept, white-box) and then with one
// pair's count changed at a time, which changes the sizes a third process
// may relay while its own arguments stay the same; every call's result
// must equal classic's neighbour alltoallv.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/internal/table.h"
#include "ortho/table.h"
#include "tests/harness/case_label.h"
#include "tests/ortho/testing/complete_graph.h"

namespace {

using classic::Comm;

// count[s][d]: the ints rank s sends rank d.
using Counts = std::vector<std::vector<int>>;

enum class Form { blocking, nonblocking, persistent };

// One alltoallv with `count`, each block's ints distinct by `salt`,
// against classic's.
void alltoallv(const Comm& graph, const Counts& count, int salt,
               const std::string& label, Form form) {
  const orthocomm_test::CaseLabel case_label(label);  // for a hang's report
  const int me = graph.rank();
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls;
  int sent = 0;
  int received = 0;
  for (int r = 0; r < graph.size(); ++r) {
    if (r == me) continue;
    const auto s = static_cast<std::size_t>(me);
    const auto o = static_cast<std::size_t>(r);
    sendcounts.push_back(count[s][o]);
    sdispls.push_back(sent);
    sent += count[s][o];
    recvcounts.push_back(count[o][s]);
    rdispls.push_back(received);
    received += count[o][s];
  }
  std::vector<int> send(static_cast<std::size_t>(sent));
  for (std::size_t i = 0; i < send.size(); ++i) {
    send[i] = salt * 1000003 + me * 1009 + static_cast<int>(i);
  }
  std::vector<int> expected(static_cast<std::size_t>(received), -1);
  classic::neighbor_alltoallv(graph, send.data(), sendcounts, sdispls, MPI_INT,
                              expected.data(), recvcounts, rdispls, MPI_INT);
  std::vector<int> got(expected.size(), -1);
  if (form == Form::blocking) {
    ortho::alltoallv(graph, send.data(), sendcounts, sdispls, MPI_INT,
                     got.data(), recvcounts, rdispls, MPI_INT);
  } else if (form == Form::nonblocking) {
    classic::Request request =
        ortho::ialltoallv(graph, send.data(), sendcounts, sdispls, MPI_INT,
                          got.data(), recvcounts, rdispls, MPI_INT);
    (void)classic::wait(request);
  } else {
    classic::Request request =
        ortho::alltoallv_init(graph, send.data(), sendcounts, sdispls, MPI_INT,
                              got.data(), recvcounts, rdispls, MPI_INT);
    classic::start(request);
    (void)classic::wait(request);
  }
  EXPECT_EQ(got, expected) << label << ", rank " << me;
}

const ortho::internal::LastPlans& last_plans(const Comm& graph) {
  return ortho::internal::table_of(graph, "kept_sized_plans_test")
      .last_plans[static_cast<std::size_t>(ortho::Operation::alltoallv)];
}

TEST(KeptSizedPlans, SameArgumentsSameSizesKeepThePlan) {
  const Comm graph = ortho_testing::complete_graph();
  ortho::set_algorithm(graph, "alltoallv=node_aware");
  const auto n = static_cast<std::size_t>(graph.size());
  Counts count(n, std::vector<int>(n));
  for (std::size_t s = 0; s < n; ++s) {
    for (std::size_t d = 0; d < n; ++d) {
      count[s][d] = 1 + static_cast<int>((s + 2 * d) % 3);
    }
  }
  alltoallv(graph, count, 1, "first call", Form::nonblocking);
  // Keeps the plan the first call made.
  alltoallv(graph, count, 2, "the same counts", Form::nonblocking);
  const classic::Plan* kept = last_plans(graph).latest().plan.get();
  ASSERT_NE(kept, nullptr);
  alltoallv(graph, count, 3, "the same counts again", Form::nonblocking);
  alltoallv(graph, count, 4, "and again", Form::nonblocking);
  EXPECT_EQ(last_plans(graph).latest().plan.get(), kept)
      << "same arguments and sizes, another plan";
}

TEST(KeptSizedPlans, SizesChangedElsewhereMakeANewPlan) {
  const Comm graph = ortho_testing::complete_graph();
  ortho::set_algorithm(graph, "alltoallv=node_aware");
  const auto n = static_cast<std::size_t>(graph.size());
  const Counts base(n, std::vector<int>(n, 2));
  for (const Form form : {Form::blocking, Form::nonblocking}) {
    const std::string of =
        form == Form::blocking ? ", blocking" : ", non-blocking";
    alltoallv(graph, base, 0, "base counts" + of, form);
    int salt = 1;
    for (std::size_t s = 0; s < n; ++s) {
      for (std::size_t d = 0; d < n; ++d) {
        if (s == d) continue;
        Counts count = base;
        count[s][d] = 5;  // larger: a stale plan truncates or misplaces
        const std::string pair = std::to_string(s) + " -> " + std::to_string(d);
        alltoallv(graph, count, salt++,
                  std::string(pair).append(" larger").append(of), form);
        count[s][d] = 0;
        alltoallv(graph, count, salt++,
                  std::string(pair).append(" empty").append(of), form);
        alltoallv(graph, base, salt++, "base counts again" + of, form);
      }
    }
  }
}

// A blocking call on the same buffers with the same arguments takes the
// run the last one kept; other buffers make a new one, and calls that
// alternate between two pairs of buffers find each its own. The results equal
// classic's throughout, also while a non-blocking operation is in flight
// on another communicator (the relays then wait for their messages while
// moving it along).
TEST(KeptSizedPlans, BlockingCallsKeepTheirRunOnTheSameBuffers) {
  const Comm graph = ortho_testing::complete_graph();
  ortho::set_algorithm(graph, "alltoallv=node_aware");
  const int n = graph.size();
  const int me = graph.rank();
  std::vector<int> counts, displs;
  int total = 0;
  for (int r = 0; r < n; ++r) {
    if (r == me) continue;
    counts.push_back(1 + (me + r) % 3);  // as many as r sends me
    displs.push_back(total);
    total += counts.back();
  }
  std::vector<int> send(static_cast<std::size_t>(total));
  std::vector<int> got(send.size());
  std::vector<int> expected(send.size());
  const auto run = [&](int salt, std::vector<int>& into) {
    for (std::size_t i = 0; i < send.size(); ++i) {
      send[i] = salt * 1000003 + me * 1009 + static_cast<int>(i);
    }
    classic::neighbor_alltoallv(graph, send.data(), counts, displs, MPI_INT,
                                expected.data(), counts, displs, MPI_INT);
    std::fill(into.begin(), into.end(), -1);
    ortho::alltoallv(graph, send.data(), counts, displs, MPI_INT, into.data(),
                     counts, displs, MPI_INT);
    EXPECT_EQ(into, expected) << "call " << salt << ", rank " << me;
  };
  run(1, got);
  const auto latest = [&] {
    return last_plans(graph).latest().self_sized[0].get();
  };
  const ortho::algorithms::SelfSizedRun* first = latest();
  ASSERT_NE(first, nullptr) << "rank " << me;
  run(2, got);
  EXPECT_EQ(latest(), first)
      << "the same arguments and buffers, another run; rank " << me;
  std::vector<int> elsewhere(got.size());
  run(3, elsewhere);
  const ortho::algorithms::SelfSizedRun* second = latest();
  EXPECT_NE(second, first) << "another receive buffer, the same run; rank "
                           << me;
  run(4, got);  // the buffers alternate: each pair finds its run
  EXPECT_EQ(latest(), first) << "rank " << me;
  run(5, elsewhere);
  EXPECT_EQ(latest(), second) << "rank " << me;

  // Another graph's non-blocking alltoall, in flight meanwhile.
  const Comm other = ortho_testing::complete_graph();
  ortho::set_algorithm(other, "alltoall=direct");
  for (int salt = 6; salt < 10; ++salt) {
    const std::vector<int> mine(static_cast<std::size_t>(n - 1), me + salt);
    std::vector<int> theirs(mine.size(), -1);
    classic::Request pending = ortho::ialltoall(other, mine.data(), 1, MPI_INT,
                                                theirs.data(), 1, MPI_INT);
    run(salt, got);
    (void)classic::wait(pending);
    for (std::size_t j = 0; j < theirs.size(); ++j) {
      const int source = static_cast<int>(j) < me ? static_cast<int>(j)
                                                  : static_cast<int>(j) + 1;
      EXPECT_EQ(theirs[j], source + salt) << "rank " << me;
    }
  }
}

// The round of sizes (a persistent request's, at its init, kept with its
// plan; a non-blocking call runs the same round on its request) sends one
// message to each peer: a process whose sending relay to the other host
// also receives for it from there tells it both lists of sizes at once.
TEST(KeptSizedPlans, TheRoundOfSizesSendsOneMessageAPeer) {
  const Comm graph = ortho_testing::complete_graph();
  ortho::set_algorithm(graph, "alltoallv=node_aware");
  const auto n = static_cast<std::size_t>(graph.size());
  const Counts count(n, std::vector<int>(n, 3));
  alltoallv(graph, count, 7, "uniform counts", Form::persistent);
  const auto& round = last_plans(graph).latest().sizes_round.plan;
  ASSERT_NE(round, nullptr);
  std::vector<int> sends;
  std::vector<int> receives;
  for (const classic::Plan::Round& r : round->rounds) {
    for (const classic::Plan::Message& m : r.sends) sends.push_back(m.peer);
    for (const classic::Plan::Message& m : r.receives) {
      receives.push_back(m.peer);
    }
  }
  for (std::vector<int>* peers : {&sends, &receives}) {
    std::sort(peers->begin(), peers->end());
    EXPECT_EQ(std::adjacent_find(peers->begin(), peers->end()), peers->end())
        << "two messages with one peer in the round of sizes, rank "
        << graph.rank();
  }
  // Every process has blocks for the other host: it tells a relay or is one.
  EXPECT_FALSE(sends.empty() && receives.empty()) << "rank " << graph.rank();
}

}  // namespace
