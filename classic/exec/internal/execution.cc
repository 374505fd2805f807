#include "classic/exec/internal/execution.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/datatype_layout.h"
#include "classic/base/environment.h"
#include "classic/base/error.h"
#include "classic/base/internal/error_handler.h"
#include "classic/base/internal/transport.h"
#include "classic/base/internal/transport_error.h"
#include "classic/exec/internal/leftovers.h"
#include "classic/p2p/internal/completion.h"

namespace classic::internal {

MPI_Aint pack_limit = kPackBytes;
MPI_Aint started_limit = kStartedBytes;

bool contiguous(const DatatypeLayout& layout) {
  return layout.size == layout.extent && layout.lower_bound == 0 &&
         layout.true_lower_bound == 0;
}

MPI_Aint plain_copy_bytes(int from_count, MPI_Datatype from_type, int to_count,
                          MPI_Datatype to_type, const char* function) {
  const DatatypeLayout layout = datatype_layout(from_type, function);
  if (from_count == 0 || layout.size == 0) return 0;  // nothing to copy
  if (from_type != to_type || from_count != to_count || !contiguous(layout)) {
    return -1;
  }
  return layout.size * from_count;
}

namespace {

// `count` elements of `datatype` from `from` to `to`, each in its own
// datatype: a plain copy of `plain` bytes where plain_copy_bytes() found
// one, else through the transport's packing.
void copy_elements(const void* from, int from_count, MPI_Datatype from_type,
                   void* to, int to_count, MPI_Datatype to_type, MPI_Aint plain,
                   MPI_Comm context, const char* function) {
  if (plain >= 0) {
    if (plain > 0) std::memmove(to, from, static_cast<std::size_t>(plain));
    return;
  }
  int bytes = 0;
  transport::check_code(MPI_Pack_size(from_count, from_type, context, &bytes),
                        function);
  std::vector<std::byte> packed(static_cast<std::size_t>(bytes));
  int position = 0;
  transport::check_code(MPI_Pack(from, from_count, from_type, packed.data(),
                                 bytes, &position, context),
                        function);
  const int packed_bytes = position;
  position = 0;
  transport::check_code(MPI_Unpack(packed.data(), packed_bytes, &position, to,
                                   to_count, to_type, context),
                        function);
}

}  // namespace

[[gnu::hot]] void Execution::run_to_completion(
    std::span<const UnsizedReceive> unsized) {
  begin();
  try {
    if (!unsized.empty()) receive_unsized(unsized);
    do {
      if (!requests_.empty()) {
        // No statuses: filling them costs more than a small message's own
        // completion; a failed request's code comes from the contexts'
        // error handler (transport::reported_error).
        const int code = MPI_Waitall(static_cast<int>(requests_.size()),
                                     requests_.data(), MPI_STATUSES_IGNORE);
        if (code != MPI_SUCCESS) [[unlikely]] {
          transport::raise(transport::reported_error(code), function_);
        }
      }
    } while (!advance());
  } catch (...) {
    abandon();  // withdraws what is still pending; nothing if all is done
    throw;
  }
}

void Execution::receive_unsized(std::span<const UnsizedReceive> unsized) {
  std::vector<char> matched(unsized.size(), 0);
  std::vector<MPI_Request> receiving;
  receiving.reserve(unsized.size());
  std::size_t first = 0;  // the first not yet matched
  while (first < unsized.size()) {
    // Any source: the messages are taken in the order they arrive. Only
    // this operation's messages carry its tags in its context.
    MPI_Message message = MPI_MESSAGE_NULL;
    MPI_Status status;
    const int tag = tag_base_ + unsized[first].tag;
    transport::check_code(
        MPI_Mprobe(MPI_ANY_SOURCE, tag, context_, &message, &status),
        function_);
    std::size_t i = first;
    while (i < unsized.size() &&
           (matched[i] != 0 || unsized[i].tag + tag_base_ != tag ||
            transport_rank(Plan::Group::peers, unsized[i].peer) !=
                status.MPI_SOURCE)) {
      ++i;
    }
    if (i == unsized.size()) {
      transport::raise(MPI_ERR_INTERN, function_,
                       "a message no receive of the plan expects");
    }
    int bytes = 0;
    transport::check_code(MPI_Get_count(&status, MPI_PACKED, &bytes),
                          function_);
    unsized[i].bytes->resize(static_cast<std::size_t>(bytes));
    MPI_Request& request = receiving.emplace_back(MPI_REQUEST_NULL);
    transport::check_code(MPI_Imrecv(unsized[i].bytes->data(), bytes,
                                     MPI_PACKED, &message, &request),
                          function_);
    matched[i] = 1;
    while (first < unsized.size() && matched[first] != 0) ++first;
  }
  transport::check_code(MPI_Waitall(static_cast<int>(receiving.size()),
                                    receiving.data(), MPI_STATUSES_IGNORE),
                        function_);
}

[[gnu::hot]] void Execution::post_resolved(const PostingList::Round& list,
                                           MPI_Request* posted) {
  void* const* const at = addresses_.data() + list.first;
  std::size_t k = 0;
  for (const PostingList::Posting& p : list.receives) {
    const int code =
        MPI_Irecv(at[k], p.count, p.datatype, transport_rank(p.group, p.peer),
                  tag_base_ + p.tag, context_, &posted[k]);
    if (code != MPI_SUCCESS) [[unlikely]] {
      requests_.truncate(k);
      fail(code);
    }
    ++k;
  }
  for (const PostingList::Posting& p : list.sends) {
    const int code =
        MPI_Isend(at[k], p.count, p.datatype, transport_rank(p.group, p.peer),
                  tag_base_ + p.tag, context_, &posted[k]);
    if (code != MPI_SUCCESS) [[unlikely]] {
      requests_.truncate(k);
      fail(code);
    }
    ++k;
  }
}

[[gnu::hot]] void Execution::post(std::size_t round) {
  const PostingList::Round& list = postings_->rounds[round];
  // Filled in place, then cut to what was posted; on a failure, to what
  // was posted before it.
  requests_.resize(list.receives.size() + list.sends.size());
  MPI_Request* const posted = requests_.data();
  if (started_receives_.empty() && !addresses_.empty() &&
      !postings_->several_blocks) {
    post_resolved(list, posted);
    return;
  }
  std::size_t k = 0;
  const bool any_started = !started_receives_.empty();
  // Where the binding is kept, the addresses were resolved once.
  void* const* resolved =
      addresses_.empty() ? nullptr : addresses_.data() + list.first;
  const auto at = [&](const PostingList::Posting& p) {
    return resolved != nullptr ? resolved[k] : address(p.space, p.displacement);
  };
  // Receives first, so that no message waits in the unexpected queue. A
  // message with a persistent request is started (its handle stays the
  // same), any other posted afresh.
  for (const PostingList::Posting& p : list.receives) {
    MPI_Request& request = posted[k];
    request =
        any_started ? started_receives_[round][p.message] : MPI_REQUEST_NULL;
    int code = MPI_SUCCESS;
    if (request != MPI_REQUEST_NULL) {
      code = MPI_Start(&request);
    } else if (p.single) {
      code =
          MPI_Irecv(at(p), p.count, p.datatype, transport_rank(p.group, p.peer),
                    tag_base_ + p.tag, context_, &request);
    } else {
      const Bound& bound = receives_[round][p.message];
      code = MPI_Irecv(bound.address, bound.count, bound.datatype,
                       transport_rank(p.group, p.peer), tag_base_ + p.tag,
                       context_, &request);
    }
    if (code != MPI_SUCCESS) [[unlikely]] {
      requests_.truncate(k);
      fail(code);
    }
    ++k;
  }
  for (const PostingList::Posting& p : list.sends) {
    MPI_Request& request = posted[k];
    request = any_started ? started_sends_[round][p.message] : MPI_REQUEST_NULL;
    Bound bound;
    if (p.single) {
      bound = Bound{at(p), p.count, p.datatype, false, -1};
    } else {
      bound = sends_[round][p.message];
      if (bound.staging >= 0) {
        transfer_packed(plan_->rounds[round].sends[p.message], bound,
                        Packing::pack);
      }
    }
    int code = MPI_SUCCESS;
    if (request != MPI_REQUEST_NULL) {
      code = MPI_Start(&request);
    } else {
      code = MPI_Isend(bound.address, bound.count, bound.datatype,
                       transport_rank(p.group, p.peer), tag_base_ + p.tag,
                       context_, &request);
    }
    if (code != MPI_SUCCESS) [[unlikely]] {
      requests_.truncate(k);
      fail(code);
    }
    ++k;
  }
  requests_.truncate(k);
}

[[gnu::hot]] void Execution::run_local(std::size_t r) {
  const Plan::Round& round = plan_->rounds[r];
  for (std::size_t i = 0; i < round.local.size(); ++i) {
    const Plan::Local& step = round.local[i];
    void* from = address(step.from);
    void* to = address(step.to);
    if (step.kind == Plan::Local::Kind::copy) {
      copy_elements(from, step.from.count, step.from.datatype, to,
                    step.to.count, step.to.datatype, local_bytes_[r][i],
                    context_, function_);
      continue;
    }
    if (step.order == Plan::Local::Order::from_first) {
      transport::check_code(
          MPI_Reduce_local(from, to, step.to.count, step.to.datatype, step.op),
          function_);
      continue;
    }
    // to = to op from: keep the old `to`, put `from` there, reduce the old
    // value into it (MPI_Reduce_local(in, inout) is inout = in op inout).
    const DatatypeLayout layout = datatype_layout(step.to.datatype, function_);
    const MPI_Aint span =
        step.to.count == 0
            ? 0
            : layout.true_extent + (step.to.count - 1) * layout.extent;
    std::vector<std::byte> kept(static_cast<std::size_t>(span) + 1);
    void* old_to = transport::shifted(kept.data(), -layout.true_lower_bound);
    copy_elements(to, step.to.count, step.to.datatype, old_to, step.to.count,
                  step.to.datatype,
                  plain_copy_bytes(step.to.count, step.to.datatype,
                                   step.to.count, step.to.datatype, function_),
                  context_, function_);
    copy_elements(from, step.from.count, step.from.datatype, to, step.to.count,
                  step.to.datatype,
                  plain_copy_bytes(step.from.count, step.from.datatype,
                                   step.to.count, step.to.datatype, function_),
                  context_, function_);
    transport::check_code(
        MPI_Reduce_local(old_to, to, step.to.count, step.to.datatype, step.op),
        function_);
  }
}

void Execution::fail(int code) {
  abandon();
  transport::raise(code, function_);
}

void Execution::abandon() noexcept {
  const std::vector<Plan::Round>& rounds = plan_->rounds;
  if (round_ >= rounds.size()) return;
  // This round: withdraw the receives not yet matched, last posted first (a
  // message arriving meanwhile matches the earliest receive of its peer and
  // tag, the one it belongs to, so the withdrawn ones are the last). A
  // matched receive completes into the caller's buffer, which is still
  // valid while the request is being destroyed.
  // requests_ holds the round's receives, then its sends, in plan order,
  // proc_null ones left out (as post() made them).
  struct Receive {
    std::size_t message;  // in the round's receives
    std::size_t request;  // in requests_
  };
  std::vector<Receive> receives;
  const Plan::Round& round = rounds[round_];
  for (std::size_t m = 0; m < round.receives.size(); ++m) {
    if (round.receives[m].peer == proc_null) continue;
    receives.push_back({m, receives.size()});
  }
  // (After a failed post, requests_ may stop short of the plan.)
  for (auto it = receives.rbegin(); it != receives.rend(); ++it) {
    if (it->request >= requests_.size()) continue;
    MPI_Request& request = requests_[it->request];
    if (request == MPI_REQUEST_NULL) continue;
    if (started(round_, true, it->message) == MPI_REQUEST_NULL) {
      MPI_Cancel(&request);
    } else {
      // A persistent request stays after it completes (inactive), and
      // cancelling an inactive one is erroneous: cancel only if pending.
      int done = 0;
      MPI_Request_get_status(request, &done, MPI_STATUS_IGNORE);
      if (done == 0) MPI_Cancel(&request);
    }
    MPI_Status status;
    MPI_Wait(&request, &status);
    int cancelled = 0;
    MPI_Test_cancelled(&status, &cancelled);
    if (cancelled != 0) {
      const Plan::Message& message = round.receives[it->message];
      internal::discard_message(
          context_, transport_rank(message), tag_base_ + message.tag,
          expected_bytes(bound(round_, true, it->message)));
    }
  }
  // The sends, in plan order after the receives: a persistent one goes to
  // the background with its handle, which is freed there once it is done.
  std::size_t next = receives.size();
  for (std::size_t m = 0; m < round.sends.size() && next < requests_.size();
       ++m) {
    if (round.sends[m].peer == proc_null) continue;
    MPI_Request request = requests_[next++];
    const bool persistent = started(round_, false, m) != MPI_REQUEST_NULL;
    if (persistent) started_sends_[round_][m] = MPI_REQUEST_NULL;
    if (request == MPI_REQUEST_NULL) continue;
    internal::finish_in_background(
        request, scratch_,
        persistent ? internal::Handle::free : internal::Handle::keep);
  }
  requests_.clear();
  // Later rounds: what the peers may still send for this operation. (If
  // they abandon it too, these receives stay posted on the context, which
  // stays retained; they can meet no other operation's message before the
  // tag sequence wraps, tag_ub() / Plan::kMaxTags operations later.)
  for (std::size_t r = round_ + 1; r < rounds.size(); ++r) {
    for (std::size_t i = 0; i < rounds[r].receives.size(); ++i) {
      const Plan::Message& message = rounds[r].receives[i];
      if (message.peer == proc_null) continue;
      internal::discard_message(context_, transport_rank(message),
                                tag_base_ + message.tag,
                                expected_bytes(bound(r, true, i)));
    }
  }
  round_ = rounds.size();
  free_types();
}

int Execution::expected_bytes(const Bound& bound) const noexcept {
  int bytes = 0;
  if (bound.count > 0 && MPI_Pack_size(bound.count, bound.datatype, context_,
                                       &bytes) != MPI_SUCCESS) {
    bytes = 0;
  }
  return bytes;
}

}  // namespace classic::internal
