// Differential test: random sequences of group operations applied to
// classic::Group and to Open MPI's MPI_Group_* must agree exactly (members,
// sizes, ranks, translations, comparisons). Group operations are local, so
// every process runs the same sequences from the same seed.
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/groups/group.h"
#include "tests/classic/testing/testing.h"

namespace classic {
namespace {

using testing::from_mpi_comparison;

constexpr int kSequences = 1000;
constexpr int kOperationsPerSequence = 12;
constexpr std::size_t kMaxLiveGroups = 8;

// Open MPI's constants as classic's, so results compare like for like.
int from_mpi_rank(int rank) {
  if (rank == MPI_UNDEFINED) return undefined;
  if (rank == MPI_PROC_NULL) return proc_null;
  return rank;
}

// A pointer Open MPI accepts for a count of zero (never null).
template <typename T>
T* nonnull(std::vector<T>& values) {
  static T dummy{};
  return values.empty() ? &dummy : values.data();
}

// The same group on both sides.
struct GroupPair {
  Group ours;
  MPI_Group theirs;
};

// Live groups of one sequence; frees Open MPI's handles when it goes.
class Pool {
 public:
  Pool() {
    MPI_Group world = MPI_GROUP_NULL;
    MPI_Group self = MPI_GROUP_NULL;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Comm_group(MPI_COMM_SELF, &self);
    add({Group::world(), world});
    add({Group::self(), self});
    add({Group::empty(), MPI_GROUP_EMPTY});
  }
  ~Pool() {
    for (GroupPair& pair : pairs_) release(pair.theirs);
  }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  void add(GroupPair pair) { pairs_.push_back(pair); }
  const GroupPair& last() const { return pairs_.back(); }

  // A random live group; mostly a non-empty one, as empty groups breed.
  const GroupPair& pick(std::mt19937& random) const {
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < pairs_.size(); ++i) {
      if (pairs_[i].ours.size() > 0) candidates.push_back(i);
    }
    std::uniform_int_distribution<int> coin(0, 3);
    if (candidates.empty() || coin(random) == 0) {
      candidates.resize(pairs_.size());
      std::iota(candidates.begin(), candidates.end(), std::size_t{0});
    }
    std::uniform_int_distribution<std::size_t> index(0, candidates.size() - 1);
    return pairs_[candidates[index(random)]];
  }

  // Drops random groups until at most kMaxLiveGroups remain.
  void trim(std::mt19937& random) {
    while (pairs_.size() > kMaxLiveGroups) {
      std::uniform_int_distribution<std::size_t> index(0, pairs_.size() - 1);
      const std::size_t victim = index(random);
      release(pairs_[victim].theirs);
      pairs_.erase(pairs_.begin() + static_cast<std::ptrdiff_t>(victim));
    }
  }

 private:
  // MPI_GROUP_EMPTY is predefined; Open MPI hands it out for empty results.
  static void release(MPI_Group& group) {
    if (group != MPI_GROUP_EMPTY) MPI_Group_free(&group);
  }

  std::vector<GroupPair> pairs_;
};

int mpi_size(MPI_Group group) {
  int size = 0;
  MPI_Group_size(group, &size);
  return size;
}

// Open MPI's members as world ranks, through translate_ranks to the world.
std::vector<int> mpi_members(MPI_Group group) {
  MPI_Group world = MPI_GROUP_NULL;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> ranks(static_cast<std::size_t>(mpi_size(group)));
  std::iota(ranks.begin(), ranks.end(), 0);
  std::vector<int> world_ranks(ranks.size());
  MPI_Group_translate_ranks(group, static_cast<int>(ranks.size()),
                            nonnull(ranks), world, nonnull(world_ranks));
  MPI_Group_free(&world);
  return world_ranks;
}

void expect_same_group(const GroupPair& pair) {
  int their_rank = 0;
  MPI_Group_rank(pair.theirs, &their_rank);
  ASSERT_EQ(pair.ours.size(), mpi_size(pair.theirs));
  ASSERT_EQ(pair.ours.rank(), from_mpi_rank(their_rank));
  ASSERT_EQ(pair.ours.members(), mpi_members(pair.theirs));
}

std::vector<int> shuffled_ranks(int size, std::mt19937& random) {
  std::vector<int> ranks(static_cast<std::size_t>(size));
  std::iota(ranks.begin(), ranks.end(), 0);
  std::shuffle(ranks.begin(), ranks.end(), random);
  return ranks;
}

// Distinct ranks of a group of `size`, in random order, a random number of
// them (often all, which makes reorderings and similar groups).
std::vector<int> random_distinct_ranks(int size, std::mt19937& random) {
  std::vector<int> ranks = shuffled_ranks(size, random);
  std::uniform_int_distribution<int> coin(0, 3);
  if (coin(random) != 0) {
    std::uniform_int_distribution<int> count(0, size);
    ranks.resize(static_cast<std::size_t>(count(random)));
  }
  return ranks;
}

// Oracle expansion of a triplet, by a naive loop.
std::vector<int> expand(const RankRange& range) {
  std::vector<int> ranks;
  for (int r = range.first;
       range.stride > 0 ? r <= range.last : r >= range.last;
       r += range.stride) {
    ranks.push_back(r);
  }
  return ranks;
}

// Up to three triplets that Open MPI accepts: both ends valid ranks, the
// stride towards last (sometimes stepping over it), no rank computed twice.
std::vector<RankRange> random_ranges(int size, std::mt19937& random) {
  std::vector<RankRange> ranges;
  if (size == 0) return ranges;
  std::vector<bool> used(static_cast<std::size_t>(size), false);
  std::uniform_int_distribution<int> rank(0, size - 1);
  std::uniform_int_distribution<int> step(1, size + 1);
  // Mostly one to three triplets, now and then none.
  std::uniform_int_distribution<int> die(0, 9);
  const int roll = die(random);
  for (int t = roll == 0 ? 0 : 1 + roll % 3; t > 0; --t) {
    const int first = rank(random);
    const int last = rank(random);
    const bool down = last < first || (last == first && step(random) % 2 == 0);
    const RankRange range{first, last, down ? -step(random) : step(random)};
    const std::vector<int> ranks = expand(range);
    if (std::any_of(ranks.begin(), ranks.end(),
                    [&used](int r) { return used[r]; })) {
      continue;
    }
    for (int r : ranks) used[r] = true;
    ranges.push_back(range);
  }
  return ranges;
}

// Open MPI's int[][3] form of the triplets (at least one row, never null).
std::unique_ptr<int[][3]> to_mpi_ranges(const std::vector<RankRange>& ranges) {
  auto rows =
      std::make_unique<int[][3]>(std::max<std::size_t>(ranges.size(), 1));
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    rows[i][0] = ranges[i].first;
    rows[i][1] = ranges[i].last;
    rows[i][2] = ranges[i].stride;
  }
  return rows;
}

enum class Operation {
  union_with,
  intersection,
  difference,
  incl,
  excl,
  range_incl,
  range_excl,
  translate_ranks,
  compare,
  kCount,
};

GroupPair binary(Operation operation, const GroupPair& a, const GroupPair& b) {
  MPI_Group theirs = MPI_GROUP_NULL;
  switch (operation) {
    case Operation::union_with:
      MPI_Group_union(a.theirs, b.theirs, &theirs);
      return {a.ours.union_with(b.ours), theirs};
    case Operation::intersection:
      MPI_Group_intersection(a.theirs, b.theirs, &theirs);
      return {a.ours.intersection(b.ours), theirs};
    default:
      MPI_Group_difference(a.theirs, b.theirs, &theirs);
      return {a.ours.difference(b.ours), theirs};
  }
}

GroupPair subset(Operation operation, const GroupPair& a,
                 std::mt19937& random) {
  MPI_Group theirs = MPI_GROUP_NULL;
  std::vector<int> ranks = random_distinct_ranks(a.ours.size(), random);
  const int n = static_cast<int>(ranks.size());
  if (operation == Operation::incl) {
    MPI_Group_incl(a.theirs, n, nonnull(ranks), &theirs);
    return {a.ours.incl(ranks), theirs};
  }
  MPI_Group_excl(a.theirs, n, nonnull(ranks), &theirs);
  return {a.ours.excl(ranks), theirs};
}

GroupPair ranged(Operation operation, const GroupPair& a,
                 std::mt19937& random) {
  MPI_Group theirs = MPI_GROUP_NULL;
  const std::vector<RankRange> ranges = random_ranges(a.ours.size(), random);
  const auto rows = to_mpi_ranges(ranges);
  const int n = static_cast<int>(ranges.size());
  if (operation == Operation::range_incl) {
    MPI_Group_range_incl(a.theirs, n, rows.get(), &theirs);
    return {a.ours.range_incl(ranges), theirs};
  }
  MPI_Group_range_excl(a.theirs, n, rows.get(), &theirs);
  return {a.ours.range_excl(ranges), theirs};
}

void check_translate(const GroupPair& a, const GroupPair& b,
                     std::mt19937& random) {
  std::vector<int> ranks;
  std::uniform_int_distribution<int> count(0, 2 * a.ours.size() + 1);
  std::uniform_int_distribution<int> pick(-1, a.ours.size() - 1);
  for (int k = count(random); k > 0; --k) {
    const int rank = pick(random);
    // Open MPI 4.1 translates MPI_PROC_NULL from or into an empty group as
    // MPI_UNDEFINED, against MPI-2.1; group_test covers our proc_null there.
    if (rank >= 0) {
      ranks.push_back(rank);
    } else if (a.ours.size() > 0 && b.ours.size() > 0) {
      ranks.push_back(MPI_PROC_NULL);
    }
  }
  std::vector<int> theirs(ranks.size());
  MPI_Group_translate_ranks(a.theirs, static_cast<int>(ranks.size()),
                            nonnull(ranks), b.theirs, nonnull(theirs));
  std::transform(theirs.begin(), theirs.end(), theirs.begin(), from_mpi_rank);
  std::vector<int> ours_in = ranks;
  std::replace(ours_in.begin(), ours_in.end(), MPI_PROC_NULL, proc_null);
  ASSERT_EQ(a.ours.translate_ranks(ours_in, b.ours), theirs);
}

void check_compare(const GroupPair& a, const GroupPair& b) {
  int result = MPI_UNEQUAL;
  MPI_Group_compare(a.theirs, b.theirs, &result);
  ASSERT_EQ(a.ours.compare(b.ours), from_mpi_comparison(result));
}

std::string name_of(Operation operation) {
  static const char* const names[] = {
      "union",      "intersection", "difference",      "incl",   "excl",
      "range_incl", "range_excl",   "translate_ranks", "compare"};
  return names[static_cast<int>(operation)];
}

void run_step(Pool& pool, std::mt19937& random) {
  std::uniform_int_distribution<int> choose(
      0, static_cast<int>(Operation::kCount) - 1);
  const auto operation = static_cast<Operation>(choose(random));
  SCOPED_TRACE("operation " + name_of(operation));
  const GroupPair a = pool.pick(random);
  const GroupPair b = pool.pick(random);
  switch (operation) {
    case Operation::translate_ranks:
      return check_translate(a, b, random);
    case Operation::compare:
      return check_compare(a, b);
    case Operation::union_with:
    case Operation::intersection:
    case Operation::difference:
      pool.add(binary(operation, a, b));
      break;
    case Operation::incl:
    case Operation::excl:
      pool.add(subset(operation, a, random));
      break;
    default:
      pool.add(ranged(operation, a, random));
      break;
  }
  // The new group, against Open MPI's and against the operands.
  const GroupPair& result = pool.last();
  expect_same_group(result);
  if (::testing::Test::HasFatalFailure()) return;
  check_compare(result, a);
  check_compare(result, b);
}

TEST(GroupVsOpenMpiTest, PredefinedGroupsAgree) {
  MPI_Group world = MPI_GROUP_NULL;
  MPI_Group self = MPI_GROUP_NULL;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Comm_group(MPI_COMM_SELF, &self);
  expect_same_group({Group::world(), world});
  expect_same_group({Group::self(), self});
  expect_same_group({Group::empty(), MPI_GROUP_EMPTY});
  MPI_Group_free(&world);
  MPI_Group_free(&self);
}

TEST(GroupVsOpenMpiTest, RandomSequencesAgree) {
  std::mt19937 random(20240611);
  for (int sequence = 0; sequence < kSequences; ++sequence) {
    SCOPED_TRACE("sequence " + std::to_string(sequence));
    Pool pool;
    for (int step = 0; step < kOperationsPerSequence; ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      run_step(pool, random);
      if (HasFatalFailure()) return;
      pool.trim(random);
    }
  }
}

}  // namespace
}  // namespace classic
