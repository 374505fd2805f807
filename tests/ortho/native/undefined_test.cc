// The combinations ortho leaves undefined on fully connected and bipartite
// communicators raise classic::Error (ErrorClass::comm) naming the function
// and the structure, in every mode and form, before anything is sent (the
// communicator stays usable): scan and exscan on bipartite communicators,
// allgatherw on both. In place on a bipartite communicator is refused as
// classic refuses it (ErrorClass::buffer); alltoallw's MPI_Aint byte
// displacements beyond an int are refused (ErrorClass::arg).
#include <gtest/gtest.h>
#include <mpi.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/exec/mode.h"
#include "ortho/collectives.h"
#include "ortho/operation.h"
#include "tests/ortho/native/native_testing.h"
#include "tests/testing/errors.h"

namespace ortho_native_test {
namespace {

using classic::ErrorClass;
using ortho::Operation;
using orthocomm_test::expect_thrown;
using orthocomm_test::thrown_by;

constexpr Mode kModes[] = {Mode::blocking, Mode::nonblocking, Mode::persistent};

// The communicator still works after a refused call: the members of the
// side (or group) whose data this process receives, counted.
void expect_usable(const Place& place) {
  const int one = 1;
  int total = 0;
  classic::allreduce(place.comm, std::span(&one, 1), std::span(&total, 1),
                     MPI_SUM);
  EXPECT_EQ(total, place.peers());
}

class Undefined : public NativeTest {};

TEST_F(Undefined, ScanAndExscanOnBipartiteNameTheOperationAndBipartite) {
  if (classic::Environment::world_size() < 2) {
    GTEST_SKIP() << "a bipartite communicator needs two groups";
  }
  for (const Place& place : bipartite_places()) {
    SCOPED_TRACE(place.name);
    const std::vector<int> send = {1, 2};
    std::vector<int> recv(2, 0);
    const std::span<const int> s(send);
    const std::span<int> r(recv);
    for (const Mode mode : kModes) {
      const std::string scan_name = ortho::function_name(Operation::scan, mode);
      const std::string exscan_name =
          ortho::function_name(Operation::exscan, mode);
      expect_thrown(thrown_by([&] {
                      (void)ORTHO_IN_MODE(mode, scan, place.comm, s, r,
                                          MPI_SUM);
                    }),
                    ErrorClass::comm, {"scan", "bipartite"}, scan_name + ":");
      expect_thrown(thrown_by([&] {
                      (void)ORTHO_IN_MODE(mode, scan, place.comm, send.data(),
                                          recv.data(), 2, MPI_INT, MPI_SUM);
                    }),
                    ErrorClass::comm, {"scan", "bipartite"}, scan_name + ":");
      expect_thrown(
          thrown_by([&] {
            (void)ORTHO_IN_MODE(mode, exscan, place.comm, s, r, MPI_SUM);
          }),
          ErrorClass::comm, {"exscan", "bipartite"}, exscan_name + ":");
      expect_thrown(thrown_by([&] {
                      (void)ORTHO_IN_MODE(mode, exscan, place.comm, send.data(),
                                          recv.data(), 2, MPI_INT, MPI_SUM);
                    }),
                    ErrorClass::comm, {"exscan", "bipartite"},
                    exscan_name + ":");
    }
    EXPECT_EQ(recv, std::vector<int>(2, 0));
    expect_usable(place);
  }
}

void expect_allgatherw_undefined(const Place& place,
                                 const std::string& structure) {
  SCOPED_TRACE(place.name);
  const int send = 7;
  std::vector<int> recv(static_cast<std::size_t>(place.peers()), 0);
  const std::vector<int> counts(recv.size(), 1);
  std::vector<MPI_Aint> displs;
  for (std::size_t j = 0; j < recv.size(); ++j) {
    displs.push_back(static_cast<MPI_Aint>(j * sizeof(int)));
  }
  const std::vector<MPI_Datatype> types(recv.size(), MPI_INT);
  for (const Mode mode : kModes) {
    const std::string function =
        ortho::function_name(Operation::allgatherw, mode);
    expect_thrown(thrown_by([&] {
                    (void)ORTHO_IN_MODE(mode, allgatherw, place.comm, &send, 1,
                                        MPI_INT, recv.data(), counts, displs,
                                        types);
                  }),
                  ErrorClass::comm, {"allgatherw", structure}, function + ":");
  }
  EXPECT_EQ(recv, std::vector<int>(recv.size(), 0));
  expect_usable(place);
}

TEST_F(Undefined, AllgatherwOnFullyConnected) {
  for (const Place& place : fully_connected_places()) {
    expect_allgatherw_undefined(place, "fully connected");
  }
}

TEST_F(Undefined, AllgatherwOnBipartite) {
  if (classic::Environment::world_size() < 2) {
    GTEST_SKIP() << "a bipartite communicator needs two groups";
  }
  for (const Place& place : bipartite_places()) {
    expect_allgatherw_undefined(place, "bipartite");
  }
}

TEST_F(Undefined, InPlaceOnBipartiteIsRefusedAsClassicRefusesIt) {
  if (classic::Environment::world_size() < 2) {
    GTEST_SKIP() << "a bipartite communicator needs two groups";
  }
  for (const Place& place : bipartite_places()) {
    SCOPED_TRACE(place.name);
    std::vector<int> buffer = {3, 4};
    const std::span<int> b(buffer);
    // classic's blocking form: the class ortho must raise too.
    expect_thrown(thrown_by([&] {
                    classic::allreduce(place.comm, classic::in_place, b,
                                       MPI_SUM);
                  }),
                  ErrorClass::buffer);
    expect_thrown(thrown_by([&] {
                    ortho::allreduce(place.comm, classic::in_place, b, MPI_SUM);
                  }),
                  ErrorClass::buffer);
    EXPECT_EQ(buffer, (std::vector<int>{3, 4}));
    expect_usable(place);
  }
}

// ortho's alltoallw takes MPI_Aint displacements; on fully connected and
// bipartite communicators they must fit classic's int ones.
TEST_F(Undefined, AlltoallwDisplacementsBeyondAnIntAreAnArgError) {
  std::vector<Place> places = fully_connected_places();
  for (Place& place : bipartite_places()) places.push_back(std::move(place));
  constexpr MPI_Aint kFar = MPI_Aint{1} << 33;
  for (const Place& place : places) {
    SCOPED_TRACE(place.name);
    const std::size_t peers = static_cast<std::size_t>(place.peers());
    std::vector<int> send(peers, 1);
    std::vector<int> recv(peers, 0);
    const std::vector<int> counts(peers, 1);
    std::vector<MPI_Aint> displs;
    for (std::size_t j = 0; j < peers; ++j) {
      displs.push_back(static_cast<MPI_Aint>(j * sizeof(int)));
    }
    std::vector<MPI_Aint> far = displs;
    far.back() = kFar;
    const std::vector<MPI_Datatype> types(peers, MPI_INT);
    const std::string last =
        "[" + std::to_string(peers - 1) + "] = " + std::to_string(kFar);
    for (const Mode mode : kModes) {
      const std::string function =
          ortho::function_name(Operation::alltoallw, mode);
      expect_thrown(thrown_by([&] {
                      (void)ORTHO_IN_MODE(mode, alltoallw, place.comm,
                                          send.data(), counts, far, types,
                                          recv.data(), counts, displs, types);
                    }),
                    ErrorClass::arg, {"sdispls" + last}, function + ":");
      expect_thrown(thrown_by([&] {
                      (void)ORTHO_IN_MODE(mode, alltoallw, place.comm,
                                          send.data(), counts, displs, types,
                                          recv.data(), counts, far, types);
                    }),
                    ErrorClass::arg, {"rdispls" + last}, function + ":");
    }
    EXPECT_EQ(recv, std::vector<int>(peers, 0));
    expect_usable(place);
  }
}

}  // namespace
}  // namespace ortho_native_test
