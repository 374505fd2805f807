// Tests that say where they hang. Every process of an MPI test binary runs
// a watchdog that gives each test a time limit (ORTHOCOMM_TEST_TIMEOUT_S,
// 60 s by default; 0 turns it off), scaled by the machine's load per core
// when it passes (up to 10x: a loaded machine is slow, not hung). A test
// still running at its limit,
// its body or the harness's combination of its results (which waits for
// the other processes), gets a report on stderr from every process where
// it hangs: the test, the rank, the case label the test set last
// (case_label.h) and the stack of the main thread (function names where
// they have external linkage, binary offsets for addr2line -Cfe BINARY
// elsewhere, such as a test's anonymous namespace); then the process exits
// with status 124, which ends the whole run through mpirun, within seconds
// of the limit instead of at mpirun's or Bazel's timeout.
#ifndef ORTHOCOMM_TESTS_HARNESS_HANG_WATCHDOG_H_
#define ORTHOCOMM_TESTS_HARNESS_HANG_WATCHDOG_H_

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace orthocomm_test {

class HangWatchdog : public testing::EmptyTestEventListener {
 public:
  // `rank` and `size` name this process in the report. Append it before
  // the result printer: its OnTestEnd then runs after the printer's, whose
  // combination of results is covered too.
  HangWatchdog(int rank, int size);
  ~HangWatchdog() override;
  HangWatchdog(const HangWatchdog&) = delete;
  HangWatchdog& operator=(const HangWatchdog&) = delete;

  void OnTestStart(const testing::TestInfo& test_info) override;
  void OnTestEnd(const testing::TestInfo& test_info) override;

 private:
  void watch();
  [[noreturn]] void report_and_exit(const std::string& test);

  int rank_;
  int size_;
  std::chrono::seconds limit_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string test_;  // the running test ("" between tests)
  std::chrono::steady_clock::time_point started_;
  std::chrono::steady_clock::time_point deadline_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace orthocomm_test

#endif  // ORTHOCOMM_TESTS_HARNESS_HANG_WATCHDOG_H_
