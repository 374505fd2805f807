// Argument errors of the non-blocking and persistent collectives: the same
// ErrorClass as the blocking form of the same call, raised before anything
// starts, with the message naming the function called; on
// inter-communicators the forms run, and scan and exscan are refused
// (ErrorClass::comm) in every mode.
#include <gtest/gtest.h>
#include <mpi.h>

#include <climits>
#include <optional>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/collectives/nonblocking_collectives.h"
#include "classic/collectives/persistent_collectives.h"
#include "classic/p2p/request.h"
#include "tests/classic/testing/intercomm_testing.h"
#include "tests/testing/errors.h"

namespace classic {
namespace {

// The three forms of one erroneous call all raise `expected`, each naming
// itself.
template <typename B, typename N, typename P>
void expect_in_all_modes(ErrorClass expected, const char* name, B blocking,
                         N nonblocking, P persistent) {
  SCOPED_TRACE(name);
  const std::string plain = std::string("classic::") + name;
  orthocomm_test::expect_error_from(blocking, expected, plain);
  orthocomm_test::expect_error_from([&] { Request r = nonblocking(); },
                                    expected, "classic::i" + std::string(name));
  orthocomm_test::expect_error_from([&] { Request r = persistent(); }, expected,
                                    plain + "_init");
}

class RequestCollectivesErrors : public ::testing::Test {
 protected:
  Comm world = Comm::world();
  int n = world.size();
  int me = world.rank();
  std::vector<int> ints = std::vector<int>(static_cast<std::size_t>(8 * n), 1);
  std::vector<int> more = std::vector<int>(static_cast<std::size_t>(8 * n), 0);
  std::vector<int> counts = std::vector<int>(static_cast<std::size_t>(n), 1);
  std::vector<int> displs = std::vector<int>(static_cast<std::size_t>(n), 0);
};

TEST_F(RequestCollectivesErrors, RootOutsideTheCommunicator) {
  expect_in_all_modes(
      ErrorClass::root, "bcast",
      [&] { bcast(world, ints.data(), 1, MPI_INT, n); },
      [&] { return ibcast(world, ints.data(), 1, MPI_INT, n); },
      [&] { return bcast_init(world, ints.data(), 1, MPI_INT, n); });
  expect_in_all_modes(
      ErrorClass::root, "reduce",
      [&] { reduce(world, ints.data(), more.data(), 1, MPI_INT, MPI_SUM, -1); },
      [&] {
        return ireduce(world, ints.data(), more.data(), 1, MPI_INT, MPI_SUM,
                       -1);
      },
      [&] {
        return reduce_init(world, ints.data(), more.data(), 1, MPI_INT, MPI_SUM,
                           -1);
      });
}

TEST_F(RequestCollectivesErrors, NegativeCountsAndWrongLengths) {
  expect_in_all_modes(
      ErrorClass::count, "allgather",
      [&] {
        allgather(world, ints.data(), -1, MPI_INT, more.data(), 1, MPI_INT);
      },
      [&] {
        return iallgather(world, ints.data(), -1, MPI_INT, more.data(), 1,
                          MPI_INT);
      },
      [&] {
        return allgather_init(world, ints.data(), -1, MPI_INT, more.data(), 1,
                              MPI_INT);
      });
  const std::span<const int> short_counts(counts.data(), counts.size() - 1);
  expect_in_all_modes(
      ErrorClass::count, "alltoallv",
      [&] {
        alltoallv(world, ints.data(), short_counts, displs, MPI_INT,
                  more.data(), counts, displs, MPI_INT);
      },
      [&] {
        return ialltoallv(world, ints.data(), short_counts, displs, MPI_INT,
                          more.data(), counts, displs, MPI_INT);
      },
      [&] {
        return alltoallv_init(world, ints.data(), short_counts, displs, MPI_INT,
                              more.data(), counts, displs, MPI_INT);
      });
  std::vector<int> negative = counts;
  negative[0] = -2;
  expect_in_all_modes(
      ErrorClass::count, "reduce_scatter",
      [&] {
        reduce_scatter(world, ints.data(), more.data(), negative, MPI_INT,
                       MPI_SUM);
      },
      [&] {
        return ireduce_scatter(world, ints.data(), more.data(), negative,
                               MPI_INT, MPI_SUM);
      },
      [&] {
        return reduce_scatter_init(world, ints.data(), more.data(), negative,
                                   MPI_INT, MPI_SUM);
      });
}

TEST_F(RequestCollectivesErrors, NullDatatypesAndOps) {
  expect_in_all_modes(
      ErrorClass::datatype, "scan",
      [&] {
        scan(world, ints.data(), more.data(), 1, MPI_DATATYPE_NULL, MPI_SUM);
      },
      [&] {
        return iscan(world, ints.data(), more.data(), 1, MPI_DATATYPE_NULL,
                     MPI_SUM);
      },
      [&] {
        return scan_init(world, ints.data(), more.data(), 1, MPI_DATATYPE_NULL,
                         MPI_SUM);
      });
  expect_in_all_modes(
      ErrorClass::op, "allreduce",
      [&] {
        allreduce(world, ints.data(), more.data(), 1, MPI_INT, MPI_OP_NULL);
      },
      [&] {
        return iallreduce(world, ints.data(), more.data(), 1, MPI_INT,
                          MPI_OP_NULL);
      },
      [&] {
        return allreduce_init(world, ints.data(), more.data(), 1, MPI_INT,
                              MPI_OP_NULL);
      });
  std::vector<MPI_Datatype> types(static_cast<std::size_t>(n), MPI_INT);
  std::vector<MPI_Datatype> bad = types;
  bad.back() = MPI_DATATYPE_NULL;
  expect_in_all_modes(
      ErrorClass::datatype, "alltoallw",
      [&] {
        alltoallw(world, ints.data(), counts, displs, bad, more.data(), counts,
                  displs, types);
      },
      [&] {
        return ialltoallw(world, ints.data(), counts, displs, bad, more.data(),
                          counts, displs, types);
      },
      [&] {
        return alltoallw_init(world, ints.data(), counts, displs, bad,
                              more.data(), counts, displs, types);
      });
}

TEST_F(RequestCollectivesErrors, TypedSpansAndInPlace) {
  // A receive span too small for size() blocks.
  const std::span<const int> one(ints.data(), 1);
  const std::span<int> too_small(more.data(), static_cast<std::size_t>(n - 1));
  expect_in_all_modes(
      ErrorClass::buffer, "allgather",
      [&] { allgather(world, one, too_small); },
      [&] { return iallgather(world, one, too_small); },
      [&] { return allgather_init(world, one, too_small); });
  // Send and receive spans that share memory.
  const std::span<int> overlap(ints.data(), 1);
  expect_in_all_modes(
      ErrorClass::buffer, "allreduce",
      [&] { allreduce(world, one, overlap, MPI_SUM); },
      [&] { return iallreduce(world, one, overlap, MPI_SUM); },
      [&] { return allreduce_init(world, one, overlap, MPI_SUM); });
  // MPI_IN_PLACE as a receive buffer.
  expect_in_all_modes(
      ErrorClass::buffer, "alltoall",
      [&] {
        alltoall(world, ints.data(), 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT);
      },
      [&] {
        return ialltoall(world, ints.data(), 1, MPI_INT, MPI_IN_PLACE, 1,
                         MPI_INT);
      },
      [&] {
        return alltoall_init(world, ints.data(), 1, MPI_INT, MPI_IN_PLACE, 1,
                             MPI_INT);
      });
  // gatherv: a typed process's own count differs from its send span.
  std::vector<int> wrong = counts;
  wrong[static_cast<std::size_t>(me)] = 2;
  std::vector<int> apart(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) apart[static_cast<std::size_t>(i)] = 2 * i;
  expect_in_all_modes(
      ErrorClass::count, "gatherv",
      [&] { gatherv(world, one, std::span(more), wrong, apart, me); },
      [&] { return igatherv(world, one, std::span(more), wrong, apart, me); },
      [&] {
        return gatherv_init(world, one, std::span(more), wrong, apart, me);
      });
}

TEST_F(RequestCollectivesErrors, NullCommunicator) {
  const Comm null;
  expect_in_all_modes(
      ErrorClass::comm, "barrier", [&] { barrier(null); },
      [&] { return ibarrier(null); }, [&] { return barrier_init(null); });
}

// On inter-communicators the non-blocking and persistent forms work (the
// typed ones too; a persistent request restarts with new contents), their
// errors name the form called, and scan and exscan are refused in every
// mode.
TEST(RequestCollectivesInter, RunAndRefuseAsTheBlockingForms) {
  if (Environment::world_size() < 2) GTEST_SKIP() << "needs two groups";
  const intercomm_testing::Built built =
      intercomm_testing::build(intercomm_testing::halves());
  const Comm& inter = built.inter;
  const int remote = inter.remote_size();
  const int rank = inter.rank();
  const bool in_a = intercomm_testing::halves().in_a;

  Request barrier_request = ibarrier(inter);
  wait(barrier_request);

  // Each process sends (side, rank, start); the sum over the other group.
  std::vector<int> send(1), sum(1, -1);
  Request persistent = allreduce_init(inter, std::span<const int>(send),
                                      std::span<int>(sum), MPI_SUM);
  for (int start_number = 0; start_number < 3; ++start_number) {
    send[0] = (in_a ? 1000 : 0) + rank + 10 * start_number;
    start(persistent);
    wait(persistent);
    // The other group's ranks 0 .. remote - 1, each + 10 * start_number
    // (+1000 each if the other group is A).
    const int expected = (in_a ? 0 : 1000 * remote) +
                         remote * (remote - 1) / 2 + 10 * start_number * remote;
    EXPECT_EQ(sum[0], expected) << "start " << start_number;
  }

  int value = 1;
  int result = 0;
  orthocomm_test::expect_error(
      [&] { Request r = iscan(inter, &value, &result, 1, MPI_INT, MPI_SUM); },
      ErrorClass::comm, {"classic::iscan", "inter-communicator"});
  orthocomm_test::expect_error(
      [&] {
        Request r = exscan_init(inter, &value, &result, 1, MPI_INT, MPI_SUM);
      },
      ErrorClass::comm, {"classic::exscan_init", "inter-communicator"});
  orthocomm_test::expect_error(
      [&] { Request r = ibcast(inter, &value, 1, MPI_INT, remote); },
      ErrorClass::root, {"classic::ibcast", "root"});
  orthocomm_test::expect_error(
      [&] {
        Request r =
            allgather_init(inter, &value, 1, MPI_INT, &result, -1, MPI_INT);
      },
      ErrorClass::count, {"classic::allgather_init"});
  barrier(inter);
}

}  // namespace
}  // namespace classic
