// What ortho keeps between calls on a communicator (internal/last_plan.h):
// the dispatch's last size-aware selection and the algorithms' last plans.
// On a 2-d Moore torus whose alltoall combines small blocks and sends
// large ones directly, calls alternate between block sizes and modes; each
// must run the algorithm selected_algorithm() names for its size and mode
// (white-box: the table's last selection), deliver what classic's
// neighbourhood collective delivers, and leave a kept plan that a repeat of
// the call reuses. An override clears the kept selections.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/graph/dist_graph.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/request.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/collectives.h"
#include "ortho/internal/table.h"
#include "ortho/table.h"
#include "tests/ortho/testing/moore_torus.h"

namespace {

using classic::Comm;
using classic::Mode;
using ortho::Operation;

const ortho::Table& table(const Comm& comm) {
  return ortho::internal::table_of(comm, "kept_choices_test");
}

// One alltoall of `ints` ints per block in `mode`, checked against classic.
void alltoall(const Comm& graph, int ints, Mode mode, int salt) {
  const auto degree = static_cast<std::size_t>(
      classic::dist_graph_neighbors_count(graph).outdegree);
  std::vector<int> send(degree * static_cast<std::size_t>(ints));
  for (std::size_t i = 0; i < send.size(); ++i) {
    send[i] = salt * 7919 + graph.rank() * 104729 + static_cast<int>(i);
  }
  std::vector<int> expected(send.size(), -1);
  classic::neighbor_alltoall(graph, send.data(), ints, MPI_INT, expected.data(),
                             ints, MPI_INT);
  std::vector<int> got(send.size(), -1);
  if (mode == Mode::blocking) {
    ortho::alltoall(graph, send.data(), ints, MPI_INT, got.data(), ints,
                    MPI_INT);
  } else {
    classic::Request request =
        mode == Mode::persistent
            ? ortho::alltoall_init(graph, send.data(), ints, MPI_INT,
                                   got.data(), ints, MPI_INT)
            : ortho::ialltoall(graph, send.data(), ints, MPI_INT, got.data(),
                               ints, MPI_INT);
    if (mode == Mode::persistent) classic::start(request);
    classic::wait(request);
  }
  ASSERT_EQ(got, expected);
}

// The default crossovers come from prices measured when the communicator
// is made; this one is fixed: combining up to 64 bytes (and for
// persistent calls up to 256), direct above.
void choose_by_size(const Comm& graph) {
  ortho::Table changed = table(graph);
  ortho::Choice choice = ortho::Choice::only(ortho::algorithms::direct());
  choice.take_up_to(ortho::algorithms::combining(), 64,
                    {Mode::blocking, Mode::nonblocking});
  choice.take_up_to(ortho::algorithms::combining(), 256, {Mode::persistent});
  changed.choice(Operation::alltoall) = choice;
  ortho::internal::attach(graph, std::move(changed));
}

TEST(KeptChoices, EachCallRunsTheAlgorithmSelectedForItsSizeAndMode) {
  const Comm graph = ortho_testing::moore_torus();
  choose_by_size(graph);
  const int small = 1;    // 4 bytes: combining
  const int middle = 32;  // 128 bytes: combining when persistent
  const int large = 100;  // 400 bytes: direct
  int salt = 0;
  for (int repeat = 0; repeat < 2; ++repeat) {
    for (const int ints :
         {small, small, large, middle, small, middle, large, large}) {
      for (Mode mode : {Mode::blocking, Mode::persistent, Mode::nonblocking}) {
        SCOPED_TRACE(std::to_string(ints) + " ints, mode " +
                     std::to_string(static_cast<int>(mode)));
        alltoall(graph, ints, mode, ++salt);
        const std::string_view expected = ortho::selected_algorithm(
            graph, Operation::alltoall, ints * sizeof(int), mode);
        EXPECT_EQ(
            table(graph)
                .last_selections[static_cast<std::size_t>(Operation::alltoall)]
                .algorithm.name,
            expected);
      }
    }
  }
}

TEST(KeptChoices, AnOverrideClearsTheKeptSelection) {
  const Comm graph = ortho_testing::moore_torus();
  alltoall(graph, 1, Mode::blocking, 1);
  ortho::set_algorithm(graph, "alltoall=direct");
  EXPECT_EQ(table(graph)
                .last_selections[static_cast<std::size_t>(Operation::alltoall)]
                .algorithm.run,
            nullptr);
  alltoall(graph, 1, Mode::blocking, 2);
  ortho::set_algorithm(graph, "");
  alltoall(graph, 1, Mode::blocking, 3);
}

TEST(KeptChoices, ARepeatedCallReusesItsPlan) {
  const Comm graph = ortho_testing::moore_torus();
  ortho::set_algorithm(graph, "alltoall=direct");
  const ortho::internal::LastPlans& last =
      table(graph).last_plans[static_cast<std::size_t>(Operation::alltoall)];
  alltoall(graph, 3, Mode::blocking, 1);
  const classic::Plan* first = last.latest().plan.get();
  ASSERT_NE(first, nullptr);
  alltoall(graph, 3, Mode::nonblocking, 2);
  EXPECT_EQ(last.latest().plan.get(), first) << "same arguments, another plan";
  alltoall(graph, 4, Mode::blocking, 3);
  EXPECT_NE(last.latest().plan.get(), first) << "other counts, the same plan";
}

// A derived datatype may be freed and made again with the same handle and
// another layout: calls with one are not kept.
TEST(KeptChoices, CallsWithADerivedDatatypeAreNotKept) {
  const Comm graph = ortho_testing::moore_torus();
  ortho::set_algorithm(graph, "alltoall=direct");
  const auto degree = static_cast<std::size_t>(
      classic::dist_graph_neighbors_count(graph).outdegree);
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  std::vector<int> send(degree * 2, graph.rank());
  std::vector<int> recv(degree * 2, -1);
  const ortho::internal::LastPlans& last =
      table(graph).last_plans[static_cast<std::size_t>(Operation::alltoall)];
  ortho::alltoall(graph, send.data(), 1, pair, recv.data(), 1, pair);
  const classic::Plan* first = last.latest().plan.get();
  ortho::alltoall(graph, send.data(), 1, pair, recv.data(), 1, pair);
  EXPECT_NE(last.latest().plan.get(), first)
      << "a plan over a derived type was kept";
  MPI_Type_free(&pair);
}

}  // namespace
