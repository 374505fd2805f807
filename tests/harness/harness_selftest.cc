// Tests run by harness_selftest.sh to show that the MPI harness combines
// results over processes. One test fails on purpose, on one chosen rank only,
// when HARNESS_SELFTEST_FAIL_RANK is set.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <string>

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

}  // namespace
