// The experiment programs' no-progress watchdog (experiments/progress.h):
// a process that stops reporting progress prints where it waits and exits
// with status 124 once the limit passes; one that keeps reporting runs on.
#include "experiments/progress.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace {

using std::chrono::milliseconds;

TEST(ProgressWatchdogDeathTest, SaysWhereItWaitsAndExits124) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("ORTHOCOMM_WATCHDOG_S", "1", 1);
        progress::start(3, 8);
        progress::at("ortho-selected", "the halo exchange", 41);
        std::this_thread::sleep_for(std::chrono::seconds(10));
        std::exit(0);
      },
      testing::ExitedWithCode(124),
      "watchdog: rank 3 of 8: no progress for 1 s: variant ortho-selected, "
      "iteration 41, in the halo exchange");
}

TEST(ProgressWatchdogDeathTest, ProgressKeepsTheProcessAlive) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("ORTHOCOMM_WATCHDOG_S", "1", 1);
        progress::start(0, 1);
        for (int i = 0; i < 15; ++i) {
          progress::at("v", "a step", i);
          std::this_thread::sleep_for(milliseconds(200));
        }
        std::exit(0);
      },
      testing::ExitedWithCode(0), "");
}

TEST(ProgressWatchdogDeathTest, ZeroTurnsItOff) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("ORTHOCOMM_WATCHDOG_S", "0", 1);
        progress::start(0, 1);
        progress::at("v", "a step", 0);
        std::this_thread::sleep_for(milliseconds(1500));
        std::exit(0);
      },
      testing::ExitedWithCode(0), "");
}

}  // namespace
