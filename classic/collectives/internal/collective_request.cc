// Non-blocking and persistent intra-communicator collectives as
// classic::Request operations over one transport request, and the
// transport requests of abandoned ones, completed in the background.
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "classic/base/environment.h"
#include "classic/base/internal/transport.h"
#include "classic/collectives/internal/collective_call.h"

namespace classic::internal {
namespace {

// A transport collective whose request went away while it ran: the
// transport allows neither cancelling nor freeing it, so it is tested until
// it completes (its arrays kept until then).
struct Abandoned {
  MPI_Request request;
  bool persistent;
  std::shared_ptr<KeptArrays> kept;
};

struct Background {
  std::vector<Abandoned> running;
  bool finalizer_registered = false;
};

// Never destroyed: requests kept past main() may still look here.
Background& background() {
  static auto& instance = *new Background();
  return instance;
}

// Lets go of a completed request: a persistent one is freed (MPI_Test
// leaves it inactive), a non-blocking one is null after MPI_Test.
void release(Abandoned& abandoned) {
  if (abandoned.persistent && abandoned.request != MPI_REQUEST_NULL) {
    MPI_Request_free(&abandoned.request);
  }
}

bool completed(Abandoned& abandoned) {
  int done = 0;
  MPI_Test(&abandoned.request, &done, MPI_STATUS_IGNORE);
  if (done == 0) return false;
  release(abandoned);
  return true;
}

// Lets go of abandoned collectives that have completed; cheap when none.
void collect_background() {
  std::vector<Abandoned>& running = background().running;
  if (!running.empty()) [[unlikely]] {
    std::erase_if(running, completed);
  }
}

// MPI_Finalize must find no collective pending: every process began the
// abandoned ones, so they complete while the processes wait here.
void finalize_background() {
  Background& b = background();
  for (Abandoned& abandoned : b.running) {
    MPI_Wait(&abandoned.request, MPI_STATUS_IGNORE);
    release(abandoned);
  }
  b.running.clear();
  b.finalizer_registered = false;
}

void run_in_background(Abandoned abandoned) {
  Background& b = background();
  if (!b.finalizer_registered) {
    Environment::at_finalize(&finalize_background);
    b.finalizer_registered = true;
  }
  b.running.push_back(std::move(abandoned));
}

class TransportCollective final : public Request::Operation {
 public:
  TransportCollective(MPI_Comm context, Mode mode, const char* function,
                      std::shared_ptr<KeptArrays> kept,
                      std::function<int(MPI_Request*)> post)
      : context_hold_(context),
        persistent_(mode == Mode::persistent),
        function_(function),
        kept_(std::move(kept)),
        post_(std::move(post)) {
    if (persistent_) check(post_(&request_));
  }

  ~TransportCollective() override {
    if (persistent_ && request_ != MPI_REQUEST_NULL && Environment::active()) {
      MPI_Request_free(&request_);
    }
  }

  std::span<MPI_Request> parts() override { return {&request_, 1}; }
  bool advance() override { return true; }
  bool persistent() const noexcept override { return persistent_; }

  void begin() override {
    collect_background();
    check(persistent_ ? MPI_Start(&request_) : post_(&request_));
  }

  void abandon() noexcept override {
    if (request_ == MPI_REQUEST_NULL) return;
    run_in_background({std::exchange(request_, MPI_REQUEST_NULL), persistent_,
                       std::move(kept_)});
  }

 private:
  void check(int code) const {
    if (code != MPI_SUCCESS) [[unlikely]] {
      raise_collective_error(code, function_);
    }
  }

  // The communicator's context stays with the transport while the
  // operation lives: a persistent one starts again after the free.
  transport::ContextHold context_hold_;
  bool persistent_;
  const char* function_;
  std::shared_ptr<KeptArrays> kept_;
  std::function<int(MPI_Request*)> post_;
  MPI_Request request_ = MPI_REQUEST_NULL;
};

}  // namespace

Request collective_request(const Comm& comm, Mode mode, const char* function,
                           std::shared_ptr<KeptArrays> kept,
                           std::function<int(MPI_Request*)> post) {
  if (mode == Mode::persistent) collect_background();
  return Request(
      std::make_unique<TransportCollective>(comm.transport(), mode, function,
                                            std::move(kept), std::move(post)),
      comm);
}

int collectives_in_background() {
  collect_background();
  return static_cast<int>(background().running.size());
}

}  // namespace classic::internal
