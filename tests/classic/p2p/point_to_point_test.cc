// Tests of classic point-to-point communication (MPI-1 chapter 3) at any
// number of processes: datatypes, rings, wildcards with the source named in
// the communicator, proc_null, probes, non-overtaking, isolation of a
// communicator from its dup, truncation, inter-communicator peer numbering.
// Where raw MPI on the transport is an oracle (proc_null statuses,
// MPI_Get_count, MPI_TAG_UB), the test compares with it. Completion
// functions and request lifetimes: request_test.cc.
#include "classic/p2p/point_to_point.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <complex>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/datatype.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/groups/group.h"
#include "classic/p2p/request.h"
#include "classic/p2p/status.h"
#include "tests/classic/testing/p2p_testing.h"
#include "tests/testing/errors.h"

namespace classic {
namespace {

using PointToPoint = testing_p2p::PointToPointTest;
using orthocomm_test::expect_error_class;
using testing_p2p::barrier;
using testing_p2p::Ring;

// ---- datatypes --------------------------------------------------------------

struct NotTransmittable {
  int value;
};
static_assert(Transmittable<int>);
static_assert(Transmittable<const double>);
static_assert(Transmittable<std::complex<float>>);
static_assert(Transmittable<std::byte>);
static_assert(!Transmittable<NotTransmittable>);
static_assert(!Transmittable<int*>);
static_assert(!Transmittable<std::vector<int>>);

template <typename T>
void expect_size_matches() {
  int size = 0;
  MPI_Type_size(datatype_of<T>(), &size);
  EXPECT_EQ(static_cast<std::size_t>(size), sizeof(T));
}

TEST(Datatype, SizesMatchTheCppTypes) {
  expect_size_matches<bool>();
  expect_size_matches<char>();
  expect_size_matches<signed char>();
  expect_size_matches<unsigned char>();
  expect_size_matches<wchar_t>();
  expect_size_matches<char8_t>();
  expect_size_matches<char16_t>();
  expect_size_matches<char32_t>();
  expect_size_matches<short>();
  expect_size_matches<unsigned short>();
  expect_size_matches<int>();
  expect_size_matches<unsigned>();
  expect_size_matches<long>();
  expect_size_matches<unsigned long>();
  expect_size_matches<long long>();
  expect_size_matches<unsigned long long>();
  expect_size_matches<float>();
  expect_size_matches<double>();
  expect_size_matches<long double>();
  expect_size_matches<std::complex<float>>();
  expect_size_matches<std::complex<double>>();
  expect_size_matches<std::complex<long double>>();
  expect_size_matches<std::byte>();
  expect_size_matches<std::int64_t>();
}

TEST(Datatype, ConstElementsHaveTheSameDatatype) {
  EXPECT_EQ(datatype_of<const int>(), MPI_INT);
  EXPECT_EQ(datatype_of<const std::complex<double>>(), MPI_CXX_DOUBLE_COMPLEX);
}

TEST_F(PointToPoint, TagUbIsTheTransportsAttribute) {
  int* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
  ASSERT_TRUE(found);
  EXPECT_EQ(tag_ub(), *value);
  EXPECT_GE(tag_ub(), 32767);  // MPI's guarantee
}

// ---- rings ------------------------------------------------------------------

TEST_F(PointToPoint, RingExchangeWithIsendAndRecv) {
  Ring ring;
  const std::vector<int> out = {ring.rank, 10 * ring.rank, 100 * ring.rank};
  std::vector<int> in(3, -1);
  Request sending = isend(ring.comm, std::span(out), ring.right, 5);
  const Status status = recv(ring.comm, std::span(in), ring.left, 5);
  wait(sending);
  EXPECT_EQ(in, (std::vector<int>{ring.left, 10 * ring.left, 100 * ring.left}));
  EXPECT_EQ(status.source, ring.left);
  EXPECT_EQ(status.tag, 5);
  EXPECT_EQ(status.count<int>(), 3);
  EXPECT_EQ(status.bytes(), 3 * static_cast<MPI_Count>(sizeof(int)));
  EXPECT_FALSE(status.cancelled());
  EXPECT_TRUE(sending.is_null());
}

TEST_F(PointToPoint, RingExchangeWithSendAndIrecv) {
  Ring ring;
  const std::complex<double> out(ring.rank, -ring.rank);
  std::complex<double> in;
  Request receiving = irecv(ring.comm, std::span(&in, 1), ring.left, 6);
  send(ring.comm, std::span(&out, 1), ring.right, 6);
  const Status status = wait(receiving);
  EXPECT_EQ(in, std::complex<double>(ring.left, -ring.left));
  EXPECT_EQ(status.source, ring.left);
  EXPECT_EQ(status.count<std::complex<double>>(), 1);
}

TEST_F(PointToPoint, SendrecvShiftsARing) {
  Ring ring;
  const std::array<long, 2> out = {ring.rank, -ring.rank};
  std::array<long, 2> in = {};
  const Status status = sendrecv(ring.comm, std::span(out), ring.right, 1,
                                 std::span(in), ring.left, 1);
  EXPECT_EQ(in[0], ring.left);
  EXPECT_EQ(in[1], -ring.left);
  EXPECT_EQ(status.source, ring.left);
  EXPECT_EQ(status.tag, 1);
}

TEST_F(PointToPoint, SendrecvReplaceAroundTheWholeRingComesBack) {
  Ring ring;
  int token = ring.rank;
  for (int step = 1; step <= ring.size; ++step) {
    const Status status = sendrecv_replace(ring.comm, std::span(&token, 1),
                                           ring.right, 2, ring.left, 2);
    EXPECT_EQ(token, (ring.rank - step % ring.size + ring.size) % ring.size);
    EXPECT_EQ(status.source, ring.left);
  }
  EXPECT_EQ(token, ring.rank);
}

// A column of a row-major 3x4 matrix, sent with a derived datatype.
TEST_F(PointToPoint, RawOverloadsCarryDerivedDatatypes) {
  Ring ring;
  MPI_Datatype column = MPI_DATATYPE_NULL;
  MPI_Type_vector(3, 1, 4, MPI_INT, &column);
  MPI_Type_commit(&column);
  std::vector<int> matrix(12);
  std::iota(matrix.begin(), matrix.end(), 100 * ring.rank);
  std::vector<int> in(3, -1);
  Request sending = isend(ring.comm, &matrix[1], 1, column, ring.right, 3);
  const Status status = recv(ring.comm, in.data(), 3, MPI_INT, ring.left, 3);
  wait(sending);
  EXPECT_EQ(in, (std::vector<int>{100 * ring.left + 1, 100 * ring.left + 5,
                                  100 * ring.left + 9}));
  EXPECT_EQ(status.count(column), 1);
  EXPECT_EQ(status.count<int>(), 3);

  // And back into a column of a matrix.
  std::vector<int> target(12, -1);
  Request returning = isend(ring.comm, std::span(in), ring.left, 4);
  recv(ring.comm, &target[2], 1, column, ring.right, 4);
  wait(returning);
  EXPECT_EQ(target[2], 100 * ring.rank + 1);
  EXPECT_EQ(target[6], 100 * ring.rank + 5);
  EXPECT_EQ(target[10], 100 * ring.rank + 9);
  EXPECT_EQ(std::count(target.begin(), target.end(), -1), 9);
  MPI_Type_free(&column);
}

// ---- wildcards and the source's rank ----------------------------------------

// In a communicator ranked in reverse world order, a wildcard receive must
// name senders by their rank there (size-1-world rank), not in the world.
TEST_F(PointToPoint, AnySourceAnyTagReportsTheSendersRankInTheComm) {
  const Comm world = Comm::world();
  const int n = world.size();
  const Comm reversed = world.split(0, n - world.rank());
  ASSERT_EQ(reversed.rank(), n - 1 - world.rank());
  const int payload = world.rank();
  Request sending =
      isend(reversed, std::span(&payload, 1), 0, 100 + reversed.rank());
  if (reversed.rank() == 0) {
    std::vector<int> seen;
    for (int i = 0; i < n; ++i) {
      int world_rank = -1;
      const Status status =
          recv(reversed, std::span(&world_rank, 1), any_source, any_tag);
      EXPECT_EQ(world_rank, n - 1 - status.source);
      EXPECT_EQ(status.tag, 100 + status.source);
      seen.push_back(status.source);
    }
    std::sort(seen.begin(), seen.end());
    std::vector<int> all(static_cast<std::size_t>(n));
    std::iota(all.begin(), all.end(), 0);
    EXPECT_EQ(seen, all);
  }
  wait(sending);
}

TEST_F(PointToPoint, AnyTagFromAFixedSourceTakesOnlyThatSource) {
  Ring ring;
  const int out = ring.rank;
  Request sending = isend(ring.comm, std::span(&out, 1), ring.right, 77);
  int in = -1;
  const Status status = recv(ring.comm, std::span(&in, 1), ring.left, any_tag);
  wait(sending);
  EXPECT_EQ(in, ring.left);
  EXPECT_EQ(status.tag, 77);
  EXPECT_EQ(status.source, ring.left);
}

// ---- proc_null --------------------------------------------------------------

// The transport's own answer for a receive from MPI_PROC_NULL, in classic's
// values: the oracle for classic's proc_null statuses.
struct RawProcNullStatus {
  int source;
  int tag;
  int bytes;
};

RawProcNullStatus proc_null_status_from_mpi() {
  int sink = 0;
  MPI_Status raw;
  MPI_Recv(&sink, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &raw);
  int bytes = -1;
  MPI_Get_count(&raw, MPI_BYTE, &bytes);
  return {raw.MPI_SOURCE == MPI_PROC_NULL ? proc_null : -99,
          raw.MPI_TAG == MPI_ANY_TAG ? any_tag : -99, bytes};
}

void expect_proc_null_status(const Status& status) {
  const RawProcNullStatus expected = proc_null_status_from_mpi();
  EXPECT_EQ(status.source, expected.source);
  EXPECT_EQ(status.tag, expected.tag);
  EXPECT_EQ(status.bytes(), expected.bytes);
  EXPECT_EQ(status.error, MPI_SUCCESS);
  EXPECT_FALSE(status.cancelled());
}

TEST_F(PointToPoint, ProcNullStatusIsTheStandardsAndTheTransports) {
  const RawProcNullStatus raw = proc_null_status_from_mpi();
  EXPECT_EQ(raw.source, proc_null);
  EXPECT_EQ(raw.tag, any_tag);
  EXPECT_EQ(raw.bytes, 0);
  int in = 42;
  const Status status = recv(Comm::world(), std::span(&in, 1), proc_null, 3);
  expect_proc_null_status(status);
  EXPECT_EQ(status.count<int>(), 0);
  EXPECT_EQ(in, 42);  // nothing written
}

TEST_F(PointToPoint, ProcNullSendCompletesAtOnce) {
  const int out = 1;
  send(Comm::world(), std::span(&out, 1), proc_null, 3);
  Request sending = isend(Comm::world(), std::span(&out, 1), proc_null, 3);
  EXPECT_TRUE(test(sending).has_value());
  EXPECT_TRUE(sending.is_null());
}

TEST_F(PointToPoint, ProcNullIrecvCompletesAtOnceWithTheProcNullStatus) {
  int in = 42;
  Request receiving = irecv(Comm::world(), std::span(&in, 1), proc_null, 3);
  const std::optional<Status> status = test(receiving);
  ASSERT_TRUE(status.has_value());
  expect_proc_null_status(*status);
  EXPECT_EQ(in, 42);
}

TEST_F(PointToPoint, SendrecvWithProcNullOnBothSides) {
  const int out = 5;
  int in = 42;
  const Status status = sendrecv(Comm::world(), std::span(&out, 1), proc_null,
                                 0, std::span(&in, 1), proc_null, 0);
  expect_proc_null_status(status);
  EXPECT_EQ(in, 42);
}

TEST_F(PointToPoint, ProbesOfProcNullAnswerAtOnce) {
  expect_proc_null_status(probe(Comm::world(), proc_null, any_tag));
  const std::optional<Status> status =
      iprobe(Comm::world(), proc_null, any_tag);
  ASSERT_TRUE(status.has_value());
  expect_proc_null_status(*status);
}

// ---- probes -----------------------------------------------------------------

// A length that rank `rank` sends, reproducible on its receiver.
int message_length(int rank) {
  std::mt19937 engine(static_cast<unsigned>(1234 + rank));
  return 1 + static_cast<int>(engine() % 50);
}

std::vector<double> message_of(int rank) {
  std::vector<double> values(static_cast<std::size_t>(message_length(rank)));
  std::iota(values.begin(), values.end(), 0.5 + 1000.0 * rank);
  return values;
}

TEST_F(PointToPoint, ProbeThenReceiveTheProbedSize) {
  Ring ring;
  const std::vector<double> out = message_of(ring.rank);
  Request sending = isend(ring.comm, std::span(out), ring.right, 9);
  const Status probed = probe(ring.comm, any_source, any_tag);
  EXPECT_EQ(probed.source, ring.left);
  EXPECT_EQ(probed.tag, 9);
  ASSERT_EQ(probed.count<double>(), message_length(ring.left));
  std::vector<double> in(static_cast<std::size_t>(probed.count<double>()));
  const Status received =
      recv(ring.comm, std::span(in), probed.source, probed.tag);
  wait(sending);
  EXPECT_EQ(in, message_of(ring.left));
  EXPECT_EQ(received, probed);
}

TEST_F(PointToPoint, IprobeEventuallyFindsTheMessage) {
  Ring ring;
  const std::vector<double> out = message_of(ring.rank);
  Request sending = isend(ring.comm, std::span(out), ring.right, 10);
  std::optional<Status> probed;
  while (!probed) probed = iprobe(ring.comm, ring.left, 10);
  EXPECT_EQ(probed->source, ring.left);
  std::vector<double> in(static_cast<std::size_t>(probed->count<double>()));
  recv(ring.comm, std::span(in), ring.left, 10);
  wait(sending);
  EXPECT_EQ(in, message_of(ring.left));
}

TEST_F(PointToPoint, IprobeOnAQuietCommFindsNothing) {
  const Comm quiet = Comm::world().dup();
  EXPECT_FALSE(iprobe(quiet, any_source, any_tag).has_value());
  barrier(quiet);
}

// Status::count against MPI_Get_count on the same message, probed through
// the transport.
TEST_F(PointToPoint, StatusCountAgreesWithMpiGetCount) {
  Ring ring;
  const std::array<double, 3> out = {1.0, 2.0, 3.0};
  Request sending = isend(ring.comm, std::span(out), ring.right, 11);
  const Status ours = probe(ring.comm, ring.left, 11);
  MPI_Status theirs;
  MPI_Probe(ring.left, 11, ring.comm.transport(), &theirs);
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  for (MPI_Datatype datatype :
       {MPI_DOUBLE, MPI_CHAR, MPI_INT, MPI_SHORT, MPI_LONG_DOUBLE,
        MPI_CXX_DOUBLE_COMPLEX, pair}) {
    int expected = 0;
    MPI_Get_count(&theirs, datatype, &expected);
    EXPECT_EQ(ours.count(datatype),
              expected == MPI_UNDEFINED ? undefined : expected);
  }
  MPI_Type_free(&pair);
  std::array<double, 3> in = {};
  recv(ring.comm, std::span(in), ring.left, 11);
  wait(sending);
}

// ---- ordering and isolation -------------------------------------------------

// MPI-1 3.5: messages from one sender on one communicator are received in
// the order they were sent when both match (here: any tag).
TEST_F(PointToPoint, MessagesDoNotOvertake) {
  Ring ring;
  constexpr int kMessages = 50;
  std::vector<int> out(kMessages);
  std::iota(out.begin(), out.end(), 0);
  std::vector<Request> sends;
  for (int i = 0; i < kMessages; ++i) {
    sends.push_back(isend(ring.comm,
                          std::span(&out[static_cast<std::size_t>(i)], 1),
                          ring.right, 30 + i % 3));
  }
  for (int i = 0; i < kMessages; ++i) {
    int in = -1;
    const Status status =
        recv(ring.comm, std::span(&in, 1), ring.left, any_tag);
    EXPECT_EQ(in, i);
    EXPECT_EQ(status.tag, 30 + i % 3);
  }
  wait_all(sends);
}

// A message sent first on the world must not be received by a receive on
// its dup (and vice versa), although source and tag match.
TEST_F(PointToPoint, CommAndItsDupDoNotShareMessages) {
  Ring ring;
  const Comm copy = ring.comm.dup();
  const int on_world = 1;
  const int on_copy = 2;
  Request first = isend(ring.comm, std::span(&on_world, 1), ring.right, 7);
  Request second = isend(copy, std::span(&on_copy, 1), ring.right, 7);
  int in = -1;
  recv(copy, std::span(&in, 1), any_source, any_tag);
  EXPECT_EQ(in, on_copy);
  recv(ring.comm, std::span(&in, 1), any_source, any_tag);
  EXPECT_EQ(in, on_world);
  wait(first);
  wait(second);
  barrier(copy);
  EXPECT_FALSE(iprobe(copy, any_source, any_tag).has_value());
}

// Making communicators must not disturb the parent's traffic: a pending
// any_source / any_tag receive on the world stays pending through dup,
// split and create of the world, and then takes the application's message.
TEST_F(PointToPoint, PendingWildcardReceiveSurvivesCommunicatorConstruction) {
  Ring ring;
  int in = -1;
  Request receiving = irecv(ring.comm, std::span(&in, 1), any_source, any_tag);
  Comm copy = ring.comm.dup();
  Comm halves = ring.comm.split(ring.rank % 2, -ring.rank);
  Comm first = ring.comm.create(ring.comm.group().incl(std::vector{0}));
  const int out = 1000 + ring.rank;
  send(ring.comm, std::span(&out, 1), ring.right, 5);
  const Status status = wait(receiving);
  EXPECT_EQ(status.source, ring.left);
  EXPECT_EQ(status.tag, 5);
  EXPECT_EQ(in, 1000 + ring.left);
  EXPECT_EQ(copy.size(), ring.size);
  EXPECT_EQ(first.is_null(), ring.rank != 0);
  EXPECT_EQ(halves.size(), (ring.size - ring.rank % 2 + 1) / 2);
}

// ---- truncation -------------------------------------------------------------

TEST_F(PointToPoint, LongerMessageThanBufferRaisesTruncate) {
  Ring ring;
  const std::array<int, 4> out = {1, 2, 3, 4};
  Request sending = isend(ring.comm, std::span(out), ring.right, 40);
  std::array<int, 2> in = {};
  expect_error_class([&] { recv(ring.comm, std::span(in), ring.left, 40); },
                     ErrorClass::truncate);
  wait(sending);
  EXPECT_EQ(in[0], 1);  // the start of the message
  // The message was consumed: the next one arrives normally.
  sending = isend(ring.comm, std::span(out).first<2>(), ring.right, 40);
  EXPECT_EQ(recv(ring.comm, std::span(in), ring.left, 40).count<int>(), 2);
  wait(sending);
}

// A message a process sends itself is truncated like any other: MPI says so
// (3.2.4), Open MPI 4.1.4 does not (next test), classic does.
TEST_F(PointToPoint, SendrecvToSelfIntoShortBufferRaisesTruncate) {
  const Comm world = Comm::world();
  const int me = world.rank();
  const std::array<int, 4> out = {1, 2, 3, 4};
  std::array<int, 2> in = {};
  expect_error_class(
      [&] { sendrecv(world, std::span(out), me, 41, std::span(in), me, 41); },
      ErrorClass::truncate);
  EXPECT_EQ(in[0], 1);
  expect_error_class(
      [&] {
        sendrecv(world, out.data(), 4, MPI_INT, me, 42, in.data(), 2, MPI_INT,
                 any_source, any_tag);
      },
      ErrorClass::truncate);
  // Both messages were consumed: an exchange that fits works as before.
  const Status status =
      sendrecv(world, std::span(out).first<2>(), me, 43, std::span(in), me, 43);
  EXPECT_EQ(status.count<int>(), 2);
  EXPECT_EQ(status.source, me);
  EXPECT_EQ(in, (std::array<int, 2>{1, 2}));
  int pending = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, world.transport(), &pending,
             MPI_STATUS_IGNORE);
  EXPECT_EQ(pending, 0);
}

TEST_F(PointToPoint, OpenMpiDeliversAShortenedMessageToSelfAsSuccess) {
  const MPI_Comm world = Comm::world().transport();
  const int me = Comm::world().rank();
  const std::array<int, 4> out = {1, 2, 3, 4};
  std::array<int, 2> in = {};
  MPI_Status status;
  const int code = MPI_Sendrecv(out.data(), 4, MPI_INT, me, 44, in.data(), 2,
                                MPI_INT, me, 44, world, &status);
  int count = 0;
  MPI_Get_count(&status, MPI_INT, &count);
  // The standard's answer would be MPI_ERR_TRUNCATE; classic gives it.
  EXPECT_EQ(code, MPI_SUCCESS) << "Open MPI now reports the truncation";
  EXPECT_EQ(count, 2);
}

TEST_F(PointToPoint, ReceiveFromSelfIntoShortBufferRaisesTruncate) {
  const Comm world = Comm::world();
  const int me = world.rank();
  const std::array<double, 3> out = {0.5, 1.5, 2.5};
  Request sending = isend(world, std::span(out), me, 45);
  std::array<double, 1> in = {};
  expect_error_class([&] { recv(world, std::span(in), me, 45); },
                     ErrorClass::truncate);
  wait(sending);
  EXPECT_EQ(in[0], 0.5);
  sending = isend(world, std::span(out).first<1>(), me, 46);
  EXPECT_EQ(recv(world, std::span(in), any_source, 46).count<double>(), 1);
  wait(sending);
}

TEST_F(PointToPoint, SendrecvReplaceWithSelfKeepsTheMessage) {
  const Comm world = Comm::world();
  const int me = world.rank();
  std::array<int, 3> buffer = {me, me + 1, me + 2};
  const Status status =
      sendrecv_replace(world, std::span(buffer), me, 47, me, 47);
  EXPECT_EQ(buffer, (std::array<int, 3>{me, me + 1, me + 2}));
  EXPECT_EQ(status.count<int>(), 3);
  // A strided datatype goes out of a packed copy, not the overwritten buffer.
  MPI_Datatype every_other = MPI_DATATYPE_NULL;
  MPI_Type_vector(2, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  std::array<int, 3> strided = {7, -1, 9};
  sendrecv_replace(world, strided.data(), 1, every_other, me, 48, me, 48);
  MPI_Type_free(&every_other);
  EXPECT_EQ(strided, (std::array<int, 3>{7, -1, 9}));
}

// Truncation between processes and to self, raw and typed, at once: every
// process sends its right neighbour and itself more than they receive.
TEST_F(PointToPoint, TruncationIsReportedAlikeForSelfAndNeighbour) {
  Ring ring;
  const int me = ring.comm.rank();
  const std::array<int, 3> out = {me, me, me};
  std::array<int, 1> in = {};
  for (const int peer : {ring.right, me}) {
    const int source = peer == me ? me : ring.left;
    expect_error_class(
        [&] {
          sendrecv(ring.comm, std::span(out), peer, 49, std::span(in), source,
                   49);
        },
        ErrorClass::truncate);
    expect_error_class(
        [&] {
          sendrecv(ring.comm, out.data(), 3, MPI_INT, peer, 50, in.data(), 1,
                   MPI_INT, source, 50);
        },
        ErrorClass::truncate);
  }
  barrier(ring.comm);
}

TEST_F(PointToPoint, TheLargestTagIsAccepted) {
  const Comm world = Comm::world();
  const int out = 3;
  Request sending = isend(world, std::span(&out, 1), world.rank(), tag_ub());
  int in = -1;
  EXPECT_EQ(recv(world, std::span(&in, 1), world.rank(), tag_ub()).tag,
            tag_ub());
  wait(sending);
  EXPECT_EQ(in, 3);
}

// ---- peer numbering of inter-communicators ----------------------------------

// An inter-communicator's state made by hand (the constructors come with
// the inter-communicator issue): world ranks [0, h) form group A, [h, n)
// group B, over one context holding A then B. Peers are numbered in the
// remote group, so A sees B's members as 0.., B sees A's as 0...
Comm hand_made_intercomm(int h) {
  const int n = Comm::world().size();
  const int me = Comm::world().rank();
  std::vector<int> a(static_cast<std::size_t>(h));
  std::vector<int> b(static_cast<std::size_t>(n - h));
  std::iota(a.begin(), a.end(), 0);
  std::iota(b.begin(), b.end(), h);
  MPI_Comm context = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &context);
  MPI_Comm_set_errhandler(context, MPI_ERRORS_RETURN);
  const bool in_a = me < h;
  auto state =
      std::make_shared<Comm::State>(context, Group::world().incl(in_a ? a : b));
  state->remote = Group::world().incl(in_a ? b : a);
  state->peer_offset = in_a ? h : 0;
  return internal::CommAccess::make(state);
}

TEST_F(PointToPoint, InterCommunicatorPeersAreRanksOfTheRemoteGroup) {
  const int n = Comm::world().size();
  if (n < 2) GTEST_SKIP() << "needs two groups";
  const int h = n / 2;
  const Comm inter = hand_made_intercomm(h);
  const int local = inter.rank();
  const int remote_size = inter.remote_size();
  const int local_size = inter.size();

  // Local rank i sends to remote rank i % remote_size; each process then
  // receives, with any_source, from the remote ranks j with
  // j % local_size == its rank, and the status names j.
  const int out = local;
  Request sending = isend(inter, std::span(&out, 1), local % remote_size, 70);
  std::vector<int> expected;
  for (int j = 0; j < remote_size; ++j) {
    if (j % local_size == local) expected.push_back(j);
  }
  std::vector<int> sources;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    int in = -1;
    const Status status = recv(inter, std::span(&in, 1), any_source, 70);
    EXPECT_EQ(in, status.source);
    sources.push_back(status.source);
  }
  wait(sending);
  std::sort(sources.begin(), sources.end());
  EXPECT_EQ(sources, expected);

  // Ranks are checked against the remote group's size.
  expect_error_class([&] { send(inter, std::span(&out, 1), remote_size, 71); },
                     ErrorClass::rank);
  MPI_Barrier(inter.transport());
}

}  // namespace
}  // namespace classic
