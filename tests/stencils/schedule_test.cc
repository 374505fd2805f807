#include "stencils/schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "classic/base/error.h"
#include "stencils/neighborhood.h"
#include "stencils/structure.h"
#include "stencils/verifier.h"
#include "tests/stencils/testing.h"
#include "tests/testing/errors.h"

namespace stencils {
namespace {

using classic::ErrorClass;
using orthocomm_test::expect_error_class;
using testing::from_vectors;
using testing::mesh;
using testing::to_vectors;
using testing::torus;

Stencil negated(const Stencil& stencil) {
  std::vector<int> flat(stencil.flat().begin(), stencil.flat().end());
  for (int& x : flat) x = -x;
  return Stencil(stencil.ndims(), flat);
}

// Builds both schedules and checks them with the verifier.
void expect_verified(const naming::Geometry& geometry, const Stencil& targets,
                     const Stencil& sources, const std::string& what) {
  const auto allgather = allgather_schedule(geometry, targets, sources);
  const Verdict allgather_verdict =
      verify(allgather, geometry, targets, sources);
  EXPECT_TRUE(allgather_verdict)
      << what << " allgather: " << allgather_verdict.mismatch;
  const auto alltoall = alltoall_schedule(geometry, targets, sources);
  const Verdict alltoall_verdict = verify(alltoall, geometry, targets, sources);
  EXPECT_TRUE(alltoall_verdict)
      << what << " alltoall: " << alltoall_verdict.mismatch;
}

// ---- Landing slots. ----

TEST(LandingSlotsTest, PairsEachTargetWithItsNegatedSource) {
  const auto geometry = torus({5, 5});
  const Stencil targets(2, {1, 0, 0, 1, -1, 0});
  const Stencil sources(2, {0, -1, 1, 0, -1, 0});
  EXPECT_EQ(landing_slots(geometry, targets, sources),
            (std::vector<int>{2, 0, 1}));
}

TEST(LandingSlotsTest, RepeatedNeighboursPairByOccurrence) {
  // On a torus of 2, -1 and +1 reach the same neighbour: the first target
  // lands in the first source slot naming that neighbour.
  const auto geometry = torus({2});
  EXPECT_EQ(landing_slots(geometry, Stencil(1, {-1, 1}), Stencil(1, {1, -1})),
            (std::vector<int>{0, 1}));
  EXPECT_EQ(
      landing_slots(geometry, Stencil(1, {0, 1, 3}), Stencil(1, {1, 0, 1})),
      (std::vector<int>{1, 0, 2}));
}

TEST(LandingSlotsTest, RejectsSourcesThatAreNotTheNegatedTargets) {
  const auto geometry = torus({5});
  expect_error_class(
      [&] {
        landing_slots(geometry, Stencil(1, {1, 2}), Stencil(1, {-1, 2}));
      },
      ErrorClass::topology);
}

TEST(LandingSlotsTest, RejectsDifferentCounts) {
  const auto geometry = torus({5});
  expect_error_class(
      [&] {
        landing_slots(geometry, Stencil(1, {1}), Stencil(1, {-1, -1}));
      },
      ErrorClass::topology);
}

TEST(LandingSlotsTest, RejectsNdimsMismatch) {
  const auto geometry = torus({5, 5});
  expect_error_class(
      [&] {
        landing_slots(geometry, Stencil(1, {1}), Stencil(2, {-1, 0}));
      },
      ErrorClass::dims);
  expect_error_class(
      [&] {
        alltoall_schedule(geometry, Stencil(2, {1, 0}), Stencil(1, {-1}));
      },
      ErrorClass::dims);
}

TEST(LandingSlotsTest, RejectsIntMinInANonPeriodicDimension) {
  const auto geometry = mesh({5});
  expect_error_class(
      [&] {
        allgather_schedule(geometry, Stencil(1, {INT_MIN}),
                           Stencil(1, {INT_MIN}));
      },
      ErrorClass::arg);
  // On a torus INT_MIN is just another spelling of a neighbour.
  EXPECT_EQ(landing_slots(torus({4}), Stencil(1, {INT_MIN}), Stencil(1, {0})),
            (std::vector<int>{0}));
}

// ---- The paper's headline structures. ----

TEST(AlltoallScheduleTest, Moore3dDepth1Takes6MessagesIn3Rounds) {
  const auto geometry = torus({4, 3, 5});
  const Stencil moore = cart_stencil(3, Metric::chebyshev, 1, 1);
  const auto schedule = alltoall_schedule(geometry, moore, negated(moore));
  ASSERT_EQ(schedule.rounds.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    const Round& round = schedule.rounds[k];
    EXPECT_EQ(round.dimension, k);
    ASSERT_EQ(round.messages.size(), 2u);
    for (const Message& message : round.messages) {
      EXPECT_EQ(message.moves.size(), 9u);
      for (int m = 0; m < 3; ++m) {
        EXPECT_EQ(message.hop[m] != 0, m == k);
      }
    }
  }
  EXPECT_EQ(schedule_counters(schedule), (Counters{3, 6, 54}));
  EXPECT_EQ(direct_counters(geometry, moore), (Counters{1, 26, 26}));
  const Verdict verdict = verify(schedule, geometry, moore, negated(moore));
  EXPECT_TRUE(verdict) << verdict.mismatch;
}

TEST(AllgatherScheduleTest, Moore3dDepth1Takes6MessagesWith26Blocks) {
  const auto geometry = torus({3, 4, 3});
  const Stencil moore = cart_stencil(3, Metric::chebyshev, 1, 1);
  const auto schedule = allgather_schedule(geometry, moore, negated(moore));
  EXPECT_EQ(schedule_counters(schedule), (Counters{3, 6, 26}));
  EXPECT_EQ(schedule.send_slots, 1);
  EXPECT_EQ(schedule.temp_slots, 0);
  // Round 2 forwards 9 blocks per message: the block from 0 plus those
  // received in rounds 0 and 1.
  ASSERT_EQ(schedule.rounds.size(), 3u);
  EXPECT_EQ(schedule.rounds[2].messages[0].moves.size(), 9u);
  const Verdict verdict = verify(schedule, geometry, moore, negated(moore));
  EXPECT_TRUE(verdict) << verdict.mismatch;
}

TEST(AllgatherScheduleTest, RelaysOnlyThroughMembers) {
  // {(1,1)} alone: (1,0) is no target, so the block goes directly.
  const auto geometry = torus({5, 5});
  const Stencil targets(2, {1, 1});
  const auto schedule = allgather_schedule(geometry, targets, negated(targets));
  ASSERT_EQ(schedule.rounds.size(), 1u);
  EXPECT_EQ(schedule.rounds[0].dimension, 1);
  EXPECT_EQ(schedule.rounds[0].messages[0].hop, (std::vector<int>{1, 1}));
  EXPECT_EQ(schedule.rounds[0].messages[0].moves[0].from,
            (Location{SlotKind::send, 0}));
  // With (0,1) present... (1,1) still has parent (1,0) first, then zero.
  const Stencil two(2, {0, 1, 1, 1});
  const auto relayed = allgather_schedule(geometry, two, negated(two));
  EXPECT_EQ(schedule_counters(relayed), (Counters{1, 2, 2}));
  // With (1,0) present it is relayed by (1,0).
  const Stencil three(2, {1, 1, 1, 0});
  const auto tree = allgather_schedule(geometry, three, negated(three));
  EXPECT_EQ(schedule_counters(tree), (Counters{2, 2, 2}));
  EXPECT_EQ(tree.rounds[1].messages[0].hop, (std::vector<int>{0, 1}));
  EXPECT_EQ(tree.rounds[1].messages[0].moves[0].from.kind, SlotKind::receive);
}

TEST(AlltoallScheduleTest, BlocksWaitInAlternatingTempBanks) {
  const auto geometry = torus({3, 3, 3});
  const Stencil targets(3, {1, 1, 1});
  const auto schedule = alltoall_schedule(geometry, targets, negated(targets));
  ASSERT_EQ(schedule.rounds.size(), 3u);
  EXPECT_EQ(schedule.rounds[0].messages[0].moves[0].to,
            (Location{SlotKind::temp, 0}));
  EXPECT_EQ(schedule.rounds[1].messages[0].moves[0].from,
            (Location{SlotKind::temp, 0}));
  EXPECT_EQ(schedule.rounds[1].messages[0].moves[0].to,
            (Location{SlotKind::temp, 1}));
  EXPECT_EQ(schedule.rounds[2].messages[0].moves[0].from,
            (Location{SlotKind::temp, 1}));
  EXPECT_EQ(schedule.temp_slots, 2);
}

TEST(ScheduleTest, ZeroOffsetIsALocalCopy) {
  const auto geometry = torus({4});
  const Stencil targets(1, {1, 0, -1});
  const Stencil sources(1, {0, 1, -1});
  const auto alltoall = alltoall_schedule(geometry, targets, sources);
  ASSERT_EQ(alltoall.local_copies.size(), 1u);
  EXPECT_EQ(alltoall.local_copies[0].from, (Location{SlotKind::send, 1}));
  EXPECT_EQ(alltoall.local_copies[0].to, (Location{SlotKind::receive, 0}));
  const auto allgather = allgather_schedule(geometry, targets, sources);
  EXPECT_EQ(allgather.local_copies[0].from, (Location{SlotKind::send, 0}));
  EXPECT_EQ(schedule_counters(alltoall), (Counters{1, 2, 2}));
  EXPECT_EQ(direct_counters(geometry, targets), (Counters{1, 2, 2}));
  expect_verified(geometry, targets, sources, "zero offset");
}

TEST(ScheduleTest, ZeroDimensionalGridOnlyCopies) {
  const naming::Geometry geometry = torus({});
  Stencil stencil(0);
  stencil.push_back(std::vector<int>{});
  stencil.push_back(std::vector<int>{});
  const auto schedule = alltoall_schedule(geometry, stencil, stencil);
  EXPECT_TRUE(schedule.rounds.empty());
  EXPECT_EQ(schedule.local_copies.size(), 2u);
  expect_verified(geometry, stencil, stencil, "0-d");
}

TEST(ScheduleTest, SmallToriWrapAndRepeat) {
  const Stencil moore = cart_stencil(3, Metric::chebyshev, 1, 1);
  for (const auto& dims :
       {std::vector<int>{1, 1, 1}, std::vector<int>{2, 2, 2},
        std::vector<int>{1, 2, 3}, std::vector<int>{2, 1, 5}}) {
    const auto geometry = torus(dims);
    expect_verified(geometry, moore, negated(moore), "Moore on small torus");
  }
  // All of Moore on a 1x1x1 torus is the process itself.
  const auto lonely =
      alltoall_schedule(torus({1, 1, 1}), moore, negated(moore));
  EXPECT_TRUE(lonely.rounds.empty());
  EXPECT_EQ(lonely.local_copies.size(), 26u);
  // On 2x2x2, +1 and -1 coincide: one message per dimension.
  EXPECT_EQ(schedule_counters(
                alltoall_schedule(torus({2, 2, 2}), moore, negated(moore))),
            (Counters{3, 3, 54}));
}

TEST(ScheduleTest, StandardStencilsVerifyInTwoToFourDimensions) {
  for (int d = 2; d <= 4; ++d) {
    for (Metric metric : {Metric::manhattan, Metric::chebyshev}) {
      for (int depth = 1; depth <= 2; ++depth) {
        const Stencil stencil = cart_stencil(d, metric, 1, depth);
        const Stencil sources = negated(stencil);
        std::vector<int> big(d, 5);
        std::vector<int> small(d, 3);
        small[0] = 2;
        small[d - 1] = 1;
        for (const auto& geometry :
             {torus(big), torus(small), mesh(big), mesh(small)}) {
          expect_verified(geometry, stencil, sources,
                          "d = " + std::to_string(d) +
                              ", depth = " + std::to_string(depth));
        }
        const auto allgather = allgather_schedule(torus(big), stencil, sources);
        EXPECT_EQ(schedule_counters(allgather).blocks,
                  direct_counters(torus(big), stencil).blocks);
        EXPECT_LE(schedule_counters(allgather).messages,
                  direct_counters(torus(big), stencil).messages);
      }
    }
  }
}

// ---- Non-periodic grids. ----

TEST(MeshScheduleTest, BorderProcessesSendLess) {
  const auto geometry = mesh({3, 3});
  const Stencil moore = cart_stencil(2, Metric::chebyshev, 1, 1);
  const auto alltoall = alltoall_schedule(geometry, moore, negated(moore));
  const int corner = 0;
  const int centre = 4;
  EXPECT_EQ(schedule_counters(alltoall, geometry, centre),
            schedule_counters(alltoall));
  // Corner (0,0). Round 0, hop (+1,0): its blocks for (1,0) and (1,1); the
  // one for (1,-1) has no destination. Round 1, hop (0,+1): its own block
  // for (0,1), and as relay the block of (1,0) for (0,1) (offset (-1,1));
  // the relayed block for (1,1) would come from (-1,0), off the grid. Hops
  // -1 leave the grid. So 2 messages with 4 blocks.
  const Counters at_corner = schedule_counters(alltoall, geometry, corner);
  EXPECT_EQ(at_corner.messages, 2);
  EXPECT_EQ(at_corner.blocks, 4);
  EXPECT_EQ(direct_counters(geometry, moore, corner), (Counters{1, 3, 3}));
}

TEST(MeshScheduleTest, AllgatherVolumeOverAllRanksEqualsDirect) {
  for (const auto& dims : {std::vector<int>{3, 4}, std::vector<int>{1, 5},
                           std::vector<int>{2, 2}}) {
    const auto geometry = mesh(dims);
    const Stencil vn = cart_stencil(2, Metric::manhattan, 1, 2);
    const auto schedule = allgather_schedule(geometry, vn, negated(vn));
    int combining = 0;
    int direct = 0;
    for (int rank = 0; rank < geometry.size(); ++rank) {
      combining += schedule_counters(schedule, geometry, rank).blocks;
      direct += direct_counters(geometry, vn, rank).blocks;
    }
    EXPECT_EQ(combining, direct);
  }
}

TEST(StructureTest, RejectsRankOutsideTheGrid) {
  const auto geometry = mesh({3});
  const Stencil targets(1, {1});
  const auto schedule = alltoall_schedule(geometry, targets, negated(targets));
  expect_error_class([&] { schedule_counters(schedule, geometry, 3); },
                     ErrorClass::rank);
  expect_error_class([&] { direct_counters(geometry, targets, -1); },
                     ErrorClass::rank);
}

// ---- Random neighbourhoods. ----

// Independent oracle for the alltoall structure on a torus: each block makes
// one hop per non-zero canonical component; round k has one message per
// distinct non-zero canonical value of component k.
Counters alltoall_oracle(const naming::Geometry& geometry,
                         const Stencil& targets) {
  Counters counters;
  for (int k = 0; k < targets.ndims(); ++k) {
    std::set<int> values;
    for (int i = 0; i < targets.size(); ++i) {
      const int c = geometry.canonical_offset(targets.offset(i))[k];
      if (c != 0) {
        values.insert(c);
        ++counters.blocks;
      }
    }
    counters.messages += static_cast<int>(values.size());
    counters.rounds += values.empty() ? 0 : 1;
  }
  return counters;
}

std::vector<int> random_dims(std::mt19937& rng, int d, int low, int high) {
  std::vector<int> dims(d);
  for (int& n : dims) n = low + static_cast<int>(rng() % (high - low + 1));
  return dims;
}

TEST(RandomScheduleTest, RandomStencilsVerifyOnToriAndMeshes) {
  std::mt19937 rng(20190805);
  int stencils_tested = 0;
  for (int trial = 0; trial < 240; ++trial) {
    const int d = 1 + static_cast<int>(rng() % 4);
    const int count = 1 + static_cast<int>(rng() % 14);
    const Stencil targets = testing::random_stencil(rng, d, 2, count);
    // Tori of three kinds (an extent-1 dimension, an extent-2 dimension,
    // larger extents), a mesh and a mixed grid.
    std::vector<int> with_one = random_dims(rng, d, 1, 5);
    with_one[rng() % d] = 1;
    std::vector<int> with_two = random_dims(rng, d, 1, 5);
    with_two[rng() % d] = 2;
    std::vector<bool> mixed(d);
    for (int k = 0; k < d; ++k) mixed[k] = rng() % 2 == 0;
    const std::vector<naming::Geometry> geometries{
        torus(with_one), torus(with_two), torus(random_dims(rng, d, 3, 6)),
        mesh(random_dims(rng, d, 1, 5)),
        testing::grid(random_dims(rng, d, 1, 5), mixed)};
    for (const auto& geometry : geometries) {
      const Stencil sources = testing::random_sources(rng, geometry, targets);
      const std::string what = "trial " + std::to_string(trial);
      expect_verified(geometry, targets, sources, what);
      const auto allgather = allgather_schedule(geometry, targets, sources);
      const auto alltoall = alltoall_schedule(geometry, targets, sources);
      EXPECT_EQ(schedule_counters(allgather).blocks,
                direct_counters(geometry, targets).blocks)
          << what;
      const bool periodic =
          std::ranges::all_of(geometry.periods(), [](bool p) { return p; });
      if (periodic) {
        EXPECT_EQ(schedule_counters(alltoall),
                  alltoall_oracle(geometry, targets))
            << what;
      }
    }
    ++stencils_tested;
  }
  EXPECT_GE(stencils_tested, 200);
}

}  // namespace
}  // namespace stencils
