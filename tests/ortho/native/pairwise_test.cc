// The "pairwise" alltoall on fully connected communicators against Open
// MPI's MPI_Alltoall on random blocks, in every mode and in the raw
// (contiguous and strided datatypes) and typed forms; its offer (forced by
// set_algorithm, never the default) and its refusals.
#include <gtest/gtest.h>
#include <mpi.h>

#include <random>
#include <span>
#include <string>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "ortho/table.h"
#include "tests/testing/errors.h"

namespace {

using classic::Comm;
using classic::ErrorClass;
using classic::Mode;

int world_rank() { return classic::Environment::world_rank(); }
int world_size() { return classic::Environment::world_size(); }

Comm pairwise_world() {
  Comm comm = Comm::world().dup();
  ortho::set_algorithm(comm, "alltoall=pairwise");
  return comm;
}

// Random ints, the same sequence on every process for the same seed and
// rank.
std::vector<int> random_ints(std::size_t n, int seed) {
  std::mt19937 random(static_cast<unsigned>(seed * 7919 + world_rank()));
  std::uniform_int_distribution<int> value(-1000000, 1000000);
  std::vector<int> ints(n);
  for (int& x : ints) x = value(random);
  return ints;
}

// Runs `call` in `mode` to completion.
void complete(Mode mode, const auto& blocking, const auto& nonblocking,
              const auto& persistent) {
  switch (mode) {
    case Mode::blocking:
      blocking();
      return;
    case Mode::nonblocking: {
      classic::Request request = nonblocking();
      classic::wait(request);
      return;
    }
    case Mode::persistent: {
      classic::Request request = persistent();
      for (int i = 0; i < 2; ++i) {
        classic::start(request);
        classic::wait(request);
      }
      return;
    }
  }
}

TEST(Pairwise, IsOfferedOnFullyConnectedCommunicatorsButNotChosen) {
  const Comm comm = Comm::world().dup();
  EXPECT_EQ(ortho::selected_algorithm(comm, ortho::Operation::alltoall),
            "native");
  const Comm forced = pairwise_world();
  EXPECT_EQ(ortho::selected_algorithm(forced, ortho::Operation::alltoall),
            "pairwise");
  orthocomm_test::expect_thrown(
      orthocomm_test::thrown_by(
          [&] { ortho::set_algorithm(comm, "allgather=pairwise"); }),
      ErrorClass::arg, {"ortho::set_algorithm", "allgather", "pairwise"});
}

TEST(Pairwise, RawBlocksEqualOpenMpisAlltoall) {
  const Comm comm = pairwise_world();
  const auto p = static_cast<std::size_t>(world_size());
  for (int seed = 0; seed < 12; ++seed) {
    const int count = seed % 4 == 0 ? 0 : 1 + seed * 37 % 300;
    const auto n = static_cast<std::size_t>(count);
    const std::vector<int> send = random_ints(p * n, seed);
    std::vector<int> want(p * n, -1);
    MPI_Alltoall(send.data(), count, MPI_INT, want.data(), count, MPI_INT,
                 MPI_COMM_WORLD);
    for (const Mode mode :
         {Mode::blocking, Mode::nonblocking, Mode::persistent}) {
      std::vector<int> got(p * n, -1);
      complete(
          mode,
          [&] {
            ortho::alltoall(comm, send.data(), count, MPI_INT, got.data(),
                            count, MPI_INT);
          },
          [&] {
            return ortho::ialltoall(comm, send.data(), count, MPI_INT,
                                    got.data(), count, MPI_INT);
          },
          [&] {
            return ortho::alltoall_init(comm, send.data(), count, MPI_INT,
                                        got.data(), count, MPI_INT);
          });
      ASSERT_EQ(got, want) << "seed " << seed << " count " << count << " mode "
                           << static_cast<int>(mode);
    }
  }
}

// Each process's block for a peer is two strided ints (a vector datatype
// whose extent is not its size), received as two contiguous ints.
TEST(Pairwise, StridedDatatypesEqualOpenMpisAlltoall) {
  const Comm comm = pairwise_world();
  const auto p = static_cast<std::size_t>(world_size());
  MPI_Datatype pair = MPI_DATATYPE_NULL;
  MPI_Type_vector(2, 1, 3, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Datatype spaced = MPI_DATATYPE_NULL;
  MPI_Type_create_resized(pair, 0, 6 * sizeof(int), &spaced);
  MPI_Type_commit(&spaced);
  const std::vector<int> send = random_ints(6 * p, 99);
  std::vector<int> want(2 * p, -1);
  MPI_Alltoall(send.data(), 1, spaced, want.data(), 2, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> got(2 * p, -1);
  ortho::alltoall(comm, send.data(), 1, spaced, got.data(), 2, MPI_INT);
  EXPECT_EQ(got, want);
  MPI_Type_free(&spaced);
  MPI_Type_free(&pair);
}

TEST(Pairwise, TypedSpansEqualOpenMpisAlltoall) {
  const Comm comm = pairwise_world();
  const auto p = static_cast<std::size_t>(world_size());
  const std::vector<int> send = random_ints(5 * p, 7);
  std::vector<int> want(5 * p, -1);
  MPI_Alltoall(send.data(), 5, MPI_INT, want.data(), 5, MPI_INT,
               MPI_COMM_WORLD);
  std::vector<int> got(5 * p, -1);
  ortho::alltoall(comm, std::span(send), std::span(got));
  EXPECT_EQ(got, want);
}

TEST(Pairwise, RefusesInPlaceAndUnevenSpansBeforeSending) {
  const Comm comm = pairwise_world();
  std::vector<int> buffer(static_cast<std::size_t>(world_size()), 0);
  orthocomm_test::expect_thrown(
      orthocomm_test::thrown_by([&] {
        ortho::alltoall(comm, MPI_IN_PLACE, 1, MPI_INT, buffer.data(), 1,
                        MPI_INT);
      }),
      ErrorClass::buffer, {"ortho::alltoall", "send"});
  orthocomm_test::expect_thrown(
      orthocomm_test::thrown_by([&] {
        ortho::alltoall(comm, buffer.data(), -1, MPI_INT, buffer.data(), 1,
                        MPI_INT);
      }),
      ErrorClass::count, {"ortho::alltoall", "send_count", "-1"});
  if (world_size() > 1) {
    std::vector<int> uneven(static_cast<std::size_t>(world_size()) + 1, 0);
    std::vector<int> recv(uneven.size(), 0);
    orthocomm_test::expect_thrown(
        orthocomm_test::thrown_by(
            [&] { ortho::alltoall(comm, std::span(uneven), std::span(recv)); }),
        ErrorClass::buffer, {"ortho::alltoall", "send"});
  }
}

}  // namespace
