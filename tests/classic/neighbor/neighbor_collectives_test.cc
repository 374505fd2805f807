// Semantics of classic's neighbourhood collectives against an oracle that
// knows what every process sends (value = 100000 * sender + 100 * block +
// element) and where the standard says it lands: Cartesian grids of every
// shape (periodic dimensions of size 1 and 2 included, MPI-4.1's rule),
// borders with proc_null, graphs with repeated edges and self-loops,
// distributed graphs; the non-blocking forms with several operations
// outstanding; isolation from the application's wildcard receives; what
// destroying a pending operation does; one test per error.
#include "classic/neighbor/neighbor_collectives.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/groups/group.h"
#include "classic/p2p/point_to_point.h"
#include "classic/p2p/request.h"
#include "classic/topology/cartesian.h"
#include "classic/topology/internal/topology_cache.h"
#include "tests/classic/testing/neighbor_testing.h"
#include "tests/testing/errors.h"

namespace classic {
namespace {

using orthocomm_test::expect_error_class;
using testing_neighbor::Origin;
using testing_neighbor::Random;
using testing_neighbor::WorldTopology;

constexpr int kSentinel = -7;

int value(int sender, int block, int element) {
  return 100000 * sender + 100 * block + element;
}

// alltoallv / alltoallw: the size of send block `block` of `sender`.
int block_count(int sender, int block) { return 1 + (sender + 2 * block) % 3; }
// allgatherv: the size of `sender`'s block.
int gather_count(int sender) { return 1 + sender % 3; }

class NeighborCollectives : public ::testing::Test {
 protected:
  void TearDown() override { MPI_Barrier(Comm::world().transport()); }
};

// Blocks in a buffer: the last block first, one unused element before each
// and at the end, so that misplaced or overlong writes show.
struct Placed {
  std::vector<int> counts;
  std::vector<int> displs;
  std::size_t extent = 0;
};

Placed reversed(std::vector<int> counts) {
  Placed placed{std::move(counts), {}, 0};
  placed.displs.resize(placed.counts.size());
  int at = 0;
  for (std::size_t i = placed.counts.size(); i-- > 0;) {
    ++at;
    placed.displs[i] = at;
    at += placed.counts[i];
  }
  placed.extent = static_cast<std::size_t>(at + 1);
  return placed;
}

std::vector<int> counts_of(std::size_t n, auto&& count) {
  std::vector<int> counts(n);
  for (std::size_t i = 0; i < n; ++i) counts[i] = count(i);
  return counts;
}

// `placed` filled with send block b of `rank` at displs[b], sentinels
// elsewhere.
std::vector<int> send_buffer(const Placed& placed, int rank) {
  std::vector<int> buffer(placed.extent, kSentinel);
  for (std::size_t b = 0; b < placed.counts.size(); ++b) {
    for (int e = 0; e < placed.counts[b]; ++e) {
      buffer[static_cast<std::size_t>(placed.displs[b] + e)] =
          value(rank, static_cast<int>(b), e);
    }
  }
  return buffer;
}

// What a receive buffer laid out as `placed` holds afterwards: block i the
// data of origins[i], untouched (sentinels) where nothing arrives.
std::vector<int> expected_buffer(const Placed& placed,
                                 const std::vector<Origin>& origins) {
  std::vector<int> buffer(placed.extent, kSentinel);
  for (std::size_t i = 0; i < origins.size(); ++i) {
    if (origins[i].sender == proc_null) continue;
    for (int e = 0; e < placed.counts[i]; ++e) {
      buffer[static_cast<std::size_t>(placed.displs[i] + e)] =
          value(origins[i].sender, origins[i].block, e);
    }
  }
  return buffer;
}

// In allgather(v) every sender sends one block, its block 0.
std::vector<Origin> gathered(std::vector<Origin> origins) {
  for (Origin& origin : origins) origin.block = 0;
  return origins;
}

std::vector<MPI_Aint> in_bytes(const std::vector<int>& displs) {
  std::vector<MPI_Aint> bytes;
  for (int d : displs) bytes.push_back(static_cast<MPI_Aint>(d) * sizeof(int));
  return bytes;
}

// All five collectives on one topology, with the buffers, counts and
// expected results of the calling process.
class Scenario {
 public:
  Scenario(const WorldTopology& world, int rank)
      : name_(world.name + ", rank " + std::to_string(rank)),
        origins_(testing_neighbor::origins(world, rank)) {
    const std::size_t in = world.sources[static_cast<std::size_t>(rank)].size();
    const std::size_t out =
        world.destinations[static_cast<std::size_t>(rank)].size();
    // alltoall: 2 elements a block; allgather: 3.
    alltoall_send_ = consecutive(out, 2, rank);
    alltoall_recv_.assign(in * 2, kSentinel);
    allgather_send_ = consecutive(1, 3, rank);
    allgather_recv_.assign(in * 3, kSentinel);
    // alltoallv and alltoallw: each block its own size and place.
    v_send_ = reversed(counts_of(out, [&](std::size_t b) {
      return block_count(rank, static_cast<int>(b));
    }));
    v_recv_ = reversed(counts_of(in, [&](std::size_t i) {
      const Origin& o = origins_[i];
      return o.sender == proc_null ? 2 : block_count(o.sender, o.block);
    }));
    alltoallv_send_ = send_buffer(v_send_, rank);
    alltoallv_recv_.assign(v_recv_.extent, kSentinel);
    alltoallw_recv_.assign(v_recv_.extent, kSentinel);
    // allgatherv.
    allgatherv_send_ = consecutive(1, gather_count(rank), rank);
    gv_recv_ = reversed(counts_of(in, [&](std::size_t i) {
      const Origin& o = origins_[i];
      return o.sender == proc_null ? 1 : gather_count(o.sender);
    }));
    allgatherv_recv_.assign(gv_recv_.extent, kSentinel);
  }

  void run_blocking(const Comm& comm) {
    neighbor_alltoall(comm, std::span<const int>(alltoall_send_),
                      std::span(alltoall_recv_));
    neighbor_allgather(comm, std::span<const int>(allgather_send_),
                       std::span(allgather_recv_));
    neighbor_alltoallv(comm, std::span<const int>(alltoallv_send_),
                       v_send_.counts, v_send_.displs,
                       std::span(alltoallv_recv_), v_recv_.counts,
                       v_recv_.displs);
    neighbor_allgatherv(comm, std::span<const int>(allgatherv_send_),
                        std::span(allgatherv_recv_), gv_recv_.counts,
                        gv_recv_.displs);
    const auto [send_types, recv_types] = int_types();
    neighbor_alltoallw(comm, alltoallv_send_.data(), v_send_.counts,
                       in_bytes(v_send_.displs), send_types,
                       alltoallw_recv_.data(), v_recv_.counts,
                       in_bytes(v_recv_.displs), recv_types);
  }

  std::vector<Request> start(const Comm& comm) {
    std::vector<Request> requests;
    requests.push_back(ineighbor_alltoall(
        comm, std::span<const int>(alltoall_send_), std::span(alltoall_recv_)));
    requests.push_back(
        ineighbor_allgather(comm, std::span<const int>(allgather_send_),
                            std::span(allgather_recv_)));
    requests.push_back(ineighbor_alltoallv(
        comm, std::span<const int>(alltoallv_send_), v_send_.counts,
        v_send_.displs, std::span(alltoallv_recv_), v_recv_.counts,
        v_recv_.displs));
    requests.push_back(ineighbor_allgatherv(
        comm, std::span<const int>(allgatherv_send_),
        std::span(allgatherv_recv_), gv_recv_.counts, gv_recv_.displs));
    const auto [send_types, recv_types] = int_types();
    requests.push_back(ineighbor_alltoallw(
        comm, alltoallv_send_.data(), v_send_.counts, in_bytes(v_send_.displs),
        send_types, alltoallw_recv_.data(), v_recv_.counts,
        in_bytes(v_recv_.displs), recv_types));
    return requests;
  }

  // The persistent forms (MPI-4 *_init) on this scenario's buffers.
  std::vector<Request> make_persistent(const Comm& comm) {
    std::vector<Request> requests;
    requests.push_back(neighbor_alltoall_init(
        comm, std::span<const int>(alltoall_send_), std::span(alltoall_recv_)));
    requests.push_back(
        neighbor_allgather_init(comm, std::span<const int>(allgather_send_),
                                std::span(allgather_recv_)));
    requests.push_back(neighbor_alltoallv_init(
        comm, std::span<const int>(alltoallv_send_), v_send_.counts,
        v_send_.displs, std::span(alltoallv_recv_), v_recv_.counts,
        v_recv_.displs));
    requests.push_back(neighbor_allgatherv_init(
        comm, std::span<const int>(allgatherv_send_),
        std::span(allgatherv_recv_), gv_recv_.counts, gv_recv_.displs));
    const auto [send_types, recv_types] = int_types();
    requests.push_back(neighbor_alltoallw_init(
        comm, alltoallv_send_.data(), v_send_.counts, in_bytes(v_send_.displs),
        send_types, alltoallw_recv_.data(), v_recv_.counts,
        in_bytes(v_recv_.displs), recv_types));
    return requests;
  }

  // New contents for the next run, in place (persistent requests keep the
  // buffers they were made with): every sent value grows by `delta`, every
  // receive buffer is reset to sentinels.
  void shift_sends(int delta) {
    for (std::vector<int>* send : {&alltoall_send_, &allgather_send_,
                                   &alltoallv_send_, &allgatherv_send_}) {
      for (int& x : *send) {
        if (x != kSentinel) x += delta;
      }
    }
    for (std::vector<int>* recv :
         {&alltoall_recv_, &allgather_recv_, &alltoallv_recv_, &alltoallw_recv_,
          &allgatherv_recv_}) {
      std::ranges::fill(*recv, kSentinel);
    }
    shift_ += delta;
  }

  void expect_delivered() const {
    SCOPED_TRACE(name_);
    EXPECT_EQ(alltoall_recv_, shifted(expected_consecutive(origins_, 2)));
    EXPECT_EQ(allgather_recv_,
              shifted(expected_consecutive(gathered(origins_), 3)));
    EXPECT_EQ(alltoallv_recv_, shifted(expected_buffer(v_recv_, origins_)));
    EXPECT_EQ(alltoallw_recv_, shifted(expected_buffer(v_recv_, origins_)));
    EXPECT_EQ(allgatherv_recv_,
              shifted(expected_buffer(gv_recv_, gathered(origins_))));
  }

  // The five receive buffers, to compare two runs.
  std::vector<std::vector<int>> received() const {
    return {alltoall_recv_, allgather_recv_, alltoallv_recv_, alltoallw_recv_,
            allgatherv_recv_};
  }

 private:
  // `blocks` blocks of `count` elements one after the other.
  static std::vector<int> consecutive(std::size_t blocks, int count, int rank) {
    std::vector<int> buffer;
    for (std::size_t b = 0; b < blocks; ++b) {
      for (int e = 0; e < count; ++e) {
        buffer.push_back(value(rank, static_cast<int>(b), e));
      }
    }
    return buffer;
  }
  static std::vector<int> expected_consecutive(
      const std::vector<Origin>& origins, int count) {
    std::vector<int> buffer;
    for (const Origin& origin : origins) {
      for (int e = 0; e < count; ++e) {
        buffer.push_back(origin.sender == proc_null
                             ? kSentinel
                             : value(origin.sender, origin.block, e));
      }
    }
    return buffer;
  }
  std::pair<std::vector<MPI_Datatype>, std::vector<MPI_Datatype>> int_types()
      const {
    return {std::vector<MPI_Datatype>(v_send_.counts.size(), MPI_INT),
            std::vector<MPI_Datatype>(v_recv_.counts.size(), MPI_INT)};
  }

  std::vector<int> shifted(std::vector<int> expected) const {
    for (int& x : expected) {
      if (x != kSentinel) x += shift_;
    }
    return expected;
  }

  std::string name_;
  int shift_ = 0;
  std::vector<Origin> origins_;
  std::vector<int> alltoall_send_, alltoall_recv_;
  std::vector<int> allgather_send_, allgather_recv_;
  Placed v_send_, v_recv_, gv_recv_;
  std::vector<int> alltoallv_send_, alltoallv_recv_, alltoallw_recv_;
  std::vector<int> allgatherv_send_, allgatherv_recv_;
};

// Blocking, then non-blocking (all five outstanding at once).
void expect_standard_semantics(const WorldTopology& world) {
  const Comm comm = testing_neighbor::make_comm(world);
  Scenario blocking(world, comm.rank());
  blocking.run_blocking(comm);
  blocking.expect_delivered();
  Scenario nonblocking(world, comm.rank());
  std::vector<Request> requests = nonblocking.start(comm);
  wait_all(requests);
  nonblocking.expect_delivered();
}

// Persistent requests made once and started `starts` times with new
// buffer contents each time equal the blocking forms on the same contents.
void expect_persistent_equals_blocking(const WorldTopology& world, int starts) {
  const Comm comm = testing_neighbor::make_comm(world);
  Scenario persistent(world, comm.rank());
  Scenario blocking(world, comm.rank());
  std::vector<Request> requests = persistent.make_persistent(comm);
  for (const Request& request : requests) EXPECT_TRUE(request.is_inactive());
  for (int run = 0; run < starts; ++run) {
    persistent.shift_sends(run == 0 ? 0 : 7);
    blocking.shift_sends(run == 0 ? 0 : 7);
    start_all(requests);
    blocking.run_blocking(comm);
    wait_all(requests);
    for (const Request& request : requests) {
      ASSERT_TRUE(request.is_inactive());
    }
    ASSERT_EQ(persistent.received(), blocking.received()) << "start " << run;
    persistent.expect_delivered();
  }
}

int world_size() { return Comm::world().size(); }

constexpr Mode kModes[] = {Mode::blocking, Mode::nonblocking, Mode::persistent};
const char* mode_name(Mode mode) {
  switch (mode) {
    case Mode::blocking:
      return "blocking";
    case Mode::nonblocking:
      return "non-blocking";
    case Mode::persistent:
      break;
  }
  return "persistent";
}

// neighbor_alltoall in `mode`; a persistent request is started twice.
void run_alltoall(const Comm& comm, const std::vector<int>& send,
                  std::vector<int>& recv, Mode mode) {
  const std::span<const int> out(send);
  switch (mode) {
    case Mode::blocking:
      neighbor_alltoall(comm, out, std::span(recv));
      return;
    case Mode::nonblocking: {
      Request request = ineighbor_alltoall(comm, out, std::span(recv));
      wait(request);
      return;
    }
    case Mode::persistent: {
      Request request = neighbor_alltoall_init(comm, out, std::span(recv));
      for (int run = 0; run < 2; ++run) {
        start(request);
        wait(request);
      }
      return;
    }
  }
}
int world_rank() { return Comm::world().rank(); }

// ---- Cartesian
// ----------------------------------------------------------------

TEST_F(NeighborCollectives, CartesianGridsOfEveryShapeAndPeriodicity) {
  for (const std::vector<int>& dims :
       testing_neighbor::all_grids(world_size(), 3)) {
    for (unsigned bits = 0; bits < (1u << dims.size()); ++bits) {
      expect_standard_semantics(testing_neighbor::cartesian(
          dims, testing_neighbor::periods_of(bits, dims.size())));
    }
  }
}

TEST_F(NeighborCollectives, PersistentFormsEqualBlockingOverAHundredStarts) {
  const int n = world_size();
  expect_persistent_equals_blocking(testing_neighbor::cartesian({n}, {true}),
                                    100);
  expect_persistent_equals_blocking(
      testing_neighbor::cartesian({n, 1}, {false, true}), 20);
  if (n % 2 == 0) {
    expect_persistent_equals_blocking(
        testing_neighbor::cartesian({2, n / 2}, {true, true}), 20);
  }
  testing_neighbor::Random random(17);
  expect_persistent_equals_blocking(
      testing_neighbor::random_dist_graph(random, n), 20);
}

// MPI-4.1: in a periodic dimension of size 1 a process is both its
// neighbours; what it sends toward -1 arrives from +1 and vice versa.
TEST_F(NeighborCollectives, PeriodicDimensionOfSizeOneSwapsTheBlocks) {
  const Comm comm = testing_neighbor::make_comm(
      testing_neighbor::cartesian({world_size(), 1, 1}, {false, true, false}));
  const int me = comm.rank();
  const std::vector<int> send = {value(me, 0, 0), value(me, 1, 0),
                                 value(me, 2, 0), value(me, 3, 0),
                                 value(me, 4, 0), value(me, 5, 0)};
  for (const Mode mode : kModes) {
    SCOPED_TRACE(mode_name(mode));
    std::vector<int> recv(6, kSentinel);
    run_alltoall(comm, send, recv, mode);
    // Dimension 1 (periodic, size 1): block 2 came back as block 3 and 3
    // as 2. Dimension 2 (non-periodic, size 1): no neighbours.
    EXPECT_EQ(recv[2], value(me, 3, 0));
    EXPECT_EQ(recv[3], value(me, 2, 0));
    EXPECT_EQ(recv[4], kSentinel);
    EXPECT_EQ(recv[5], kSentinel);
  }
}

// MPI-4.1: in a periodic dimension of size 2 both neighbours are the other
// process; block 0 holds what it sent toward +1 (its block 1).
TEST_F(NeighborCollectives, PeriodicDimensionOfSizeTwoPairsByDirection) {
  if (world_size() % 2 != 0) GTEST_SKIP() << "needs an even world";
  const int half = world_size() / 2;
  const Comm comm = testing_neighbor::make_comm(
      testing_neighbor::cartesian({2, half}, {true, false}));
  const int me = comm.rank();
  const int other = (me + half) % world_size();
  const std::vector<int> send = {value(me, 0, 0), value(me, 1, 0),
                                 value(me, 2, 0), value(me, 3, 0)};
  for (const Mode mode : kModes) {
    SCOPED_TRACE(mode_name(mode));
    std::vector<int> recv(4, kSentinel);
    run_alltoall(comm, send, recv, mode);
    EXPECT_EQ(recv[0], value(other, 1, 0));
    EXPECT_EQ(recv[1], value(other, 0, 0));
  }
}

TEST_F(NeighborCollectives, NonPeriodicBordersLeaveTheirBlocksUntouched) {
  const Comm comm = testing_neighbor::make_comm(
      testing_neighbor::cartesian({world_size()}, {false}));
  const int me = comm.rank();
  const std::vector<int> send = {value(me, 0, 0), value(me, 1, 0)};
  std::vector<int> recv(2, kSentinel);
  neighbor_alltoall(comm, std::span(send), std::span(recv));
  EXPECT_EQ(recv[0], me == 0 ? kSentinel : value(me - 1, 1, 0));
  EXPECT_EQ(recv[1], me == world_size() - 1 ? kSentinel : value(me + 1, 0, 0));
}

// ---- graphs
// -------------------------------------------------------------------

TEST_F(NeighborCollectives, GraphsWithRepeatedEdgesAndSelfLoops) {
  const int n = world_size();
  // A ring with every edge doubled and two self-loops per node.
  std::vector<std::vector<int>> ring(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    const int right = (r + 1) % n;
    const int left = (r + n - 1) % n;
    ring[static_cast<std::size_t>(r)] = {r, right, left, right, left, r};
  }
  expect_standard_semantics(testing_neighbor::graph(ring, "doubled ring"));
  Random random(0x6a7u);
  for (int i = 0; i < 6; ++i) {
    expect_standard_semantics(testing_neighbor::random_graph(random, n));
  }
}

// ---- distributed graphs
// -------------------------------------------------------

TEST_F(NeighborCollectives, DistributedGraphs) {
  const int n = world_size();
  // A star out of rank 0 (rank 0 receives nothing) and no edges at all.
  std::vector<std::vector<int>> to(static_cast<std::size_t>(n));
  std::vector<std::vector<int>> from(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    to[0].push_back(r);
    from[static_cast<std::size_t>(r)].push_back(0);
  }
  expect_standard_semantics(testing_neighbor::dist_graph(from, to, "star"));
  const std::vector<std::vector<int>> none(static_cast<std::size_t>(n));
  expect_standard_semantics(
      testing_neighbor::dist_graph(none, none, "no edges"));
  Random random(0xd157u);
  for (int i = 0; i < 6; ++i) {
    expect_standard_semantics(testing_neighbor::random_dist_graph(random, n));
  }
}

// ---- non-blocking
// -------------------------------------------------------------

template <typename... Groups>
std::vector<Request> concatenated(Groups... groups) {
  std::vector<Request> all;
  for (std::vector<Request>* group : {&groups...}) {
    for (Request& request : *group) all.push_back(std::move(request));
  }
  return all;
}

// Three batches of five operations on two communicators, all outstanding
// (and a blocking batch run meanwhile), completed one by one in whatever
// order they finish.
TEST_F(NeighborCollectives, SeveralOutstandingOperationsCompleteInAnyOrder) {
  const int n = world_size();
  const WorldTopology ring = testing_neighbor::cartesian({n, 1}, {true, true});
  Random random(0x0a7u);
  const WorldTopology graph = testing_neighbor::random_dist_graph(random, n);
  const Comm ring_comm = testing_neighbor::make_comm(ring);
  const Comm graph_comm = testing_neighbor::make_comm(graph);
  const int me = ring_comm.rank();
  Scenario first(ring, me), second(graph, me), third(ring, me);
  std::vector<Request> requests = concatenated(
      first.start(ring_comm), second.start(graph_comm), third.start(ring_comm));
  // A blocking one on the same communicator meanwhile.
  Scenario fourth(ring, me);
  fourth.run_blocking(ring_comm);
  fourth.expect_delivered();
  std::vector<int> completions(requests.size(), 0);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const Completion done = wait_any(requests);
    ASSERT_NE(done.index, undefined);
    ++completions[static_cast<std::size_t>(done.index)];
    EXPECT_EQ(done.status, Status{});
  }
  EXPECT_EQ(wait_any(requests).index, undefined);
  EXPECT_EQ(completions, std::vector<int>(requests.size(), 1));
  first.expect_delivered();
  second.expect_delivered();
  third.expect_delivered();
}

TEST_F(NeighborCollectives, TestAnyAndTestDriveOperationsToCompletion) {
  const WorldTopology ring =
      testing_neighbor::cartesian({world_size()}, {true});
  const Comm comm = testing_neighbor::make_comm(ring);
  Scenario first(ring, comm.rank()), second(ring, comm.rank());
  std::vector<Request> requests =
      concatenated(first.start(comm), second.start(comm));
  std::size_t completed = 0;
  while (completed < requests.size()) {
    if (const std::optional<Completion> done = test_any(requests)) {
      ASSERT_NE(done->index, undefined);
      EXPECT_TRUE(requests[static_cast<std::size_t>(done->index)].is_null());
      ++completed;
    }
  }
  first.expect_delivered();
  second.expect_delivered();
  Scenario third(ring, comm.rank());
  std::vector<Request> more = third.start(comm);
  for (Request& request : more) {
    while (!test(request)) {
    }
    EXPECT_TRUE(request.is_null());
  }
  third.expect_delivered();
}

// MPI: a collective request is a real request even with nothing to move.
TEST_F(NeighborCollectives, OperationWithoutNeighboursIsPendingUntilCompleted) {
  const std::vector<std::vector<int>> none(
      static_cast<std::size_t>(world_size()));
  const Comm comm = testing_neighbor::make_comm(
      testing_neighbor::dist_graph(none, none, "no edges"));
  std::vector<int> empty;
  std::vector<Request> requests;
  requests.push_back(Request());
  requests.push_back(
      ineighbor_alltoall(comm, std::span<const int>(empty), std::span(empty)));
  EXPECT_FALSE(requests[1].is_null());
  const Completion done = wait_any(requests);
  EXPECT_EQ(done.index, 1);
  EXPECT_TRUE(requests[1].is_null());
}

// Collective and point-to-point requests in one wait_all / test_all: each
// gets its own status (the empty one for a collective); a moved collective
// request carries its operation.
TEST_F(NeighborCollectives, CompletionFunctionsMixCollectiveAndPointToPoint) {
  const WorldTopology ring =
      testing_neighbor::cartesian({world_size()}, {true});
  const Comm comm = testing_neighbor::make_comm(ring);
  const int me = comm.rank();
  Scenario first(ring, me), second(ring, me);
  std::vector<Request> started = first.start(comm);
  int received = kSentinel;
  const int mine = 77 + me;
  std::vector<Request> requests;
  requests.push_back(irecv(comm, std::span(&received, 1), me, 3));
  Request moved = std::move(started[0]);
  EXPECT_TRUE(started[0].is_null());
  requests.push_back(std::move(moved));
  for (std::size_t i = 1; i < started.size(); ++i) {
    requests.push_back(std::move(started[i]));
  }
  requests.push_back(isend(comm, std::span(&mine, 1), me, 3));
  const std::vector<Status> statuses = wait_all(requests);
  EXPECT_EQ(statuses[0].source, me);
  EXPECT_EQ(statuses[0].tag, 3);
  for (std::size_t i = 1; i + 1 < statuses.size(); ++i) {
    EXPECT_EQ(statuses[i], Status{});
  }
  EXPECT_EQ(received, mine);
  first.expect_delivered();
  std::vector<Request> more = second.start(comm);
  while (!test_all(more)) {
  }
  EXPECT_TRUE(std::all_of(more.begin(), more.end(),
                          [](const Request& r) { return r.is_null(); }));
  second.expect_delivered();
}

// The pending operation holds its communicator: dropping the last handle
// defers the free until the operation has completed.
TEST_F(NeighborCollectives, PendingOperationKeepsItsCommunicatorAlive) {
  const WorldTopology ring =
      testing_neighbor::cartesian({world_size()}, {true});
  Scenario scenario(ring, world_rank());
  std::vector<Request> requests;
  {
    const Comm comm = testing_neighbor::make_comm(ring);
    requests = scenario.start(comm);
  }
  wait_all(requests);
  scenario.expect_delivered();
}

// A topology cached without the constructors' private context gets one on
// its first neighbourhood collective (all its processes are in that call).
TEST_F(NeighborCollectives, TopologyWithoutPrivateContextGetsOne) {
  const WorldTopology ring =
      testing_neighbor::cartesian({world_size()}, {true});
  const Comm comm = Comm::world().dup();
  internal::attach_topology(comm,
                            internal::CartTopology{{world_size()}, {true}});
  Scenario scenario(ring, comm.rank());
  scenario.run_blocking(comm);
  scenario.expect_delivered();
}

// A receive the application has posted on the topology communicator, any
// source and any tag, sees none of the neighbourhood traffic.
TEST_F(NeighborCollectives, WildcardApplicationReceiveTakesNoNeighbourTraffic) {
  const WorldTopology ring =
      testing_neighbor::cartesian({world_size()}, {true});
  const Comm comm = testing_neighbor::make_comm(ring);
  int received = kSentinel;
  Request wildcard = irecv(comm, std::span(&received, 1), any_source, any_tag);
  Scenario blocking(ring, comm.rank());
  blocking.run_blocking(comm);
  Scenario nonblocking(ring, comm.rank());
  std::vector<Request> requests = nonblocking.start(comm);
  wait_all(requests);
  blocking.expect_delivered();
  nonblocking.expect_delivered();
  MPI_Barrier(comm.transport());
  EXPECT_FALSE(test(wildcard).has_value());
  EXPECT_EQ(received, kSentinel);
  const int mine = 4242 + comm.rank();
  send(comm, std::span(&mine, 1), comm.rank(), 5);
  const Status status = wait(wildcard);
  EXPECT_EQ(received, mine);
  EXPECT_EQ(status.source, comm.rank());
  EXPECT_EQ(status.tag, 5);
}

// Rank 0 gives up an operation before anyone else has started it: it does
// not wait for them, its receive buffer is not written afterwards, the
// others' operation still completes (rank 0's sends were let go of, not
// withdrawn; its peers' blocks, too large to travel eagerly, are taken by
// classic in its place), and the next operation pairs correctly everywhere.
TEST_F(NeighborCollectives, DestroyingAPendingOperationLeavesLaterOnesIntact) {
  if (world_size() < 2) GTEST_SKIP() << "needs a peer";
  constexpr int kBlock = 1 << 15;  // 128 KiB: past any eager limit
  const WorldTopology ring =
      testing_neighbor::cartesian({world_size()}, {true});
  const Comm comm = testing_neighbor::make_comm(ring);
  const int me = comm.rank();
  std::vector<int> send(2 * kBlock);
  for (int b = 0; b < 2; ++b) {
    std::fill_n(send.begin() + b * kBlock, kBlock, value(me, b, 0));
  }
  std::vector<int> abandoned(2 * kBlock, kSentinel);
  if (me == 0) {
    Request request = ineighbor_alltoall(comm, std::span<const int>(send),
                                         std::span(abandoned));
  }  // destroyed pending: no peer has sent yet
  MPI_Barrier(comm.transport());
  if (me != 0) {
    std::vector<int> recv(2 * kBlock, kSentinel);
    neighbor_alltoall(comm, std::span<const int>(send), std::span(recv));
    const std::vector<Origin> origins = testing_neighbor::origins(ring, me);
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(recv[i * kBlock],
                value(origins[i].sender, origins[i].block, 0));
      EXPECT_EQ(recv[(i + 1) * kBlock - 1],
                value(origins[i].sender, origins[i].block, 0));
    }
  }
  MPI_Barrier(comm.transport());
  Scenario next(ring, me);
  next.run_blocking(comm);
  next.expect_delivered();
  EXPECT_TRUE(std::all_of(abandoned.begin(), abandoned.end(),
                          [](int x) { return x == kSentinel; }));
}

// A user's sequence, step by step: a withdrawn receive
// meets a longer (erroneous) block from its peer, the communicator goes,
// the same grid is made again, and the next collective must work. Then the
// same with the old communicator kept.
TEST_F(NeighborCollectives, OversizedBlockForAWithdrawnReceiveIsHarmless) {
  if (world_size() < 2) GTEST_SKIP() << "needs a peer";
  const Comm world = Comm::world();
  const std::vector<int> dims = {2};
  const std::vector<bool> periods = {false};
  for (const bool keep_first : {false, true}) {
    SCOPED_TRACE(keep_first ? "first communicator kept" : "freed and remade");
    Comm grid = cart_create(world, dims, periods, Reorder::no);
    const int me = world.rank();
    const std::vector<int> ones = {1, 1};
    const std::vector<int> fours = {4, 1};
    const std::vector<int> at_0_4 = {0, 4};
    std::vector<int> send(8, 100 + me);
    std::vector<int> recv(8, kSentinel);
    if (me == 0) {
      Request abandoned =
          ineighbor_alltoallv(grid, std::span<const int>(send), ones, at_0_4,
                              std::span(recv), ones, at_0_4);
    }  // destroyed at once
    MPI_Barrier(world.transport());
    if (me == 1) {
      // 4 ints to rank 0, which expected 1: erroneous, and withdrawn.
      neighbor_alltoallv(grid, std::span<const int>(send), fours, at_0_4,
                         std::span(recv), ones, at_0_4);
      EXPECT_EQ(recv[0], 100);  // rank 0's block still arrived
    }
    MPI_Barrier(world.transport());
    Comm kept;
    if (keep_first) {
      kept = grid;
    }
    grid = Comm();
    grid = cart_create(world, dims, periods, Reorder::no);
    if (!grid.is_null()) {
      const std::vector<int> mine = {10 * me + 1};
      std::vector<int> gathered(2, kSentinel);
      neighbor_allgather(grid, std::span<const int>(mine), std::span(gathered));
      const int other = 1 - me;
      EXPECT_EQ(gathered[static_cast<std::size_t>(me == 0 ? 1 : 0)],
                10 * other + 1);
      EXPECT_EQ(gathered[static_cast<std::size_t>(me == 0 ? 0 : 1)],
                kSentinel);  // off the non-periodic border
    }
    if (!kept.is_null()) {
      const std::vector<int> mine = {20 + me};
      std::vector<int> gathered(2, kSentinel);
      neighbor_allgather(kept, std::span<const int>(mine), std::span(gathered));
      EXPECT_EQ(gathered[static_cast<std::size_t>(me == 0 ? 1 : 0)],
                20 + (1 - me));
    }
    MPI_Barrier(world.transport());
  }
}

TEST_F(NeighborCollectives, CollectiveRequestCannotBeCancelled) {
  const Comm comm = testing_neighbor::make_comm(
      testing_neighbor::cartesian({world_size()}, {true}));
  const std::vector<int> send(2, 1);
  std::vector<int> recv(2);
  Request request = ineighbor_alltoall(comm, std::span(send), std::span(recv));
  expect_error_class([&] { request.cancel(); }, ErrorClass::request);
  wait(request);
}

// ---- errors
// -------------------------------------------------------------------

Comm ring_comm() {
  return testing_neighbor::make_comm(
      testing_neighbor::cartesian({world_size()}, {true}));
}

TEST_F(NeighborCollectives, NullCommIsRejected) {
  const std::vector<int> send(2);
  std::vector<int> recv(2);
  expect_error_class(
      [&] { neighbor_alltoall(Comm(), std::span(send), std::span(recv)); },
      ErrorClass::comm);
}

TEST_F(NeighborCollectives, FreedCommIsRejected) {
  Comm comm = ring_comm();
  const Comm copy = comm;
  comm.free();
  const std::vector<int> send(2);
  std::vector<int> recv(2);
  expect_error_class(
      [&] { neighbor_alltoall(copy, std::span(send), std::span(recv)); },
      ErrorClass::comm);
}

TEST_F(NeighborCollectives, CommWithoutTopologyIsRejected) {
  const std::vector<int> send(2);
  std::vector<int> recv(2);
  expect_error_class(
      [&] {
        neighbor_allgather(Comm::world(), std::span(send), std::span(recv));
      },
      ErrorClass::topology);
}

// An inter-communicator as classic represents one (a remote group) with a
// topology attached: rejected for being an inter-communicator. (Made by
// hand: this test must not depend on the inter-communicator constructors.)
TEST_F(NeighborCollectives, InterCommunicatorIsRejected) {
  MPI_Comm context = MPI_COMM_NULL;
  MPI_Comm_dup(Comm::world().transport(), &context);
  auto state = std::make_shared<Comm::State>(context, Comm::world().group());
  state->remote = Group::self();
  // The handle must own the state alone, so that it frees the attribute.
  const Comm inter = internal::CommAccess::make(std::move(state));
  internal::attach_topology(inter, internal::CartTopology{{1}, {true}});
  const std::vector<int> send(2);
  std::vector<int> recv(2);
  expect_error_class(
      [&] { neighbor_alltoall(inter, std::span(send), std::span(recv)); },
      ErrorClass::comm);
}

// Rank 0 lists rank 1, which does not list it back.
TEST_F(NeighborCollectives, NonSymmetricGraphIsRejected) {
  if (world_size() < 2) GTEST_SKIP() << "a one-node graph is symmetric";
  std::vector<std::vector<int>> lists(static_cast<std::size_t>(world_size()));
  lists[0] = {1};
  const Comm comm =
      testing_neighbor::make_comm(testing_neighbor::graph(lists, "one way"));
  const std::vector<int> send(1);
  std::vector<int> recv(1);
  if (comm.rank() == 0) {
    expect_error_class(
        [&] { neighbor_alltoall(comm, std::span(send), std::span(recv)); },
        ErrorClass::topology);
  }
}

TEST_F(NeighborCollectives, CountsArrayOfTheWrongLengthIsRejected) {
  const Comm comm = ring_comm();
  const std::vector<int> send(1);
  std::vector<int> recv(4);
  const std::vector<int> three = {1, 1, 1};  // the ring has 2 sources
  const std::vector<int> displs = {0, 1, 2};
  expect_error_class(
      [&] {
        neighbor_allgatherv(comm, std::span(send), std::span(recv), three,
                            displs);
      },
      ErrorClass::count);
}

TEST_F(NeighborCollectives, NegativeCountIsRejected) {
  const Comm comm = ring_comm();
  std::vector<int> buffer(4);
  expect_error_class(
      [&] {
        neighbor_alltoall(comm, buffer.data(), -1, MPI_INT, buffer.data(), 1,
                          MPI_INT);
      },
      ErrorClass::count);
}

TEST_F(NeighborCollectives, ReceiveSpanTooSmallIsRejected) {
  const Comm comm = ring_comm();
  const std::vector<int> send(3);
  std::vector<int> recv(5);  // 2 sources need 6
  expect_error_class(
      [&] { neighbor_allgather(comm, std::span(send), std::span(recv)); },
      ErrorClass::buffer);
}

TEST_F(NeighborCollectives, OverlappingReceiveBlocksAreRejected) {
  const Comm comm = ring_comm();
  const std::vector<int> send(4);
  std::vector<int> recv(4);
  const std::vector<int> counts = {2, 2};
  const std::vector<int> sdispls = {0, 2};
  const std::vector<int> rdispls = {0, 1};
  expect_error_class(
      [&] {
        neighbor_alltoallv(comm, std::span(send), counts, sdispls,
                           std::span(recv), counts, rdispls);
      },
      ErrorClass::buffer);
}

TEST_F(NeighborCollectives, SendSpanWithoutWholeBlocksIsRejected) {
  const Comm comm = ring_comm();
  const std::vector<int> send(3);  // 2 destinations
  std::vector<int> recv(4);
  expect_error_class(
      [&] { neighbor_alltoall(comm, std::span(send), std::span(recv)); },
      ErrorClass::buffer);
}

TEST_F(NeighborCollectives, AliasedSendAndReceiveSpansAreRejected) {
  const Comm comm = ring_comm();
  std::vector<int> buffer(4);
  expect_error_class(
      [&] {
        neighbor_alltoall(comm, std::span<const int>(buffer),
                          std::span(buffer));
      },
      ErrorClass::buffer);
}

TEST_F(NeighborCollectives, InPlaceIsRejected) {
  const Comm comm = ring_comm();
  std::vector<int> recv(2);
  expect_error_class(
      [&] {
        neighbor_allgather(comm, MPI_IN_PLACE, 1, MPI_INT, recv.data(), 1,
                           MPI_INT);
      },
      ErrorClass::buffer);
}

TEST_F(NeighborCollectives, NullDatatypeIsRejected) {
  const Comm comm = ring_comm();
  std::vector<int> send(2), recv(2);
  expect_error_class(
      [&] {
        Request request = ineighbor_alltoall(comm, send.data(), 1, MPI_INT,
                                             recv.data(), 1, MPI_DATATYPE_NULL);
      },
      ErrorClass::datatype);
}

TEST_F(NeighborCollectives, NullDatatypeInAlltoallwIsRejected) {
  const Comm comm = ring_comm();
  std::vector<int> send(2), recv(2);
  const std::vector<int> counts = {1, 1};
  const std::vector<MPI_Aint> displs = {0, sizeof(int)};
  const std::vector<MPI_Datatype> good = {MPI_INT, MPI_INT};
  const std::vector<MPI_Datatype> bad = {MPI_INT, MPI_DATATYPE_NULL};
  expect_error_class(
      [&] {
        neighbor_alltoallw(comm, send.data(), counts, displs, good, recv.data(),
                           counts, displs, bad);
      },
      ErrorClass::datatype);
}

}  // namespace
}  // namespace classic
