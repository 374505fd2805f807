#include "classic/collectives/internal/stall_report.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "classic/base/environment.h"

namespace classic::internal {
namespace {

// The bytes of one process's note in the report.
constexpr int kNoteBytes = 160;

// This process's last checked call, kept as plain fields on every call
// (no allocation) and put into words only for a report.
struct LastCall {
  std::array<char, 96> function{};
  int size = 0;
  bool world = false;
};
LastCall& last_call() {
  static LastCall call;
  return call;
}

std::string last_call_text() {
  const LastCall& call = last_call();
  if (call.size == 0) return "(no checked call)";
  return std::string(call.function.data()) +
         (call.world ? " on the world"
                     : " on a communicator of " + std::to_string(call.size) +
                           " processes");
}

}  // namespace

void note_checked_call(std::string_view function, int size, bool world) {
  LastCall& call = last_call();
  const std::size_t length =
      std::min(function.size(), call.function.size() - 1);
  std::copy_n(function.begin(), length, call.function.begin());
  call.function[length] = '\0';
  call.size = size;
  call.world = world;
}

std::string last_calls_of_every_rank(double seconds) {
  static bool asked = false;
  if (asked || seconds <= 0) return {};
  asked = true;
  MPI_Comm context = Environment::report_context();
  const int size = Environment::world_size();
  // On the heap: a gather that never completes keeps them.
  auto mine = std::make_unique<std::vector<char>>(kNoteBytes, '\0');
  auto all = std::make_unique<std::vector<char>>(
      static_cast<std::size_t>(kNoteBytes) * static_cast<std::size_t>(size));
  const std::string note = last_call_text();
  std::copy_n(note.begin(), std::min<std::size_t>(note.size(), kNoteBytes - 1),
              mine->begin());
  MPI_Request request = MPI_REQUEST_NULL;
  if (MPI_Iallgather(mine->data(), kNoteBytes, MPI_CHAR, all->data(),
                     kNoteBytes, MPI_CHAR, context, &request) != MPI_SUCCESS) {
    return {};
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (int done = 0; done == 0;) {
    if (MPI_Test(&request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return {};
    if (done == 0) {
      if (std::chrono::steady_clock::now() >= deadline) {
        (void)mine.release();  // the pending gather may still use them
        (void)all.release();
        return {};
      }
      std::this_thread::yield();
    }
  }
  std::string report;
  for (int rank = 0; rank < size; ++rank) {
    const char* note =
        all->data() + static_cast<std::size_t>(rank) * kNoteBytes;
    report += (rank ? "; rank " : "rank ") + std::to_string(rank) + ": " +
              std::string(note, ::strnlen(note, kNoteBytes));
  }
  return report;
}

}  // namespace classic::internal
