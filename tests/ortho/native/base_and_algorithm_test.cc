// ortho::topo_test and ortho::comm_base on fully connected and bipartite
// communicators, and the choice of algorithm there: every defined
// operation selects "native"; ortho::set_algorithm and ORTHO_ALGORITHM
// force it, refuse unknown names and operations (ErrorClass::arg naming
// them) and an empty spec restores the default.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/collectives/collectives.h"
#include "classic/comm/comm.h"
#include "classic/groups/group.h"
#include "ortho/collectives.h"
#include "ortho/operation.h"
#include "ortho/structure.h"
#include "ortho/table.h"
#include "tests/classic/testing/intercomm_testing.h"
#include "tests/ortho/native/native_testing.h"
#include "tests/testing/errors.h"

namespace ortho_native_test {
namespace {

using classic::Comm;
using classic::ErrorClass;
using ortho::Operation;
using ortho::Structure;
using orthocomm_test::expect_thrown;
using orthocomm_test::thrown_by;

int world_rank() { return classic::Environment::world_rank(); }
int world_size() { return classic::Environment::world_size(); }

// The world ranks of `comm`'s members in rank order, gathered over `comm`.
std::vector<int> members_of(const Comm& comm) {
  const int me = world_rank();
  std::vector<int> members(at(comm.size()));
  classic::allgather(comm, std::span(&me, 1), std::span(members));
  return members;
}

class Structures : public NativeTest {};

TEST_F(Structures, IntraCommunicatorsAreFullyConnectedAndTheirOwnBase) {
  for (const Place& place : fully_connected_places()) {
    SCOPED_TRACE(place.name);
    EXPECT_EQ(ortho::topo_test(place.comm), Structure::fully_connected);
    EXPECT_EQ(ortho::comm_base(place.comm), place.comm);
    const Comm copy = place.comm.dup();
    EXPECT_EQ(ortho::topo_test(copy), Structure::fully_connected);
    EXPECT_EQ(ortho::comm_base(copy), copy);
    // The base is the communicator: collectives on it reach the group.
    EXPECT_EQ(members_of(ortho::comm_base(place.comm)), place.world_a);
  }
  EXPECT_EQ(ortho::topo_test(Comm::self()), Structure::fully_connected);
  EXPECT_EQ(ortho::comm_base(Comm::self()), Comm::self());
}

class BipartiteStructures : public NativeTest {
 protected:
  void SetUp() override {
    if (world_size() < 2) {
      GTEST_SKIP() << "a bipartite communicator needs two groups";
    }
  }
};

TEST_F(BipartiteStructures, InterCommunicatorsAreBipartite) {
  for (const Place& place : bipartite_places()) {
    SCOPED_TRACE(place.name);
    EXPECT_EQ(ortho::topo_test(place.comm), Structure::bipartite);
    EXPECT_EQ(ortho::to_string(ortho::topo_test(place.comm)), "bipartite");
  }
}

TEST_F(BipartiteStructures, BaseIsTheLocalGroupsCommunicator) {
  for (const Place& place : bipartite_places()) {
    SCOPED_TRACE(place.name);
    const Comm base = ortho::comm_base(place.comm);
    ASSERT_FALSE(base.is_null());
    EXPECT_FALSE(base.is_inter());
    EXPECT_EQ(ortho::topo_test(base), Structure::fully_connected);
    EXPECT_EQ(base.size(), place.comm.size());
    EXPECT_EQ(base.rank(), place.comm.rank());
    EXPECT_EQ(base.size(), place.size());
    EXPECT_EQ(base.rank(), place.rank);
    EXPECT_EQ(base.group().compare(place.comm.group()),
              classic::Comparison::identical);
    EXPECT_EQ(ortho::comm_base(place.comm), base);  // the same every time
    EXPECT_EQ(ortho::comm_base(base), base);        // fully connected
    // Collectives on the base reach the local group only, in its order.
    EXPECT_EQ(members_of(base), place.world_of(place.in_a));
    const int one = 1;
    int total = 0;
    ortho::allreduce(base, std::span(&one, 1), std::span(&total, 1), MPI_SUM);
    EXPECT_EQ(total, place.size());
  }
}

// Once prepared, comm_base is local: only one process asks (were it
// collective, it would wait for the others, already in the barrier).
TEST_F(BipartiteStructures, BaseIsLocalOncePrepared) {
  for (const Place& place : bipartite_places()) {
    SCOPED_TRACE(place.name);
    if (!place.in_a && place.rank == place.size() - 1) {
      const Comm base = ortho::comm_base(place.comm);
      EXPECT_EQ(base.size(), place.size());
      EXPECT_EQ(base.rank(), place.rank);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// An inter-communicator made outside ortho gets its base at the first
// ortho call, collective over both groups.
TEST_F(BipartiteStructures, BaseOfAClassicInterCommunicatorOnFirstUse) {
  const classic::intercomm_testing::Built built =
      classic::intercomm_testing::build(classic::intercomm_testing::halves());
  const Comm base = ortho::comm_base(built.inter);
  EXPECT_EQ(base.size(), built.local.size());
  EXPECT_EQ(base.rank(), built.local.rank());
  EXPECT_EQ(base.group().compare(built.local.group()),
            classic::Comparison::identical);
  EXPECT_EQ(members_of(base), built.sides.mine());
}

// ---- algorithms ------------------------------------------------------------

void expect_native_choices(const Place& place) {
  for (const Operation operation : ortho::all_operations()) {
    SCOPED_TRACE(std::string(ortho::to_string(operation)));
    const Structure structure =
        place.bipartite ? Structure::bipartite : Structure::fully_connected;
    const std::string_view expected =
        ortho::defined_on(operation, structure) ? "native" : "";
    EXPECT_EQ(ortho::selected_algorithm(place.comm, operation), expected);
    EXPECT_EQ(ortho::selected_algorithm(place.comm, operation, 1 << 20),
              expected);
  }
}

// An allgather on `place` still gives every sender's rank.
void expect_allgather_works(const Place& place) {
  const int me = world_rank();
  EXPECT_EQ(ortho::allgather(place.comm, std::span(&me, 1)),
            place.world_of(place.peer_in_a()));
}

std::vector<Place> all_places() {
  std::vector<Place> places = fully_connected_places();
  for (Place& place : bipartite_places()) places.push_back(std::move(place));
  return places;
}

class Algorithms : public NativeTest {};

TEST_F(Algorithms, EveryDefinedOperationSelectsNative) {
  for (const Place& place : all_places()) {
    SCOPED_TRACE(place.name);
    expect_native_choices(place);
  }
  // Scan is undefined on bipartite communicators, allgatherw on both.
  EXPECT_TRUE(ortho::defined_on(Operation::scan, Structure::fully_connected));
  EXPECT_FALSE(ortho::defined_on(Operation::scan, Structure::bipartite));
  EXPECT_FALSE(ortho::defined_on(Operation::exscan, Structure::bipartite));
  EXPECT_FALSE(
      ortho::defined_on(Operation::allgatherw, Structure::fully_connected));
  EXPECT_FALSE(ortho::defined_on(Operation::allgatherw, Structure::bipartite));
}

TEST_F(Algorithms, SetAlgorithmForcesNativeAndEmptyRestores) {
  for (const Place& place : all_places()) {
    SCOPED_TRACE(place.name);
    for (const char* spec :
         {"native", "allgather=native", "bcast=native,,reduce=native",
          "native,alltoallw=native", ""}) {
      SCOPED_TRACE(std::string("spec '") + spec + "'");
      ortho::set_algorithm(place.comm, spec);
      expect_native_choices(place);
      expect_allgather_works(place);
    }
  }
}

// The error of set_algorithm(comm, spec): ErrorClass::arg, from
// ortho::set_algorithm, naming each fragment; the table is left as it was.
void expect_refused(const Place& place, const std::string& spec,
                    const std::vector<std::string>& fragments) {
  SCOPED_TRACE("spec '" + spec + "'");
  expect_thrown(thrown_by([&] { ortho::set_algorithm(place.comm, spec); }),
                ErrorClass::arg, fragments, "ortho::set_algorithm:");
  expect_native_choices(place);
  expect_allgather_works(place);
}

TEST_F(Algorithms, SetAlgorithmRefusesUnknownNamesAndOperations) {
  for (const Place& place : all_places()) {
    SCOPED_TRACE(place.name);
    expect_refused(place, "quantum", {"'quantum'", "no algorithm"});
    expect_refused(place, "allgather=quantum", {"'quantum'", "no algorithm"});
    expect_refused(place, "native,bcast=teleport", {"'teleport'"});
    expect_refused(place, "allgatherx=native", {"'allgatherx'", "operation"});
    expect_refused(place, "=native", {"''", "operation"});
    // Known names, but no such algorithm for the operation here: "direct"
    // is for directed graphs; allgatherw (and, bipartite, scan) has none.
    expect_refused(place, "allgather=direct",
                   {"allgather", "'direct'",
                    place.bipartite ? "bipartite" : "fully connected"});
    expect_refused(place, "allgatherw=native", {"allgatherw", "'native'"});
    if (place.bipartite) {
      expect_refused(place, "scan=native", {"scan", "'native'", "bipartite"});
    }
  }
}

// Sets ORTHO_ALGORITHM while it lives (on this process).
class AlgorithmVariable {
 public:
  explicit AlgorithmVariable(const char* value) {
    setenv("ORTHO_ALGORITHM", value, /*overwrite=*/1);
  }
  AlgorithmVariable(const AlgorithmVariable&) = delete;
  AlgorithmVariable& operator=(const AlgorithmVariable&) = delete;
  ~AlgorithmVariable() { unsetenv("ORTHO_ALGORITHM"); }
};

// A fully connected communicator that ortho has not met yet (split copies
// no attributes, so no table).
Place fresh_fully_connected() {
  Place place = fully_connected_places().front();
  place.name = "a fresh split of the world";
  place.comm = Comm::world().split(0, world_rank());
  return place;
}

TEST_F(Algorithms, EnvironmentOverrideApplies) {
  for (const char* spec : {"native", "alltoall=native,reduce=native"}) {
    SCOPED_TRACE(spec);
    const AlgorithmVariable set(spec);
    const Place place = fresh_fully_connected();
    expect_allgather_works(place);
    expect_native_choices(place);
  }
}

TEST_F(Algorithms, EnvironmentOverrideRefusesUnknownNamesAndOperations) {
  struct Refused {
    const char* spec;
    const char* named;
  };
  for (const Refused& refused : {Refused{"quantum", "'quantum'"},
                                 Refused{"allgatherx=native", "'allgatherx'"},
                                 Refused{"gather=quantum", "'quantum'"}}) {
    SCOPED_TRACE(refused.spec);
    const Place place = fresh_fully_connected();
    {
      const AlgorithmVariable set(refused.spec);
      // The table is made at the first call, which fails on every process
      // before anything is sent; and again at the next.
      expect_thrown(thrown_by([&] {
                      const int me = world_rank();
                      (void)ortho::allgather(place.comm, std::span(&me, 1));
                    }),
                    ErrorClass::arg, {"ORTHO_ALGORITHM", refused.named});
      expect_thrown(thrown_by([&] {
                      (void)ortho::selected_algorithm(place.comm,
                                                      Operation::bcast);
                    }),
                    ErrorClass::arg, {"ORTHO_ALGORITHM", refused.named});
    }
    // Unset again: the communicator gets its table.
    expect_allgather_works(place);
    expect_native_choices(place);
  }
}

// ORTHO_ALGORITHM meets every table of the program: an operation=name item
// whose algorithm this structure does not offer for the operation is left
// out here (a stencil code's fully connected base under alltoallw=direct,
// an algorithm of directed graphs), while one it offers applies.
TEST_F(Algorithms, EnvironmentOverrideLeavesOutWhatTheStructureLacks) {
  const AlgorithmVariable set(
      "alltoallw=direct,gather=per_peer,alltoall=pairwise");
  const Place place = fresh_fully_connected();
  expect_allgather_works(place);
  EXPECT_EQ(ortho::selected_algorithm(place.comm, Operation::alltoallw),
            "native");
  EXPECT_EQ(ortho::selected_algorithm(place.comm, Operation::gather), "native");
  EXPECT_EQ(ortho::selected_algorithm(place.comm, Operation::alltoall),
            "pairwise");
  // set_algorithm names one communicator: there it is still an error.
  expect_thrown(
      thrown_by([&] { ortho::set_algorithm(place.comm, "alltoallw=direct"); }),
      ErrorClass::arg, {"ortho::set_algorithm", "alltoallw", "'direct'"});
}

// A communicator freed through another handle is refused with the name of
// the user's call, not that of classic's attribute lookup underneath.
TEST_F(Algorithms, AFreedCommunicatorIsRefusedInTheNameOfTheCall) {
  const int me = world_rank();
  Comm original = Comm::world().dup();
  const Comm copy = original;  // another handle of the same communicator
  (void)ortho::allgather(copy, std::span(&me, 1));  // ortho has met it
  original.free();
  expect_thrown(
      thrown_by([&] { (void)ortho::allgather(copy, std::span(&me, 1)); }),
      ErrorClass::comm, {"freed"}, "ortho::allgather: ");
  Comm never_met = Comm::world().dup();
  const Comm never_met_copy = never_met;
  never_met.free();
  expect_thrown(thrown_by([&] {
                  (void)ortho::selected_algorithm(never_met_copy,
                                                  Operation::alltoall);
                }),
                ErrorClass::comm, {"freed"}, "ortho::selected_algorithm: ");
}

TEST_F(Algorithms, EnvironmentOverrideOnBipartite) {
  if (world_size() < 2) {
    GTEST_SKIP() << "a bipartite communicator needs two groups";
  }
  const classic::intercomm_testing::Built built =
      classic::intercomm_testing::build(classic::intercomm_testing::halves());
  {
    const AlgorithmVariable set("allreduce=nonesuch");
    // prepare is collective over both groups, and fails on all alike.
    expect_thrown(thrown_by([&] { ortho::prepare(built.inter); }),
                  ErrorClass::arg, {"ORTHO_ALGORITHM", "'nonesuch'"});
  }
  {
    const AlgorithmVariable set("allreduce=native");
    ortho::prepare(built.inter);
  }
  EXPECT_EQ(ortho::selected_algorithm(built.inter, Operation::allreduce),
            "native");
  EXPECT_EQ(ortho::comm_base(built.inter).size(), built.local.size());
}

}  // namespace
}  // namespace ortho_native_test
