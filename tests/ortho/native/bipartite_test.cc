// ortho's collectives on bipartite communicators (inter-communicators made
// by classic::intercomm_create between two uneven halves of the world, and
// between the evens and the odds): the 15 operations MPI defines there,
// raw and typed, with roots on either side, equal to classic's blocking
// collectives on the same random inputs.
// The non-blocking and persistent forms (plans of classic's executor on the
// inter-communicator) are compared with the blocking results too.
#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <string>

#include "classic/base/environment.h"
#include "classic/exec/mode.h"
#include "ortho/operation.h"
#include "tests/ortho/native/native_cases.h"
#include "tests/ortho/native/native_testing.h"

namespace ortho_native_test {
namespace {

using ortho::Operation;

constexpr int kIterations = 30;
constexpr Form kForms[] = {Form::typed, Form::raw};

// Runs kIterations random cases of `operation` on every bipartite place in
// `mode` and both forms against classic's blocking collective.
void check_bipartite(Operation operation, Mode mode) {
  const unsigned salt = 1000u + 100u * static_cast<unsigned>(operation) +
                        static_cast<unsigned>(mode);
  for (const Place& place : bipartite_places()) {
    Random shared(classic::testing::kSeed + salt);
    Random local(classic::testing::kSeed + salt +
                 7919u *
                     static_cast<unsigned>(classic::Environment::world_rank()));
    for (int iteration = 0; iteration < kIterations; ++iteration) {
      const std::unique_ptr<Case> c =
          make_case(operation, place, shared, local);
      if (c == nullptr) return;  // make_case failed the test
      SCOPED_TRACE(c->describe() + " on " + place.name + ", iteration " +
                   std::to_string(iteration) + ", side " +
                   (place.in_a ? "A" : "B") + " rank " +
                   std::to_string(place.rank));
      for (const Form form : kForms) {
        if (form == Form::typed && !c->has_typed_form()) continue;
        check_mode(*c, local, mode, form);
      }
    }
  }
}

class Bipartite : public ::testing::TestWithParam<Operation> {
 protected:
  void SetUp() override {
    if (classic::Environment::world_size() < 2) {
      GTEST_SKIP() << "a bipartite communicator needs two groups";
    }
  }
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }
};

TEST_P(Bipartite, BlockingEqualsClassicBlocking) {
  check_bipartite(GetParam(), Mode::blocking);
}

TEST_P(Bipartite, NonblockingEqualsBlocking) {
  check_bipartite(GetParam(), Mode::nonblocking);
}

TEST_P(Bipartite, PersistentEqualsBlocking) {
  check_bipartite(GetParam(), Mode::persistent);
}

INSTANTIATE_TEST_SUITE_P(All15, Bipartite,
                         ::testing::ValuesIn(bipartite_operations()),
                         [](const ::testing::TestParamInfo<Operation>& info) {
                           return std::string(ortho::to_string(info.param));
                         });

TEST(BipartiteOperations, AreMpis17ButScanAndExscan) {
  EXPECT_EQ(bipartite_operations().size(), 15u);
  for (const Operation operation : bipartite_operations()) {
    EXPECT_NE(operation, Operation::scan);
    EXPECT_NE(operation, Operation::exscan);
  }
}

}  // namespace
}  // namespace ortho_native_test
