#include "tests/harness/hang_watchdog.h"

#include <execinfo.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "tests/harness/case_label.h"

namespace orthocomm_test {
namespace {

// ---- the case label ---------------------------------------------------------

// A fixed buffer under a mutex: the watchdog reads it from its own thread.
std::mutex& label_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::array<char, 512>& label_buffer() {
  static std::array<char, 512> buffer{};
  return buffer;
}

// ---- the main thread's stack
// --------------------------------------------------

constexpr int kStackSignal = SIGUSR2;
std::atomic<bool> stack_printed{false};

// Runs on the main thread when the watchdog signals it. backtrace() was
// called once before (the constructor), so it allocates nothing here.
void print_stack(int) {
  std::array<void*, 64> frames{};
  const int depth = backtrace(frames.data(), static_cast<int>(frames.size()));
  backtrace_symbols_fd(frames.data(), depth, STDERR_FILENO);
  stack_printed.store(true);
}

std::chrono::seconds limit_from_environment() {
  const char* value = std::getenv("ORTHOCOMM_TEST_TIMEOUT_S");
  if (value == nullptr || *value == '\0') return std::chrono::seconds(60);
  char* end = nullptr;
  const long seconds = std::strtol(value, &end, 10);
  if (*end != '\0' || seconds < 0) {
    std::fprintf(stderr,
                 "hang watchdog: ORTHOCOMM_TEST_TIMEOUT_S = '%s' is not a "
                 "number of seconds >= 0; using 60\n",
                 value);
    return std::chrono::seconds(60);
  }
  return std::chrono::seconds(seconds);
}

pthread_t main_thread;

// How much slower than an idle machine this one runs now: the 1-minute load
// average per core, at least 1 and at most kMostLoadFactor (a hang is still
// reported, later). 1 where /proc/loadavg cannot be read.
constexpr double kMostLoadFactor = 10;

double load_factor() {
  double load = 0;
  std::FILE* file = std::fopen("/proc/loadavg", "r");
  if (file == nullptr) return 1;
  const int read = std::fscanf(file, "%lf", &load);
  std::fclose(file);
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (read != 1 || cores < 1) return 1;
  return std::clamp(load / static_cast<double>(cores), 1.0, kMostLoadFactor);
}

}  // namespace

void set_case_label(std::string_view label) {
  const std::lock_guard<std::mutex> lock(label_mutex());
  std::array<char, 512>& buffer = label_buffer();
  const std::size_t n = std::min(label.size(), buffer.size() - 1);
  std::memcpy(buffer.data(), label.data(), n);
  buffer[n] = '\0';
}

std::string case_label() {
  const std::lock_guard<std::mutex> lock(label_mutex());
  return label_buffer().data();
}

HangWatchdog::HangWatchdog(int rank, int size)
    : rank_(rank), size_(size), limit_(limit_from_environment()) {
  if (limit_.count() == 0) return;
  main_thread = pthread_self();
  std::array<void*, 4> warm_up{};
  (void)backtrace(warm_up.data(), static_cast<int>(warm_up.size()));
  struct sigaction action {};
  action.sa_handler = &print_stack;
  sigemptyset(&action.sa_mask);
  sigaction(kStackSignal, &action, nullptr);
  thread_ = std::thread([this] { watch(); });
}

HangWatchdog::~HangWatchdog() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void HangWatchdog::OnTestStart(const testing::TestInfo& test_info) {
  if (!thread_.joinable()) return;
  set_case_label("");
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    test_ = std::string(test_info.test_suite_name()) + "." + test_info.name();
    started_ = std::chrono::steady_clock::now();
    deadline_ = started_ + limit_;
  }
  changed_.notify_all();
}

void HangWatchdog::OnTestEnd(const testing::TestInfo&) {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    test_.clear();
  }
  changed_.notify_all();
}

void HangWatchdog::watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (test_.empty()) {
      changed_.wait(lock);
      continue;
    }
    const std::string test = test_;
    if (changed_.wait_until(lock, deadline_) == std::cv_status::timeout &&
        test_ == test && std::chrono::steady_clock::now() >= deadline_) {
      // A loaded machine runs the test slower: its limit grows with the
      // load, so that only a test that stopped progressing is reported.
      const auto scaled =
          started_ +
          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
              limit_ * load_factor());
      if (scaled > deadline_) {
        deadline_ = scaled;
        continue;
      }
      lock.unlock();
      report_and_exit(test);
    }
  }
}

void HangWatchdog::report_and_exit(const std::string& test) {
  std::fflush(stdout);
  const std::string label = case_label();
  std::fprintf(
      stderr,
      "[  HANG    ] %s on rank %d of %d: still running after %lld s "
      "(ORTHOCOMM_TEST_TIMEOUT_S, scaled by the load per core)\n"
      "[  HANG    ] rank %d, last case: %s\n"
      "[  HANG    ] rank %d, stack of the main thread:\n",
      test.c_str(), rank_, size_,
      static_cast<long long>(std::chrono::duration_cast<std::chrono::seconds>(
                                 std::chrono::steady_clock::now() - started_)
                                 .count()),
      rank_, label.empty() ? "(none set)" : label.c_str(), rank_);
  std::fflush(stderr);
  pthread_kill(main_thread, kStackSignal);
  for (int i = 0; i < 20 && !stack_printed.load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  // Let the other processes, whose limits pass at about the same time,
  // print theirs before mpirun ends the job.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  std::fprintf(stderr, "[  HANG    ] rank %d exits (status 124)\n", rank_);
  std::fflush(stderr);
  _exit(124);
}

}  // namespace orthocomm_test
