#include "classic/collectives/internal/stall_report.h"

#include <mpi.h>

#include <algorithm>
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

std::string& last_call() {
  static std::string text = "(no checked call)";
  return text;
}

}  // namespace

void note_checked_call(const std::string& function, const Comm& comm) {
  const bool world = comm == Comm::world();
  last_call() =
      function + (world ? " on the world"
                        : " on a communicator of " +
                              std::to_string(comm.size()) + " processes");
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
  std::copy_n(last_call().begin(),
              std::min<std::size_t>(last_call().size(), kNoteBytes - 1),
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
