// What ortho keeps for the next call with the same arguments is found by the
// number of a call's arguments (internal/call_shape.h), compared once per
// call. White-box: the numbering itself (equal arguments, equal numbers;
// any change of an argument, a new one; nothing for derived datatypes; no
// number shared between two communicators' records; a copied call
// unnamed). Then end to end, on random multigraphs (repeated edges, self
// loops, empty neighbourhoods), for every algorithm offered for alltoallv
// and for the default choice (tuned): a loop whose counts and
// displacements change in place in the same arrays between calls, in the
// blocking and non-blocking modes, each call's result against the blocks
// its sources sent (MPI's pairing of repeated edges).
#include "ortho/internal/call_shape.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/call.h"
#include "ortho/collectives.h"
#include "ortho/internal/table.h"
#include "ortho/operation.h"
#include "ortho/table.h"
#include "tests/ortho/graph/graph_testing.h"

namespace {

using classic::Comm;
using classic::Mode;
using ortho::Call;
using ortho::Operation;
using ortho::internal::kUnkept;
using ortho::internal::LastShape;
using ortho::internal::same_shape;
using ortho::internal::shape_of;
using ortho_graph_testing::at;

// An alltoallv call over `counts` and `displs` (both sides alike), blocks
// of `type`, at `buffer`.
Call alltoallv(const std::vector<int>& counts, const std::vector<int>& displs,
               MPI_Datatype type, int* buffer, Mode mode = Mode::blocking) {
  Call call;
  call.operation = Operation::alltoallv;
  call.mode = mode;
  call.send.data = buffer;
  call.send.counts = counts;
  call.send.displs = displs;
  call.send.datatype = type;
  call.recv.data = buffer + 100;
  call.recv.counts = counts;
  call.recv.displs = displs;
  call.recv.datatype = type;
  return call;
}

TEST(CallShape, EqualArgumentsShareANumberAndAnyChangeTakesANewOne) {
  LastShape last;
  std::vector<int> counts = {1, 2, 3};
  std::vector<int> displs = {0, 1, 3};
  int buffer[200] = {};
  const std::uint64_t first =
      shape_of(last, alltoallv(counts, displs, MPI_INT, buffer));
  EXPECT_GT(first, kUnkept);
  // Other arrays with the same contents, other buffers, another mode.
  const std::vector<int> same_counts = counts;
  const std::vector<int> same_displs = displs;
  EXPECT_EQ(shape_of(last, alltoallv(same_counts, same_displs, MPI_INT,
                                     buffer + 1, Mode::nonblocking)),
            first);
  // The same arrays, changed in place.
  counts[1] = 4;
  const std::uint64_t changed =
      shape_of(last, alltoallv(counts, displs, MPI_INT, buffer));
  EXPECT_NE(changed, first);
  EXPECT_GT(changed, kUnkept);
  displs[2] = 5;
  const std::uint64_t moved =
      shape_of(last, alltoallv(counts, displs, MPI_INT, buffer));
  EXPECT_NE(moved, changed);
  // Back to the first arguments: a number of its own (the record holds
  // one call's key), never one that named other arguments since.
  counts[1] = 2;
  displs[2] = 3;
  const std::uint64_t again =
      shape_of(last, alltoallv(counts, displs, MPI_INT, buffer));
  EXPECT_NE(again, changed);
  EXPECT_NE(again, moved);
  EXPECT_FALSE(same_shape(first, again));
  // Another datatype, in place, another operation: each a new number.
  const std::uint64_t doubles =
      shape_of(last, alltoallv(counts, displs, MPI_DOUBLE, buffer));
  EXPECT_NE(doubles, again);
  Call in_place = alltoallv(counts, displs, MPI_DOUBLE, buffer);
  in_place.send.data = MPI_IN_PLACE;
  EXPECT_NE(shape_of(last, in_place), doubles);
  Call allgatherv = alltoallv(counts, displs, MPI_DOUBLE, buffer);
  allgatherv.operation = Operation::allgatherv;
  EXPECT_NE(shape_of(last, allgatherv), shape_of(last, in_place));
}

// A call without arrays is decided by its sizes alone; arrays that appear
// or vanish (one of the four is enough) make another call.
TEST(CallShape, ArraysThatAppearOrVanishTakeANewNumber) {
  LastShape last;
  int buffer[200] = {};
  const std::vector<int> none;
  const std::uint64_t empty =
      shape_of(last, alltoallv(none, none, MPI_INT, buffer));
  EXPECT_GT(empty, kUnkept);
  EXPECT_EQ(shape_of(last, alltoallv(none, none, MPI_INT, buffer + 2)), empty);
  const std::vector<int> one = {1};
  const std::vector<int> zero = {0};
  const std::uint64_t with_arrays =
      shape_of(last, alltoallv(one, zero, MPI_INT, buffer));
  EXPECT_NE(with_arrays, empty);
  EXPECT_EQ(shape_of(last, alltoallv(one, zero, MPI_INT, buffer)), with_arrays);
  // Only the displacements gone.
  const std::uint64_t counts_only =
      shape_of(last, alltoallv(one, none, MPI_INT, buffer));
  EXPECT_NE(counts_only, with_arrays);
  // Only a receive side's datatypes (alltoallw's form).
  Call typed = alltoallv(none, none, MPI_INT, buffer);
  const std::vector<MPI_Datatype> types = {MPI_INT};
  typed.recv.datatypes = types;
  const std::uint64_t with_types = shape_of(last, typed);
  EXPECT_NE(with_types, counts_only);
  EXPECT_NE(shape_of(last, alltoallv(none, none, MPI_INT, buffer)), with_types);
}

TEST(CallShape, ACallIsNamedOnceAndACopyStartsUnnamed) {
  LastShape last;
  const std::vector<int> counts = {2, 2};
  const std::vector<int> displs = {0, 2};
  int buffer[200] = {};
  const Call call = alltoallv(counts, displs, MPI_INT, buffer);
  EXPECT_EQ(call.shape.number(), 0u);
  const std::uint64_t number = shape_of(last, call);
  EXPECT_EQ(call.shape.number(), number);
  Call copy = call;
  EXPECT_EQ(copy.shape.number(), 0u) << "a copy may change its arguments";
  copy = call;
  EXPECT_EQ(copy.shape.number(), 0u);
  // Named already: another record does not rename it.
  LastShape other;
  EXPECT_EQ(shape_of(other, call), number);
}

TEST(CallShape, TwoRecordsNeverShareANumber) {
  LastShape one;
  LastShape two;
  const std::vector<int> counts = {1};
  const std::vector<int> displs = {0};
  int buffer[200] = {};
  const std::uint64_t a =
      shape_of(one, alltoallv(counts, displs, MPI_INT, buffer));
  const std::uint64_t b =
      shape_of(two, alltoallv(counts, displs, MPI_INT, buffer));
  EXPECT_NE(a, b);
  EXPECT_FALSE(same_shape(a, b));
}

TEST(CallShape, NothingIsKeptForADerivedDatatype) {
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  ASSERT_EQ(MPI_Type_contiguous(2, MPI_INT, &pair), MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&pair), MPI_SUCCESS);
  LastShape last;
  const std::vector<int> counts = {1};
  const std::vector<int> displs = {0};
  int buffer[200] = {};
  const std::uint64_t first =
      shape_of(last, alltoallv(counts, displs, pair, buffer));
  const std::uint64_t second =
      shape_of(last, alltoallv(counts, displs, pair, buffer));
  EXPECT_EQ(first, kUnkept);
  EXPECT_EQ(second, kUnkept);
  EXPECT_FALSE(same_shape(first, second));
  MPI_Type_free(&pair);
}

// ---- end to end ------------------------------------------------------------

// How many ints process `rank` sends in its `block`-th block at call
// `salt` (0 to 3: empty blocks too).
int block_count(unsigned salt, int rank, int block) {
  return static_cast<int>(static_cast<std::uint32_t>(ortho_graph_testing::bits(
                              salt, rank, 1000 + block)) %
                          4u);
}

// Fills `counts` and `displs` in place (their sizes kept) for `sizes`
// blocks packed in order; returns the ints they span.
int fill_layout(std::vector<int>& counts, std::vector<int>& displs,
                const std::vector<int>& sizes) {
  int total = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    counts[i] = sizes[i];
    displs[i] = total;
    total += sizes[i];
  }
  return total;
}

// Calls alltoallv `calls` times with the same count and displacement
// arrays, changed in place every other call (so that some calls repeat
// their predecessor's arguments and some do not), in `mode`; checks every
// received block against its sender's.
void changing_counts_loop(const Comm& comm,
                          const ortho_graph_testing::Graph& graph, Mode mode,
                          unsigned seed) {
  const int me = comm.rank();
  const std::vector<int>& out = graph.out(me);
  const std::vector<int>& in = graph.in(me);
  const std::vector<int> paired = ortho_graph_testing::paired_blocks(graph, me);
  std::vector<int> send_counts(out.size());
  std::vector<int> send_displs(out.size());
  std::vector<int> recv_counts(in.size());
  std::vector<int> recv_displs(in.size());
  constexpr int kCalls = 8;
  for (int c = 0; c < kCalls; ++c) {
    const unsigned salt = seed + static_cast<unsigned>(c / 2);
    std::vector<int> sent(out.size());
    for (std::size_t b = 0; b < out.size(); ++b) {
      sent[b] = block_count(salt, me, static_cast<int>(b));
    }
    std::vector<int> received(in.size());
    for (std::size_t slot = 0; slot < in.size(); ++slot) {
      received[slot] = block_count(salt, in[slot], paired[slot]);
    }
    const int send_total = fill_layout(send_counts, send_displs, sent);
    const int recv_total = fill_layout(recv_counts, recv_displs, received);
    std::vector<int> send(at(send_total) + 1);
    for (std::size_t b = 0; b < out.size(); ++b) {
      for (int e = 0; e < sent[b]; ++e) {
        send[at(send_displs[b] + e)] =
            ortho_graph_testing::bits(salt, me, static_cast<int>(b) * 16 + e);
      }
    }
    std::vector<int> recv(at(recv_total) + 1, -1);
    classic::Request request = ortho_graph_testing::in_mode(
        mode,
        [&] {
          ortho::alltoallv(comm, send.data(), send_counts, send_displs, MPI_INT,
                           recv.data(), recv_counts, recv_displs, MPI_INT);
        },
        [&] {
          return ortho::ialltoallv(comm, send.data(), send_counts, send_displs,
                                   MPI_INT, recv.data(), recv_counts,
                                   recv_displs, MPI_INT);
        },
        []() -> classic::Request { return {}; });
    if (mode == Mode::nonblocking) classic::wait(request);
    for (std::size_t slot = 0; slot < in.size(); ++slot) {
      for (int e = 0; e < received[slot]; ++e) {
        ASSERT_EQ(
            recv[at(recv_displs[slot] + e)],
            ortho_graph_testing::bits(salt, in[slot], paired[slot] * 16 + e))
            << "call " << c << ", slot " << slot << " (from " << in[slot]
            << "), element " << e << " on " << graph.name();
      }
    }
  }
}

TEST(CallShape, CountsChangedInPlaceReachEveryAlgorithm) {
  const Comm world = Comm::world();
  ortho_graph_testing::Random shared(20261129u);
  for (int round = 0; round < 6; ++round) {
    const ortho_graph_testing::Graph graph = ortho_graph_testing::random_graph(
        shared, world.size(),
        static_cast<ortho_graph_testing::Construction>(
            round % ortho_graph_testing::kConstructions));
    Comm comm = ortho_graph_testing::make_comm(graph, world);
    std::vector<std::string> names = {""};  // the default choice first
    for (const ortho::Algorithm& algorithm :
         ortho::internal::table_of(comm, "call_shape_test")
             .available[static_cast<std::size_t>(Operation::alltoallv)]) {
      names.emplace_back(algorithm.name);
    }
    for (const std::string& name : names) {
      SCOPED_TRACE("algorithm '" + name + "', round " + std::to_string(round));
      ortho::set_algorithm(comm, name.empty() ? "" : "alltoallv=" + name);
      for (Mode mode : {Mode::blocking, Mode::nonblocking}) {
        changing_counts_loop(comm, graph, mode,
                             static_cast<unsigned>(round * 100));
      }
    }
    comm.free();
  }
}

}  // namespace
