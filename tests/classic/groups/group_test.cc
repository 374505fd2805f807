// Tests of classic::Group against the definitions of MPI-1 section 5.3 (and
// the MPI-2.1 proc_null rule), at any number of processes. Expected values
// come from naive oracles written from the standard's text.
#include "classic/groups/group.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "tests/classic/testing/testing.h"
#include "tests/testing/errors.h"

namespace classic {
namespace {

using orthocomm_test::Thrown;
using orthocomm_test::thrown_by;
using orthocomm_test::thrown_class;

using testing::iota_vector;
using testing::reversed;
using testing::world_rank;
using testing::world_size;

// {1, 2, ..., n-1, 0}: no arithmetic progression once n >= 3.
std::vector<int> rotated_by_one(int n) {
  std::vector<int> values = iota_vector(n);
  if (n > 0) std::rotate(values.begin(), values.begin() + 1, values.end());
  return values;
}

// The largest odd number below n (-1 when there is none).
int largest_odd_below(int n) { return n % 2 == 0 ? n - 1 : n - 2; }

bool contains(const std::vector<int>& values, int value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// Oracles: the standard's definitions, element by element.
std::vector<int> naive_union(const std::vector<int>& a,
                             const std::vector<int>& b) {
  std::vector<int> result = a;
  for (int x : b) {
    if (!contains(a, x)) result.push_back(x);
  }
  return result;
}

std::vector<int> naive_intersection(const std::vector<int>& a,
                                    const std::vector<int>& b) {
  std::vector<int> result;
  for (int x : a) {
    if (contains(b, x)) result.push_back(x);
  }
  return result;
}

std::vector<int> naive_difference(const std::vector<int>& a,
                                  const std::vector<int>& b) {
  std::vector<int> result;
  for (int x : a) {
    if (!contains(b, x)) result.push_back(x);
  }
  return result;
}

// first, first + stride, ... while not past last (stride != 0, direction
// towards last).
std::vector<int> naive_range(int first, int last, int stride) {
  std::vector<int> ranks;
  for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) {
    ranks.push_back(r);
  }
  return ranks;
}

std::vector<int> at(const std::vector<int>& members,
                    const std::vector<int>& ranks) {
  std::vector<int> chosen;
  for (int r : ranks) chosen.push_back(members[static_cast<std::size_t>(r)]);
  return chosen;
}

// Groups of every shape the tests combine: progressions, explicit lists,
// the caller alone, nobody.
std::vector<Group> sample_groups() {
  const int p = world_size();
  const Group world = Group::world();
  const std::vector<int> odds_down = naive_range(largest_odd_below(p), 1, -2);
  std::vector<Group> groups = {
      world,
      world.incl(reversed(iota_vector(p))),
      world.incl(rotated_by_one(p)),
      world.incl(naive_range(0, p - 1, 2)),
      Group::self(),
      Group::empty(),
  };
  if (!odds_down.empty()) groups.push_back(world.incl(odds_down));
  return groups;
}

// ---------------------------------------------------------------- accessors

TEST(GroupTest, WorldHoldsEveryProcessInWorldOrder) {
  const Group world = Group::world();
  EXPECT_EQ(world.size(), world_size());
  EXPECT_EQ(world.rank(), world_rank());
  EXPECT_EQ(world.members(), iota_vector(world_size()));
  for (int r = 0; r < world_size(); ++r) EXPECT_EQ(world.world_rank_of(r), r);
}

TEST(GroupTest, SelfHoldsOnlyTheCaller) {
  const Group self = Group::self();
  EXPECT_EQ(self.size(), 1);
  EXPECT_EQ(self.rank(), 0);
  EXPECT_EQ(self.members(), std::vector<int>{world_rank()});
}

TEST(GroupTest, EmptyGroupHasNoMembersAndNoRank) {
  const Group empty = Group::empty();
  EXPECT_FALSE(empty.is_null());
  EXPECT_EQ(empty.size(), 0);
  EXPECT_EQ(empty.rank(), undefined);
  EXPECT_TRUE(empty.members().empty());
}

TEST(GroupTest, DefaultGroupIsNull) {
  EXPECT_TRUE(Group().is_null());
  EXPECT_FALSE(Group::world().is_null());
}

TEST(GroupTest, RankIsUndefinedForNonMembers) {
  const Group others = Group::world().excl(std::vector<int>{world_rank()});
  EXPECT_EQ(others.size(), world_size() - 1);
  EXPECT_EQ(others.rank(), undefined);
}

TEST(GroupTest, RankIsThePositionInAReorderedGroup) {
  const int p = world_size();
  const Group rotated = Group::world().incl(rotated_by_one(p));
  // rotated_by_one puts world rank w at position (w + p - 1) % p.
  EXPECT_EQ(rotated.rank(), (world_rank() + p - 1) % p);
}

// ---------------------------------------------------------- translate_ranks

TEST(GroupTest, TranslateIntoReversedWorldMirrorsRanks) {
  const int p = world_size();
  const Group world = Group::world();
  const Group backwards = world.incl(reversed(iota_vector(p)));
  const std::vector<int> ranks = iota_vector(p);
  const std::vector<int> translated = world.translate_ranks(ranks, backwards);
  for (int r = 0; r < p; ++r) EXPECT_EQ(translated[r], p - 1 - r);
}

TEST(GroupTest, TranslateIntoExplicitGroupMatchesOracle) {
  const int p = world_size();
  const std::vector<int> order = rotated_by_one(p);
  const Group rotated = Group::world().incl(order);
  const std::vector<int> translated =
      Group::world().translate_ranks(iota_vector(p), rotated);
  for (int w = 0; w < p; ++w) {
    const auto position = std::find(order.begin(), order.end(), w);
    EXPECT_EQ(translated[w], position - order.begin());
  }
}

TEST(GroupTest, TranslateRankMissingFromOtherGivesUndefined) {
  const int p = world_size();
  const std::vector<int> translated =
      Group::world().translate_ranks(iota_vector(p), Group::self());
  for (int r = 0; r < p; ++r) {
    EXPECT_EQ(translated[r], r == world_rank() ? 0 : undefined);
  }
}

TEST(GroupTest, TranslateIntoEmptyGroupGivesUndefined) {
  const std::vector<int> ranks = iota_vector(world_size());
  for (int translated : Group::world().translate_ranks(ranks, Group::empty())) {
    EXPECT_EQ(translated, undefined);
  }
}

TEST(GroupTest, TranslateProcNullGivesProcNull) {
  const std::vector<int> ranks = {proc_null, 0, proc_null};
  EXPECT_EQ(Group::world().translate_ranks(ranks, Group::world()),
            (std::vector<int>{proc_null, 0, proc_null}));
  // MPI-2.1: proc_null translates to proc_null into any group, even empty.
  EXPECT_EQ(Group::world().translate_ranks(std::vector<int>{proc_null},
                                           Group::empty()),
            std::vector<int>{proc_null});
  EXPECT_EQ(Group::empty().translate_ranks(std::vector<int>{proc_null},
                                           Group::world()),
            std::vector<int>{proc_null});
}

TEST(GroupTest, TranslateFromEmptyGroupOfNoRanksGivesNoRanks) {
  EXPECT_TRUE(Group::empty().translate_ranks({}, Group::world()).empty());
  EXPECT_TRUE(Group::empty().translate_ranks({}, Group::empty()).empty());
}

TEST(GroupTest, TranslateAcceptsRepeatedRanks) {
  const std::vector<int> ranks = {0, 0};
  const Group self = Group::self();
  EXPECT_EQ(self.translate_ranks(ranks, Group::world()),
            (std::vector<int>{world_rank(), world_rank()}));
}

TEST(GroupTest, TranslateBetweenSampleGroupsMatchesOracle) {
  for (const Group& a : sample_groups()) {
    for (const Group& b : sample_groups()) {
      const std::vector<int> from = a.members();
      const std::vector<int> to = b.members();
      const std::vector<int> got = a.translate_ranks(iota_vector(a.size()), b);
      for (std::size_t r = 0; r < from.size(); ++r) {
        const auto it = std::find(to.begin(), to.end(), from[r]);
        EXPECT_EQ(got[r], it == to.end() ? undefined : it - to.begin());
      }
    }
  }
}

// ------------------------------------------------------------------ compare

TEST(GroupTest, CompareSameHandleAndCopiesIsIdentical) {
  const Group world = Group::world();
  const Group copy = world;
  EXPECT_EQ(world.compare(world), Comparison::identical);
  EXPECT_EQ(world.compare(copy), Comparison::identical);
  EXPECT_EQ(Group::world().compare(Group::world()), Comparison::identical);
}

TEST(GroupTest, CompareSameMembersBuiltDifferentlyIsIdentical) {
  const int p = world_size();
  const Group world = Group::world();
  // World ranks p-1, ..., 0 picked out of the rotated group {1, ..., 0}.
  const std::vector<int> rotation = rotated_by_one(p);
  std::vector<int> positions;
  for (int w = p - 1; w >= 0; --w) {
    positions.push_back(static_cast<int>(
        std::find(rotation.begin(), rotation.end(), w) - rotation.begin()));
  }
  const Group listed = world.incl(rotation).incl(positions);
  EXPECT_EQ(listed.compare(world.incl(reversed(iota_vector(p)))),
            Comparison::identical);
  const RankRange all{0, p - 1, 1};
  EXPECT_EQ(world.range_incl({&all, 1}).compare(world), Comparison::identical);
  EXPECT_EQ(Group::empty().compare(world.incl({})), Comparison::identical);
  EXPECT_EQ(Group::empty().compare(Group::empty()), Comparison::identical);
}

TEST(GroupTest, CompareSameMembersInOtherOrderIsSimilar) {
  const int p = world_size();
  if (p < 2) GTEST_SKIP() << "needs two processes to reorder";
  const Group world = Group::world();
  EXPECT_EQ(world.compare(world.incl(reversed(iota_vector(p)))),
            Comparison::similar);
  EXPECT_EQ(world.incl(rotated_by_one(p)).compare(world), Comparison::similar);
}

TEST(GroupTest, CompareDifferentMembersIsUnequal) {
  const Group world = Group::world();
  EXPECT_EQ(world.compare(Group::empty()), Comparison::unequal);
  EXPECT_EQ(Group::empty().compare(world), Comparison::unequal);
  if (world_size() >= 2) {
    EXPECT_EQ(world.compare(Group::self()), Comparison::unequal);
    // Same size, different members.
    EXPECT_EQ(world.incl(std::vector<int>{0})
                  .compare(world.incl(std::vector<int>{1})),
              Comparison::unequal);
  }
}

TEST(GroupTest, CompareMatchesOracleOnSampleGroups) {
  for (const Group& a : sample_groups()) {
    for (const Group& b : sample_groups()) {
      std::vector<int> x = a.members();
      std::vector<int> y = b.members();
      Comparison expected = Comparison::unequal;
      if (x == y) {
        expected = Comparison::identical;
      } else {
        std::sort(x.begin(), x.end());
        std::sort(y.begin(), y.end());
        if (x == y) expected = Comparison::similar;
      }
      EXPECT_EQ(a.compare(b), expected);
      EXPECT_EQ(a == b, expected == Comparison::identical);
    }
  }
}

// --------------------------------------------------------- set operations

TEST(GroupTest, SetOperationsMatchOracleOnAllPairsIncludingEmpty) {
  for (const Group& a : sample_groups()) {
    for (const Group& b : sample_groups()) {
      const std::vector<int> x = a.members();
      const std::vector<int> y = b.members();
      EXPECT_EQ(a.union_with(b).members(), naive_union(x, y));
      EXPECT_EQ(a.intersection(b).members(), naive_intersection(x, y));
      EXPECT_EQ(a.difference(b).members(), naive_difference(x, y));
    }
  }
}

TEST(GroupTest, UnionIsNotCommutative) {
  if (world_size() < 3) GTEST_SKIP() << "needs three processes";
  const Group world = Group::world();
  const Group a = world.incl(std::vector<int>{0, 1});
  const Group b = world.incl(std::vector<int>{2, 1});
  EXPECT_EQ(a.union_with(b).members(), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(b.union_with(a).members(), (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(a.union_with(b).compare(b.union_with(a)), Comparison::similar);
}

TEST(GroupTest, IntersectionIsNotCommutative) {
  if (world_size() < 2) GTEST_SKIP() << "needs two processes";
  const Group world = Group::world();
  const Group backwards = world.incl(reversed(iota_vector(world_size())));
  EXPECT_EQ(world.intersection(backwards).members(), world.members());
  EXPECT_EQ(backwards.intersection(world).members(), backwards.members());
}

TEST(GroupTest, UnionAndIntersectionAreAssociative) {
  const std::vector<Group> groups = sample_groups();
  for (const Group& a : groups) {
    for (const Group& b : groups) {
      for (const Group& c : groups) {
        EXPECT_EQ(a.union_with(b).union_with(c), a.union_with(b.union_with(c)));
        EXPECT_EQ(a.intersection(b).intersection(c),
                  a.intersection(b.intersection(c)));
      }
    }
  }
}

TEST(GroupTest, DifferenceWithItselfIsEmpty) {
  for (const Group& a : sample_groups()) {
    EXPECT_EQ(a.difference(a).size(), 0);
    EXPECT_EQ(a.difference(a).compare(Group::empty()), Comparison::identical);
  }
}

// ------------------------------------------------------------ incl and excl

TEST(GroupTest, InclOfNoRanksIsTheEmptyGroup) {
  for (const Group& a : sample_groups()) {
    const Group none = a.incl({});
    EXPECT_EQ(none.size(), 0);
    EXPECT_EQ(none.compare(Group::empty()), Comparison::identical);
  }
}

TEST(GroupTest, ExclOfNoRanksIsTheSameGroup) {
  for (const Group& a : sample_groups()) {
    EXPECT_EQ(a.excl({}).compare(a), Comparison::identical);
  }
}

TEST(GroupTest, InclTakesTheOrderOfRanks) {
  const int p = world_size();
  for (const Group& a : sample_groups()) {
    const std::vector<int> ranks = reversed(iota_vector(a.size()));
    EXPECT_EQ(a.incl(ranks).members(), at(a.members(), ranks));
  }
  const Group world = Group::world();
  EXPECT_EQ(world.incl(rotated_by_one(p)).members(), rotated_by_one(p));
}

TEST(GroupTest, ExclKeepsTheOrderOfTheGroup) {
  for (const Group& a : sample_groups()) {
    if (a.size() == 0) continue;
    // Exclude rank 0 and, when present, the last rank; listed backwards.
    std::vector<int> ranks = {a.size() - 1};
    if (a.size() > 1) ranks.push_back(0);
    std::vector<int> expected;
    for (int r = 0; r < a.size(); ++r) {
      if (!contains(ranks, r)) expected.push_back(a.members()[r]);
    }
    EXPECT_EQ(a.excl(ranks).members(), expected);
  }
}

TEST(GroupTest, InclOfEveryRankOfEmptyGroupIsEmpty) {
  EXPECT_EQ(Group::empty().incl({}).size(), 0);
  EXPECT_EQ(Group::empty().excl({}).size(), 0);
}

// ------------------------------------------------------------------ ranges

// All triplets with both ends in [0, n) and a stride towards last, strides
// up to n + 1 in size (so some never reach last).
std::vector<RankRange> valid_single_ranges(int n) {
  std::vector<RankRange> ranges;
  for (int first = 0; first < n; ++first) {
    for (int last = 0; last < n; ++last) {
      for (int step = 1; step <= n + 1; ++step) {
        if (last >= first) ranges.push_back({first, last, step});
        if (last <= first) ranges.push_back({first, last, -step});
      }
    }
  }
  return ranges;
}

TEST(GroupTest, RangeInclOfOneTripletMatchesNaiveExpansion) {
  for (const Group& a : sample_groups()) {
    for (const RankRange& range : valid_single_ranges(a.size())) {
      const std::vector<int> ranks =
          naive_range(range.first, range.last, range.stride);
      EXPECT_EQ(a.range_incl({&range, 1}).members(), at(a.members(), ranks))
          << "(" << range.first << ", " << range.last << ", " << range.stride
          << ")";
    }
  }
}

TEST(GroupTest, RangeExclOfOneTripletMatchesNaiveExpansion) {
  for (const Group& a : sample_groups()) {
    for (const RankRange& range : valid_single_ranges(a.size())) {
      const std::vector<int> excluded =
          naive_range(range.first, range.last, range.stride);
      std::vector<int> expected;
      for (int r = 0; r < a.size(); ++r) {
        if (!contains(excluded, r)) expected.push_back(a.members()[r]);
      }
      EXPECT_EQ(a.range_excl({&range, 1}).members(), expected);
    }
  }
}

TEST(GroupTest, RangeWithNegativeStrideRunsDownwards) {
  const int p = world_size();
  const Group world = Group::world();
  const RankRange down{p - 1, 0, -1};
  EXPECT_EQ(world.range_incl({&down, 1}).members(), reversed(iota_vector(p)));
  const RankRange down_by_two{p - 1, 0, -2};
  std::vector<int> expected;
  for (int r = p - 1; r >= 0; r -= 2) expected.push_back(r);
  EXPECT_EQ(world.range_incl({&down_by_two, 1}).members(), expected);
}

TEST(GroupTest, RangeStopsBeforeAnUnreachedLast) {
  // The standard: first + floor((last - first) / stride) * stride is the
  // final rank; last itself is computed only when the stride reaches it.
  const int p = world_size();
  const Group world = Group::world();
  const RankRange steps_over{0, p - 1, p};  // computes 0 only
  EXPECT_EQ(world.range_incl({&steps_over, 1}).members(), std::vector<int>{0});
  if (p >= 4) {
    const RankRange by_three{0, 4, 3};  // 0, 3
    EXPECT_EQ(world.range_incl({&by_three, 1}).members(),
              (std::vector<int>{0, 3}));
    const RankRange down_by_three{3, 0, -2};  // 3, 1
    EXPECT_EQ(world.range_incl({&down_by_three, 1}).members(),
              (std::vector<int>{3, 1}));
  }
}

TEST(GroupTest, RangeLastNeedNotBeAValidRankWhenSteppedOver) {
  // Only computed ranks must be valid (MPI-1 5.3.2); (0, p + 5, p + 6)
  // computes 0 alone. Open MPI 4.1 rejects it; we follow the standard.
  const int p = world_size();
  const RankRange range{0, p + 5, p + 6};
  EXPECT_EQ(Group::world().range_incl({&range, 1}).members(),
            std::vector<int>{0});
  const RankRange below{0, -5, -6};
  EXPECT_EQ(Group::world().range_incl({&below, 1}).members(),
            std::vector<int>{0});
}

TEST(GroupTest, RangeInclOfSeveralTripletsConcatenatesThem) {
  const int p = world_size();
  if (p < 2) GTEST_SKIP() << "needs an odd rank";
  // Evens upwards, then odds downwards.
  const std::vector<RankRange> ranges = {{0, p - 1, 2},
                                         {largest_odd_below(p), 1, -2}};
  std::vector<int> ranks = naive_range(0, p - 1, 2);
  for (int r : naive_range(largest_odd_below(p), 1, -2)) ranks.push_back(r);
  for (const Group& a : sample_groups()) {
    if (a.size() != p) continue;
    EXPECT_EQ(a.range_incl(ranges).members(), at(a.members(), ranks));
    EXPECT_EQ(a.range_excl(ranges).size(), 0);
  }
}

TEST(GroupTest, InclEqualsRangeInclOfSingletonTriplets) {
  // The standard's equivalence: rank i <-> triplet (i, i, 1).
  for (const Group& a : sample_groups()) {
    const std::vector<int> ranks = reversed(iota_vector(a.size()));
    std::vector<RankRange> ranges;
    for (int r : ranks) ranges.push_back({r, r, 1});
    EXPECT_EQ(a.incl(ranks), a.range_incl(ranges));
    const std::size_t half = ranks.size() / 2;
    EXPECT_EQ(a.excl(std::span(ranks).first(half)),
              a.range_excl(std::span(ranges).first(half)));
  }
}

TEST(GroupTest, RangesOfNoTripletsGiveEmptyAndSameGroup) {
  for (const Group& a : sample_groups()) {
    EXPECT_EQ(a.range_incl({}).compare(Group::empty()), Comparison::identical);
    EXPECT_EQ(a.range_excl({}).compare(a), Comparison::identical);
  }
}

TEST(GroupTest, RangeOfRangeComposes) {
  // range_incl on a strided group: member i of (f2, l2, s2) applied to the
  // group (f1, l1, s1) of world is world rank f1 + (f2 + i * s2) * s1.
  const int p = world_size();
  const RankRange outer{p - 1, 0, -1};
  const Group backwards = Group::world().range_incl({&outer, 1});
  for (const RankRange& inner : valid_single_ranges(p)) {
    std::vector<int> expected;
    for (int r : naive_range(inner.first, inner.last, inner.stride)) {
      expected.push_back(p - 1 - r);
    }
    EXPECT_EQ(backwards.range_incl({&inner, 1}).members(), expected);
  }
}

// ------------------------------------------------------- free and equality

TEST(GroupTest, FreeNullsThisHandleOnly) {
  Group world = Group::world();
  const Group copy = world;
  world.free();
  EXPECT_TRUE(world.is_null());
  EXPECT_EQ(copy.size(), world_size());
  group_free(world = Group::self());
  EXPECT_TRUE(world.is_null());
}

TEST(GroupTest, EqualityTreatsNullGroups) {
  EXPECT_TRUE(Group() == Group());
  EXPECT_FALSE(Group() == Group::empty());
  EXPECT_FALSE(Group::empty() == Group());
  EXPECT_TRUE(Group::empty() == Group::empty());
}

TEST(GroupTest, FreeFunctionSpellingsAgreeWithMembers) {
  const Group world = Group::world();
  const Group self = Group::self();
  const std::vector<int> ranks = {0};
  const RankRange range{0, 0, 1};
  EXPECT_EQ(group_size(world), world.size());
  EXPECT_EQ(group_rank(world), world.rank());
  EXPECT_EQ(group_translate_ranks(self, ranks, world),
            self.translate_ranks(ranks, world));
  EXPECT_EQ(group_compare(world, self), world.compare(self));
  EXPECT_EQ(group_union(self, world), self.union_with(world));
  EXPECT_EQ(group_intersection(self, world), self.intersection(world));
  EXPECT_EQ(group_difference(world, self), world.difference(self));
  EXPECT_EQ(group_incl(world, ranks), world.incl(ranks));
  EXPECT_EQ(group_excl(world, ranks), world.excl(ranks));
  EXPECT_EQ(group_range_incl(world, {&range, 1}),
            world.range_incl({&range, 1}));
  EXPECT_EQ(group_range_excl(world, {&range, 1}),
            world.range_excl({&range, 1}));
}

// ------------------------------------------------------------------ errors
// One test per rejected input; each checks the error class.

#define EXPECT_ERROR_CLASS(expected, statement) \
  EXPECT_EQ(thrown_class([&] { (void)(statement); }), std::optional(expected))

const std::vector<int> kRank0 = {0};

TEST(GroupErrorTest, SizeOfNullGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().size());
}
TEST(GroupErrorTest, RankOfNullGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().rank());
}
TEST(GroupErrorTest, MembersOfNullGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().members());
}
TEST(GroupErrorTest, WorldRankOfInNullGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().world_rank_of(0));
}
TEST(GroupErrorTest, TranslateFromNullGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::group,
                     Group().translate_ranks({}, Group::world()));
}
TEST(GroupErrorTest, TranslateIntoNullGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::group,
                     Group::world().translate_ranks(kRank0, Group()));
}
TEST(GroupErrorTest, CompareNullWithGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().compare(Group::world()));
}
TEST(GroupErrorTest, CompareGroupWithNull) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group::world().compare(Group()));
}
TEST(GroupErrorTest, UnionWithNullOperand) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().union_with(Group::world()));
  EXPECT_ERROR_CLASS(ErrorClass::group, Group::world().union_with(Group()));
}
TEST(GroupErrorTest, IntersectionWithNullOperand) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().intersection(Group::world()));
  EXPECT_ERROR_CLASS(ErrorClass::group, Group::world().intersection(Group()));
}
TEST(GroupErrorTest, DifferenceWithNullOperand) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().difference(Group::world()));
  EXPECT_ERROR_CLASS(ErrorClass::group, Group::world().difference(Group()));
}
TEST(GroupErrorTest, InclOfNullGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().incl({}));
}
TEST(GroupErrorTest, ExclOfNullGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().excl({}));
}
TEST(GroupErrorTest, RangeInclOfNullGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().range_incl({}));
}
TEST(GroupErrorTest, RangeExclOfNullGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().range_excl({}));
}
TEST(GroupErrorTest, FreeOfNullGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::group, Group().free());
}
TEST(GroupErrorTest, UseAfterFree) {
  Group world = Group::world();
  world.free();
  EXPECT_ERROR_CLASS(ErrorClass::group, world.size());
  EXPECT_ERROR_CLASS(ErrorClass::group, world.free());
}

TEST(GroupErrorTest, InclRankOutOfRangeNamesArgumentAndValue) {
  const int p = world_size();
  const std::vector<int> ranks = {0, p + 7};
  const Thrown thrown = thrown_by([&] { (void)Group::world().incl(ranks); });
  EXPECT_EQ(thrown.error_class, ErrorClass::rank);
  EXPECT_EQ(thrown.message,
            "classic::Group::incl: ranks[1] = " + std::to_string(p + 7) +
                " is outside [0, " + std::to_string(p) + ")");
}
TEST(GroupErrorTest, InclNegativeRank) {
  EXPECT_ERROR_CLASS(ErrorClass::rank,
                     Group::world().incl(std::vector<int>{-1}));
}
TEST(GroupErrorTest, InclProcNullIsNoRank) {
  EXPECT_ERROR_CLASS(ErrorClass::rank,
                     Group::world().incl(std::vector<int>{proc_null}));
}
TEST(GroupErrorTest, InclRepeatedRank) {
  EXPECT_ERROR_CLASS(ErrorClass::rank,
                     Group::world().incl(std::vector<int>{0, 0}));
}
TEST(GroupErrorTest, InclAnyRankOfEmptyGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::rank, Group::empty().incl(kRank0));
}
TEST(GroupErrorTest, ExclRankOutOfRange) {
  EXPECT_ERROR_CLASS(ErrorClass::rank,
                     Group::world().excl(std::vector<int>{world_size()}));
}
TEST(GroupErrorTest, ExclRepeatedRank) {
  EXPECT_ERROR_CLASS(ErrorClass::rank,
                     Group::world().excl(std::vector<int>{0, 0}));
}
TEST(GroupErrorTest, TranslateRankOutOfRange) {
  EXPECT_ERROR_CLASS(
      ErrorClass::rank,
      Group::self().translate_ranks(std::vector<int>{1}, Group::world()));
}
TEST(GroupErrorTest, TranslateNegativeRankOtherThanProcNull) {
  EXPECT_ERROR_CLASS(
      ErrorClass::rank,
      Group::world().translate_ranks(std::vector<int>{-1}, Group::world()));
}
TEST(GroupErrorTest, TranslateUndefinedIsNoRank) {
  EXPECT_ERROR_CLASS(ErrorClass::rank,
                     Group::world().translate_ranks(std::vector<int>{undefined},
                                                    Group::world()));
}
TEST(GroupErrorTest, TranslateAnyRankOfEmptyGroup) {
  EXPECT_ERROR_CLASS(ErrorClass::rank,
                     Group::empty().translate_ranks(kRank0, Group::world()));
}
TEST(GroupErrorTest, WorldRankOfRankOutOfRange) {
  EXPECT_ERROR_CLASS(ErrorClass::rank,
                     Group::world().world_rank_of(world_size()));
  EXPECT_ERROR_CLASS(ErrorClass::rank, Group::world().world_rank_of(-1));
}

// Triplets rejected by both range_incl and range_excl.
void expect_range_error(ErrorClass expected, std::vector<RankRange> ranges,
                        const Group& group = Group::world()) {
  EXPECT_ERROR_CLASS(expected, group.range_incl(ranges)) << "range_incl";
  EXPECT_ERROR_CLASS(expected, group.range_excl(ranges)) << "range_excl";
}

TEST(GroupErrorTest, RangeWithZeroStride) {
  expect_range_error(ErrorClass::arg, {{0, 0, 0}});
}
TEST(GroupErrorTest, RangeUpwardsWithNegativeStride) {
  expect_range_error(ErrorClass::arg, {{0, 1, -1}});
}
TEST(GroupErrorTest, RangeDownwardsWithPositiveStride) {
  // first = 5, last = 1, stride = 1: floor(-4 / 1) < 0 elements.
  expect_range_error(ErrorClass::arg, {{0, -1, 1}});
  expect_range_error(ErrorClass::arg, {{5, 1, 1}});
}
TEST(GroupErrorTest, RangeFirstOutOfRange) {
  expect_range_error(ErrorClass::rank, {{world_size(), world_size(), 1}});
}
TEST(GroupErrorTest, RangeNegativeFirst) {
  expect_range_error(ErrorClass::rank, {{-1, 0, 1}});
}
TEST(GroupErrorTest, RangeComputesRankOutOfRange) {
  expect_range_error(ErrorClass::rank, {{0, world_size(), 1}});
}
TEST(GroupErrorTest, RangeComputesRankBelowZero) {
  expect_range_error(ErrorClass::rank, {{0, -1, -1}});
}
TEST(GroupErrorTest, RangesComputeARankTwice) {
  expect_range_error(ErrorClass::rank, {{0, 0, 1}, {0, 0, 1}});
}
TEST(GroupErrorTest, LongRangesComputeARankTwice) {
  const int p = world_size();
  expect_range_error(ErrorClass::rank, {{0, p - 1, 1}, {p - 1, 0, -1}});
}
TEST(GroupErrorTest, RangeSecondTripletInvalid) {
  expect_range_error(ErrorClass::arg, {{0, 0, 1}, {0, 0, 0}});
}
TEST(GroupErrorTest, RangeOnEmptyGroup) {
  expect_range_error(ErrorClass::rank, {{0, 0, 1}}, Group::empty());
}
TEST(GroupErrorTest, RangeOnExplicitGroupOutOfRange) {
  const Group rotated = Group::world().incl(rotated_by_one(world_size()));
  expect_range_error(ErrorClass::rank, {{0, world_size(), 1}}, rotated);
}
TEST(GroupErrorTest, RangeNearIntLimitsDoesNotOverflow) {
  expect_range_error(ErrorClass::rank, {{0, INT_MAX, 1}});
  expect_range_error(ErrorClass::rank, {{0, INT_MAX, INT_MAX}});
  expect_range_error(ErrorClass::rank, {{INT_MAX, INT_MIN, INT_MIN}});
  expect_range_error(ErrorClass::rank, {{INT_MIN, INT_MAX, INT_MAX}});
  expect_range_error(ErrorClass::rank, {{0, INT_MIN, -1}});
}

}  // namespace
}  // namespace classic
