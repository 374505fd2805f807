// Checked mode (ortho/checked.h) turns erroneous programs that MPI
// libraries run silently (or hang on) into errors: processes calling
// different collectives, a block size that differs along an edge, roots and
// reduction ops that differ, an argument error on one process. A call
// checked by agreement must raise on every process (the erring one its own
// error); a blocking graph exchange, checked along its edges, on every
// process that receives from a process that differs (on the Moore torus of
// 4 or 9 processes every process receives from every other). Each error
// names what differs and leaves the communicator usable; a correct program
// must deliver what it delivers unchecked.
#include "ortho/checked.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "tests/ortho/testing/moore_torus.h"

namespace {

using classic::Comm;
using classic::ErrorClass;

int degree(const Comm& graph) {
  return classic::dist_graph_neighbors_count(graph).outdegree;
}

// Runs `call`, which must raise on this process: `error_class`, a message
// containing each of `parts`.
void expect_raises(const std::function<void()>& call, ErrorClass error_class,
                   const std::vector<std::string>& parts) {
  try {
    call();
    ADD_FAILURE() << "returned on rank " << Comm::world().rank();
  } catch (const classic::Error& error) {
    EXPECT_EQ(error.error_class(), error_class) << error.what();
    for (const std::string& part : parts) {
      EXPECT_NE(std::string(error.what()).find(part), std::string::npos)
          << "'" << part << "' missing from: " << error.what();
    }
  }
}

// First in the file: the fixture below turns checked mode off after each
// test. Run with ORTHO_CHECK=1 by the target checked_from_environment.
TEST(CheckedFromEnvironment, OrthoCheckTurnsItOn) {
  const char* value = std::getenv("ORTHO_CHECK");
  if (value == nullptr) GTEST_SKIP() << "ORTHO_CHECK unset";
  EXPECT_EQ(ortho::checked(), std::string(value) == "1");
}

class Checked : public ::testing::Test {
 protected:
  void SetUp() override {
    ortho::set_checked(true);
    graph_ = ortho_testing::moore_torus();
    n_ = static_cast<std::size_t>(degree(graph_));
  }
  void TearDown() override { ortho::set_checked(false); }

  bool alone() const { return graph_.size() < 2; }
  int me() const { return graph_.rank(); }

  // A correct alltoall of `ints` ints per block afterwards: the graph
  // still works, with the same result as unchecked.
  void expect_usable() {
    std::vector<int> send(n_ * 2);
    for (std::size_t i = 0; i < send.size(); ++i) {
      send[i] = 1000 * me() + static_cast<int>(i);
    }
    std::vector<int> checked(send.size(), -1);
    ortho::alltoall(graph_, send.data(), 2, MPI_INT, checked.data(), 2,
                    MPI_INT);
    ortho::set_checked(false);
    std::vector<int> unchecked(send.size(), -2);
    ortho::alltoall(graph_, send.data(), 2, MPI_INT, unchecked.data(), 2,
                    MPI_INT);
    ortho::set_checked(true);
    EXPECT_EQ(checked, unchecked);
  }

  Comm graph_;
  std::size_t n_ = 0;
};

TEST_F(Checked, ACorrectProgramDeliversAsUnchecked) { expect_usable(); }

TEST_F(Checked, BarrierAgainstNonBlockingAlltoallRaisesEverywhere) {
  if (alone()) GTEST_SKIP() << "one process calls one collective";
  std::vector<double> send(n_, 1.0);
  std::vector<double> recv(n_, 0.0);
  expect_raises(
      [&] {
        if (me() == 0) {
          ortho::barrier(graph_);
        } else {
          classic::Request request = ortho::ialltoall(
              graph_, send.data(), 1, MPI_DOUBLE, recv.data(), 1, MPI_DOUBLE);
          classic::wait(request);
        }
      },
      ErrorClass::other,
      {"called different collectives", "rank 0 ortho::barrier",
       "ortho::ialltoall"});
  expect_usable();
}

TEST_F(Checked, AllgatherAgainstAlltoallOfEqualSizesRaisesEverywhere) {
  if (alone()) GTEST_SKIP() << "one process calls one collective";
  std::vector<double> send(n_, 1.0);
  std::vector<double> recv(n_, 0.0);
  expect_raises(
      [&] {
        if (me() == 0) {
          ortho::allgather(graph_, send.data(), 1, MPI_DOUBLE, recv.data(), 1,
                           MPI_DOUBLE);
        } else {
          ortho::alltoall(graph_, send.data(), 1, MPI_DOUBLE, recv.data(), 1,
                          MPI_DOUBLE);
        }
      },
      ErrorClass::other, {"rank 0 ortho::allgather", "ortho::alltoall"});
  expect_usable();
}

TEST_F(Checked, ABlockSizeThatDiffersAlongAnEdgeRaisesWhereItArrives) {
  if (alone()) GTEST_SKIP() << "a process agrees with itself";
  // Process 0 sends and expects 2 doubles per block, the others 1.
  const int count = me() == 0 ? 2 : 1;
  std::vector<double> send(n_ * 2, 1.0);
  std::vector<double> recv(n_ * 2, 0.0);
  const auto call = [&] {
    ortho::alltoall(graph_, send.data(), count, MPI_DOUBLE, recv.data(), count,
                    MPI_DOUBLE);
  };
  if (me() == 0) {
    // 8 bytes arrive where it expects 16.
    expect_raises(call, ErrorClass::other,
                  {"ortho::alltoall", "the sizes of an edge differ",
                   "sends 8 bytes to rank 0", "holds 16 bytes"});
  } else {
    // 16 bytes arrive from process 0 where 8 fit.
    expect_raises(call, ErrorClass::truncate,
                  {"ortho::alltoall", "rank 0 sends more than 8 bytes",
                   "to rank " + std::to_string(me())});
  }
  EXPECT_EQ(recv, std::vector<double>(n_ * 2, 0.0)) << "data arrived";
  expect_usable();
}

TEST_F(Checked, MoreBytesThanAReceiveBlockHoldsIsATruncation) {
  if (alone()) GTEST_SKIP() << "a process agrees with itself";
  // Process 0 sends 2 ints per block, every receive block holds 1: process
  // 0 receives what it expects and delivers.
  std::vector<int> send(n_ * 2, 1);
  std::vector<int> recv(n_, 0);
  const auto call = [&] {
    ortho::alltoall(graph_, send.data(), me() == 0 ? 2 : 1, MPI_INT,
                    recv.data(), 1, MPI_INT);
  };
  if (me() == 0) {
    call();
    EXPECT_EQ(recv, std::vector<int>(n_, 1));
  } else {
    expect_raises(call, ErrorClass::truncate,
                  {"rank 0 sends more than 4 bytes", "holds 4 bytes"});
  }
  expect_usable();
}

TEST_F(Checked, PersistentCallsCheckAtInit) {
  if (alone()) GTEST_SKIP() << "a process agrees with itself";
  const int count = me() == 0 ? 2 : 1;
  std::vector<int> send(n_ * 2, 1);
  std::vector<int> recv(n_ * 2, 0);
  expect_raises(
      [&] {
        classic::Request request = ortho::alltoall_init(
            graph_, send.data(), count, MPI_INT, recv.data(), count, MPI_INT);
      },
      ErrorClass::other, {"ortho::alltoall_init", "the sizes of an edge"});
  expect_usable();
}

TEST_F(Checked, RootsThatDifferRaiseEverywhere) {
  if (alone()) GTEST_SKIP() << "a process agrees with itself";
  std::vector<int> data(4, me());
  expect_raises(
      [&] { ortho::bcast(graph_, data.data(), 4, MPI_INT, me() == 0 ? 0 : 1); },
      ErrorClass::other, {"disagree on the root", "rank 0 0", "1"});
  expect_usable();
}

TEST_F(Checked, ReductionOpsThatDifferRaiseEverywhere) {
  if (alone()) GTEST_SKIP() << "a process agrees with itself";
  const Comm world = Comm::world();
  int in = me();
  int out = 0;
  expect_raises(
      [&] {
        ortho::allreduce(world, &in, &out, 1, MPI_INT,
                         me() == 0 ? MPI_MAX : MPI_SUM);
      },
      ErrorClass::other,
      {"disagree on the reduction op", "rank 0 MPI_MAX", "MPI_SUM"});
  expect_raises(
      [&] {
        ortho::allreduce(world, &in, &out, me() == 0 ? 1 : 0, MPI_INT, MPI_SUM);
      },
      ErrorClass::other, {"disagree on the bytes of a block"});
  ortho::allreduce(world, &in, &out, 1, MPI_INT, MPI_SUM);
  EXPECT_EQ(out, world.size() * (world.size() - 1) / 2);
}

TEST_F(Checked, AnArgumentErrorOnOneProcessRaisesEverywhere) {
  std::vector<int> send(n_ * 2, 1);
  std::vector<int> recv(n_ * 2, 0);
  const int last = graph_.size() - 1;
  if (me() == last) {
    expect_raises(
        [&] {
          ortho::alltoall(graph_, send.data(), -1, MPI_INT, recv.data(), -1,
                          MPI_INT);
        },
        ErrorClass::count, {"ortho::alltoall", "is negative"});
  } else {
    expect_raises(
        [&] {
          ortho::alltoall(graph_, send.data(), 1, MPI_INT, recv.data(), 1,
                          MPI_INT);
        },
        ErrorClass::other,
        {"rank " + std::to_string(last) + " raised an error"});
  }
  expect_usable();
}

}  // namespace
