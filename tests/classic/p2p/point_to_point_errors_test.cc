// Every input that classic point-to-point rejects, one test each, checking
// the error class (and that the message names the function and argument).
// Rejected calls send nothing, so no test leaves a message behind.
#include <gtest/gtest.h>
#include <mpi.h>

#include <climits>
#include <span>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/p2p/point_to_point.h"
#include "classic/p2p/request.h"
#include "classic/p2p/status.h"
#include "tests/testing/errors.h"

namespace classic {
namespace {

using orthocomm_test::expect_error_from;

int peers() { return Comm::world().size(); }

// A handle of a communicator that another handle has freed.
Comm freed_comm() {
  Comm comm = Comm::world().dup();
  Comm other_handle = comm;
  comm.free();
  return other_handle;
}

int value = 0;
std::span<int> one() { return std::span(&value, 1); }

// ---- comm
// ---------------------------------------------------------------------

TEST(PointToPointErrors, SendOnNullCommRaisesComm) {
  expect_error_from([] { send(Comm(), one(), 0, 0); }, ErrorClass::comm,
                    "classic::send", "null");
}

TEST(PointToPointErrors, RecvOnFreedCommRaisesComm) {
  const Comm freed = freed_comm();
  expect_error_from([&] { recv(freed, one(), 0, 0); }, ErrorClass::comm,
                    "classic::recv", "freed");
}

TEST(PointToPointErrors, IsendOnNullCommRaisesComm) {
  expect_error_from([] { Request r = isend(Comm(), one(), 0, 0); },
                    ErrorClass::comm, "classic::isend");
}

TEST(PointToPointErrors, IrecvOnFreedCommRaisesComm) {
  const Comm freed = freed_comm();
  expect_error_from([&] { Request r = irecv(freed, one(), 0, 0); },
                    ErrorClass::comm, "classic::irecv");
}

TEST(PointToPointErrors, SendrecvOnNullCommRaisesComm) {
  expect_error_from([] { sendrecv(Comm(), one(), 0, 0, one(), 0, 0); },
                    ErrorClass::comm, "classic::sendrecv");
}

TEST(PointToPointErrors, SendrecvReplaceOnFreedCommRaisesComm) {
  const Comm freed = freed_comm();
  expect_error_from([&] { sendrecv_replace(freed, one(), 0, 0, 0, 0); },
                    ErrorClass::comm, "classic::sendrecv_replace");
}

TEST(PointToPointErrors, ProbeOnNullCommRaisesComm) {
  expect_error_from([] { probe(Comm(), any_source, any_tag); },
                    ErrorClass::comm, "classic::probe");
}

TEST(PointToPointErrors, IprobeOnFreedCommRaisesComm) {
  const Comm freed = freed_comm();
  expect_error_from([&] { iprobe(freed, any_source, any_tag); },
                    ErrorClass::comm, "classic::iprobe");
}

// ---- rank
// ---------------------------------------------------------------------

TEST(PointToPointErrors, SendToRankSizeRaisesRank) {
  expect_error_from([] { send(Comm::world(), one(), peers(), 0); },
                    ErrorClass::rank, "classic::send",
                    "dest = " + std::to_string(peers()));
}

TEST(PointToPointErrors, SendToNegativeRankRaisesRank) {
  expect_error_from([] { send(Comm::world(), one(), -3, 0); }, ErrorClass::rank,
                    "classic::send", "dest = -3");
}

// any_source names no destination.
TEST(PointToPointErrors, SendToAnySourceRaisesRank) {
  expect_error_from([] { send(Comm::world(), one(), any_source, 0); },
                    ErrorClass::rank, "classic::send", "dest");
}

TEST(PointToPointErrors, SendToUndefinedRaisesRank) {
  expect_error_from([] { send(Comm::world(), one(), undefined, 0); },
                    ErrorClass::rank, "classic::send", "dest");
}

TEST(PointToPointErrors, IsendToRankSizeRaisesRank) {
  expect_error_from([] { Request r = isend(Comm::world(), one(), peers(), 0); },
                    ErrorClass::rank, "classic::isend", "dest");
}

TEST(PointToPointErrors, RecvFromRankSizeRaisesRank) {
  expect_error_from([] { recv(Comm::world(), one(), peers(), 0); },
                    ErrorClass::rank, "classic::recv",
                    "source = " + std::to_string(peers()));
}

TEST(PointToPointErrors, RecvFromNegativeRankRaisesRank) {
  expect_error_from([] { recv(Comm::world(), one(), -3, 0); }, ErrorClass::rank,
                    "classic::recv", "source = -3");
}

TEST(PointToPointErrors, IrecvFromRankSizeRaisesRank) {
  expect_error_from([] { Request r = irecv(Comm::world(), one(), peers(), 0); },
                    ErrorClass::rank, "classic::irecv", "source");
}

TEST(PointToPointErrors, SendrecvToRankSizeRaisesRank) {
  expect_error_from(
      [] { sendrecv(Comm::world(), one(), peers(), 0, one(), 0, 0); },
      ErrorClass::rank, "classic::sendrecv", "dest");
}

TEST(PointToPointErrors, SendrecvFromRankSizeRaisesRank) {
  expect_error_from(
      [] { sendrecv(Comm::world(), one(), 0, 0, one(), peers(), 0); },
      ErrorClass::rank, "classic::sendrecv", "source");
}

TEST(PointToPointErrors, SendrecvReplaceFromNegativeRankRaisesRank) {
  expect_error_from([] { sendrecv_replace(Comm::world(), one(), 0, 0, -3, 0); },
                    ErrorClass::rank, "classic::sendrecv_replace", "source");
}

TEST(PointToPointErrors, ProbeFromRankSizeRaisesRank) {
  expect_error_from([] { probe(Comm::world(), peers(), any_tag); },
                    ErrorClass::rank, "classic::probe", "source");
}

TEST(PointToPointErrors, IprobeFromNegativeRankRaisesRank) {
  expect_error_from([] { iprobe(Comm::world(), -3, any_tag); },
                    ErrorClass::rank, "classic::iprobe", "source");
}

// Ranks of a smaller communicator are checked against its size, not the
// world's.
TEST(PointToPointErrors, RanksAreCheckedAgainstTheComm) {
  const Comm self = Comm::self();
  expect_error_from([&] { send(self, one(), 1, 0); }, ErrorClass::rank,
                    "classic::send", "outside [0, 1)");
}

// ---- tag
// ----------------------------------------------------------------------

TEST(PointToPointErrors, SendWithNegativeTagRaisesTag) {
  expect_error_from([] { send(Comm::world(), one(), 0, -5); }, ErrorClass::tag,
                    "classic::send", "tag = -5");
}

// any_tag is for receives only.
TEST(PointToPointErrors, SendWithAnyTagRaisesTag) {
  expect_error_from([] { send(Comm::world(), one(), 0, any_tag); },
                    ErrorClass::tag, "classic::send", "tag");
}

TEST(PointToPointErrors, SendAboveTagUbRaisesTag) {
  if (tag_ub() == INT_MAX) {
    GTEST_SKIP() << "the transport's MPI_TAG_UB is INT_MAX: no int above it";
  }
  expect_error_from([] { send(Comm::world(), one(), 0, tag_ub() + 1); },
                    ErrorClass::tag, "classic::send", "MPI_TAG_UB");
}

TEST(PointToPointErrors, IsendWithNegativeTagRaisesTag) {
  expect_error_from([] { Request r = isend(Comm::world(), one(), 0, -5); },
                    ErrorClass::tag, "classic::isend", "tag = -5");
}

TEST(PointToPointErrors, RecvWithNegativeTagRaisesTag) {
  expect_error_from([] { recv(Comm::world(), one(), 0, -5); }, ErrorClass::tag,
                    "classic::recv", "tag = -5");
}

TEST(PointToPointErrors, IrecvWithNegativeTagRaisesTag) {
  expect_error_from([] { Request r = irecv(Comm::world(), one(), 0, -5); },
                    ErrorClass::tag, "classic::irecv", "tag = -5");
}

TEST(PointToPointErrors, SendrecvWithNegativeSendTagRaisesTag) {
  expect_error_from([] { sendrecv(Comm::world(), one(), 0, -5, one(), 0, 0); },
                    ErrorClass::tag, "classic::sendrecv", "send_tag = -5");
}

TEST(PointToPointErrors, SendrecvWithNegativeRecvTagRaisesTag) {
  expect_error_from([] { sendrecv(Comm::world(), one(), 0, 0, one(), 0, -5); },
                    ErrorClass::tag, "classic::sendrecv", "recv_tag = -5");
}

TEST(PointToPointErrors, ProbeWithNegativeTagRaisesTag) {
  expect_error_from([] { probe(Comm::world(), any_source, -5); },
                    ErrorClass::tag, "classic::probe", "tag = -5");
}

TEST(PointToPointErrors, IprobeWithNegativeTagRaisesTag) {
  expect_error_from([] { iprobe(Comm::world(), any_source, -5); },
                    ErrorClass::tag, "classic::iprobe", "tag = -5");
}

// ---- count and datatype
// -------------------------------------------------------

TEST(PointToPointErrors, SendWithNegativeCountRaisesCount) {
  expect_error_from([] { send(Comm::world(), &value, -1, MPI_INT, 0, 0); },
                    ErrorClass::count, "classic::send", "count = -1");
}

TEST(PointToPointErrors, RecvWithNegativeCountRaisesCount) {
  expect_error_from([] { recv(Comm::world(), &value, -1, MPI_INT, 0, 0); },
                    ErrorClass::count, "classic::recv", "count = -1");
}

TEST(PointToPointErrors, IsendWithNegativeCountRaisesCount) {
  expect_error_from(
      [] { Request r = isend(Comm::world(), &value, -1, MPI_INT, 0, 0); },
      ErrorClass::count, "classic::isend", "count = -1");
}

TEST(PointToPointErrors, IrecvWithNegativeCountRaisesCount) {
  expect_error_from(
      [] { Request r = irecv(Comm::world(), &value, -1, MPI_INT, 0, 0); },
      ErrorClass::count, "classic::irecv", "count = -1");
}

TEST(PointToPointErrors, SendrecvWithNegativeRecvCountRaisesCount) {
  expect_error_from(
      [] {
        sendrecv(Comm::world(), &value, 1, MPI_INT, 0, 0, &value, -1, MPI_INT,
                 0, 0);
      },
      ErrorClass::count, "classic::sendrecv", "recv_count = -1");
}

TEST(PointToPointErrors, SendrecvReplaceWithNegativeCountRaisesCount) {
  expect_error_from(
      [] { sendrecv_replace(Comm::world(), &value, -1, MPI_INT, 0, 0, 0, 0); },
      ErrorClass::count, "classic::sendrecv_replace", "count = -1");
}

TEST(PointToPointErrors, SendWithNullDatatypeRaisesDatatype) {
  expect_error_from(
      [] { send(Comm::world(), &value, 1, MPI_DATATYPE_NULL, 0, 0); },
      ErrorClass::datatype, "classic::send", "datatype");
}

TEST(PointToPointErrors, IrecvWithNullDatatypeRaisesDatatype) {
  expect_error_from(
      [] {
        Request r = irecv(Comm::world(), &value, 1, MPI_DATATYPE_NULL, 0, 0);
      },
      ErrorClass::datatype, "classic::irecv", "datatype");
}

TEST(PointToPointErrors, SendrecvWithNullSendDatatypeRaisesDatatype) {
  expect_error_from(
      [] {
        sendrecv(Comm::world(), &value, 1, MPI_DATATYPE_NULL, 0, 0, &value, 1,
                 MPI_INT, 0, 0);
      },
      ErrorClass::datatype, "classic::sendrecv", "send_datatype");
}

TEST(PointToPointErrors, StatusCountOfNullDatatypeRaisesDatatype) {
  expect_error_from([] { Status().count(MPI_DATATYPE_NULL); },
                    ErrorClass::datatype, "classic::Status::count", "datatype");
}

// ---- request
// ------------------------------------------------------------------

// MPI_Cancel of MPI_REQUEST_NULL is erroneous (unlike waiting on it).
TEST(PointToPointErrors, CancelOfNullRequestRaisesRequest) {
  Request request;
  expect_error_from([&] { request.cancel(); }, ErrorClass::request,
                    "classic::Request::cancel", "null");
}

}  // namespace
}  // namespace classic
