// classic::locality against an independent oracle: MPI_Get_processor_name
// (each simulated host has its own host name). Ranks share a host index
// exactly when they share a name; hosts are numbered by their lowest rank;
// the counts add up; the result is cached on the communicator and its own
// on a reordered split. Run on one host by Bazel and on several by
// tools/test.sh --hosts N.
#include "classic/comm/locality.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <map>
#include <string>
#include <vector>

#include "classic/comm/comm.h"
#include "tests/testing/errors.h"

namespace {

using classic::Comm;

// Each rank's processor name, gathered over comm's processes.
std::vector<std::string> names_of(const Comm& comm, const Comm& world) {
  char mine[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(mine, &length);
  std::vector<char> all(static_cast<std::size_t>(world.size()) *
                        MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(),
                MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
  // comm's rank r is world rank world_of[r].
  std::vector<int> ranks(static_cast<std::size_t>(comm.size()));
  for (int r = 0; r < comm.size(); ++r) ranks[static_cast<std::size_t>(r)] = r;
  const std::vector<int> world_of =
      comm.group().translate_ranks(ranks, world.group());
  std::vector<std::string> names;
  for (const int w : world_of) {
    names.emplace_back(
        &all[static_cast<std::size_t>(w) * MPI_MAX_PROCESSOR_NAME]);
  }
  return names;
}

void expect_matches_names(const Comm& comm) {
  const classic::Locality& found = classic::locality(comm);
  const std::vector<std::string> names = names_of(comm, Comm::world());
  ASSERT_EQ(found.host_of_rank.size(), names.size());
  // Expected: hosts numbered in the order of their lowest rank.
  std::map<std::string, int> host_of_name;
  std::vector<int> expected_counts;
  for (std::size_t r = 0; r < names.size(); ++r) {
    auto [entry, added] = host_of_name.try_emplace(
        names[r], static_cast<int>(host_of_name.size()));
    if (added) expected_counts.push_back(0);
    ++expected_counts[static_cast<std::size_t>(entry->second)];
    EXPECT_EQ(found.host_of_rank[r], entry->second) << "rank " << r;
  }
  EXPECT_EQ(found.processes_on_host, expected_counts);
  EXPECT_EQ(found.hosts(), static_cast<int>(host_of_name.size()));
}

TEST(Locality, MatchesTheProcessorNames) {
  expect_matches_names(Comm::world());
}

TEST(Locality, IsCachedOnTheCommunicator) {
  const Comm copy = Comm::world().dup();
  const classic::Locality& first = classic::locality(copy);
  // Local now: only this process asks again.
  EXPECT_EQ(&classic::locality(copy), &first);
}

TEST(Locality, FollowsTheRanksOfAReversedSplit) {
  const Comm world = Comm::world();
  const Comm reversed = world.split(0, world.size() - world.rank());
  expect_matches_names(reversed);
}

TEST(Locality, BalancedWhenEveryHostHoldsAsMany) {
  classic::Locality even{{0, 0, 1, 1}, {2, 2}};
  EXPECT_TRUE(even.balanced());
  classic::Locality uneven{{0, 0, 0, 1}, {3, 1}};
  EXPECT_FALSE(uneven.balanced());
}

TEST(Locality, RefusesAFreedCommunicatorInItsName) {
  Comm copy = Comm::world().dup();
  copy.free();
  orthocomm_test::expect_error_from([&] { (void)classic::locality(copy); },
                                    classic::ErrorClass::comm,
                                    "classic::locality");
}

}  // namespace
