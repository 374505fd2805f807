// Message combining on Cartesian stencils equals the direct algorithm bit
// for bit: Moore and von Neumann stencils, 2-d and 3-d, depth 1 and 2,
// periodic and not (tori with dimensions of size 1 and 2 at small process
// counts), allgather and alltoall, blocking / non-blocking / persistent,
// fresh buffers on every call and the two operations alternating on one
// communicator. The direct result is classic's neighbourhood collective on
// the same communicator.
#include "ortho/algorithms/combining/combining.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/request.h"
#include "classic/topology/cartesian.h"
#include "classic/topology/dims_create.h"
#include "naming/cart_name.h"
#include "ortho/algorithms/algorithms.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"
#include "ortho/internal/table.h"
#include "stencils/cart_neighbors.h"
#include "stencils/neighborhood.h"
#include "stencils/schedule.h"
#include "tests/testing/errors.h"

namespace {

using classic::Comm;

struct Case {
  int ndims;
  stencils::Metric metric;
  int depth;
  bool periodic;
};

std::string name_of(const Case& c) {
  return std::to_string(c.ndims) + "-d " +
         (c.metric == stencils::Metric::chebyshev ? "Moore" : "von Neumann") +
         " depth " + std::to_string(c.depth) +
         (c.periodic ? " torus" : " mesh");
}

// The stencil's graph over a Cartesian naming of a duplicate of the world.
Comm stencil_graph(const Case& c) {
  Comm comm = Comm::world().dup();
  const std::vector<int> dims = classic::dims_create(
      comm.size(), std::vector<int>(static_cast<std::size_t>(c.ndims), 0));
  const std::vector<char> periods(static_cast<std::size_t>(c.ndims),
                                  c.periodic);
  std::vector<bool> as_bool(periods.begin(), periods.end());
  bool flags[3] = {c.periodic, c.periodic, c.periodic};
  naming::cart_name(
      comm, dims,
      std::span<const bool>(flags, static_cast<std::size_t>(c.ndims)),
      naming::Order::row_major);
  const std::vector<int> ranks =
      stencils::cart_neighbor_ranks(comm, comm.rank(), c.metric, 1, c.depth);
  return ortho::dist_graph_create_adjacent(comm, ranks, classic::unweighted,
                                           ranks, classic::unweighted);
}

std::vector<int> random_ints(std::size_t n, std::mt19937& random) {
  std::vector<int> values(n);
  for (int& v : values) v = static_cast<int>(random());
  return values;
}

// One call of `operation` through ortho in `mode`, fresh buffers, checked
// against classic's direct neighbourhood collective.
void check_call(const Comm& graph, ortho::Operation operation,
                classic::Mode mode, int block, std::mt19937& random) {
  // The table's lists: a distributed graph's, or a Cartesian topology's.
  const ortho::Table& table = ortho::internal::table_of(graph, "check_call");
  const auto in = table.sources.size();
  const auto out = table.destinations.size();
  const std::size_t sent =
      operation == ortho::Operation::allgather ? 1 : std::size_t(out);
  const auto b = static_cast<std::size_t>(block);
  const std::vector<int> send = random_ints(sent * b, random);
  std::vector<int> want(static_cast<std::size_t>(in) * b, -1);
  std::vector<int> got(want.size(), -1);
  const bool gather = operation == ortho::Operation::allgather;
  if (gather) {
    classic::neighbor_allgather(graph, std::span(send), std::span(want));
  } else {
    classic::neighbor_alltoall(graph, std::span(send), std::span(want));
  }
  classic::Request request;
  switch (mode) {
    case classic::Mode::blocking:
      if (gather) {
        ortho::allgather(graph, std::span(send), std::span(got));
      } else {
        ortho::alltoall(graph, std::span(send), std::span(got));
      }
      break;
    case classic::Mode::nonblocking:
      request = gather
                    ? ortho::iallgather(graph, std::span(send), std::span(got))
                    : ortho::ialltoall(graph, std::span(send), std::span(got));
      classic::wait(request);
      break;
    case classic::Mode::persistent:
      request =
          gather ? ortho::allgather_init(graph, std::span(send), std::span(got))
                 : ortho::alltoall_init(graph, std::span(send), std::span(got));
      for (int start = 0; start < 2; ++start) {
        std::fill(got.begin(), got.end(), -1);
        classic::start(request);
        classic::wait(request);
      }
      break;
  }
  ASSERT_EQ(got, want) << ortho::to_string(operation) << " mode "
                       << static_cast<int>(mode) << " block " << block;
}

const Case kCases[] = {
    {2, stencils::Metric::chebyshev, 1, true},
    {2, stencils::Metric::chebyshev, 1, false},
    {2, stencils::Metric::manhattan, 1, true},
    {2, stencils::Metric::manhattan, 2, false},
    {2, stencils::Metric::chebyshev, 2, true},
    {3, stencils::Metric::chebyshev, 1, true},
    {3, stencils::Metric::chebyshev, 1, false},
    {3, stencils::Metric::manhattan, 1, true},
};

TEST(Combining, EqualsDirectOnStencils) {
  std::mt19937 random(static_cast<unsigned>(Comm::world().rank()) + 17u);
  for (const Case& c : kCases) {
    SCOPED_TRACE(name_of(c));
    const Comm graph = stencil_graph(c);
    const ortho::Table& table =
        ortho::internal::table_of(graph, "combining_test");
    ASSERT_NE(ortho::algorithms::combining_of(table), nullptr)
        << "no stencil detected";
    for (ortho::Operation operation :
         {ortho::Operation::allgather, ortho::Operation::alltoall}) {
      for (classic::Mode mode :
           {classic::Mode::blocking, classic::Mode::nonblocking,
            classic::Mode::persistent}) {
        // 1000 and 1500 ints: messages of several such blocks exceed the
        // executor's packing limit and go as struct datatypes, next to packed
        // ones.
        for (int block : {1, 3, 40, 1000, 1500}) {
          check_call(graph, operation, mode, block, random);
        }
      }
    }
  }
}

// The structure counters of the 3-d Moore stencil on a torus where no
// offsets wrap onto one process (3 x 3 x 3), computed without MPI from the
// schedules that a communicator of that grid compiles.
TEST(Combining, MooreThreeDimensionalTraffic) {
  const std::vector<int> dims{3, 3, 3};
  const bool periods[3] = {true, true, true};
  const naming::Geometry geometry(dims, periods, naming::Order::row_major);
  const stencils::Stencil moore =
      stencils::cart_stencil(3, stencils::Metric::chebyshev, 1, 1);
  std::vector<int> identity(static_cast<std::size_t>(moore.size()));
  for (std::size_t i = 0; i < identity.size(); ++i) {
    identity[i] = static_cast<int>(i);
  }
  const ortho::algorithms::Combining combining(
      geometry,
      {.targets = moore,
       .sources = moore,
       .target_slots = identity,
       .source_slots = identity},
      stencils::allgather_schedule(geometry, moore, moore),
      stencils::alltoall_schedule(geometry, moore, moore), 13, 1);
  const auto direct = ortho::algorithms::direct_traffic(combining);
  const auto alltoall = ortho::algorithms::combining_traffic(
      combining, stencils::Collective::alltoall);
  const auto allgather = ortho::algorithms::combining_traffic(
      combining, stencils::Collective::allgather);
  EXPECT_EQ(direct.messages, 26);
  EXPECT_EQ(alltoall.messages, 6);  // instead of 26
  EXPECT_EQ(alltoall.rounds, 3);
  EXPECT_EQ(allgather.messages, 6);
  EXPECT_EQ(allgather.blocks, direct.blocks);  // no extra volume
  EXPECT_GT(alltoall.blocks, direct.blocks);   // blocks relayed on the way
}

TEST(Combining, SelectedBySizeAndForcedEitherWay) {
  const Comm graph = stencil_graph({2, stencils::Metric::chebyshev, 1, true});
  const ortho::Table& table = ortho::internal::table_of(graph, "test");
  const ortho::algorithms::Combining* stencil =
      ortho::algorithms::combining_of(table);
  ASSERT_NE(stencil, nullptr);
  const auto direct = ortho::algorithms::direct_traffic(*stencil);
  const auto alltoall = ortho::algorithms::combining_traffic(
      *stencil, stencils::Collective::alltoall);
  const std::string_view small =
      ortho::selected_algorithm(graph, ortho::Operation::alltoall, 0);
  const std::string_view large =
      ortho::selected_algorithm(graph, ortho::Operation::alltoall, 1 << 24);
  // Small blocks: combining where the model says fewer messages outweigh
  // more rounds (on an oversubscribed machine, as these tests run, often
  // not); large blocks direct (relayed volume, serialised rounds).
  const double direct_ns =
      ortho::algorithms::model_ns(stencil->prices, direct, 0);
  const double combining_ns =
      ortho::algorithms::model_ns(stencil->prices, alltoall, 0);
  EXPECT_EQ(small, combining_ns < direct_ns ? "combining" : "direct");
  EXPECT_EQ(large, "direct");
  // Rounds cost at least a message; the model grows with every term.
  EXPECT_GE(stencil->prices.round_ns, 400.0);
  EXPECT_LT(ortho::algorithms::model_ns(stencil->prices, direct, 8),
            ortho::algorithms::model_ns(stencil->prices, direct, 9));
  ortho::set_algorithm(graph, "direct");
  EXPECT_EQ(ortho::selected_algorithm(graph, ortho::Operation::alltoall, 8),
            "direct");
  ortho::set_algorithm(graph, "alltoall=combining,allgather=combining");
  EXPECT_EQ(
      ortho::selected_algorithm(graph, ortho::Operation::alltoall, 1 << 24),
      "combining");
  std::mt19937 random(5);
  check_call(graph, ortho::Operation::alltoall, classic::Mode::blocking, 2,
             random);
  check_call(graph, ortho::Operation::allgather, classic::Mode::nonblocking, 3,
             random);
}

// The neighbourhood reduction computed from classic's allgather, folded in
// neighbour order.
std::vector<long> reference_sum(const Comm& graph, std::span<const long> mine) {
  const auto counts = classic::dist_graph_neighbors_count(graph);
  std::vector<long> all(static_cast<std::size_t>(counts.indegree) *
                        mine.size());
  classic::neighbor_allgather(graph, mine, std::span(all));
  std::vector<long> sum(mine.size(), 0);
  for (std::size_t i = 0; i < all.size(); ++i) sum[i % mine.size()] += all[i];
  return sum;
}

TEST(Combining, BoxAllreduceEqualsDirectAndSendsTwoMessagesPerDimension) {
  std::mt19937 random(static_cast<unsigned>(Comm::world().rank()) + 3u);
  for (const Case& c : {Case{2, stencils::Metric::chebyshev, 1, false},
                        Case{2, stencils::Metric::chebyshev, 1, true},
                        Case{3, stencils::Metric::chebyshev, 1, true},
                        Case{2, stencils::Metric::chebyshev, 2, true}}) {
    SCOPED_TRACE(name_of(c));
    const Comm graph = stencil_graph(c);
    const ortho::Table& table = ortho::internal::table_of(graph, "test");
    const ortho::algorithms::Combining* stencil =
        ortho::algorithms::combining_of(table);
    ASSERT_NE(stencil, nullptr);
    // On a mesh too small to hold the whole box somewhere, the stencil is
    // a part of the box: the direct algorithm stays.
    const std::vector<int> dims = classic::dims_create(
        graph.size(), std::vector<int>(static_cast<std::size_t>(c.ndims), 0));
    const bool whole_box =
        c.periodic || std::all_of(dims.begin(), dims.end(),
                                  [&](int n) { return n > c.depth; });
    EXPECT_EQ(stencil->box_depth, whole_box ? c.depth : 0);
    if (whole_box) {
      EXPECT_EQ(ortho::algorithms::box_allreduce_traffic(*stencil).messages,
                2 * c.depth * c.ndims);  // Game of Life: 4 instead of 8
    }
    // The box where the model prefers it (always for large blocks: it
    // sends fewer bytes); forced here, so that it is what runs below.
    EXPECT_EQ(
        ortho::selected_algorithm(graph, ortho::Operation::allreduce, 1 << 20),
        whole_box ? "combining" : "direct");
    if (whole_box) ortho::set_algorithm(graph, "allreduce=combining");
    for (classic::Mode mode :
         {classic::Mode::blocking, classic::Mode::nonblocking,
          classic::Mode::persistent}) {
      std::vector<long> mine(5);
      for (long& v : mine) v = static_cast<long>(random() % 1000);
      const std::vector<long> want = reference_sum(graph, mine);
      std::vector<long> got(mine.size(), -7);
      classic::Request request;
      if (mode == classic::Mode::blocking) {
        ortho::allreduce(graph, std::span<const long>(mine), std::span(got),
                         MPI_SUM);
      } else if (mode == classic::Mode::nonblocking) {
        request = ortho::iallreduce(graph, std::span<const long>(mine),
                                    std::span(got), MPI_SUM);
        classic::wait(request);
      } else {
        request = ortho::allreduce_init(graph, std::span<const long>(mine),
                                        std::span(got), MPI_SUM);
        classic::start(request);
        classic::wait(request);
      }
      if (want.empty() ||
          classic::dist_graph_neighbors_count(graph).indegree == 0) {
        continue;
      }
      EXPECT_EQ(got, want) << "mode " << static_cast<int>(mode);
    }
  }
}

// allgatherv and allgatherw along allgather's relay trees: blocks land in
// reverse order with gaps; allgatherw gives every other neighbour a
// datatype of its own (two ints as one element).
TEST(Combining, AllgathervAndAllgatherwEqualDirect) {
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  std::mt19937 random(static_cast<unsigned>(Comm::world().rank()) + 99u);
  for (const Case& c : kCases) {
    SCOPED_TRACE(name_of(c));
    const Comm graph = stencil_graph(c);
    EXPECT_EQ(ortho::selected_algorithm(graph, ortho::Operation::allgatherv),
              ortho::selected_algorithm(graph, ortho::Operation::allgather));
    const int in = classic::dist_graph_neighbors_count(graph).indegree;
    const int block = 4;  // ints
    std::vector<int> counts(static_cast<std::size_t>(in), block);
    std::vector<int> displs(counts.size());
    std::vector<MPI_Aint> bytes(counts.size());
    std::vector<int> wcounts(counts.size());
    std::vector<MPI_Datatype> types(counts.size());
    for (int i = 0; i < in; ++i) {
      const auto u = static_cast<std::size_t>(i);
      displs[u] = (in - 1 - i) * (block + 1);  // reversed, with gaps
      bytes[u] = static_cast<MPI_Aint>(displs[u] * sizeof(int));
      types[u] = i % 2 == 0 ? MPI_INT : pair;
      wcounts[u] = i % 2 == 0 ? block : block / 2;
    }
    const std::size_t total = static_cast<std::size_t>(in) * (block + 1);
    for (classic::Mode mode :
         {classic::Mode::blocking, classic::Mode::nonblocking,
          classic::Mode::persistent}) {
      const std::vector<int> send = random_ints(block, random);
      std::vector<int> want(total, -1);
      classic::neighbor_allgatherv(graph, send.data(), block, MPI_INT,
                                   want.data(), counts, displs, MPI_INT);
      std::vector<int> v(total, -1);
      std::vector<int> w(total, -1);
      classic::Request requests[2];
      switch (mode) {
        case classic::Mode::blocking:
          ortho::allgatherv(graph, send.data(), block, MPI_INT, v.data(),
                            counts, displs, MPI_INT);
          ortho::allgatherw(graph, send.data(), block, MPI_INT, w.data(),
                            wcounts, bytes, types);
          break;
        case classic::Mode::nonblocking:
          requests[0] = ortho::iallgatherv(graph, send.data(), block, MPI_INT,
                                           v.data(), counts, displs, MPI_INT);
          requests[1] = ortho::iallgatherw(graph, send.data(), block, MPI_INT,
                                           w.data(), wcounts, bytes, types);
          classic::wait_all(requests);
          break;
        case classic::Mode::persistent:
          requests[0] =
              ortho::allgatherv_init(graph, send.data(), block, MPI_INT,
                                     v.data(), counts, displs, MPI_INT);
          requests[1] =
              ortho::allgatherw_init(graph, send.data(), block, MPI_INT,
                                     w.data(), wcounts, bytes, types);
          classic::start_all(requests);
          classic::wait_all(requests);
          break;
      }
      EXPECT_EQ(v, want) << "allgatherv mode " << static_cast<int>(mode);
      EXPECT_EQ(w, want) << "allgatherw mode " << static_cast<int>(mode);
    }
  }
  MPI_Type_free(&pair);
}

// The ints each process sends on every edge in the alltoallv/w test: a
// number of its own (even, so that pairs can carry them), so a receiver
// knows it from the source's rank.
int ints_from(int rank) { return 2 * (1 + rank % 3); }

// alltoallv and alltoallw along alltoall's schedule after a size
// exchange: blocks of a size per sender, placed in reverse order with gaps
// on both sides; alltoallw receives every other block as pairs of ints (a
// datatype of its own, the same type signature). Forced to combining and
// as selected, three modes, against classic's direct neighbourhood
// collectives.
TEST(Combining, AlltoallvAndAlltoallwEqualDirect) {
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  std::mt19937 random(static_cast<unsigned>(Comm::world().rank()) + 7u);
  for (const Case& c : kCases) {
    SCOPED_TRACE(name_of(c));
    const Comm graph = stencil_graph(c);
    const classic::DistGraphNeighbors lists =
        classic::dist_graph_neighbors(graph);
    const std::size_t in = lists.sources.size();
    const std::size_t out = lists.destinations.size();
    const int mine = ints_from(graph.rank());
    // Send: block i at slot out - 1 - i, one int of gap after each.
    std::vector<int> sendcounts(out, mine);
    std::vector<int> sdispls(out);
    std::vector<MPI_Aint> sbytes(out);
    for (std::size_t i = 0; i < out; ++i) {
      sdispls[i] = static_cast<int>(out - 1 - i) * (mine + 1);
      sbytes[i] = MPI_Aint{sdispls[i]} * MPI_Aint{sizeof(int)};
    }
    const std::vector<MPI_Datatype> send_types(out, MPI_INT);
    // Receive: reverse order, a gap of one int, every other block as pairs.
    std::vector<int> counts(in);
    std::vector<int> wcounts(in);
    std::vector<int> displs(in);
    std::vector<MPI_Aint> rbytes(in);
    std::vector<MPI_Datatype> recv_types(in);
    int end = 0;
    for (std::size_t k = in; k-- > 0;) {
      counts[k] = ints_from(lists.sources[k]);
      displs[k] = end;
      rbytes[k] = MPI_Aint{end} * MPI_Aint{sizeof(int)};
      const bool pairs = k % 2 == 1;
      recv_types[k] = pairs ? pair : MPI_INT;
      wcounts[k] = pairs ? counts[k] / 2 : counts[k];
      end += counts[k] + 1;
    }
    const std::vector<int> send =
        random_ints(out * std::size_t(mine + 1), random);
    std::vector<int> want(static_cast<std::size_t>(end), -1);
    classic::neighbor_alltoallv(graph, send.data(), sendcounts, sdispls,
                                MPI_INT, want.data(), counts, displs, MPI_INT);
    for (const char* force : {"alltoallv=combining,alltoallw=combining", ""}) {
      ortho::set_algorithm(graph, force);
      for (classic::Mode mode :
           {classic::Mode::blocking, classic::Mode::nonblocking,
            classic::Mode::persistent}) {
        std::vector<int> v(want.size(), -1);
        std::vector<int> w(want.size(), -1);
        std::vector<classic::Request> requests(2);
        switch (mode) {
          case classic::Mode::blocking:
            ortho::alltoallv(graph, send.data(), sendcounts, sdispls, MPI_INT,
                             v.data(), counts, displs, MPI_INT);
            ortho::alltoallw(graph, send.data(), sendcounts, sbytes, send_types,
                             w.data(), wcounts, rbytes, recv_types);
            break;
          case classic::Mode::nonblocking:
            requests[0] =
                ortho::ialltoallv(graph, send.data(), sendcounts, sdispls,
                                  MPI_INT, v.data(), counts, displs, MPI_INT);
            requests[1] = ortho::ialltoallw(graph, send.data(), sendcounts,
                                            sbytes, send_types, w.data(),
                                            wcounts, rbytes, recv_types);
            classic::wait_all(requests);
            break;
          case classic::Mode::persistent:
            requests[0] = ortho::alltoallv_init(graph, send.data(), sendcounts,
                                                sdispls, MPI_INT, v.data(),
                                                counts, displs, MPI_INT);
            requests[1] = ortho::alltoallw_init(graph, send.data(), sendcounts,
                                                sbytes, send_types, w.data(),
                                                wcounts, rbytes, recv_types);
            for (int start = 0; start < 2; ++start) {
              std::fill(v.begin(), v.end(), -1);
              std::fill(w.begin(), w.end(), -1);
              classic::start_all(requests);
              classic::wait_all(requests);
            }
            break;
        }
        EXPECT_EQ(v, want) << "alltoallv '" << force << "' mode "
                           << static_cast<int>(mode);
        EXPECT_EQ(w, want) << "alltoallw '" << force << "' mode "
                           << static_cast<int>(mode);
      }
    }
    // Persistent calls pay the size exchange once: they choose as alltoall
    // does, block size by block size; the other modes stay direct.
    for (std::size_t bytes : {std::size_t{8}, std::size_t{4096}}) {
      EXPECT_EQ(
          ortho::selected_algorithm(graph, ortho::Operation::alltoallw, bytes,
                                    classic::Mode::persistent),
          ortho::selected_algorithm(graph, ortho::Operation::alltoall, bytes));
      EXPECT_EQ(ortho::selected_algorithm(graph, ortho::Operation::alltoallw,
                                          bytes, classic::Mode::blocking),
                "direct");
    }
  }
  MPI_Type_free(&pair);
}

// Persistent alltoallv/w pay the size exchange once, yet relay large
// blocks like any: they keep direct above their crossover.
TEST(Combining, PersistentAlltoallwKeepsDirectForLargeBlocks) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(name_of(c));
    const Comm graph = stencil_graph(c);
    for (ortho::Operation operation :
         {ortho::Operation::alltoall, ortho::Operation::alltoallv,
          ortho::Operation::alltoallw}) {
      for (classic::Mode mode :
           {classic::Mode::blocking, classic::Mode::nonblocking,
            classic::Mode::persistent}) {
        EXPECT_EQ(ortho::selected_algorithm(graph, operation, 40 * 1024, mode),
                  "direct")
            << ortho::to_string(operation) << " mode "
            << static_cast<int>(mode);
      }
    }
  }
}

// The block sizes of one alltoallv call differ between processes, so a
// size-aware choice agrees on the largest before choosing: with the
// crossover between the smallest and the largest block of the call, every
// process must take direct (a process choosing alone by its own blocks
// would run combining against direct peers). Blocks of 8, 16 and 24
// bytes by rank (ints_from); crossover 12 bytes.
TEST(Combining, AlltoallvAgreesOnTheLargestBlockBeforeChoosing) {
  const Comm graph = stencil_graph({2, stencils::Metric::chebyshev, 1, true});
  ortho::Table sized = ortho::internal::table_of(graph, "combining_test");
  ortho::Choice& choice = sized.choice(ortho::Operation::alltoallv);
  choice = ortho::Choice::only(ortho::algorithms::direct());
  choice.take_up_to(ortho::algorithms::exchange_blocks(), 12);
  choice.agreed_size = true;
  ortho::internal::attach(graph, sized);
  const classic::DistGraphNeighbors lists =
      classic::dist_graph_neighbors(graph);
  const std::size_t in = lists.sources.size();
  const std::size_t out = lists.destinations.size();
  const int mine = ints_from(graph.rank());
  std::vector<int> sendcounts(out, mine);
  std::vector<int> sdispls(out);
  for (std::size_t i = 0; i < out; ++i) {
    sdispls[i] = static_cast<int>(i) * mine;
  }
  std::vector<int> counts(in);
  std::vector<int> displs(in);
  int end = 0;
  for (std::size_t k = 0; k < in; ++k) {
    counts[k] = ints_from(lists.sources[k]);
    displs[k] = end;
    end += counts[k];
  }
  const int largest = 4 * ints_from(std::min(graph.size() - 1, 2));
  std::mt19937 random(static_cast<unsigned>(graph.rank()) + 11u);
  ortho::Call call;
  call.operation = ortho::Operation::alltoallv;
  call.send.counts = sendcounts;
  call.send.displs = sdispls;
  call.send.datatype = MPI_INT;
  call.recv.counts = counts;
  call.recv.displs = displs;
  call.recv.datatype = MPI_INT;
  for (classic::Mode mode :
       {classic::Mode::blocking, classic::Mode::nonblocking,
        classic::Mode::persistent}) {
    call.mode = mode;
    EXPECT_EQ(ortho::internal::selection_bytes(graph, choice, call, sized),
              static_cast<std::size_t>(largest));
    const std::vector<int> send = random_ints(out * std::size_t(mine), random);
    std::vector<int> want(static_cast<std::size_t>(end), -1);
    classic::neighbor_alltoallv(graph, send.data(), sendcounts, sdispls,
                                MPI_INT, want.data(), counts, displs, MPI_INT);
    std::vector<int> got(want.size(), -1);
    classic::Request request;
    switch (mode) {
      case classic::Mode::blocking:
        ortho::alltoallv(graph, send.data(), sendcounts, sdispls, MPI_INT,
                         got.data(), counts, displs, MPI_INT);
        break;
      case classic::Mode::nonblocking:
        request =
            ortho::ialltoallv(graph, send.data(), sendcounts, sdispls, MPI_INT,
                              got.data(), counts, displs, MPI_INT);
        classic::wait(request);
        break;
      case classic::Mode::persistent:
        request =
            ortho::alltoallv_init(graph, send.data(), sendcounts, sdispls,
                                  MPI_INT, got.data(), counts, displs, MPI_INT);
        classic::start(request);
        classic::wait(request);
        break;
    }
    EXPECT_EQ(got, want) << "mode " << static_cast<int>(mode);
  }
  // Without agreement a choice selects by the caller's own blocks.
  choice.agreed_size = false;
  call.mode = classic::Mode::blocking;
  EXPECT_EQ(ortho::internal::selection_bytes(graph, choice, call, sized),
            static_cast<std::size_t>(4 * mine));
}

// An argument error of one process under a choice that agrees on the
// largest block is raised on that process before it joins the agreement:
// only rank 0 calls, with a negative count (alltoallv_init) or a null
// datatype (alltoallw_init); joining the agreement alone would hang.
TEST(Combining, ArgumentErrorsComeBeforeTheSizeAgreement) {
  const Comm graph = stencil_graph({2, stencils::Metric::chebyshev, 1, true});
  ortho::Table sized = ortho::internal::table_of(graph, "combining_test");
  for (ortho::Operation operation :
       {ortho::Operation::alltoallv, ortho::Operation::alltoallw}) {
    ortho::Choice& choice = sized.choice(operation);
    choice = ortho::Choice::only(ortho::algorithms::direct());
    choice.take_up_to(ortho::algorithms::exchange_blocks(), 1 << 20,
                      {classic::Mode::persistent});
    choice.agreed_size = true;
  }
  ortho::internal::attach(graph, sized);
  const classic::DistGraphNeighbors lists =
      classic::dist_graph_neighbors(graph);
  const std::size_t in = lists.sources.size();
  const std::size_t out = lists.destinations.size();
  if (graph.rank() == 0 && out > 0) {
    std::vector<int> sendcounts(out, 1);
    sendcounts[out - 1] = -1;
    const std::vector<int> sdispls(out, 0);
    const std::vector<int> counts(in, 1);
    std::vector<int> displs(in);
    for (std::size_t k = 0; k < in; ++k) displs[k] = static_cast<int>(k);
    std::vector<int> send(out, 0);
    std::vector<int> recv(in, 0);
    orthocomm_test::expect_thrown(
        orthocomm_test::thrown_by([&] {
          classic::Request r = ortho::alltoallv_init(
              graph, send.data(), sendcounts, sdispls, MPI_INT, recv.data(),
              counts, displs, MPI_INT);
        }),
        classic::ErrorClass::count,
        {"ortho::alltoallv_init",
         "sendcounts[" + std::to_string(out - 1) + "]"});
    const std::vector<int> ones(out, 1);
    std::vector<MPI_Aint> sbytes(out);
    std::vector<MPI_Aint> rbytes(in);
    for (std::size_t i = 0; i < out; ++i) sbytes[i] = 0;
    for (std::size_t k = 0; k < in; ++k) rbytes[k] = MPI_Aint(4 * k);
    std::vector<MPI_Datatype> send_types(out, MPI_INT);
    send_types[0] = MPI_DATATYPE_NULL;
    const std::vector<MPI_Datatype> recv_types(in, MPI_INT);
    const std::vector<int> recv_ones(in, 1);
    orthocomm_test::expect_thrown(
        orthocomm_test::thrown_by([&] {
          classic::Request r = ortho::alltoallw_init(
              graph, send.data(), ones, sbytes, send_types, recv.data(),
              recv_ones, rbytes, recv_types);
        }),
        classic::ErrorClass::datatype, {"ortho::alltoallw_init", "send_types"});
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

// A block larger than its receive block is refused by the receiver after
// the size exchange (truncate), not written past the buffer.
TEST(Combining, AlltoallwRefusesAnOversizedBlock) {
  const Comm graph = stencil_graph({2, stencils::Metric::chebyshev, 1, true});
  ortho::set_algorithm(graph, "alltoallw=combining");
  const classic::DistGraphNeighbors lists =
      classic::dist_graph_neighbors(graph);
  const std::size_t in = lists.sources.size();
  const std::size_t out = lists.destinations.size();
  // Every process sends 2 ints per block and receives 1.
  const std::vector<int> send(2 * out, 1);
  std::vector<int> recv(in, 0);
  std::vector<MPI_Aint> sbytes(out);
  std::vector<MPI_Aint> rbytes(in);
  for (std::size_t i = 0; i < out; ++i) sbytes[i] = MPI_Aint(8 * i);
  for (std::size_t j = 0; j < in; ++j) rbytes[j] = MPI_Aint(4 * j);
  try {
    ortho::alltoallw(graph, send.data(), std::vector<int>(out, 2), sbytes,
                     std::vector<MPI_Datatype>(out, MPI_INT), recv.data(),
                     std::vector<int>(in, 1), rbytes,
                     std::vector<MPI_Datatype>(in, MPI_INT));
    ADD_FAILURE() << "no error";
  } catch (const classic::Error& error) {
    EXPECT_EQ(error.error_class(), classic::ErrorClass::truncate);
    EXPECT_NE(std::string(error.what()).find("ortho::alltoallw"),
              std::string::npos)
        << error.what();
  }
  EXPECT_EQ(recv, std::vector<int>(in, 0));
}

// per_peer (one message per distinct peer) forced: on small tori many
// offsets reach one process (a 2 x 2 torus: eight Moore offsets, three
// peers), so blocks share messages in MPI's pairing order; equals the
// direct algorithm in every stencil case and mode.
TEST(Combining, PerPeerEqualsDirect) {
  std::mt19937 random(static_cast<unsigned>(Comm::world().rank()) + 31u);
  for (const Case& c : kCases) {
    SCOPED_TRACE(name_of(c));
    const Comm graph = stencil_graph(c);
    ortho::set_algorithm(graph, "per_peer");
    ASSERT_EQ(ortho::selected_algorithm(graph, ortho::Operation::alltoall),
              "per_peer");
    for (ortho::Operation operation :
         {ortho::Operation::allgather, ortho::Operation::alltoall}) {
      for (classic::Mode mode :
           {classic::Mode::blocking, classic::Mode::nonblocking,
            classic::Mode::persistent}) {
        for (int block : {1, 5000}) {  // packed and as a struct datatype
          check_call(graph, operation, mode, block, random);
        }
      }
    }
  }
}

// A classic Cartesian topology (MPI_Cart_create) is the von Neumann
// stencil of depth 1 on its grid, with proc_null at the borders of a mesh:
// ortho detects it when it first meets the communicator, and combining
// (forced) equals classic's neighbourhood collectives, which pair the
// blocks of periodic dimensions of size 1 and 2 as MPI-4.1 says.
TEST(Combining, ClassicCartesianTopologiesAreStencils) {
  std::mt19937 random(static_cast<unsigned>(Comm::world().rank()) + 53u);
  for (const int ndims : {2, 3}) {
    for (const bool periodic : {true, false}) {
      SCOPED_TRACE(std::to_string(ndims) + "-d, periodic " +
                   std::to_string(periodic));
      const std::vector<int> dims = classic::dims_create(
          Comm::world().size(), std::vector<int>(std::size_t(ndims), 0));
      const std::vector<bool> periods(std::size_t(ndims), periodic);
      const Comm cart = classic::cart_create(Comm::world(), dims, periods,
                                             classic::Reorder::no);
      ASSERT_NE(ortho::algorithms::combining_of(
                    ortho::internal::table_of(cart, "test")),
                nullptr);
      ortho::set_algorithm(cart, "combining");
      EXPECT_EQ(ortho::selected_algorithm(cart, ortho::Operation::alltoall),
                "combining");
      for (ortho::Operation operation :
           {ortho::Operation::allgather, ortho::Operation::alltoall}) {
        for (classic::Mode mode :
             {classic::Mode::blocking, classic::Mode::nonblocking,
              classic::Mode::persistent}) {
          check_call(cart, operation, mode, 3, random);
        }
      }
    }
  }
}

TEST(Combining, UnnamedOrIrregularGraphsStayDirect) {
  const Comm world = Comm::world();
  const int p = world.size();
  // A ring without a naming.
  const std::vector<int> right{(world.rank() + 1) % p};
  const std::vector<int> left{(world.rank() + p - 1) % p};
  const Comm ring = ortho::dist_graph_create_adjacent(
      world, left, classic::unweighted, right, classic::unweighted);
  EXPECT_EQ(
      ortho::algorithms::combining_of(ortho::internal::table_of(ring, "test")),
      nullptr);
  EXPECT_EQ(ortho::selected_algorithm(ring, ortho::Operation::alltoall),
            "direct");
}

}  // namespace
