// How a table's choice for one operation (ortho/internal/choice.h) names the
// algorithm for a block size and mode: per mode, one list of steps, each
// from its block size on; take_up_to and take_from put an algorithm below
// or above a size and keep what was chosen on the other side.
#include "ortho/internal/choice.h"

#include <gtest/gtest.h>

#include <string_view>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/call.h"

namespace ortho {
namespace {

using classic::Mode;

// Algorithms that are never run here: a name and some run.
classic::Request never_run(const classic::Comm& /*comm*/,
                           const Table& /*table*/, const Call& /*call*/) {
  return {};
}
Algorithm named(std::string_view name) { return {name, &never_run}; }

TEST(Choice, OnlyIsOneAlgorithmEverywhere) {
  const Choice choice = Choice::only(named("a"));
  EXPECT_TRUE(choice.defined());
  EXPECT_TRUE(choice.fixed());
  for (Mode mode : {Mode::blocking, Mode::nonblocking, Mode::persistent}) {
    EXPECT_FALSE(choice.sized(mode));
    EXPECT_EQ(choice.select(0, mode).name, "a");
    EXPECT_EQ(choice.select(Choice::kNever, mode).name, "a");
  }
  EXPECT_FALSE(Choice{}.defined());
}

TEST(Choice, StepsInOrderOfSize) {
  Choice choice = Choice::only(named("a"));
  choice.take_from(named("b"), 101);
  choice.take_from(named("c"), 1001);
  choice.take_from(named("a"), 5001);
  const auto at = [&](std::size_t bytes) { return choice.select(bytes).name; };
  EXPECT_EQ(at(0), "a");
  EXPECT_EQ(at(100), "a");
  EXPECT_EQ(at(101), "b");
  EXPECT_EQ(at(1000), "b");
  EXPECT_EQ(at(1001), "c");
  EXPECT_EQ(at(5000), "c");
  EXPECT_EQ(at(5001), "a");
  EXPECT_EQ(choice.select(5001, Mode::nonblocking).name, "a");
  EXPECT_FALSE(choice.fixed());
  EXPECT_TRUE(choice.sized(Mode::persistent));
}

TEST(Choice, TakeUpToKeepsTheStepsAbove) {
  Choice choice = Choice::only(named("a"));
  choice.take_from(named("b"), 101);
  choice.take_from(named("c"), 1001);
  choice.take_up_to(named("p"), 50, {Mode::persistent});
  const auto at = [&](std::size_t bytes) {
    return choice.select(bytes, Mode::persistent).name;
  };
  EXPECT_EQ(at(50), "p");
  EXPECT_EQ(at(51), "a");  // what ran there before
  EXPECT_EQ(at(101), "b");
  EXPECT_EQ(at(1001), "c");
  EXPECT_EQ(choice.select(50, Mode::blocking).name, "a");  // other modes kept
  choice.take_up_to(named("p"), 2000, {Mode::persistent});
  EXPECT_EQ(at(2000), "p");
  EXPECT_EQ(at(2001), "c");
  EXPECT_EQ(choice.in(Mode::persistent).size(), 2u);
}

TEST(Choice, EveryStepUpToNeverIsOneAlgorithm) {
  Choice choice = Choice::only(named("a"));
  choice.take_from(named("b"), 10);
  choice.take_up_to(named("c"), Choice::kNever);
  EXPECT_TRUE(choice.fixed());
  EXPECT_EQ(choice.select(1 << 20).name, "c");
}

TEST(Choice, NeighbouringStepsOfOneAlgorithmMerge) {
  Choice choice = Choice::only(named("a"));
  choice.take_from(named("a"), 10);
  choice.take_up_to(named("a"), 5);
  EXPECT_TRUE(choice.fixed());
}

}  // namespace
}  // namespace ortho
