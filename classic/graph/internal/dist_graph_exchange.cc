#include "classic/graph/internal/dist_graph_exchange.h"

#include <climits>
#include <string>

#include "classic/base/error.h"
#include "classic/base/internal/transport_error.h"

namespace classic::internal {
namespace {

// The only tag on the context while the exchange runs.
constexpr int kExchangeTag = 0;

int int_count(std::size_t size, const char* function) {
  if (size > static_cast<std::size_t>(INT_MAX)) {
    throw Error(
        ErrorClass::count, function,
        "a message of " + std::to_string(size) + " ints exceeds INT_MAX");
  }
  return static_cast<int>(size);
}

// Receives one message that iprobe found waiting, if any.
bool receive_waiting(MPI_Comm context, std::vector<SparseMessage>& received,
                     const char* function) {
  int waiting = 0;
  MPI_Status status;
  transport::check_code(
      MPI_Iprobe(MPI_ANY_SOURCE, kExchangeTag, context, &waiting, &status),
      function);
  if (!waiting) return false;
  int count = 0;
  transport::check_code(MPI_Get_count(&status, MPI_INT, &count), function);
  SparseMessage message{status.MPI_SOURCE,
                        std::vector<int>(static_cast<std::size_t>(count))};
  transport::check_code(
      MPI_Recv(message.data.data(), count, MPI_INT, status.MPI_SOURCE,
               kExchangeTag, context, MPI_STATUS_IGNORE),
      function);
  received.push_back(std::move(message));
  return true;
}

bool test_all(std::vector<MPI_Request>& requests, const char* function) {
  int done = 0;
  transport::check_code(
      MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done,
                  MPI_STATUSES_IGNORE),
      function);
  return done != 0;
}

}  // namespace

std::vector<SparseMessage> sparse_exchange(
    MPI_Comm context, std::span<const SparseMessage> outgoing,
    const char* function) {
  std::vector<MPI_Request> sends(outgoing.size(), MPI_REQUEST_NULL);
  for (std::size_t i = 0; i < outgoing.size(); ++i) {
    const SparseMessage& message = outgoing[i];
    transport::check_code(
        MPI_Issend(message.data.data(),
                   int_count(message.data.size(), function), MPI_INT,
                   message.peer, kExchangeTag, context, &sends[i]),
        function);
  }
  std::vector<SparseMessage> received;
  MPI_Request barrier = MPI_REQUEST_NULL;
  bool in_barrier = false;
  while (true) {
    while (receive_waiting(context, received, function)) {
    }
    if (!in_barrier) {
      if (test_all(sends, function)) {
        transport::check_code(MPI_Ibarrier(context, &barrier), function);
        in_barrier = true;
      }
    } else {
      int done = 0;
      transport::check_code(MPI_Test(&barrier, &done, MPI_STATUS_IGNORE),
                            function);
      if (done) break;
    }
  }
  return received;
}

}  // namespace classic::internal
