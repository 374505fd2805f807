// ortho's collectives on fully connected communicators (intra-communicators,
// the "native" algorithm): all 17 operations, raw and typed, blocking,
// non-blocking (completed by classic::wait) and persistent (started twice
// with fresh contents), and the in-place typed and raw forms of gather,
// scatter, reduce and allreduce, each equal to classic's blocking
// collective on the same random inputs, on the world and on a split with
// ranks that differ from world ranks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "classic/base/environment.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/operation.h"
#include "tests/ortho/native/native_cases.h"
#include "tests/ortho/native/native_testing.h"

namespace ortho_native_test {
namespace {

using ortho::Operation;

constexpr int kIterations = 30;
constexpr Mode kModes[] = {Mode::blocking, Mode::nonblocking, Mode::persistent};
constexpr Form kForms[] = {Form::typed, Form::raw};

using MakeCase = std::unique_ptr<Case> (*)(Operation, const Place&, Random&,
                                           Random&);

// Runs kIterations random cases of `operation` on every fully connected
// place, in every mode and form, against classic's blocking collective.
void check_everywhere(Operation operation, MakeCase make, unsigned salt) {
  for (const Place& place : fully_connected_places()) {
    Random shared(classic::testing::kSeed + salt);
    Random local(classic::testing::kSeed + salt +
                 7919u *
                     static_cast<unsigned>(classic::Environment::world_rank()));
    for (int iteration = 0; iteration < kIterations; ++iteration) {
      const std::unique_ptr<Case> c = make(operation, place, shared, local);
      ASSERT_NE(c, nullptr);
      SCOPED_TRACE(c->describe() + " on " + place.name + ", iteration " +
                   std::to_string(iteration) + ", rank " +
                   std::to_string(place.rank) + " of " +
                   std::to_string(place.size()));
      for (const Form form : kForms) {
        if (form == Form::typed && !c->has_typed_form()) continue;
        for (const Mode mode : kModes) {
          check_mode(*c, local, mode, form);
        }
      }
    }
  }
}

std::string operation_name(const ::testing::TestParamInfo<Operation>& info) {
  return std::string(ortho::to_string(info.param));
}

unsigned salt_of(Operation operation) {
  return 100u * (static_cast<unsigned>(operation) + 1);
}

class FullyConnected : public ::testing::TestWithParam<Operation> {
 protected:
  void TearDown() override { MPI_Barrier(MPI_COMM_WORLD); }
};

TEST_P(FullyConnected, EveryModeAndFormEqualsClassicBlocking) {
  check_everywhere(GetParam(), &make_case, salt_of(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(All17, FullyConnected,
                         ::testing::ValuesIn(fully_connected_operations()),
                         operation_name);

class FullyConnectedInPlace : public FullyConnected {};

TEST_P(FullyConnectedInPlace, EveryModeAndFormEqualsClassicBlocking) {
  check_everywhere(GetParam(), &make_in_place_case, salt_of(GetParam()) + 7u);
}

INSTANTIATE_TEST_SUITE_P(InPlace, FullyConnectedInPlace,
                         ::testing::ValuesIn(in_place_operations()),
                         operation_name);

// Several ortho collectives outstanding at once (non-blocking ones, then
// persistent ones started together by classic::start_all), completed in
// the reverse order, each equal to classic's blocking collective.
TEST_F(FullyConnected, SeveralOutstandingCompleteInAnyOrder) {
  const std::vector<Operation> operations = fully_connected_operations();
  for (const Place& place : fully_connected_places()) {
    Random shared(classic::testing::kSeed + 77u);
    Random local(classic::testing::kSeed + 77u +
                 7919u *
                     static_cast<unsigned>(classic::Environment::world_rank()));
    for (int iteration = 0; iteration < kIterations; ++iteration) {
      std::vector<std::unique_ptr<Case>> cases;
      std::vector<Form> forms;
      std::string described;
      for (int i = 0; i < 4; ++i) {
        const Operation operation = operations[at(classic::testing::uniform(
            shared, 0, static_cast<int>(operations.size()) - 1))];
        cases.push_back(make_case(operation, place, shared, local));
        ASSERT_NE(cases.back(), nullptr);
        forms.push_back(cases.back()->has_typed_form()
                            ? classic::testing::draw_form(shared)
                            : Form::raw);
        described += (i == 0 ? "" : ", ") + cases.back()->describe() + " (" +
                     to_string(forms.back()) + ")";
      }
      SCOPED_TRACE(described + " on " + place.name + ", iteration " +
                   std::to_string(iteration));
      std::vector<classic::Request> requests;
      // Non-blocking.
      for (std::size_t i = 0; i < cases.size(); ++i) {
        cases[i]->fill(local);
        (void)cases[i]->run(Api::classic, Mode::blocking, forms[i]);
      }
      for (std::size_t i = 0; i < cases.size(); ++i) {
        cases[i]->restore_arrays();
        requests.push_back(
            cases[i]->run(Api::ortho, Mode::nonblocking, forms[i]));
        cases[i]->scramble_arrays();
      }
      for (std::size_t i = requests.size(); i-- > 0;) {
        classic::wait(requests[i]);
      }
      for (const auto& c : cases) c->compare();
      // Persistent, started together twice.
      requests.clear();
      for (std::size_t i = 0; i < cases.size(); ++i) {
        cases[i]->fill(local);
        cases[i]->restore_arrays();
        requests.push_back(
            cases[i]->run(Api::ortho, Mode::persistent, forms[i]));
        cases[i]->scramble_arrays();
      }
      for (int s = 0; s < kStarts; ++s) {
        for (std::size_t i = 0; i < cases.size(); ++i) {
          cases[i]->fill(local);
          (void)cases[i]->run(Api::classic, Mode::blocking, forms[i]);
        }
        classic::start_all(requests);
        for (std::size_t i = requests.size(); i-- > 0;) {
          classic::wait(requests[i]);
          EXPECT_TRUE(requests[i].is_inactive());
        }
        for (const auto& c : cases) c->compare();
      }
    }
  }
}

TEST(FullyConnectedOperations, AreMpis17) {
  EXPECT_EQ(fully_connected_operations().size(), 17u);
}

}  // namespace
}  // namespace ortho_native_test
