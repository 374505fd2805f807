#include "classic/exec/internal/leftovers.h"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/internal/transport.h"

namespace classic::internal {
namespace {

struct Discard {
  MPI_Request request;
  MPI_Comm context;
  std::unique_ptr<std::byte[]> sink;
};

struct BackgroundSend {
  MPI_Request request;
  std::shared_ptr<void> keep;
  Handle handle;
};

struct Leftovers {
  std::vector<Discard> discards;
  std::vector<BackgroundSend> sends;
  bool finalizer_registered = false;
};

// Never destroyed: operations kept past main() may still look here.
Leftovers& leftovers() {
  static auto& instance = *new Leftovers();
  return instance;
}

// True when `request` has completed, whatever its outcome: a truncated or
// failed leftover is as finished as a delivered one (the context returns
// errors, so nothing is raised).
bool completed(MPI_Request& request) {
  int done = 0;
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  return done != 0 || request == MPI_REQUEST_NULL;
}

// A completed background send lets go of its handle where it must.
bool finished(BackgroundSend& send) {
  if (!completed(send.request)) return false;
  if (send.handle == Handle::free && send.request != MPI_REQUEST_NULL) {
    MPI_Request_free(&send.request);
  }
  return true;
}

// At finalize the transport goes: nothing more will arrive. Receives still
// posted are withdrawn so that MPI_Finalize finds none pending.
void finalize_leftovers() {
  Leftovers& l = leftovers();
  for (Discard& discard : l.discards) {
    if (!completed(discard.request)) {
      MPI_Cancel(&discard.request);
      MPI_Wait(&discard.request, MPI_STATUS_IGNORE);
    }
    transport::release_context(discard.context);
  }
  for (BackgroundSend& send : l.sends) {
    if (send.request != MPI_REQUEST_NULL) MPI_Request_free(&send.request);
  }
  l.discards.clear();
  l.sends.clear();
  l.finalizer_registered = false;
}

void register_finalizer() {
  Leftovers& l = leftovers();
  if (l.finalizer_registered) return;
  Environment::at_finalize(&finalize_leftovers);
  l.finalizer_registered = true;
}

// Open MPI 4.1.4's single-copy rendezvous (vader, CMA) writes the whole of
// a too-long message into the receive buffer, past its end, before it
// reports the truncation (AddressSanitizer shows it). A sink this much
// longer than the receive it stands for absorbs such a block.
std::size_t sink_bytes(int receive_bytes) {
  constexpr std::size_t kSlack = std::size_t{64} << 10;
  return 2 * static_cast<std::size_t>(receive_bytes) + kSlack;
}

}  // namespace

void discard_message(MPI_Comm context, int source, int tag, int bytes) {
  if (context == MPI_COMM_NULL) return;
  register_finalizer();
  const int size = std::max(bytes, 0);
  Discard discard{MPI_REQUEST_NULL, context,
                  std::make_unique<std::byte[]>(sink_bytes(size))};
  if (MPI_Irecv(discard.sink.get(), size, MPI_PACKED, source, tag, context,
                &discard.request) != MPI_SUCCESS) {
    return;  // nothing posted, nothing to wait for
  }
  transport::retain_context(context);
  leftovers().discards.push_back(std::move(discard));
}

void finish_in_background(MPI_Request request, std::shared_ptr<void> keep,
                          Handle handle) {
  if (request == MPI_REQUEST_NULL) return;
  register_finalizer();
  leftovers().sends.push_back(BackgroundSend{request, std::move(keep), handle});
}

[[gnu::hot]] void collect_leftovers() {
  Leftovers& l = leftovers();
  if (l.discards.empty() && l.sends.empty()) [[likely]] {
    return;
  }
  std::erase_if(l.discards, [](Discard& discard) {
    if (!completed(discard.request)) return false;
    transport::release_context(discard.context);
    return true;
  });
  std::erase_if(l.sends, finished);
}

}  // namespace classic::internal
