// Message combining splits a merged message at the transport's eager limit
// (stencils/message_split.h): the plans, ortho::traffic's counts and the
// results. On tori with dimensions of size 2 the hops +1 and -1 of a
// dimension reach one process and share a message; where that message
// passes the limit and its halves do not, it goes as two. Results are
// compared with classic's neighbourhood collective (the direct algorithm)
// with combining forced, blocks on both sides of the limit, three modes.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <random>
#include <set>
#include <span>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/plan.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/request.h"
#include "classic/topology/dims_create.h"
#include "naming/cart_name.h"
#include "naming/geometry.h"
#include "ortho/algorithms/combining/combining.h"
#include "ortho/algorithms/combining/combining_plans.h"
#include "ortho/algorithms/cost_model.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/internal/table.h"
#include "ortho/traffic.h"
#include "stencils/cart_neighbors.h"
#include "stencils/neighborhood.h"
#include "stencils/schedule.h"

namespace {

using classic::Comm;
using classic::Plan;
using ortho::Operation;
using ortho::algorithms::Combining;
using ortho::algorithms::combining_plans::layout_of;
using ortho::algorithms::combining_plans::PlanBuilder;

// 3-d Moore alltoall on a 2 x 2 x 2 torus as process `rank` compiles it,
// with shared memory's prices (4 KiB eager limit), blocks of `ints` ints.
Plan moore_2x2x2_alltoall(int rank, int ints) {
  const std::vector<int> dims{2, 2, 2};
  const bool periods[3] = {true, true, true};
  const naming::Geometry geometry(dims, periods, naming::Order::row_major);
  const stencils::Stencil moore =
      stencils::cart_stencil(3, stencils::Metric::chebyshev, 1, 1);
  std::vector<int> identity(static_cast<std::size_t>(moore.size()));
  for (std::size_t i = 0; i < identity.size(); ++i) {
    identity[i] = static_cast<int>(i);
  }
  Combining combining(geometry,
                      {.targets = moore,
                       .sources = moore,
                       .target_slots = identity,
                       .source_slots = identity},
                      stencils::allgather_schedule(geometry, moore, moore),
                      stencils::alltoall_schedule(geometry, moore, moore), rank,
                      1);
  combining.prices = ortho::algorithms::prices_for(
      ortho::algorithms::Transport::shared_memory, 1.0);
  const auto layout = layout_of({ints, MPI_INT}, {ints, MPI_INT}, "test");
  return PlanBuilder(combining, combining.alltoall, layout).build();
}

// Each round of the schedule has one message of 18 blocks (9 for hop +1,
// 9 for hop -1, one process in a dimension of size 2): 3,600 B at 50 ints,
// one message; 7,200 B at 100 ints, two of 9 blocks (3,600 B each); 14,400
// B at 200 ints, one (its halves are above the limit too).
TEST(MessageSplit, PlansSendAMergedMessageAsTwoWhereItsHalvesFit) {
  for (const auto& [ints, parts] : {std::pair{50, 1}, {100, 2}, {200, 1}}) {
    SCOPED_TRACE(ints);
    const Plan plan = moore_2x2x2_alltoall(0, ints);
    ASSERT_EQ(plan.rounds.size(), 3u);
    for (const Plan::Round& round : plan.rounds) {
      ASSERT_EQ(round.sends.size(), static_cast<std::size_t>(parts));
      ASSERT_EQ(round.receives.size(), static_cast<std::size_t>(parts));
      std::set<int> tags;
      for (std::size_t m = 0; m < round.sends.size(); ++m) {
        EXPECT_EQ(round.sends[m].blocks.size(), 18u / parts);
        EXPECT_EQ(round.receives[m].blocks.size(), 18u / parts);
        // Send m and receive m are the same part: one peer, one tag.
        EXPECT_EQ(round.sends[m].peer, round.receives[m].peer);
        EXPECT_EQ(round.sends[m].tag, round.receives[m].tag);
        tags.insert(round.sends[m].tag);
      }
      EXPECT_EQ(tags.size(), static_cast<std::size_t>(parts));
    }
  }
}

// The stencil over a periodic Cartesian naming of a duplicate of the world
// (ndims dimensions, dims_create's sizes).
Comm moore_torus(int ndims) {
  Comm comm = Comm::world().dup();
  const std::vector<int> dims = classic::dims_create(
      comm.size(), std::vector<int>(static_cast<std::size_t>(ndims), 0));
  const bool periods[3] = {true, true, true};
  naming::cart_name(
      comm, dims,
      std::span<const bool>(periods, static_cast<std::size_t>(ndims)),
      naming::Order::row_major);
  const std::vector<int> ranks = stencils::cart_neighbor_ranks(
      comm, comm.rank(), stencils::Metric::chebyshev, 1, 1);
  return ortho::dist_graph_create_adjacent(comm, ranks, classic::unweighted,
                                           ranks, classic::unweighted);
}

// ortho's alltoall and allgather with combining forced against classic's
// neighbourhood collectives, fresh buffers, three modes.
void expect_equal_to_direct(const Comm& graph, Operation operation, int ints,
                            std::mt19937& random) {
  const ortho::Table& table = ortho::internal::table_of(graph, "test");
  const std::size_t in = table.sources.size();
  const std::size_t out = table.destinations.size();
  const bool gather = operation == Operation::allgather;
  const auto b = static_cast<std::size_t>(ints);
  std::vector<int> send((gather ? 1 : out) * b);
  for (int& v : send) v = static_cast<int>(random());
  std::vector<int> want(in * b, -1);
  if (gather) {
    classic::neighbor_allgather(graph, std::span(send), std::span(want));
  } else {
    classic::neighbor_alltoall(graph, std::span(send), std::span(want));
  }
  for (classic::Mode mode :
       {classic::Mode::blocking, classic::Mode::nonblocking,
        classic::Mode::persistent}) {
    std::vector<int> got(want.size(), -1);
    classic::Request request;
    const std::span<const int> s(send);
    const std::span<int> r(got);
    if (mode == classic::Mode::blocking) {
      gather ? ortho::allgather(graph, s, r) : ortho::alltoall(graph, s, r);
    } else {
      request = mode == classic::Mode::nonblocking
                    ? (gather ? ortho::iallgather(graph, s, r)
                              : ortho::ialltoall(graph, s, r))
                    : (gather ? ortho::allgather_init(graph, s, r)
                              : ortho::alltoall_init(graph, s, r));
      if (mode == classic::Mode::persistent) classic::start(request);
      classic::wait(request);
    }
    EXPECT_EQ(got, want) << ortho::to_string(operation) << " mode "
                         << static_cast<int>(mode) << " ints " << ints;
  }
}

TEST(MessageSplit, ForcedCombiningEqualsDirectOnBothSidesOfTheLimit) {
  std::mt19937 random(static_cast<unsigned>(Comm::world().rank()) + 29u);
  for (int ndims : {2, 3}) {
    SCOPED_TRACE(ndims);
    const Comm graph = moore_torus(ndims);
    ortho::set_algorithm(graph, "alltoall=combining,allgather=combining");
    for (Operation operation : {Operation::alltoall, Operation::allgather}) {
      for (int ints : {1, 50, 100, 200, 250, 1000, 1100}) {
        expect_equal_to_direct(graph, operation, ints, random);
      }
    }
  }
}

// ortho::traffic counts the split messages. 3-d Moore on 2 x 2 x 2 (8
// processes): three messages of 18 blocks, split from 228 B (4,104 B a
// message) up to 455 B (halves of 4,095 B). 2-d Moore on 2 x 2 (4
// processes): two messages of 6 blocks, split from 683 B up to 1,365 B.
TEST(MessageSplit, TrafficCountsTheSplitMessages) {
  const int size = Comm::world().size();
  if (size != 4 && size != 8) GTEST_SKIP() << "a 2 x 2 or 2 x 2 x 2 torus";
  const Comm graph = moore_torus(size == 4 ? 2 : 3);
  const ortho::Table& table = ortho::internal::table_of(graph, "test");
  const ortho::algorithms::Combining* stencil =
      ortho::algorithms::combining_of(table);
  ASSERT_NE(stencil, nullptr);
  ASSERT_EQ(stencil->prices.eager_bytes, 4096.0)
      << "these counts are for shared memory's eager limit";
  const int merged = size == 4 ? 2 : 3;
  const std::size_t first = size == 4 ? 683 : 228;
  const std::size_t last = size == 4 ? 1365 : 455;
  const auto messages = [&](std::size_t bytes) {
    return ortho::traffic(graph, Operation::alltoall, "combining", bytes)
        ->messages;
  };
  EXPECT_EQ(messages(first - 1), merged);
  EXPECT_EQ(messages(first), 2 * merged);
  EXPECT_EQ(messages(last), 2 * merged);
  EXPECT_EQ(messages(last + 1), merged);
}

}  // namespace
