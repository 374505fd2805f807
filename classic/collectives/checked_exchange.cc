#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/base/internal/transport.h"
#include "classic/base/internal/transport_error.h"
#include "classic/collectives/checked.h"
#include "classic/collectives/internal/checked_call.h"
#include "classic/collectives/internal/stall_report.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/p2p/internal/completion.h"

namespace classic {
namespace {

using internal::check_timeout_s;
using internal::CommAccess;
using internal::note_checked_call;
using internal::operations_in_progress;
using internal::OperationTags;
using internal::progress_operations;
using internal::raise_stalled;
using internal::take_operation;

using Int = std::int64_t;

// What travels in front of every block. `state` tells a header from
// anything else and says whether the sender's arguments were valid.
struct Header {
  static constexpr std::size_t kNameBytes = 48;
  static constexpr Int kSent = 0x6f7274686f2d6f6b;    // "ortho-ok"
  static constexpr Int kFailed = 0x6f7274686f2d6e6f;  // "ortho-no"
  char function[kNameBytes] = {};
  Int bytes = 0;
  Int state = kSent;

  Header(std::string_view name, Int block_bytes, Int sender_state)
      : bytes(block_bytes), state(sender_state) {
    name.copy(function, std::min(name.size(), kNameBytes - 1));
  }
  Header() = default;
  std::string_view name() const {
    return {function, strnlen(function, kNameBytes)};
  }
};
constexpr int kHeaderBytes = static_cast<int>(sizeof(Header));

// A block's address: its displacement into its buffer (from MPI_BOTTOM
// where the buffer is null).
void* address_of(const Plan::Block& block, PlanBuffers buffers) {
  void* base = block.space == Plan::Space::send
                   ? const_cast<void*>(buffers.send)
                   : buffers.recv;
  return transport::shifted(base, block.displacement);
}

Int bytes_of(const Plan::Block& block) {
  int size = 0;
  if (block.count == 0 || MPI_Type_size(block.datatype, &size) != 0) return 0;
  return Int{block.count} * size;
}

int pack_size(const Plan::Block& block, MPI_Comm context) {
  int size = 0;
  if (block.count > 0) {
    MPI_Pack_size(block.count, block.datatype, context, &size);
  }
  return kHeaderBytes + size;
}

// The round's messages in posting order: receives, then sends (none for
// proc_null).
struct Posting {
  const Plan::Message* message;
  bool receive;
  std::size_t offset = 0;  // into the staging
  int size = 0;            // bytes posted
};

// A call's lists, kept from call to call so that a checked loop allocates
// nothing after its first call. A call that times out leaves its staging to
// the messages still pending (moved out, never freed), and the next call
// grows a new one.
struct Scratch {
  std::vector<std::byte> stage;
  std::vector<Posting> postings;
  std::vector<MPI_Request> requests;
  std::vector<MPI_Status> statuses;
  std::vector<int> codes;
  std::vector<int> indices;
  std::vector<MPI_Status> done;

  // Sized for `n` messages, requests null and codes MPI_SUCCESS.
  void reset(std::size_t n) {
    requests.assign(n, MPI_REQUEST_NULL);
    statuses.resize(n);
    codes.assign(n, MPI_SUCCESS);
    indices.resize(n);
    done.resize(n);
  }
};

Scratch& scratch() {
  thread_local Scratch kept;
  return kept;
}

// Completes `requests` (MPI_REQUEST_NULL where done), noting each one's
// status; false once `seconds` (0: for ever) pass first.
bool complete(Scratch& lists, double seconds, const char* function) {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  std::vector<MPI_Request>& requests = lists.requests;
  std::vector<int>& indices = lists.indices;
  std::vector<MPI_Status>& done = lists.done;
  for (int tries = 1;; ++tries) {
    if (operations_in_progress()) progress_operations();
    int count = 0;
    const int code =
        MPI_Testsome(static_cast<int>(requests.size()), requests.data(), &count,
                     indices.data(), done.data());
    if (code != MPI_SUCCESS && code != MPI_ERR_IN_STATUS) {
      transport::check_code(code, function);
    }
    if (count == MPI_UNDEFINED) return true;  // nothing pending
    for (int k = 0; k < count; ++k) {
      const auto i = static_cast<std::size_t>(indices[k]);
      lists.statuses[i] = done[k];
      lists.codes[i] =
          code == MPI_ERR_IN_STATUS ? done[k].MPI_ERROR : MPI_SUCCESS;
      requests[i] = MPI_REQUEST_NULL;
    }
    if (seconds > 0 && tries % 256 == 0) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::yield();
    }
  }
}

// Gives pending requests up: receives withdrawn, sends left to finish.
void abandon(std::vector<MPI_Request>& requests,
             const std::vector<Posting>& postings) {
  for (std::size_t i = 0; i < requests.size(); ++i) {
    if (requests[i] == MPI_REQUEST_NULL) continue;
    if (postings[i].receive) MPI_Cancel(&requests[i]);
    MPI_Request_free(&requests[i]);
  }
}

bool is_world(const Comm& comm, const char* function) {
  return CommAccess::state(comm, function).transport ==
         Environment::world_context();
}

// What is wrong with arrival `posting` (status `status`, code `code`) at
// `rank` whose receive block holds `expected` bytes; nullopt where nothing.
std::optional<Error> fault_of(const Posting& posting, const MPI_Status& status,
                              int code, const std::byte* arrived, int rank,
                              std::string_view mine, std::size_t block_index,
                              const char* function) {
  const Plan::Block& block = posting.message->blocks.front();
  const Int expected = bytes_of(block);
  // The texts are made only for a fault: this runs for every arrival.
  const auto source = [&] {
    return "rank " + std::to_string(posting.message->peer);
  };
  const auto edge = [&] {
    return " to rank " + std::to_string(rank) + ", whose receive block " +
           std::to_string(block_index) + " from it holds " +
           std::to_string(expected) + " bytes";
  };
  int error_class = MPI_SUCCESS;
  if (code != MPI_SUCCESS) MPI_Error_class(code, &error_class);
  if (error_class == MPI_ERR_TRUNCATE) {
    return Error(ErrorClass::truncate, function,
                 "checked mode: the sizes of an edge differ: " + source() +
                     " sends more than " + std::to_string(expected) + " bytes" +
                     edge());
  }
  transport::check_code(code, function);
  int received = 0;
  MPI_Get_count(&status, MPI_BYTE, &received);
  Header header;
  if (received >= kHeaderBytes) std::memcpy(&header, arrived, sizeof header);
  if (received < kHeaderBytes ||
      (header.state != Header::kSent && header.state != Header::kFailed)) {
    return Error(ErrorClass::other, function,
                 "checked mode: " + source() +
                     " sent a message without checked mode's header "
                     "(checked mode must be on at every process)");
  }
  if (header.state == Header::kFailed) {
    return Error(ErrorClass::other, function,
                 "checked mode: " + source() +
                     " raised an error for its arguments (in " +
                     std::string(header.name()) + ") and sent nothing");
  }
  if (header.name() != mine) {
    return Error(ErrorClass::other, function,
                 "checked mode: neighbours called different collectives: " +
                     source() + " " + std::string(header.name()) + ", rank " +
                     std::to_string(rank) + " " + std::string(mine));
  }
  if (header.bytes != expected) {
    return Error(
        header.bytes > expected ? ErrorClass::truncate : ErrorClass::other,
        function,
        "checked mode: the sizes of an edge differ: " + source() + " sends " +
            std::to_string(header.bytes) + " bytes" + edge());
  }
  return std::nullopt;
}

}  // namespace

void execute_checked(const Comm& comm, const Plan& plan, PlanBuffers buffers,
                     const char* function) {
  const OperationTags tags = take_operation(comm, function);
  const std::string_view mine(function);
  const Plan::Round& round = plan.rounds.front();
  Scratch& lists = scratch();
  std::vector<Posting>& postings = lists.postings;
  postings.clear();
  std::size_t total = 0;
  const auto add = [&](const Plan::Message& message, bool receive) {
    if (message.peer == proc_null) return;
    const int size = pack_size(message.blocks.front(), tags.context);
    postings.push_back({&message, receive, total, size});
    total += static_cast<std::size_t>(size);
  };
  for (const Plan::Message& message : round.receives) add(message, true);
  for (const Plan::Message& message : round.sends) add(message, false);
  std::vector<std::byte>& stage = lists.stage;
  if (stage.size() < total) stage.resize(total);
  lists.reset(postings.size());
  std::vector<MPI_Request>& requests = lists.requests;
  Header header(mine, 0, Header::kSent);
  for (std::size_t i = 0; i < postings.size(); ++i) {
    const Posting& posting = postings[i];
    std::byte* at = stage.data() + posting.offset;
    const int tag = tags.base + posting.message->tag;
    if (posting.receive) {
      transport::check_code(
          MPI_Irecv(at, posting.size, MPI_PACKED, posting.message->peer, tag,
                    tags.context, &requests[i]),
          function);
      continue;
    }
    // The header goes in as bytes, read as bytes at the other end; only
    // the block behind it is packed (a packed message travels unchanged).
    const Plan::Block& block = posting.message->blocks.front();
    header.bytes = bytes_of(block);
    std::memcpy(at, &header, sizeof header);
    int position = kHeaderBytes;
    if (block.count > 0) {
      transport::check_code(
          MPI_Pack(address_of(block, buffers), block.count, block.datatype, at,
                   posting.size, &position, tags.context),
          function);
    }
    transport::check_code(
        MPI_Isend(at, position, MPI_PACKED, posting.message->peer, tag,
                  tags.context, &requests[i]),
        function);
  }

  note_checked_call(function, comm.size(), is_world(comm, function));
  const std::vector<MPI_Status>& statuses = lists.statuses;
  const std::vector<int>& codes = lists.codes;
  const double limit = check_timeout_s();
  if (!complete(lists, limit, function)) {
    abandon(requests, postings);
    (void)new std::vector<std::byte>(std::move(stage));
    raise_stalled(function, comm.rank(), limit, "its neighbours");
  }

  // Every arrival checked before any is unpacked.
  std::size_t block_index = 0;
  for (std::size_t i = 0; i < postings.size(); ++i) {
    if (!postings[i].receive) continue;
    while (&round.receives[block_index] != postings[i].message) ++block_index;
    if (auto fault = fault_of(postings[i], statuses[i], codes[i],
                              stage.data() + postings[i].offset, comm.rank(),
                              mine, block_index, function)) {
      throw Error(std::move(*fault));
    }
  }
  for (const Posting& posting : postings) {
    if (!posting.receive) continue;
    const Plan::Block& block = posting.message->blocks.front();
    if (block.count == 0) continue;
    int position = kHeaderBytes;
    transport::check_code(
        MPI_Unpack(stage.data() + posting.offset, posting.size, &position,
                   address_of(block, buffers), block.count, block.datatype,
                   tags.context),
        function);
  }
}

void execute_checked_failure(const Comm& comm, const Plan& plan,
                             const char* function) noexcept {
  try {
    const OperationTags tags = take_operation(comm, function);
    const Plan::Round& round = plan.rounds.front();
    note_checked_call(function, comm.size(), is_world(comm, function));
    // Heap: the sends may outlive the call where a neighbour never comes.
    auto* header = new Header(function, 0, Header::kFailed);
    std::vector<MPI_Request> sends;
    for (const Plan::Message& message : round.sends) {
      if (message.peer == proc_null) continue;
      MPI_Request& request = sends.emplace_back(MPI_REQUEST_NULL);
      MPI_Isend(header, kHeaderBytes, MPI_BYTE, message.peer,
                tags.base + message.tag, tags.context, &request);
    }
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration<double>(check_timeout_s());
    const bool forever = check_timeout_s() <= 0;
    std::vector<std::byte> drained;
    for (const Plan::Message& message : round.receives) {
      if (message.peer == proc_null) continue;
      for (int tries = 1;; ++tries) {
        int found = 0;
        MPI_Message arrival = MPI_MESSAGE_NULL;
        MPI_Status status;
        MPI_Improbe(message.peer, tags.base + message.tag, tags.context, &found,
                    &arrival, &status);
        if (found != 0) {
          int bytes = 0;
          MPI_Get_count(&status, MPI_BYTE, &bytes);
          drained.resize(static_cast<std::size_t>(std::max(bytes, 1)));
          MPI_Mrecv(drained.data(), bytes, MPI_BYTE, &arrival,
                    MPI_STATUS_IGNORE);
          break;
        }
        if (operations_in_progress()) progress_operations();
        if (!forever && tries % 256 == 0) {
          if (std::chrono::steady_clock::now() >= deadline) return;
          std::this_thread::yield();
        }
      }
    }
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(),
                MPI_STATUSES_IGNORE);
    delete header;
  } catch (...) {  // NOLINT(bugprone-empty-catch): the caller's error goes on
  }
}

}  // namespace classic
