// Neighbourhood-collective cases on which MPI libraries have had bugs, for
// ortho on directed graphs and classic's neighbourhood collectives, in all
// three modes: a process with no in- and no out-neighbours passing empty
// count, displacement and datatype arrays and null buffers (it must
// neither raise, truncate nor wait), and a graph without any edge. The
// other processes form a ring (a self loop where one process is left),
// whose blocks are checked against what the neighbour sent. (Repeated
// neighbours on periodic dimensions of size 1 and 2, and MPI-4.1's pairing
// there, are cartesian_test's; alltoallw with fewer than 6 processes runs
// in neighborhood_vs_openmpi_test at 1 to 5 processes.)
#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <functional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/graph/dist_graph.h"
#include "classic/neighbor/neighbor_collectives.h"
#include "classic/p2p/request.h"
#include "ortho/collectives.h"
#include "ortho/dist_graph.h"

namespace {

using classic::Comm;
using classic::Mode;
using classic::Request;

constexpr std::array<Mode, 3> kModes = {Mode::blocking, Mode::nonblocking,
                                        Mode::persistent};

std::string name_of(Mode mode) {
  return mode == Mode::blocking      ? "blocking"
         : mode == Mode::nonblocking ? "non-blocking"
                                     : "persistent";
}

// Completes what a call in `mode` returned (nothing for blocking).
void complete(Mode mode, Request request) {
  if (mode == Mode::blocking) return;
  if (mode == Mode::persistent) {
    classic::start(request);
    classic::wait(request);
    classic::start(request);  // and once more: a restart is as good
  }
  classic::wait(request);
}

// The call of one operation in `mode` with the given arguments.
#define IN_MODE(mode, op, ...)                \
  [&]() -> Request {                          \
    switch (mode) {                           \
      case Mode::blocking:                    \
        ortho::op(__VA_ARGS__);               \
        return Request();                     \
      case Mode::nonblocking:                 \
        return ortho::i##op(__VA_ARGS__);     \
      default:                                \
        return ortho::op##_init(__VA_ARGS__); \
    }                                         \
  }()

// Whose collectives run: ortho's (on ortho's graph) or classic's
// neighbourhood collectives (on classic's).
enum class Library { ortho, classic };

// One neighbourhood collective of `library` in `mode` (classic has no
// allgatherw).
#define EITHER(library, mode, op, ...)                          \
  ((library) == Library::ortho ? IN_MODE(mode, op, __VA_ARGS__) \
                               : classic::neighbor_##op(__VA_ARGS__, mode))

Comm graph_of(Library library, const Comm& world, std::span<const int> sources,
              std::span<const int> destinations) {
  return library == Library::ortho ? ortho::dist_graph_create_adjacent(
                                         world, sources, classic::unweighted,
                                         destinations, classic::unweighted)
                                   : classic::dist_graph_create_adjacent(
                                         world, sources, classic::unweighted,
                                         destinations, classic::unweighted);
}

// Rank 0 alone: no neighbours. The others: a ring over 1 .. p-1.
struct RingWithALoner {
  RingWithALoner(const Comm& world, Library library) : me(world.rank()) {
    const int p = world.size();
    if (me > 0) {
      next = me == p - 1 ? 1 : me + 1;
      previous = me == 1 ? p - 1 : me - 1;
      sources = {previous};
      destinations = {next};
    }
    graph = graph_of(library, world, sources, destinations);
  }
  bool alone() const { return me == 0; }
  int me;
  int next = -1;
  int previous = -1;
  std::vector<int> sources;
  std::vector<int> destinations;
  Comm graph;
};

class Conformance : public ::testing::TestWithParam<std::tuple<Library, Mode>> {
 protected:
  Library library() const { return std::get<0>(GetParam()); }
  Mode mode() const { return std::get<1>(GetParam()); }
};

TEST_P(Conformance, AProcessWithoutNeighboursPassesEmptyArrays) {
  const Mode mode = this->mode();
  const Library library = this->library();
  RingWithALoner ring(Comm::world(), library);
  const Comm& g = ring.graph;
  // The loner's arguments: null buffers, empty arrays.
  const bool alone = ring.alone();
  const std::vector<int> ones(alone ? 0 : 1, 1);
  const std::vector<int> zeros(alone ? 0 : 1, 0);
  const std::vector<MPI_Aint> no_bytes(alone ? 0 : 1, 0);
  const std::vector<MPI_Datatype> ints(alone ? 0 : 1, MPI_INT);
  int send = 1000 + ring.me;
  int recv = -1;
  int* const out = alone ? nullptr : &recv;
  const int* const in = alone ? nullptr : &send;
  const int expected = 1000 + ring.previous;
  const auto check = [&](const char* op) {
    if (!alone) {
      EXPECT_EQ(recv, expected) << op << ", " << name_of(mode);
    }
    recv = -1;
  };
  complete(mode, EITHER(library, mode, allgather, g, in, 1, MPI_INT, out, 1,
                        MPI_INT));
  check("allgather");
  complete(mode, EITHER(library, mode, allgatherv, g, in, 1, MPI_INT, out, ones,
                        zeros, MPI_INT));
  check("allgatherv");
  if (library == Library::ortho) {
    complete(mode, IN_MODE(mode, allgatherw, g, in, 1, MPI_INT, out, ones,
                           no_bytes, ints));
    check("allgatherw");
  }
  complete(mode,
           EITHER(library, mode, alltoall, g, in, 1, MPI_INT, out, 1, MPI_INT));
  check("alltoall");
  complete(mode, EITHER(library, mode, alltoallv, g, in, ones, zeros, MPI_INT,
                        out, ones, zeros, MPI_INT));
  check("alltoallv");
  complete(mode, EITHER(library, mode, alltoallw, g, in, ones, no_bytes, ints,
                        out, ones, no_bytes, ints));
  check("alltoallw");
}

TEST_P(Conformance, AGraphWithoutEdgesCompletesEverywhere) {
  const Mode mode = this->mode();
  const Library library = this->library();
  const std::vector<int> none;
  const Comm g = graph_of(library, Comm::world(), none, none);
  const std::vector<MPI_Aint> no_bytes;
  const std::vector<MPI_Datatype> no_types;
  // Counts of the uniform forms need not be 0: nothing is sent.
  complete(mode, EITHER(library, mode, allgather, g, nullptr, 3, MPI_INT,
                        nullptr, 3, MPI_INT));
  complete(mode, EITHER(library, mode, allgatherv, g, nullptr, 3, MPI_INT,
                        nullptr, none, none, MPI_INT));
  if (library == Library::ortho) {
    complete(mode, IN_MODE(mode, allgatherw, g, nullptr, 3, MPI_INT, nullptr,
                           none, no_bytes, no_types));
  }
  complete(mode, EITHER(library, mode, alltoall, g, nullptr, 3, MPI_INT,
                        nullptr, 3, MPI_INT));
  complete(mode, EITHER(library, mode, alltoallv, g, nullptr, none, none,
                        MPI_INT, nullptr, none, none, MPI_INT));
  complete(mode, EITHER(library, mode, alltoallw, g, nullptr, none, no_bytes,
                        no_types, nullptr, none, no_bytes, no_types));
  SUCCEED();
}

INSTANTIATE_TEST_SUITE_P(
    LibrariesAndModes, Conformance,
    ::testing::Combine(::testing::Values(Library::ortho, Library::classic),
                       ::testing::ValuesIn(kModes)),
    [](const ::testing::TestParamInfo<std::tuple<Library, Mode>>& info) {
      const Mode mode = std::get<1>(info.param);
      return std::string(std::get<0>(info.param) == Library::ortho
                             ? "ortho_"
                             : "classic_") +
             (mode == Mode::blocking      ? "blocking"
              : mode == Mode::nonblocking ? "nonblocking"
                                          : "persistent");
    });

}  // namespace
