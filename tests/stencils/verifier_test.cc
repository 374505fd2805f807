#include "stencils/verifier.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/error.h"
#include "stencils/neighborhood.h"
#include "stencils/schedule.h"
#include "tests/stencils/testing.h"
#include "tests/testing/errors.h"

namespace stencils {
namespace {

using classic::ErrorClass;
using orthocomm_test::expect_error_class;
using testing::mesh;
using testing::torus;

Stencil negated(const Stencil& stencil) {
  std::vector<int> flat(stencil.flat().begin(), stencil.flat().end());
  for (int& x : flat) x = -x;
  return Stencil(stencil.ndims(), flat);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A fixture with a correct schedule of each kind to corrupt.
class VerifierTest : public ::testing::Test {
 protected:
  naming::Geometry geometry_ = torus({4, 3, 5});
  Stencil targets_ = cart_stencil(3, Metric::chebyshev, 1, 1);
  Stencil sources_ = negated(targets_);
  AllgatherSchedule allgather_ =
      allgather_schedule(geometry_, targets_, sources_);
  AlltoallSchedule alltoall_ = alltoall_schedule(geometry_, targets_, sources_);

  // The first move of the last round that delivers into a receive slot.
  BlockMove& final_move(auto& schedule) {
    for (BlockMove& move : schedule.rounds.back().messages[0].moves) {
      if (move.to.kind == SlotKind::receive) return move;
    }
    throw std::logic_error("no final move");
  }
};

TEST_F(VerifierTest, AcceptsTheBuiltSchedules) {
  EXPECT_TRUE(verify(allgather_, geometry_, targets_, sources_));
  EXPECT_TRUE(verify(alltoall_, geometry_, targets_, sources_));
}

TEST_F(VerifierTest, CatchesAMutatedLandingSlot) {
  BlockMove& move = final_move(alltoall_);
  move.to.index = (move.to.index + 1) % targets_.size();
  const Verdict verdict = verify(alltoall_, geometry_, targets_, sources_);
  EXPECT_FALSE(verdict);
  EXPECT_TRUE(contains(verdict.mismatch, "receive slot")) << verdict.mismatch;
}

TEST_F(VerifierTest, CatchesAMutatedAllgatherLandingSlot) {
  BlockMove& move = final_move(allgather_);
  move.to.index = (move.to.index + 5) % targets_.size();
  EXPECT_FALSE(verify(allgather_, geometry_, targets_, sources_));
}

TEST_F(VerifierTest, CatchesASwapOfTwoLandingSlots) {
  auto& moves = alltoall_.rounds.back().messages[0].moves;
  std::swap(moves[0].to, moves[1].to);
  const Verdict verdict = verify(alltoall_, geometry_, targets_, sources_);
  EXPECT_FALSE(verdict);
  EXPECT_TRUE(contains(verdict.mismatch, "direct neighbour collective"))
      << verdict.mismatch;
}

TEST_F(VerifierTest, CatchesAMissingMessage) {
  alltoall_.rounds.back().messages.pop_back();
  const Verdict verdict = verify(alltoall_, geometry_, targets_, sources_);
  EXPECT_FALSE(verdict);
  EXPECT_TRUE(contains(verdict.mismatch, "holds nothing")) << verdict.mismatch;
}

TEST_F(VerifierTest, CatchesAReadBeforeTheSlotIsFilled) {
  std::swap(allgather_.rounds[0], allgather_.rounds[2]);
  const Verdict verdict = verify(allgather_, geometry_, targets_, sources_);
  EXPECT_FALSE(verdict);
  EXPECT_TRUE(contains(verdict.mismatch, "before it was filled"))
      << verdict.mismatch;
}

TEST_F(VerifierTest, CatchesASlotReadAndRefilledInOneRound) {
  // Give every block a single temp slot instead of two alternating ones: in
  // round 1 a block with three non-zero components is sent from its slot
  // while the same block id from the next origin arrives there.
  std::map<int, int> single_slot;
  for (Round& round : alltoall_.rounds) {
    for (Message& message : round.messages) {
      for (BlockMove& move : message.moves) {
        for (Location* location : {&move.from, &move.to}) {
          if (location->kind != SlotKind::temp) continue;
          location->index = single_slot.try_emplace(move.block, location->index)
                                .first->second;
        }
      }
    }
  }
  const Verdict verdict = verify(alltoall_, geometry_, targets_, sources_);
  EXPECT_FALSE(verdict);
  EXPECT_TRUE(contains(verdict.mismatch, "sends from in the same round"))
      << verdict.mismatch;
}

TEST_F(VerifierTest, CatchesTwoMessagesFillingOneSlotInARound) {
  auto& messages = alltoall_.rounds[0].messages;
  messages[1].moves[0].to = messages[0].moves[0].to;
  const Verdict verdict = verify(alltoall_, geometry_, targets_, sources_);
  EXPECT_FALSE(verdict);
  EXPECT_TRUE(contains(verdict.mismatch, "also fills")) << verdict.mismatch;
}

TEST_F(VerifierTest, CatchesAReceiveSlotWrittenTwice) {
  // Deliver a block of the last round, (0,0,+-1) straight from the send
  // slot, in round 0 as well.
  const Message& last = allgather_.rounds[2].messages[0];
  const auto direct = std::find_if(
      last.moves.begin(), last.moves.end(),
      [](const BlockMove& move) { return move.from.kind == SlotKind::send; });
  ASSERT_NE(direct, last.moves.end());
  allgather_.rounds[0].messages.push_back({last.hop, {*direct}});
  const Verdict verdict = verify(allgather_, geometry_, targets_, sources_);
  EXPECT_FALSE(verdict);
  EXPECT_TRUE(contains(verdict.mismatch, "a second time")) << verdict.mismatch;
}

TEST_F(VerifierTest, CatchesAWriteIntoASendSlot) {
  alltoall_.rounds[0].messages[0].moves[0].to = {SlotKind::send, 0};
  const Verdict verdict = verify(alltoall_, geometry_, targets_, sources_);
  EXPECT_FALSE(verdict);
  EXPECT_TRUE(contains(verdict.mismatch, "malformed")) << verdict.mismatch;
}

TEST_F(VerifierTest, CatchesAnIndexOutOfRange) {
  alltoall_.rounds[0].messages[0].moves[0].from = {SlotKind::temp, 1000};
  EXPECT_FALSE(verify(alltoall_, geometry_, targets_, sources_));
  alltoall_ = alltoall_schedule(geometry_, targets_, sources_);
  alltoall_.rounds[0].messages[0].moves[0].from = {static_cast<SlotKind>(9), 0};
  EXPECT_FALSE(verify(alltoall_, geometry_, targets_, sources_));
}

TEST_F(VerifierTest, CatchesAHopOfTheWrongLength) {
  allgather_.rounds[0].messages[0].hop.push_back(0);
  const Verdict verdict = verify(allgather_, geometry_, targets_, sources_);
  EXPECT_FALSE(verdict);
  EXPECT_TRUE(contains(verdict.mismatch, "hop has 4")) << verdict.mismatch;
}

TEST_F(VerifierTest, CatchesSlotCountsThatDoNotFit) {
  allgather_.send_slots = 26;  // An alltoall layout.
  EXPECT_FALSE(verify(allgather_, geometry_, targets_, sources_));
  alltoall_.temp_slots = INT_MAX;
  const Verdict verdict = verify(alltoall_, geometry_, targets_, sources_);
  EXPECT_FALSE(verdict);
  EXPECT_TRUE(contains(verdict.mismatch, "temp_slots")) << verdict.mismatch;
}

TEST_F(VerifierTest, CatchesAScheduleForAnotherOrder) {
  // Built for the reversed source order, checked against the original.
  std::vector<int> flat;
  for (int j = sources_.size() - 1; j >= 0; --j) {
    const auto offset = sources_.offset(j);
    flat.insert(flat.end(), offset.begin(), offset.end());
  }
  const Stencil reversed(3, flat);
  const auto other = alltoall_schedule(geometry_, targets_, reversed);
  EXPECT_TRUE(verify(other, geometry_, targets_, reversed));
  EXPECT_FALSE(verify(other, geometry_, targets_, sources_));
}

TEST(VerifierMeshTest, CatchesBlocksSentFromOffTheGrid) {
  // Claiming every move active (origin/destination zero) makes border
  // processes forward blocks that do not exist.
  const auto geometry = mesh({3, 4});
  const Stencil targets = cart_stencil(2, Metric::chebyshev, 1, 1);
  const Stencil sources = negated(targets);
  auto schedule = alltoall_schedule(geometry, targets, sources);
  ASSERT_TRUE(verify(schedule, geometry, targets, sources));
  for (Round& round : schedule.rounds) {
    for (Message& message : round.messages) {
      for (BlockMove& move : message.moves) {
        std::fill(move.origin.begin(), move.origin.end(), 0);
        std::fill(move.destination.begin(), move.destination.end(), 0);
      }
    }
  }
  EXPECT_FALSE(verify(schedule, geometry, targets, sources));
}

TEST(VerifierMeshTest, ExpectsSlotsOfMissingSourcesToStayEmpty) {
  // A hand-made schedule that delivers rank 0's block into its slot for
  // the source (-1), which does not exist on a mesh of one process.
  const auto geometry = mesh({1});
  const Stencil targets(1, {1});
  const Stencil sources(1, {-1});
  AlltoallSchedule schedule = alltoall_schedule(geometry, targets, sources);
  schedule.local_copies.push_back(
      {0, {SlotKind::send, 0}, {SlotKind::receive, 0}, {0}, {0}});
  const Verdict verdict = verify(schedule, geometry, targets, sources);
  EXPECT_FALSE(verdict);
  EXPECT_TRUE(contains(verdict.mismatch, "puts nothing there"))
      << verdict.mismatch;
}

// Two messages between the same two processes in the same round, hops +1
// and -1 on a torus of 2: the verifier keeps them apart by identity, so it
// accepts the right slots and rejects swapped ones.
AlltoallSchedule two_hop_schedule(int landing_plus, int landing_minus) {
  AlltoallSchedule schedule{Stencil(1, {1, -1}),
                            Stencil(1, {1, -1}),
                            {landing_plus, landing_minus},
                            2,
                            2,
                            0,
                            {},
                            {}};
  Round round{0, {}};
  round.messages.push_back({{1},
                            {{0,
                              {SlotKind::send, 0},
                              {SlotKind::receive, landing_plus},
                              {0},
                              {1}}}});
  round.messages.push_back({{-1},
                            {{1,
                              {SlotKind::send, 1},
                              {SlotKind::receive, landing_minus},
                              {0},
                              {-1}}}});
  schedule.rounds.push_back(round);
  return schedule;
}

TEST(VerifierIdentityTest, KeepsSamePairMessagesApart) {
  const auto geometry = torus({2});
  // Targets (+1, -1), sources (+1, -1): both neighbours are the other
  // process; MPI pairs p's first send with q's first source slot.
  const Stencil targets(1, {1, -1});
  const Stencil sources(1, {1, -1});
  const Verdict right =
      verify(two_hop_schedule(0, 1), geometry, targets, sources);
  EXPECT_TRUE(right) << right.mismatch;
  EXPECT_FALSE(verify(two_hop_schedule(1, 0), geometry, targets, sources));
}

TEST(VerifierErrorsTest, RejectsAnInconsistentGraph) {
  const auto geometry = torus({5});
  const AlltoallSchedule schedule =
      alltoall_schedule(geometry, Stencil(1, {1}), Stencil(1, {-1}));
  expect_error_class(
      [&] { verify(schedule, geometry, Stencil(1, {1}), Stencil(1, {-2})); },
      ErrorClass::topology);
}

TEST(VerifierErrorsTest, RejectsNdimsMismatch) {
  const auto geometry = torus({5});
  const AlltoallSchedule schedule =
      alltoall_schedule(geometry, Stencil(1, {1}), Stencil(1, {-1}));
  expect_error_class(
      [&] {
        verify(schedule, torus({5, 5}), Stencil(1, {1}), Stencil(1, {-1}));
      },
      ErrorClass::dims);
}

}  // namespace
}  // namespace stencils
