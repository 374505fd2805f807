// node_aware's blocking alltoallv keeps its plan for the next call with the
// same arguments, with the relayed blocks' sizes it was made for
// (internal/last_plan.h, keep_sized): a relay learns those sizes again at
// every call and takes the kept plan only where they are the same. On a
// complete directed graph over 2 planned hosts, calls repeat with the same
// counts (the plan kept, white-box) and then with one pair's count changed
// at a time, which changes the sizes a third process may relay while its
// own arguments stay the same; every call's result must equal classic's
// neighbour alltoallv.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/internal/table.h"
#include "ortho/table.h"
#include "tests/harness/case_label.h"

namespace {

using classic::Comm;

// Every other process, ascending, both ways.
Comm complete_graph() {
  const Comm world = Comm::world();
  std::vector<int> others;
  for (int r = 0; r < world.size(); ++r) {
    if (r != world.rank()) others.push_back(r);
  }
  return ortho::dist_graph_create_adjacent(world, others, classic::unweighted,
                                           others, classic::unweighted);
}

// count[s][d]: the ints rank s sends rank d.
using Counts = std::vector<std::vector<int>>;

// One alltoallv with `count`, each block's ints distinct by `salt`,
// against classic's.
void alltoallv(const Comm& graph, const Counts& count, int salt,
               const std::string& label) {
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
  ortho::alltoallv(graph, send.data(), sendcounts, sdispls, MPI_INT, got.data(),
                   recvcounts, rdispls, MPI_INT);
  EXPECT_EQ(got, expected) << label << ", rank " << me;
}

const ortho::internal::LastPlans& last_plans(const Comm& graph) {
  return ortho::internal::table_of(graph, "kept_sized_plans_test")
      .last_plans[static_cast<std::size_t>(ortho::Operation::alltoallv)];
}

TEST(KeptSizedPlans, SameArgumentsSameSizesKeepThePlan) {
  const Comm graph = complete_graph();
  ortho::set_algorithm(graph, "alltoallv=node_aware");
  const auto n = static_cast<std::size_t>(graph.size());
  Counts count(n, std::vector<int>(n));
  for (std::size_t s = 0; s < n; ++s) {
    for (std::size_t d = 0; d < n; ++d) {
      count[s][d] = 1 + static_cast<int>((s + 2 * d) % 3);
    }
  }
  alltoallv(graph, count, 1, "first call");
  const classic::Plan* first = last_plans(graph).latest().plan.get();
  ASSERT_NE(first, nullptr);
  alltoallv(graph, count, 2, "the same counts");
  EXPECT_EQ(last_plans(graph).latest().plan.get(), first)
      << "same arguments and sizes, another plan";
}

TEST(KeptSizedPlans, SizesChangedElsewhereMakeANewPlan) {
  const Comm graph = complete_graph();
  ortho::set_algorithm(graph, "alltoallv=node_aware");
  const auto n = static_cast<std::size_t>(graph.size());
  const Counts base(n, std::vector<int>(n, 2));
  alltoallv(graph, base, 0, "base counts");
  int salt = 1;
  for (std::size_t s = 0; s < n; ++s) {
    for (std::size_t d = 0; d < n; ++d) {
      if (s == d) continue;
      Counts count = base;
      count[s][d] = 5;  // larger: a stale plan truncates or misplaces
      alltoallv(graph, count, salt++,
                std::to_string(s) + " -> " + std::to_string(d) + " larger");
      count[s][d] = 0;
      alltoallv(graph, count, salt++,
                std::to_string(s) + " -> " + std::to_string(d) + " empty");
      alltoallv(graph, base, salt++, "base counts again");
    }
  }
}

// The round of sizes sends one message to each peer: a process whose
// sending relay to the other host also receives for it from there tells
// it both lists of sizes at once.
TEST(KeptSizedPlans, TheRoundOfSizesSendsOneMessageAPeer) {
  const Comm graph = complete_graph();
  ortho::set_algorithm(graph, "alltoallv=node_aware");
  const auto n = static_cast<std::size_t>(graph.size());
  const Counts count(n, std::vector<int>(n, 3));
  alltoallv(graph, count, 7, "uniform counts");
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
