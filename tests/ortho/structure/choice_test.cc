// How a table's choice for one operation (ortho/internal/table.h) names the
// algorithm for a block size and mode: the primary up to the crossover,
// then the alternative, then each further step above its size; persistent
// calls with a primary of their own cross over to the same steps.
#include <gtest/gtest.h>

#include <string_view>

#include "classic/comm/comm.h"
#include "classic/exec/mode.h"
#include "classic/p2p/request.h"
#include "ortho/call.h"
#include "ortho/internal/table.h"

namespace ortho {
namespace {

// Algorithms that are never run here: a name and some run (a choice tells
// a persistent primary that is set by its run).
classic::Request never_run(const classic::Comm& /*comm*/,
                           const Table& /*table*/, const Call& /*call*/) {
  return {};
}
Algorithm named(std::string_view name) { return {name, &never_run}; }

TEST(Choice, StepsAboveTheCrossoverInOrder) {
  Choice choice = Choice::only(named("a"));
  choice.crossover_bytes = 100;
  choice.alternative = named("b");
  choice.further = {{1000, named("c")}, {5000, named("a")}};
  const auto at = [&](std::size_t bytes) { return choice.select(bytes).name; };
  EXPECT_EQ(at(0), "a");
  EXPECT_EQ(at(100), "a");
  EXPECT_EQ(at(101), "b");
  EXPECT_EQ(at(1000), "b");
  EXPECT_EQ(at(1001), "c");
  EXPECT_EQ(at(5000), "c");
  EXPECT_EQ(at(5001), "a");
  EXPECT_EQ(choice.select(5001, classic::Mode::nonblocking).name, "a");
}

TEST(Choice, PersistentPrimaryCrossesToTheSameSteps) {
  Choice choice = Choice::only(named("a"));
  choice.crossover_bytes = 100;
  choice.alternative = named("b");
  choice.further = {{1000, named("c")}};
  choice.persistent = named("p");
  choice.persistent_crossover_bytes = 50;
  const auto at = [&](std::size_t bytes) {
    return choice.select(bytes, classic::Mode::persistent).name;
  };
  EXPECT_EQ(at(50), "p");
  EXPECT_EQ(at(51), "b");
  EXPECT_EQ(at(1001), "c");
  EXPECT_EQ(choice.select(60, classic::Mode::blocking).name, "a");
}

}  // namespace
}  // namespace ortho
