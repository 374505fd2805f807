// Tests run by harness_selftest.sh to show that the MPI harness combines
// results over processes and reports hangs. One test fails on purpose, on
// one chosen rank only, when HARNESS_SELFTEST_FAIL_RANK is set; another
// hangs on purpose on the rank HARNESS_SELFTEST_HANG_RANK names.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "tests/harness/case_label.h"

// The chosen rank of HangsOnChosenRank never returns; the others wait for
// it in the harness's combination of results. Outside the anonymous
// namespace: a hang report names functions with external linkage only
// (others appear as offsets for addr2line).
namespace harness_selftest {
void wait_forever() {
  while (true) std::this_thread::sleep_for(std::chrono::seconds(1));
}
}  // namespace harness_selftest

namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

TEST(HarnessSelfTest, AllRanksAgreeOnWorldSize) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int smallest = 0;
  MPI_Allreduce(&size, &smallest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(smallest, size);
}

TEST(HarnessSelfTest, FailsOnChosenRank) {
  const char* chosen = std::getenv("HARNESS_SELFTEST_FAIL_RANK");
  if (chosen == nullptr) GTEST_SKIP() << "HARNESS_SELFTEST_FAIL_RANK unset";
  EXPECT_NE(world_rank(), std::stoi(chosen)) << "deliberate failure";
}

TEST(HarnessSelfTest, HangsOnChosenRank) {
  const char* chosen = std::getenv("HARNESS_SELFTEST_HANG_RANK");
  if (chosen == nullptr) GTEST_SKIP() << "HARNESS_SELFTEST_HANG_RANK unset";
  orthocomm_test::set_case_label("deliberate hang, case 7");
  if (world_rank() == std::stoi(chosen)) harness_selftest::wait_forever();
}

}  // namespace
