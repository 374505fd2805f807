// verify_by_translation against verify (the full simulation of every
// process): the same verdict on the built schedules of random stencils on
// random tori up to 10^4 processes, and on those schedules corrupted at
// random; its errors for grids it cannot judge.
#include "stencils/translation_verifier.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "classic/base/error.h"
#include "stencils/neighborhood.h"
#include "stencils/schedule.h"
#include "stencils/verifier.h"
#include "tests/stencils/testing.h"
#include "tests/testing/errors.h"

namespace stencils {
namespace {

using classic::ErrorClass;
using orthocomm_test::expect_error;

// A torus of 1 to 3 dimensions with at most `most` processes.
naming::Geometry random_torus(std::mt19937& rng, int most) {
  std::uniform_int_distribution<int> ndims_of(1, 3);
  const int ndims = ndims_of(rng);
  std::vector<int> dims;
  int size = 1;
  for (int i = 0; i < ndims; ++i) {
    std::uniform_int_distribution<int> extent_of(1, 7);
    int extent = extent_of(rng);
    while (size * extent > most) --extent;
    dims.push_back(extent);
    size *= extent;
  }
  return testing::torus(dims);
}

// Both verdicts on `schedule`; expects them equal and returns whether ok.
template <typename Schedule>
bool same_verdict(const Schedule& schedule, const naming::Geometry& geometry,
                  const Stencil& targets, const Stencil& sources,
                  const std::string& what) {
  const Verdict full = verify(schedule, geometry, targets, sources);
  const Verdict translated =
      verify_by_translation(schedule, geometry, targets, sources);
  EXPECT_EQ(full.ok, translated.ok)
      << what << "\n full: " << full.mismatch
      << "\n by translation: " << translated.mismatch;
  return full.ok;
}

// One random corruption of `schedule`'s moves, hops or slot counts.
template <typename Schedule>
void corrupt(std::mt19937& rng, Schedule& schedule) {
  std::vector<BlockMove*> moves;
  std::vector<Message*> messages;
  for (Round& round : schedule.rounds) {
    for (Message& message : round.messages) {
      messages.push_back(&message);
      for (BlockMove& move : message.moves) moves.push_back(&move);
    }
  }
  if (moves.empty()) return;
  const auto pick = [&rng](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  BlockMove& move = *moves[pick(moves.size())];
  switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
    case 0:  // lands elsewhere
      move.to.index = static_cast<int>(pick(static_cast<std::size_t>(
          move.to.kind == SlotKind::temp ? schedule.temp_slots + 1
                                         : schedule.receive_slots + 1)));
      break;
    case 1:  // reads another slot
      move.from.index = static_cast<int>(pick(static_cast<std::size_t>(
          move.from.kind == SlotKind::send ? schedule.send_slots + 1
                                           : schedule.receive_slots + 1)));
      break;
    case 2: {  // swaps destinations with another move
      BlockMove& other = *moves[pick(moves.size())];
      std::swap(move.to, other.to);
      break;
    }
    case 3: {  // a message goes one step further
      Message& message = *messages[pick(messages.size())];
      ++message.hop[pick(message.hop.size())];
      break;
    }
    case 4: {  // a move is lost
      Message& message = *messages[pick(messages.size())];
      if (!message.moves.empty()) message.moves.pop_back();
      break;
    }
    default: {  // a move is sent twice, in another message
      Message& message = *messages[pick(messages.size())];
      message.moves.push_back(move);
      break;
    }
  }
}

TEST(TranslationVerifier, AgreesWithTheFullVerifierOnRandomTori) {
  std::mt19937 rng(20261129);
  int corrupted_and_caught = 0;
  int corrupted = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const naming::Geometry geometry =
        random_torus(rng, trial < 8 ? 10000 : 300);
    const int ndims = geometry.ndims();
    const int radius = std::uniform_int_distribution<int>(1, 2)(rng);
    const int count = std::uniform_int_distribution<int>(1, 8)(rng);
    const Stencil targets = testing::random_stencil(rng, ndims, radius, count);
    const Stencil sources = testing::random_sources(rng, geometry, targets);
    const std::string what = "trial " + std::to_string(trial);
    AllgatherSchedule allgather =
        allgather_schedule(geometry, targets, sources);
    AlltoallSchedule alltoall = alltoall_schedule(geometry, targets, sources);
    EXPECT_TRUE(same_verdict(allgather, geometry, targets, sources, what));
    EXPECT_TRUE(same_verdict(alltoall, geometry, targets, sources, what));
    corrupt(rng, allgather);
    corrupt(rng, alltoall);
    corrupted += 2;
    corrupted_and_caught += !same_verdict(allgather, geometry, targets, sources,
                                          what + " corrupted allgather");
    corrupted_and_caught += !same_verdict(alltoall, geometry, targets, sources,
                                          what + " corrupted alltoall");
  }
  // Most corruptions break a schedule (some are harmless: a hop moved by
  // the extent of a dimension of size 1, a block swapped with its twin).
  EXPECT_GT(corrupted_and_caught, corrupted / 2);
}

TEST(TranslationVerifier, JudgesAMillionProcessTorus) {
  const naming::Geometry geometry = testing::torus({100, 100, 100});
  const Stencil targets = cart_stencil(3, Metric::chebyshev, 1, 2);
  const Stencil sources = testing::from_vectors(3, [&] {
    std::vector<std::vector<int>> negated = testing::to_vectors(targets);
    for (auto& offset : negated) {
      for (int& x : offset) x = -x;
    }
    return negated;
  }());
  AlltoallSchedule alltoall = alltoall_schedule(geometry, targets, sources);
  EXPECT_TRUE(verify_by_translation(alltoall, geometry, targets, sources));
  std::swap(alltoall.rounds.back().messages[0].moves[0].to,
            alltoall.rounds.back().messages[0].moves[1].to);
  const Verdict broken =
      verify_by_translation(alltoall, geometry, targets, sources);
  EXPECT_FALSE(broken);
  EXPECT_NE(broken.mismatch.find("the direct neighbour collective puts"),
            std::string::npos)
      << broken.mismatch;
}

TEST(TranslationVerifier, RejectsGridsWithBorders) {
  const naming::Geometry geometry =
      testing::grid({4, 4}, std::vector<bool>{true, false});
  const Stencil targets = cart_stencil(2, Metric::chebyshev, 1, 1);
  const AllgatherSchedule schedule =
      allgather_schedule(geometry, targets, targets);
  expect_error(
      [&] { verify_by_translation(schedule, geometry, targets, targets); },
      ErrorClass::arg,
      {"stencils::verify_by_translation", "dimension 1", "not periodic"});
}

TEST(TranslationVerifier, RejectsAnInconsistentGraph) {
  const naming::Geometry geometry = testing::torus({5, 5});
  const Stencil targets = testing::from_vectors(2, {{1, 0}, {0, 1}});
  const Stencil sources = testing::from_vectors(2, {{-1, 0}, {0, 1}});
  const AllgatherSchedule schedule = allgather_schedule(
      geometry, targets, testing::from_vectors(2, {{-1, 0}, {0, -1}}));
  expect_error(
      [&] { verify_by_translation(schedule, geometry, targets, sources); },
      ErrorClass::topology,
      {"stencils::verify_by_translation", "offset (0,1)", "as a source"});
}

}  // namespace
}  // namespace stencils
