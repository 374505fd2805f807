// ortho's neighbourhood collectives on a classic Cartesian topology, where
// repeated neighbours pair by direction (MPI-4.1 7.6): on a periodic
// dimension of size 2 both neighbours are one process, on one of size 1
// they are the process itself. Every block must land where classic's own
// neighbourhood collective puts it (the reference: classic's neighbour
// tests check it against the standard's rule), with the default algorithm,
// in each mode, with each call's arguments and the next call's alike (the
// second call runs a kept plan). per_peer, which pairs by order, is not
// offered there.
#include "classic/topology/cartesian.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/request.h"
#include "classic/topology/dims_create.h"
#include "ortho/collectives.h"
#include "ortho/table.h"

namespace {

using classic::Comm;
using classic::Mode;

constexpr int kCount = 2;

Comm periodic_grid(int ndims) {
  const Comm world = Comm::world();
  const std::vector<int> dims = classic::dims_create(
      world.size(), std::vector<int>(static_cast<std::size_t>(ndims), 0));
  const std::vector<bool> periods(static_cast<std::size_t>(ndims), true);
  return classic::cart_create(world, dims, periods, classic::Reorder::no);
}

std::vector<int> values(std::size_t n, int me, int call) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    v[i] = 10000 * call + 100 * me + static_cast<int>(i);
  }
  return v;
}

void run(Mode mode, classic::Request request) {
  if (mode == Mode::blocking) return;
  if (mode == Mode::persistent) classic::start(request);
  classic::wait(request);
}

class Cartesian : public ::testing::TestWithParam<int> {};

TEST_P(Cartesian, AlltoallPairsBlocksByDirection) {
  const Comm cart = periodic_grid(GetParam());
  const std::size_t degree = 2 * static_cast<std::size_t>(GetParam());
  for (Mode mode : {Mode::blocking, Mode::nonblocking, Mode::persistent}) {
    for (int call = 0; call < 2; ++call) {
      SCOPED_TRACE("mode " + std::to_string(static_cast<int>(mode)) +
                   ", call " + std::to_string(call));
      const std::vector<int> send = values(degree * kCount, cart.rank(), call);
      std::vector<int> expected(degree * kCount, -1);
      classic::neighbor_alltoall(cart, send.data(), kCount, MPI_INT,
                                 expected.data(), kCount, MPI_INT);
      std::vector<int> got(degree * kCount, -1);
      if (mode == Mode::blocking) {
        ortho::alltoall(cart, send.data(), kCount, MPI_INT, got.data(), kCount,
                        MPI_INT);
      } else {
        run(mode, mode == Mode::persistent
                      ? ortho::alltoall_init(cart, send.data(), kCount, MPI_INT,
                                             got.data(), kCount, MPI_INT)
                      : ortho::ialltoall(cart, send.data(), kCount, MPI_INT,
                                         got.data(), kCount, MPI_INT));
      }
      EXPECT_EQ(got, expected);
    }
  }
}

TEST_P(Cartesian, AlltoallwPairsBlocksByDirection) {
  const Comm cart = periodic_grid(GetParam());
  const std::size_t degree = 2 * static_cast<std::size_t>(GetParam());
  const std::vector<int> counts(degree, kCount);
  std::vector<MPI_Aint> displs(degree);
  for (std::size_t i = 0; i < degree; ++i) {
    displs[i] = static_cast<MPI_Aint>(i * kCount * sizeof(int));
  }
  const std::vector<MPI_Datatype> types(degree, MPI_INT);
  for (int call = 0; call < 2; ++call) {
    const std::vector<int> send = values(degree * kCount, cart.rank(), call);
    std::vector<int> expected(degree * kCount, -1);
    classic::neighbor_alltoallw(cart, send.data(), counts, displs, types,
                                expected.data(), counts, displs, types);
    std::vector<int> got(degree * kCount, -1);
    ortho::alltoallw(cart, send.data(), counts, displs, types, got.data(),
                     counts, displs, types);
    EXPECT_EQ(got, expected) << "call " << call;
  }
}

TEST_P(Cartesian, PerPeerIsNotOffered) {
  const Comm cart = periodic_grid(GetParam());
  try {
    ortho::set_algorithm(cart, "alltoall=per_peer");
    FAIL() << "per_peer was accepted on a Cartesian topology";
  } catch (const classic::Error& error) {
    EXPECT_EQ(error.error_class(), classic::ErrorClass::arg) << error.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Dimensions, Cartesian, ::testing::Values(1, 2, 3));

}  // namespace
