#include "experiments/progress.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace progress {
namespace {

using Clock = std::chrono::steady_clock;

constexpr long kDefaultSeconds = 120;

struct Place {
  std::array<char, 96> variant{};
  std::array<char, 96> operation{};
  int iteration = 0;
  Clock::time_point since = Clock::now();
};

std::mutex& place_mutex() {
  static std::mutex mutex;
  return mutex;
}

Place& place() {
  static Place p;
  return p;
}

void copy(std::array<char, 96>& to, std::string_view from) {
  const std::size_t n = std::min(from.size(), to.size() - 1);
  std::memcpy(to.data(), from.data(), n);
  to[n] = '\0';
}

long limit_from_environment() {
  const char* value = std::getenv("ORTHOCOMM_WATCHDOG_S");
  if (value == nullptr || *value == '\0') return kDefaultSeconds;
  char* end = nullptr;
  const long seconds = std::strtol(value, &end, 10);
  if (*end != '\0' || seconds < 0) {
    std::fprintf(stderr,
                 "watchdog: ORTHOCOMM_WATCHDOG_S = '%s' is no number of "
                 "seconds >= 0; using %ld\n",
                 value, kDefaultSeconds);
    return kDefaultSeconds;
  }
  return seconds;
}

[[noreturn]] void watch(int rank, int size, long limit) {
  const auto allowed = std::chrono::seconds(limit);
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    Place now;
    {
      const std::lock_guard<std::mutex> lock(place_mutex());
      now = place();
    }
    if (Clock::now() - now.since < allowed) continue;
    std::fflush(stdout);
    std::fprintf(
        stderr,
        "watchdog: rank %d of %d: no progress for %ld s: variant %s, "
        "iteration %d, in %s\n",
        rank, size, limit,
        now.variant[0] == '\0' ? "(none)" : now.variant.data(), now.iteration,
        now.operation[0] == '\0' ? "(start-up)" : now.operation.data());
    std::fflush(stderr);
    // The other processes, whose limits pass about now, print theirs
    // before mpirun ends the job.
    std::this_thread::sleep_for(std::chrono::seconds(2));
    _exit(124);
  }
}

}  // namespace

void start(int rank, int size) {
  static std::once_flag started;
  std::call_once(started, [rank, size] {
    const long limit = limit_from_environment();
    if (limit == 0) return;
    at("", "", 0);
    std::thread(watch, rank, size, limit).detach();
  });
}

void at(std::string_view variant, std::string_view operation, int iteration) {
  const std::lock_guard<std::mutex> lock(place_mutex());
  Place& p = place();
  copy(p.variant, variant);
  copy(p.operation, operation);
  p.iteration = iteration;
  p.since = Clock::now();
}

}  // namespace progress
