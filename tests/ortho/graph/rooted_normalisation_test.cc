// The rooted and reducing collectives on a directed graph are checked by one
// normalisation before the choice of algorithm (ortho/internal/rooted.h):
// allreduce on a 2-d Moore torus planned on 2 hosts raises the same class
// from ortho's function for each faulty argument whichever of its
// algorithms is forced (direct, combining's box reduction, node_aware), in
// each mode, on every process, and the communicator works afterwards.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <functional>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "ortho/table.h"
#include "tests/ortho/graph/graph_testing.h"
#include "tests/ortho/testing/moore_torus.h"
#include "tests/testing/errors.h"

namespace {

using classic::ErrorClass;
using classic::Mode;
using classic::Request;
using ortho_graph_testing::in_mode;
using ortho_graph_testing::kModes;

// The 2-d Moore torus of ortho_testing, planned on 2 hosts, with
// `algorithm` forced for allreduce.
classic::Comm moore_graph(const std::string& algorithm) {
  setenv("ORTHO_HOSTS", "2", 1);
  classic::Comm graph = ortho_testing::moore_torus();
  unsetenv("ORTHO_HOSTS");
  ortho::set_algorithm(graph, "allreduce=" + algorithm);
  return graph;
}

// "ortho::allreduce", "ortho::iallreduce", "ortho::allreduce_init".
std::string function(Mode mode) {
  return std::string("ortho::") + (mode == Mode::nonblocking ? "i" : "") +
         "allreduce" + (mode == Mode::persistent ? "_init" : "");
}

// A raw allreduce with these arguments, in each mode.
std::function<Request(Mode)> raw(const classic::Comm& comm, const void* send,
                                 void* recv, int count, MPI_Datatype datatype,
                                 MPI_Op op) {
  return [=](Mode mode) {
    return in_mode(
        mode, [&] { ortho::allreduce(comm, send, recv, count, datatype, op); },
        [&] {
          return ortho::iallreduce(comm, send, recv, count, datatype, op);
        },
        [&] {
          return ortho::allreduce_init(comm, send, recv, count, datatype, op);
        });
  };
}

// A typed allreduce of `send` into `recv`, in each mode.
std::function<Request(Mode)> typed(const classic::Comm& comm,
                                   std::span<const int> send,
                                   std::span<int> recv) {
  return [=](Mode mode) {
    return in_mode(
        mode, [&] { ortho::allreduce(comm, send, recv, MPI_SUM); },
        [&] { return ortho::iallreduce(comm, send, recv, MPI_SUM); },
        [&] { return ortho::allreduce_init(comm, send, recv, MPI_SUM); });
  };
}

struct Fault {
  std::string what;
  std::function<Request(Mode)> call;
  ErrorClass expected;
  std::string fragment;
};

TEST(RootedNormalisation, AllreduceFaultsRaiseAlikeUnderEveryAlgorithm) {
  const std::vector<int> send = {1, 2, 3};
  std::vector<int> recv(3, -1);
  const std::vector<int> short_recv(2, -1);
  for (const std::string algorithm : {"direct", "combining", "node_aware"}) {
    SCOPED_TRACE(algorithm);
    const classic::Comm comm = moore_graph(algorithm);
    ASSERT_EQ(ortho::selected_algorithm(comm, ortho::Operation::allreduce, 4),
              algorithm);
    std::vector<int> too_short(2, -1);
    const std::vector<Fault> faults = {
        {"a negative count",
         raw(comm, send.data(), recv.data(), -1, MPI_INT, MPI_SUM),
         ErrorClass::count, "count"},
        {"no datatype",
         raw(comm, send.data(), recv.data(), 3, MPI_DATATYPE_NULL, MPI_SUM),
         ErrorClass::datatype, "datatype"},
        {"no op", raw(comm, send.data(), recv.data(), 3, MPI_INT, MPI_OP_NULL),
         ErrorClass::op, "op"},
        {"recv in place",
         raw(comm, send.data(), MPI_IN_PLACE, 3, MPI_INT, MPI_SUM),
         ErrorClass::buffer, "recv"},
        {"a recv span shorter than send",
         typed(comm, send, std::span<int>(too_short)), ErrorClass::buffer,
         "recv"},
    };
    for (const Fault& fault : faults) {
      for (const Mode mode : kModes) {
        SCOPED_TRACE(fault.what + " in " + function(mode));
        orthocomm_test::expect_thrown(
            orthocomm_test::thrown_by([&] { (void)fault.call(mode); }),
            fault.expected, {fault.fragment}, function(mode) + ":");
      }
    }
    EXPECT_EQ(too_short, short_recv) << "a refused call wrote its buffer";
    // Nothing was sent: the communicator still reduces every process's
    // rank over its in-neighbours.
    const int me = comm.rank();
    int sum = -1;
    ortho::allreduce(comm, &me, &sum, 1, MPI_INT, MPI_SUM);
    const std::vector<int> sources =
        classic::dist_graph_neighbors(comm).sources;
    EXPECT_EQ(sum, std::accumulate(sources.begin(), sources.end(), 0));
  }
}

}  // namespace
