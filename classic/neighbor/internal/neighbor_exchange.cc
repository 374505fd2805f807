#include "classic/neighbor/internal/neighbor_exchange.h"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/base/internal/transport.h"
#include "classic/base/internal/transport_error.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/comm/typed_keyval.h"
#include "classic/p2p/point_to_point.h"

namespace classic::internal {
namespace {

// ---- the operation sequence of a communicator -------------------------------

// The number of the next neighbourhood collective on a communicator. A
// duplicate starts again at 0 with a private context of its own.
struct NeighborSequence {
  std::uint64_t next = 0;
};

const Keyval<NeighborSequence>& sequence_keyval() {
  static const Keyval<NeighborSequence> keyval(OnDup::drop);
  return keyval;
}

std::uint64_t next_sequence(const Comm& comm) {
  if (NeighborSequence* sequence = sequence_keyval().get(comm)) {
    return sequence->next++;
  }
  Comm handle = comm;
  sequence_keyval().set(handle, NeighborSequence{1});
  return 0;
}

// ---- tags -------------------------------------------------------------------

// A tag is sequence * kChannels + channel, the sequence taken modulo what
// fits below the transport's MPI_TAG_UB (at least 10922 operations, as
// MPI guarantees MPI_TAG_UB >= 32767; Open MPI allows INT_MAX).
enum Channel : int {
  kInOrder = 0,      // graphs: blocks pair up in the order they are sent
  kTowardMinus = 1,  // Cartesian: sent to the neighbour at -1
  kTowardPlus = 2,   // Cartesian: sent to the neighbour at +1
};
constexpr int kChannels = 3;

int tag_of(std::uint64_t sequence, Channel channel) {
  const auto cycle = static_cast<std::uint64_t>(tag_ub() / kChannels);
  return static_cast<int>(sequence % cycle) * kChannels + channel;
}

// Send block 2d goes to the neighbour at -1, send block 2d + 1 to the one
// at +1.
Channel send_channel(Pairing pairing, std::size_t block) {
  if (pairing == Pairing::by_order) return kInOrder;
  return block % 2 == 0 ? kTowardMinus : kTowardPlus;
}

// Receive block 2d comes from the neighbour at -1, so it travelled toward
// +1 (that neighbour's send block 2d + 1); receive block 2d + 1 the other
// way. This is what pairs the blocks correctly where both neighbours are
// one process.
Channel receive_channel(Pairing pairing, std::size_t block) {
  if (pairing == Pairing::by_order) return kInOrder;
  return block % 2 == 0 ? kTowardPlus : kTowardMinus;
}

// ---- letting go of pending operations ---------------------------------------

// Receives that stand in for withdrawn ones, into buffers of classic's own,
// until the peers' blocks arrive; cancelled when the Environment ends.
struct Drain {
  MPI_Request request;
  std::unique_ptr<std::byte[]> buffer;
};

struct Drains {
  std::vector<Drain> pending;
  bool finalizer_registered = false;
};

Drains& drains() {
  static Drains instance;
  return instance;
}

void finalize_drains() {
  Drains& d = drains();
  for (Drain& drain : d.pending) {
    MPI_Cancel(&drain.request);
    MPI_Wait(&drain.request, MPI_STATUS_IGNORE);
  }
  d.pending.clear();
  d.finalizer_registered = false;
}

// Forgets the drains whose blocks have arrived.
void collect_drains() {
  std::vector<Drain>& pending = drains().pending;
  std::erase_if(pending, [](Drain& drain) {
    int done = 0;
    MPI_Test(&drain.request, &done, MPI_STATUS_IGNORE);
    return done != 0;
  });
}

// A receive of `bytes` from `source` with `tag` whose data is thrown away.
// (A block over INT_MAX bytes is still taken, truncated.)
void drain(MPI_Comm context, int source, int tag, MPI_Count bytes) {
  const int count = static_cast<int>(std::min<MPI_Count>(bytes, INT_MAX));
  std::unique_ptr<std::byte[]> buffer(
      new std::byte[static_cast<std::size_t>(std::max(count, 1))]);
  MPI_Request request = MPI_REQUEST_NULL;
  if (MPI_Irecv(buffer.get(), count, MPI_BYTE, source, tag, context,
                &request) != MPI_SUCCESS) {
    return;
  }
  Drains& d = drains();
  if (!d.finalizer_registered) {
    Environment::at_finalize(&finalize_drains);
    d.finalizer_registered = true;
  }
  d.pending.push_back(Drain{request, std::move(buffer)});
}

// What each transport request of an operation is, to let go of it.
struct PartRecord {
  bool receive;
  int source;
  int tag;
  MPI_Count bytes;
};

// See NeighborExchange::run. `context` is MPI_COMM_NULL when the
// communicator has been freed, so that no later operation can meet the
// peers' blocks: receives are then only withdrawn.
void abandon(MPI_Comm context, std::span<const PartRecord> records,
             std::span<MPI_Request> parts) {
  std::vector<bool> withdrawn(parts.size(), false);
  // Last posted first: a block that arrives meanwhile matches an earlier
  // receive from the same peer with the same tag, which is the one it
  // belongs to, so the withdrawn receives are always the last ones.
  for (std::size_t i = parts.size(); i-- > 0;) {
    if (!records[i].receive || parts[i] == MPI_REQUEST_NULL) continue;
    MPI_Cancel(&parts[i]);
    MPI_Status status;
    MPI_Wait(&parts[i], &status);
    int cancelled = 0;
    MPI_Test_cancelled(&status, &cancelled);
    withdrawn[i] = cancelled != 0;
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (withdrawn[i] && context != MPI_COMM_NULL) {
      drain(context, records[i].source, records[i].tag, records[i].bytes);
    }
    if (!records[i].receive && parts[i] != MPI_REQUEST_NULL) {
      int done = 0;
      MPI_Test(&parts[i], &done, MPI_STATUS_IGNORE);
      if (!done) MPI_Request_free(&parts[i]);
    }
  }
}

// The private context of `comm`, or MPI_COMM_NULL once it has been freed.
MPI_Comm live_context(const Comm& comm) {
  try {
    return internal::CommAccess::state(comm,
                                       "classic::internal::NeighborExchange")
        .private_context;
  } catch (const Error&) {
    return MPI_COMM_NULL;
  }
}

// The transport requests of one operation as they are posted.
struct Posted {
  std::vector<MPI_Request> parts;
  std::vector<PartRecord> records;
};

[[noreturn]] void fail(const Comm& comm, Posted& posted, int code,
                       const char* function) {
  abandon(live_context(comm), posted.records, posted.parts);
  transport::raise(code, function);
}

// After MPI_Waitall: the first error of a transfer, or of the call.
int first_error(int code, std::span<const MPI_Status> statuses) {
  int mpi_class = MPI_ERR_OTHER;
  MPI_Error_class(code, &mpi_class);
  if (mpi_class != MPI_ERR_IN_STATUS) return code;
  for (const MPI_Status& status : statuses) {
    if (status.MPI_ERROR != MPI_SUCCESS &&
        status.MPI_ERROR != MPI_ERR_PENDING) {
      return status.MPI_ERROR;
    }
  }
  return code;
}

}  // namespace

NeighborExchange::NeighborExchange(const Comm& comm, const char* function)
    : comm_(comm),
      lists_(cached_neighbor_lists(comm, function)),
      function_(function) {
  Comm::State& state = internal::CommAccess::state(comm, function);
  // Topology constructors give their communicators a private context; one
  // attached otherwise gets it now (all processes of comm are in this call).
  if (state.private_context == MPI_COMM_NULL) state.add_private_context();
  context_ = state.private_context;
}

Request NeighborExchange::run(std::span<const SendPart> sends,
                              std::span<const RecvPart> receives,
                              ExchangeMode mode) const {
  if (!drains().pending.empty()) collect_drains();
  const std::uint64_t sequence = next_sequence(comm_);
  Posted posted;
  posted.parts.reserve(sends.size() + receives.size());
  posted.records.reserve(sends.size() + receives.size());
  // Receives first, so that no block waits in the unexpected queue.
  for (std::size_t i = 0; i < receives.size(); ++i) {
    const int source = lists_.sources[i];
    if (source == proc_null) continue;
    const RecvPart& part = receives[i];
    const int tag = tag_of(sequence, receive_channel(lists_.pairing, i));
    MPI_Request request = MPI_REQUEST_NULL;
    const int code = MPI_Irecv(part.data, part.count, part.datatype, source,
                               tag, context_, &request);
    if (code != MPI_SUCCESS) fail(comm_, posted, code, function_);
    posted.parts.push_back(request);
    posted.records.push_back(
        {true, source, tag,
         transport::size_of(part.datatype, part.count, function_)});
  }
  for (std::size_t i = 0; i < sends.size(); ++i) {
    const int destination = lists_.destinations[i];
    if (destination == proc_null) continue;
    const SendPart& part = sends[i];
    const int tag = tag_of(sequence, send_channel(lists_.pairing, i));
    MPI_Request request = MPI_REQUEST_NULL;
    const int code = MPI_Isend(part.data, part.count, part.datatype,
                               destination, tag, context_, &request);
    if (code != MPI_SUCCESS) fail(comm_, posted, code, function_);
    posted.parts.push_back(request);
    posted.records.push_back({false, destination, tag, 0});
  }
  if (mode == ExchangeMode::nonblocking) {
    return Request(
        Request::Compound{std::move(posted.parts),
                          [comm = comm_, records = std::move(posted.records)](
                              std::span<MPI_Request> parts) {
                            abandon(live_context(comm), records, parts);
                          }},
        comm_);
  }
  std::vector<MPI_Status> statuses(posted.parts.size());
  const int code = MPI_Waitall(static_cast<int>(posted.parts.size()),
                               posted.parts.data(), statuses.data());
  if (code != MPI_SUCCESS) {
    fail(comm_, posted, first_error(code, statuses), function_);
  }
  return Request();
}

}  // namespace classic::internal
