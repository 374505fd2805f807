// Every input that classic's collectives reject, one test each, checking the
// error class (and that the message names the function and the argument).
// Rejected calls communicate nothing, so every process either raises the
// same error or, where only a root checks an argument, the call is made on
// Comm::self(), where every process is the root.
#include <gtest/gtest.h>
#include <mpi.h>

#include <complex>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/groups/group.h"
#include "tests/classic/testing/testing.h"
#include "tests/testing/errors.h"

namespace classic {
namespace {

using testing::in;
using testing::out;

using orthocomm_test::expect_error_from;

std::size_t at(int index) { return static_cast<std::size_t>(index); }
int size() { return Comm::world().size(); }
int rank() { return Comm::world().rank(); }

// A handle of a communicator that another handle has freed.
Comm freed_comm() {
  Comm comm = Comm::world().dup();
  Comm other_handle = comm;
  comm.free();
  return other_handle;
}

// Until classic has inter-communicator constructors: a communicator whose
// state says it has a remote group (its own process), on a private context.
Comm inter_comm() {
  MPI_Comm context = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_SELF, &context);
  auto state = std::make_shared<Comm::State>(context, Group::self());
  state->remote = Group::self();
  return internal::CommAccess::make(state);
}

// ---- comm -----------------------------------------------------------------

TEST(CollectivesErrors, NullCommRaisesComm) {
  expect_error_from([] { barrier(Comm()); }, ErrorClass::comm,
                    "classic::barrier", "null");
}

TEST(CollectivesErrors, FreedCommRaisesComm) {
  const Comm freed = freed_comm();
  std::vector<int> buffer(1);
  expect_error_from([&] { bcast(freed, out(buffer), 0); }, ErrorClass::comm,
                    "classic::bcast", "freed");
}

// MPI-2 defines no scan or exscan on inter-communicators.
TEST(CollectivesErrors, ScanOnAnInterCommRaisesCommNeedingAnIntraCommunicator) {
  const Comm inter = inter_comm();
  std::vector<int> send(1), recv(1);
  expect_error_from([&] { scan(inter, in(send), out(recv), MPI_SUM); },
                    ErrorClass::comm, "classic::scan",
                    "needs an intra-communicator");
  expect_error_from([&] { exscan(inter, in(send), out(recv), MPI_SUM); },
                    ErrorClass::comm, "classic::exscan",
                    "needs an intra-communicator");
}

// ---- root -----------------------------------------------------------------

TEST(CollectivesErrors, NegativeRootRaisesRoot) {
  std::vector<int> buffer(1);
  expect_error_from([&] { bcast(Comm::world(), out(buffer), -1); },
                    ErrorClass::root, "classic::bcast", "root = -1");
}

TEST(CollectivesErrors, RootEqualToSizeRaisesRoot) {
  std::vector<int> send(1), recv(at(size()));
  expect_error_from([&] { gather(Comm::world(), in(send), out(recv), size()); },
                    ErrorClass::root, "classic::gather",
                    "root = " + std::to_string(size()));
}

TEST(CollectivesErrors, RawReduceRootOutOfRangeRaisesRoot) {
  int value = 0;
  expect_error_from(
      [&] {
        reduce(Comm::world(), &value, &value, 1, MPI_INT, MPI_SUM, size() + 3);
      },
      ErrorClass::root, "classic::reduce", "root");
}

// ---- count ----------------------------------------------------------------

TEST(CollectivesErrors, NegativeRawCountRaisesCount) {
  int value = 0;
  expect_error_from([&] { bcast(Comm::world(), &value, -1, MPI_INT, 0); },
                    ErrorClass::count, "classic::bcast", "count = -1");
}

TEST(CollectivesErrors, NegativeRecvCountAtTheRootRaisesCount) {
  int send = 0, recv = 0;
  expect_error_from(
      [&] { gather(Comm::self(), &send, 1, MPI_INT, &recv, -2, MPI_INT, 0); },
      ErrorClass::count, "classic::gather", "recv count = -2");
}

TEST(CollectivesErrors, GathervRecvcountsOfTheWrongLengthRaiseCount) {
  std::vector<int> send(1), recv(4);
  const std::vector<int> counts = {1, 0};  // self has one process
  const std::vector<int> displs = {0};
  expect_error_from(
      [&] { gatherv(Comm::self(), in(send), out(recv), counts, displs, 0); },
      ErrorClass::count, "classic::gatherv", "recvcounts has 2 entries");
}

TEST(CollectivesErrors, ScattervDisplsOfTheWrongLengthRaiseCount) {
  std::vector<int> send(4), recv(1);
  const std::vector<int> counts = {1};
  const std::vector<int> displs;
  expect_error_from(
      [&] { scatterv(Comm::self(), in(send), counts, displs, out(recv), 0); },
      ErrorClass::count, "classic::scatterv", "displs has 0 entries");
}

TEST(CollectivesErrors, AllgathervNegativeCountEntryRaisesCount) {
  std::vector<int> recv(at(size()));
  std::vector<int> counts(at(size()), 1);
  std::vector<int> displs(at(size()), 0);
  counts.back() = -1;
  expect_error_from(
      [&] { allgatherv(Comm::world(), in_place, out(recv), counts, displs); },
      ErrorClass::count, "classic::allgatherv",
      "recvcounts[" + std::to_string(size() - 1) + "] = -1");
}

TEST(CollectivesErrors, AlltoallvSdisplsOfTheWrongLengthRaiseCount) {
  std::vector<int> send(at(size())), recv(at(size()));
  const std::vector<int> counts(at(size()), 1);
  std::vector<int> displs(at(size()));
  for (int i = 0; i < size(); ++i) displs[at(i)] = i;
  const std::vector<int> short_displs(at(size() - 1), 0);
  expect_error_from(
      [&] {
        alltoallv(Comm::world(), in(send), counts, short_displs, out(recv),
                  counts, displs);
      },
      ErrorClass::count, "classic::alltoallv", "sdispls");
}

TEST(CollectivesErrors, AlltoallwRecvTypesOfTheWrongLengthRaiseCount) {
  std::vector<int> send(at(size())), recv(at(size()));
  const std::vector<int> counts(at(size()), 1);
  std::vector<int> bytes(at(size()));
  for (int i = 0; i < size(); ++i) {
    bytes[at(i)] = i * static_cast<int>(sizeof(int));
  }
  const std::vector<MPI_Datatype> types(at(size()), MPI_INT);
  const std::vector<MPI_Datatype> too_many(at(size() + 1), MPI_INT);
  expect_error_from(
      [&] {
        alltoallw(Comm::world(), send.data(), counts, bytes, types, recv.data(),
                  counts, bytes, too_many);
      },
      ErrorClass::count, "classic::alltoallw", "recv_types");
}

TEST(CollectivesErrors, ReduceScatterRecvcountsOfTheWrongLengthRaiseCount) {
  std::vector<int> send(at(size() + 1)), recv(1);
  const std::vector<int> counts(at(size() + 1), 1);
  expect_error_from(
      [&] {
        reduce_scatter(Comm::world(), in(send), out(recv), counts, MPI_SUM);
      },
      ErrorClass::count, "classic::reduce_scatter", "recvcounts");
}

TEST(CollectivesErrors, GathervOwnCountDifferentFromSendRaisesCount) {
  std::vector<int> send(2), recv(4);
  const std::vector<int> counts = {3};
  const std::vector<int> displs = {0};
  expect_error_from(
      [&] { gatherv(Comm::self(), in(send), out(recv), counts, displs, 0); },
      ErrorClass::count, "classic::gatherv", "recvcounts[0] = 3");
}

TEST(CollectivesErrors, ScattervOwnCountDifferentFromRecvRaisesCount) {
  std::vector<int> send(4), recv(1);
  const std::vector<int> counts = {2};
  const std::vector<int> displs = {0};
  expect_error_from(
      [&] { scatterv(Comm::self(), in(send), counts, displs, out(recv), 0); },
      ErrorClass::count, "classic::scatterv", "sendcounts[0] = 2");
}

// ---- buffer ---------------------------------------------------------------

TEST(CollectivesErrors, GatherRecvTooSmallAtTheRootRaisesBuffer) {
  std::vector<int> send(3), recv(2);
  expect_error_from([&] { gather(Comm::self(), in(send), out(recv), 0); },
                    ErrorClass::buffer, "classic::gather", "recv.size() = 2");
}

TEST(CollectivesErrors, ScatterSendTooSmallAtTheRootRaisesBuffer) {
  std::vector<int> send(1), recv(2);
  expect_error_from([&] { scatter(Comm::self(), in(send), out(recv), 0); },
                    ErrorClass::buffer, "classic::scatter", "send.size() = 1");
}

TEST(CollectivesErrors, AllgatherRecvTooSmallRaisesBuffer) {
  std::vector<int> send(2), recv(at(2 * size() - 1));
  expect_error_from([&] { allgather(Comm::world(), in(send), out(recv)); },
                    ErrorClass::buffer, "classic::allgather", "recv.size()");
}

TEST(CollectivesErrors, AllreduceRecvTooSmallRaisesBuffer) {
  std::vector<double> send(3), recv(2);
  expect_error_from(
      [&] { allreduce(Comm::world(), in(send), out(recv), MPI_SUM); },
      ErrorClass::buffer, "classic::allreduce", "recv.size() = 2");
}

TEST(CollectivesErrors, ScanRecvTooSmallRaisesBuffer) {
  std::vector<int> send(1), recv;
  expect_error_from([&] { scan(Comm::world(), in(send), out(recv), MPI_SUM); },
                    ErrorClass::buffer, "classic::scan", "recv.size() = 0");
}

TEST(CollectivesErrors, ReduceScatterSendShorterThanTheCountsRaisesBuffer) {
  std::vector<int> send(at(size() - 1)), recv(1);
  const std::vector<int> counts(at(size()), 1);
  expect_error_from(
      [&] {
        reduce_scatter(Comm::world(), in(send), out(recv), counts, MPI_SUM);
      },
      ErrorClass::buffer, "classic::reduce_scatter", "send.size()");
}

TEST(CollectivesErrors, GathervBlockPastTheEndRaisesBuffer) {
  std::vector<int> send(2), recv(4);
  const std::vector<int> counts = {2};
  const std::vector<int> displs = {3};
  expect_error_from(
      [&] { gatherv(Comm::self(), in(send), out(recv), counts, displs, 0); },
      ErrorClass::buffer, "classic::gatherv", "block 0 [3, 5)");
}

TEST(CollectivesErrors, ScattervBlockBeforeTheStartRaisesBuffer) {
  std::vector<int> send(4), recv(1);
  const std::vector<int> counts = {1};
  const std::vector<int> displs = {-1};
  expect_error_from(
      [&] { scatterv(Comm::self(), in(send), counts, displs, out(recv), 0); },
      ErrorClass::buffer, "classic::scatterv", "block 0 [-1, 0)");
}

TEST(CollectivesErrors, AlltoallvOverlappingRecvBlocksRaiseBuffer) {
  if (size() < 2) GTEST_SKIP() << "two blocks need two processes";
  std::vector<int> send(at(size())), recv(at(size()));
  const std::vector<int> counts(at(size()), 1);
  std::vector<int> displs(at(size()));
  for (int i = 0; i < size(); ++i) displs[at(i)] = i;
  const std::vector<int> overlapping(at(size()), 0);
  expect_error_from(
      [&] {
        alltoallv(Comm::world(), in(send), counts, displs, out(recv), counts,
                  overlapping);
      },
      ErrorClass::buffer, "classic::alltoallv", "overlap");
}

TEST(CollectivesErrors, AlltoallSendNotAMultipleOfSizeRaisesBuffer) {
  if (size() < 2) GTEST_SKIP() << "every size is a multiple of 1";
  std::vector<int> send(at(size() + 1)), recv(at(2 * size()));
  expect_error_from([&] { alltoall(Comm::world(), in(send), out(recv)); },
                    ErrorClass::buffer, "classic::alltoall", "not a multiple");
}

TEST(CollectivesErrors, AliasedSendAndRecvRaiseBuffer) {
  std::vector<int> buffer(4);
  const std::span<const int> send(buffer.data(), 2);
  const std::span<int> recv(buffer.data() + 1, 2);
  expect_error_from([&] { allreduce(Comm::world(), send, recv, MPI_SUM); },
                    ErrorClass::buffer, "classic::allreduce", "in_place");
}

TEST(CollectivesErrors, InPlaceAwayFromTheRootRaisesBuffer) {
  if (size() < 2) GTEST_SKIP() << "one process is always the root";
  // Every process names another as root, so every process raises.
  std::vector<int> recv(at(size()));
  expect_error_from(
      [&] {
        gather(Comm::world(), in_place, out(recv), (rank() + 1) % size());
      },
      ErrorClass::buffer, "classic::gather", "only the root");
}

TEST(CollectivesErrors, RawInPlaceReceiveBufferRaisesBuffer) {
  int value = 0;
  expect_error_from(
      [&] {
        allreduce(Comm::world(), &value, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM);
      },
      ErrorClass::buffer, "classic::allreduce", "recv is MPI_IN_PLACE");
}

TEST(CollectivesErrors, RawInPlaceBcastBufferRaisesBuffer) {
  expect_error_from([&] { bcast(Comm::world(), MPI_IN_PLACE, 1, MPI_INT, 0); },
                    ErrorClass::buffer, "classic::bcast",
                    "buffer is MPI_IN_PLACE");
}

TEST(CollectivesErrors, ReduceScatterBlockInPlaceNotAMultipleRaisesBuffer) {
  if (size() < 2) GTEST_SKIP() << "every size is a multiple of 1";
  std::vector<int> buffer(at(size() + 1));
  expect_error_from(
      [&] {
        reduce_scatter_block(Comm::world(), in_place, out(buffer), MPI_SUM);
      },
      ErrorClass::buffer, "classic::reduce_scatter_block", "not a multiple");
}

// ---- datatype and op ------------------------------------------------------

TEST(CollectivesErrors, NullDatatypeRaisesDatatype) {
  int value = 0;
  expect_error_from(
      [&] {
        allgather(Comm::world(), &value, 1, MPI_DATATYPE_NULL, &value, 1,
                  MPI_INT);
      },
      ErrorClass::datatype, "classic::allgather", "MPI_DATATYPE_NULL");
}

TEST(CollectivesErrors, NullEntryOfAlltoallwTypesRaisesDatatype) {
  std::vector<int> send(at(size())), recv(at(size()));
  const std::vector<int> counts(at(size()), 1);
  std::vector<int> bytes(at(size()));
  for (int i = 0; i < size(); ++i) {
    bytes[at(i)] = i * static_cast<int>(sizeof(int));
  }
  std::vector<MPI_Datatype> types(at(size()), MPI_INT);
  types[0] = MPI_DATATYPE_NULL;
  const std::vector<MPI_Datatype> good(at(size()), MPI_INT);
  expect_error_from(
      [&] {
        alltoallw(Comm::world(), send.data(), counts, bytes, types, recv.data(),
                  counts, bytes, good);
      },
      ErrorClass::datatype, "classic::alltoallw", "send_types[0]");
}

TEST(CollectivesErrors, UncommittedDatatypeRaisesDatatype) {
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_INT, &pair);  // not committed
  int values[2] = {0, 0};
  expect_error_from([&] { bcast(Comm::world(), values, 1, pair, 0); },
                    ErrorClass::datatype, "classic::bcast", "transport");
  MPI_Type_free(&pair);
}

TEST(CollectivesErrors, NullOpRaisesOp) {
  std::vector<int> send(1), recv(1);
  expect_error_from(
      [&] { allreduce(Comm::world(), in(send), out(recv), MPI_OP_NULL); },
      ErrorClass::op, "classic::allreduce", "MPI_OP_NULL");
}

TEST(CollectivesErrors, BitwiseOpOnDoublesRaisesOp) {
  std::vector<double> send(1), recv(1);
  expect_error_from([&] { scan(Comm::world(), in(send), out(recv), MPI_BAND); },
                    ErrorClass::op, "classic::scan", "op");
}

TEST(CollectivesErrors, MaxOnComplexRaisesOp) {
  std::vector<std::complex<double>> send(1), recv(1);
  expect_error_from(
      [&] { reduce(Comm::world(), in(send), out(recv), MPI_MAX, 0); },
      ErrorClass::op, "classic::reduce", "op");
}

// A rejected call leaves the communicator usable.
TEST(CollectivesErrors, CollectivesWorkAfterRejectedCalls) {
  std::vector<int> send = {1}, recv = {0};
  allreduce(Comm::world(), in(send), out(recv), MPI_SUM);
  EXPECT_EQ(recv[0], size());
}

}  // namespace
}  // namespace classic
