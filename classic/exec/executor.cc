#include "classic/exec/executor.h"

#include <algorithm>
#include <array>
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
#include "classic/base/internal/transport.h"
#include "classic/base/internal/transport_error.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/exec/internal/leftovers.h"
#include "classic/exec/internal/small_vector.h"
#include "classic/p2p/internal/completion.h"
#include "classic/p2p/point_to_point.h"

namespace classic {

namespace internal {

// What a plan posts, flattened: for each round the messages to real peers
// (proc_null ones left out), receives then sends, each with what its
// transport call takes. Made once per plan (Plan::executor_cache), so a
// call does not walk the plan's nested vectors message by message.
struct PostingList {
  struct Posting {
    Plan::Space space = Plan::Space::send;  // single blocks: where it lies
    MPI_Aint displacement = 0;
    int count = 0;
    MPI_Datatype datatype = MPI_DATATYPE_NULL;
    int peer = 0;
    Plan::Group group = Plan::Group::peers;
    int tag = 0;
    bool single = true;         // one block; else bound as several
    std::uint32_t message = 0;  // its index in the round's list
  };
  struct Round {
    std::vector<Posting> receives;
    std::vector<Posting> sends;
    // The number of the round's first posting when the postings of all
    // rounds are numbered one after the other (receives, then sends).
    std::size_t first = 0;
  };
  std::vector<Round> rounds;
  std::size_t count = 0;        // postings in all rounds
  bool several_blocks = false;  // some message has more than one block
};

}  // namespace internal

namespace {

using internal::PostingList;

const PostingList& postings_of(const Plan& plan) {
  if (const auto& made = plan.executor_cache.postings) return *made;
  auto list = std::make_shared<PostingList>();
  list->rounds.resize(plan.rounds.size());
  const auto flatten = [&](const std::vector<Plan::Message>& messages,
                           std::vector<PostingList::Posting>& out) {
    for (std::size_t i = 0; i < messages.size(); ++i) {
      const Plan::Message& message = messages[i];
      if (message.blocks.size() > 1) list->several_blocks = true;
      if (message.peer == proc_null) continue;
      PostingList::Posting posting;
      posting.peer = message.peer;
      posting.group = message.group;
      posting.tag = message.tag;
      posting.message = static_cast<std::uint32_t>(i);
      posting.single = message.blocks.size() == 1;
      if (posting.single) {
        const Plan::Block& block = message.blocks.front();
        posting.space = block.space;
        posting.displacement = block.displacement;
        posting.count = block.count;
        posting.datatype = block.datatype;
      } else if (message.blocks.empty()) {
        posting.single = true;  // an empty message: nothing at null
        posting.datatype = MPI_BYTE;
        posting.space = Plan::Space::scratch;
      }
      out.push_back(posting);
    }
  };
  for (std::size_t r = 0; r < plan.rounds.size(); ++r) {
    PostingList::Round& round = list->rounds[r];
    flatten(plan.rounds[r].receives, round.receives);
    flatten(plan.rounds[r].sends, round.sends);
    round.first = list->count;
    list->count += round.receives.size() + round.sends.size();
  }
  plan.executor_cache.postings = list;
  return *list;
}

// ---- the operation sequence of a communicator -------------------------------

// Operation s uses tags [s * kMaxTags, (s + 1) * kMaxTags), s taken modulo
// what fits below MPI_TAG_UB (about 33 million operations on Open MPI,
// which allows INT_MAX; at least 511, as MPI guarantees 32767).
int tag_base(std::uint64_t sequence) {
  const auto cycle = static_cast<std::uint64_t>(tag_ub() / Plan::kMaxTags);
  return static_cast<int>(sequence % cycle) * Plan::kMaxTags;
}

// ---- local work -------------------------------------------------------------

// A datatype whose elements lie one after the other from offset 0, with
// no gaps: its data is count * size plain bytes.
bool contiguous(const DatatypeLayout& layout) {
  return layout.size == layout.extent && layout.lower_bound == 0 &&
         layout.true_lower_bound == 0;
}

// `count` elements of `datatype` from `from` to `to`, each in its own
// datatype: a plain copy where both are one contiguous run of bytes, else
// through the transport's packing.
void copy_elements(const void* from, int from_count, MPI_Datatype from_type,
                   void* to, int to_count, MPI_Datatype to_type,
                   MPI_Comm context, const char* function) {
  const DatatypeLayout from_layout = datatype_layout(from_type, function);
  if (from_count == 0 || from_layout.size == 0) return;  // nothing to copy
  if (from_type == to_type && from_count == to_count &&
      contiguous(from_layout)) {
    std::memmove(to, from,
                 static_cast<std::size_t>(from_layout.size) *
                     static_cast<std::size_t>(from_count));
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

// ---- the execution of one operation -----------------------------------------

// A message bound to buffers: what MPI_Isend / MPI_Irecv take.
struct Bound {
  void* address = nullptr;
  int count = 0;
  MPI_Datatype datatype = MPI_BYTE;
  bool derived = false;  // made here, freed here
  // Packed messages: the offset of the message's bytes in scratch (after
  // the plan's own scratch), address/count/datatype then describe them as
  // MPI_PACKED; -1 otherwise.
  MPI_Aint staging = -1;
};

// Messages of several blocks up to this many bytes are packed into
// scratch; larger ones go as a derived datatype over their blocks. On the
// development machine (Open MPI 4.1, vader) making, committing and freeing
// a struct datatype costs about 1.5 us a message, which packing a few KiB
// (memcpy for contiguous blocks) undercuts; above that the extra copy
// costs more than the one-off type (docs/design.md, "One executor").
constexpr MPI_Aint kPackBytes = MPI_Aint{16} * 1024;
MPI_Aint pack_limit = kPackBytes;  // internal::set_pack_limit (tests)

// A persistent operation keeps a transport persistent request
// (MPI_Send_init, MPI_Recv_init) for each of its messages of at least this
// many bytes and starts it (MPI_Start) where it would post one. Smaller
// messages are posted afresh at every start: Open MPI's shared-memory
// transport sends a small MPI_Isend inline, which a started request does
// not (docs/call-path.md, "Persistent requests: when they pay").
constexpr MPI_Aint kStartedBytes = 256;
MPI_Aint started_limit = kStartedBytes;  // internal::set_started_limit

class Execution final : public Request::Operation {
 public:
  // The communicator stays alive while this exists: the caller holds it
  // during a blocking run, the Request holding this otherwise.
  // once: a blocking or non-blocking run, bound for it alone; repeatable:
  // a blocking run that stays bound, to be run again (run_again) on the
  // same buffers; persistent: a persistent operation.
  enum class Kind { once, repeatable, persistent };

  Execution(const Comm::State& state, int tag_base,
            std::shared_ptr<const Plan> plan, PlanBuffers buffers, Kind kind,
            const char* function)
      : context_(state.private_context),
        peer_offset_(state.peer_offset),
        local_offset_(state.local_offset()),
        tag_base_(tag_base),
        plan_(std::move(plan)),
        postings_(&postings_of(*plan_)),
        buffers_(buffers),
        persistent_(kind == Kind::persistent),
        keep_bound_(kind != Kind::once),
        function_(function) {
    if (plan_->scratch_bytes > 0) {
      scratch_ = std::shared_ptr<std::byte[]>(
          new std::byte[static_cast<std::size_t>(plan_->scratch_bytes)]);
    }
  }
  ~Execution() override { free_types(); }
  Execution(const Execution&) = delete;
  Execution& operator=(const Execution&) = delete;

  std::span<MPI_Request> parts() override { return requests_; }
  bool persistent() const noexcept override { return persistent_; }

  void begin() override {
    internal::collect_leftovers();
    if (!bound_) bind();
    round_ = 0;
    requests_.clear();
    if (!plan_->rounds.empty()) post(0);
  }

  bool advance() override {
    const std::vector<Plan::Round>& rounds = plan_->rounds;
    if (round_ < rounds.size()) {
      unpack(round_);
      run_local(rounds[round_]);
    }
    ++round_;
    if (round_ < rounds.size()) {
      post(round_);
      return false;
    }
    requests_.clear();
    if (!keep_bound_) free_types();
    return true;
  }

  // Whether this runs `plan` on `buffers` (a repeatable execution).
  bool runs(const Plan* plan, PlanBuffers buffers) const {
    return plan_.get() == plan && buffers_.send == buffers.send &&
           buffers_.recv == buffers.recv;
  }
  // Runs a repeatable execution again, as operation number `tag_base` of
  // the communicator, for `function`.
  void run_again(int tag_base, const char* function) {
    tag_base_ = tag_base;
    function_ = function;
    run_to_completion();
  }

  void abandon() noexcept override;

  // Runs the whole operation here, blocking in the transport: for a
  // blocking call while no other operation needs moving along.
  void run_to_completion();

 private:
  // The transport rank of a message's peer in context_.
  int transport_rank(Plan::Group group, int peer) const {
    return (group == Plan::Group::local ? local_offset_ : peer_offset_) + peer;
  }
  int transport_rank(const Plan::Message& message) const {
    return transport_rank(message.group, message.peer);
  }

  void* address(const Plan::Block& block) const {
    return address(block.space, block.displacement);
  }
  void* address(Plan::Space space, MPI_Aint displacement) const {
    void* base = nullptr;
    switch (space) {
      case Plan::Space::send:
        base = const_cast<void*>(buffers_.send);
        break;
      case Plan::Space::recv:
        base = buffers_.recv;
        break;
      case Plan::Space::scratch:
        base = scratch_.get();
        break;
    }
    return transport::shifted(base, displacement);
  }

  Bound bind(const Plan::Message& message, MPI_Aint& staging) const;
  void bind();
  void bind_several_blocks();
  void resolve_addresses();
  // The bytes of a message's data (its blocks' type signatures).
  MPI_Aint packed_bytes(const Plan::Message& message) const;
  // Packed messages: copies the blocks of a send into its staging bytes
  // (pack), or the staging bytes of a completed receive into its blocks
  // (unpack: every such receive of `round`).
  enum class Packing { pack, unpack };
  void transfer_packed(const Plan::Message& message, const Bound& bound,
                       Packing direction);
  void unpack(std::size_t round);
  // Message i of a round's receives or sends, bound to the buffers: a
  // single block as it is (the hot path), several as bind() made them.
  Bound bound(std::size_t round, bool receive, std::size_t i) const {
    const Plan::Round& plan = plan_->rounds[round];
    const Plan::Message& message = receive ? plan.receives[i] : plan.sends[i];
    switch (message.blocks.size()) {
      case 0:
        return Bound{};
      case 1: {
        const Plan::Block& block = message.blocks.front();
        return Bound{address(block), block.count, block.datatype, false, -1};
      }
      default:
        return (receive ? receives_ : sends_)[round][i];
    }
  }
  void post(std::size_t round);
  // The persistent requests of a persistent operation (bind() makes them).
  void make_started();
  MPI_Request started(std::size_t round, bool receive, std::size_t i) const {
    const auto& side = receive ? started_receives_ : started_sends_;
    return side.empty() ? MPI_REQUEST_NULL : side[round][i];
  }
  void run_local(const Plan::Round& round);
  void free_types() noexcept;
  int expected_bytes(const Bound& bound) const noexcept;
  [[noreturn]] void fail(int code);

  MPI_Comm context_;
  int peer_offset_;
  int local_offset_;
  int tag_base_;
  std::shared_ptr<const Plan> plan_;
  const PostingList* postings_;  // plan_'s, which keeps it
  PlanBuffers buffers_;
  std::shared_ptr<std::byte[]> scratch_;  // shared with background sends
  bool persistent_;
  bool keep_bound_;  // bound once, for every run
  const char* function_;
  // Executions that keep their binding: the address of each posting of a
  // single block (PostingList numbering), resolved once.
  std::vector<void*> addresses_;

  bool bound_ = false;
  // Messages of several blocks, bound once (empty when there are none):
  // [round][message], single-block entries unused.
  std::vector<std::vector<Bound>> receives_;
  std::vector<std::vector<Bound>> sends_;
  // Persistent operations: the transport's persistent request of each
  // message of round r that has one ([round][message], MPI_REQUEST_NULL
  // where the message is posted afresh; empty when none has one).
  std::vector<std::vector<MPI_Request>> started_receives_;
  std::vector<std::vector<MPI_Request>> started_sends_;
  std::size_t round_ = 0;
  // Of round_: receives, then sends. In place up to kInPlace: a blocking
  // call allocates nothing for them.
  static constexpr std::size_t kInPlace = 32;
  internal::SmallVector<MPI_Request, kInPlace> requests_;
  internal::SmallVector<MPI_Status, kInPlace> statuses_;  // run_to_completion's
};

void Execution::run_to_completion() {
  begin();
  try {
    do {
      if (!requests_.empty()) {
        statuses_.resize(requests_.size());
        const int code = MPI_Waitall(static_cast<int>(requests_.size()),
                                     requests_.data(), statuses_.data());
        internal::raise_completion_failure(code, statuses_, function_);
      }
    } while (!advance());
  } catch (...) {
    abandon();  // withdraws what is still pending; nothing if all is done
    throw;
  }
}

Bound Execution::bind(const Plan::Message& message, MPI_Aint& staging) const {
  const std::vector<Plan::Block>& blocks = message.blocks;
  if (blocks.empty()) return Bound{};
  if (blocks.size() == 1) {
    return Bound{address(blocks[0]), blocks[0].count, blocks[0].datatype, false,
                 -1};
  }
  const MPI_Aint bytes = packed_bytes(message);
  if (bytes <= pack_limit) {
    // Scratch has its final size (bind() sized it first).
    const Bound packed{scratch_.get() + staging, static_cast<int>(bytes),
                       MPI_PACKED, false, staging};
    staging += (bytes + 15) / 16 * 16;
    return packed;
  }
  const std::size_t n = blocks.size();
  std::vector<int> counts(n);
  std::vector<MPI_Aint> addresses(n);
  std::vector<MPI_Datatype> types(n);
  for (std::size_t i = 0; i < n; ++i) {
    counts[i] = blocks[i].count;
    transport::check_code(MPI_Get_address(address(blocks[i]), &addresses[i]),
                          function_);
    types[i] = blocks[i].datatype;
  }
  MPI_Datatype combined = MPI_DATATYPE_NULL;
  transport::check_code(
      MPI_Type_create_struct(static_cast<int>(n), counts.data(),
                             addresses.data(), types.data(), &combined),
      function_);
  transport::check_code(MPI_Type_commit(&combined), function_);
  return Bound{MPI_BOTTOM, 1, combined, true, -1};
}

// Packed bytes are the blocks' bytes in order, each block as MPI_Pack
// writes it (in a homogeneous job, Open MPI's only kind, the native bytes:
// so contiguous blocks go by memcpy). Sender and receiver agree on the
// split, as MPI makes each block's type signature equal on both sides; and
// MPI_PACKED matches any type signature, should the two sides bind one
// message differently.
void Execution::transfer_packed(const Plan::Message& message,
                                const Bound& bound, Packing direction) {
  auto* bytes_at = static_cast<std::byte*>(bound.address);
  int position = 0;
  for (const Plan::Block& block : message.blocks) {
    const DatatypeLayout layout = datatype_layout(block.datatype, function_);
    const auto bytes = static_cast<int>(block.count * layout.size);
    if (bytes == 0) continue;  // (MPI_Pack refuses a null buffer)
    const bool into_bytes = direction == Packing::pack;
    if (contiguous(layout)) {
      void* to = into_bytes ? bytes_at + position : address(block);
      const void* from = into_bytes ? address(block) : bytes_at + position;
      std::memcpy(to, from, static_cast<std::size_t>(bytes));
      position += bytes;
    } else if (into_bytes) {
      transport::check_code(
          MPI_Pack(address(block), block.count, block.datatype, bytes_at,
                   bound.count, &position, context_),
          function_);
    } else {
      transport::check_code(
          MPI_Unpack(bytes_at, bound.count, &position, address(block),
                     block.count, block.datatype, context_),
          function_);
    }
  }
}

void Execution::unpack(std::size_t round) {
  if (receives_.empty()) return;  // no message of several blocks
  const Plan::Round& plan = plan_->rounds[round];
  for (std::size_t i = 0; i < plan.receives.size(); ++i) {
    const Bound& bound = receives_[round][i];
    if (bound.staging < 0 || plan.receives[i].peer == proc_null) continue;
    transfer_packed(plan.receives[i], bound, Packing::unpack);
  }
}

void Execution::bind() {
  bound_ = true;  // free_types() now knows what to free, also after a throw
  bind_several_blocks();
  if (persistent_) make_started();
  if (keep_bound_) resolve_addresses();
}

void Execution::resolve_addresses() {
  addresses_.assign(postings_->count, nullptr);
  for (const PostingList::Round& round : postings_->rounds) {
    std::size_t k = round.first;
    for (const auto* side : {&round.receives, &round.sends}) {
      for (const PostingList::Posting& p : *side) {
        if (p.single) addresses_[k] = address(p.space, p.displacement);
        ++k;
      }
    }
  }
}

void Execution::bind_several_blocks() {
  // Single blocks need no binding: the common case allocates nothing.
  if (!postings_->several_blocks) return;
  const std::vector<Plan::Round>& rounds = plan_->rounds;
  receives_.assign(rounds.size(), {});
  sends_.assign(rounds.size(), {});
  // Packed messages take their bytes after the plan's own scratch. Scratch
  // gets its final size before anything is bound: struct datatypes hold
  // absolute addresses in it. (A fresh buffer: background sends of an
  // earlier run may hold the old one.)
  const MPI_Aint plan_scratch = (plan_->scratch_bytes + 15) / 16 * 16;
  MPI_Aint staging = plan_scratch;
  for (const Plan::Round& round : rounds) {
    for (const auto* side : {&round.receives, &round.sends}) {
      for (const Plan::Message& message : *side) {
        const MPI_Aint bytes = packed_bytes(message);
        if (message.blocks.size() > 1 && bytes <= pack_limit) {
          staging += (bytes + 15) / 16 * 16;
        }
      }
    }
  }
  if (staging > plan_scratch) {
    scratch_ = std::shared_ptr<std::byte[]>(
        new std::byte[static_cast<std::size_t>(staging)]);
  }
  staging = plan_scratch;
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    for (const Plan::Message& message : rounds[r].receives) {
      receives_[r].push_back(message.blocks.size() > 1 ? bind(message, staging)
                                                       : Bound{});
    }
    for (const Plan::Message& message : rounds[r].sends) {
      sends_[r].push_back(message.blocks.size() > 1 ? bind(message, staging)
                                                    : Bound{});
    }
  }
}

void Execution::make_started() {
  const std::vector<Plan::Round>& rounds = plan_->rounds;
  const auto wanted = [this](const Plan::Message& message) {
    return message.peer != proc_null && !message.blocks.empty() &&
           packed_bytes(message) >= started_limit;
  };
  const auto any_wanted = [&](const Plan::Round& round) {
    return std::ranges::any_of(round.receives, wanted) ||
           std::ranges::any_of(round.sends, wanted);
  };
  if (!std::ranges::any_of(rounds, any_wanted)) return;
  started_receives_.assign(rounds.size(), {});
  started_sends_.assign(rounds.size(), {});
  // Each handle is stored as soon as it exists, so that free_types()
  // frees it should a later one fail.
  for (std::size_t r = 0; r < rounds.size(); ++r) {
    started_receives_[r].assign(rounds[r].receives.size(), MPI_REQUEST_NULL);
    started_sends_[r].assign(rounds[r].sends.size(), MPI_REQUEST_NULL);
    for (std::size_t i = 0; i < rounds[r].receives.size(); ++i) {
      const Plan::Message& message = rounds[r].receives[i];
      if (!wanted(message)) continue;
      const Bound b = bound(r, true, i);
      transport::check_code(
          MPI_Recv_init(b.address, b.count, b.datatype, transport_rank(message),
                        tag_base_ + message.tag, context_,
                        &started_receives_[r][i]),
          function_);
    }
    for (std::size_t i = 0; i < rounds[r].sends.size(); ++i) {
      const Plan::Message& message = rounds[r].sends[i];
      if (!wanted(message)) continue;
      const Bound b = bound(r, false, i);
      transport::check_code(
          MPI_Send_init(b.address, b.count, b.datatype, transport_rank(message),
                        tag_base_ + message.tag, context_,
                        &started_sends_[r][i]),
          function_);
    }
  }
}

MPI_Aint Execution::packed_bytes(const Plan::Message& message) const {
  MPI_Aint bytes = 0;
  for (const Plan::Block& block : message.blocks) {
    bytes += block.count * datatype_layout(block.datatype, function_).size;
  }
  return bytes;
}

void Execution::free_types() noexcept {
  if (!bound_) return;
  addresses_.clear();
  if (receives_.empty() && sends_.empty() && started_receives_.empty() &&
      started_sends_.empty()) [[likely]] {
    bound_ = false;  // single blocks posted afresh: nothing was made
    return;
  }
  for (auto* side : {&receives_, &sends_}) {
    for (std::vector<Bound>& round : *side) {
      for (Bound& bound : round) {
        if (bound.derived && Environment::active()) {
          MPI_Type_free(&bound.datatype);
        }
      }
    }
  }
  receives_.clear();
  sends_.clear();
  for (auto* side : {&started_receives_, &started_sends_}) {
    for (std::vector<MPI_Request>& round : *side) {
      for (MPI_Request& request : round) {
        if (request != MPI_REQUEST_NULL && Environment::active()) {
          MPI_Request_free(&request);
        }
      }
    }
    side->clear();
  }
  bound_ = false;
}

void Execution::post(std::size_t round) {
  const PostingList::Round& list = postings_->rounds[round];
  // Filled in place, then cut to what was posted; on a failure, to what
  // was posted before it.
  requests_.resize(list.receives.size() + list.sends.size());
  MPI_Request* const posted = requests_.data();
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

void Execution::run_local(const Plan::Round& round) {
  for (const Plan::Local& step : round.local) {
    void* from = address(step.from);
    void* to = address(step.to);
    if (step.kind == Plan::Local::Kind::copy) {
      copy_elements(from, step.from.count, step.from.datatype, to,
                    step.to.count, step.to.datatype, context_, function_);
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
                  step.to.datatype, context_, function_);
    copy_elements(from, step.from.count, step.from.datatype, to, step.to.count,
                  step.to.datatype, context_, function_);
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
    const MPI_Request request = requests_[next++];
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

// The blocking runs a communicator keeps bound (Comm::State::repeats): the
// last kRepeats plans with their buffers, most recent first. A stencil
// code's loop calls the same collectives on the same buffers again and
// again (or on two, swapped each iteration); its calls then find their
// binding made and their addresses resolved.
constexpr std::size_t kRepeats = 2;
struct Repeats {
  std::array<std::unique_ptr<Execution>, kRepeats> kept;
};

void run_blocking(Comm::State& state, int base,
                  std::shared_ptr<const Plan> plan, PlanBuffers buffers,
                  const char* function) {
  if (state.repeats == nullptr) state.repeats = std::make_shared<Repeats>();
  auto& kept = static_cast<Repeats*>(state.repeats.get())->kept;
  std::size_t found = 0;
  while (found < kRepeats &&
         !(kept[found] != nullptr && kept[found]->runs(plan.get(), buffers))) {
    ++found;
  }
  if (found == kRepeats) {
    // A new binding, kept in place of the least recent one.
    found = kRepeats - 1;
    kept[found] =
        std::make_unique<Execution>(state, base, std::move(plan), buffers,
                                    Execution::Kind::repeatable, function);
  }
  std::rotate(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(found),
              kept.begin() + static_cast<std::ptrdiff_t>(found) + 1);
  try {
    kept.front()->run_again(base, function);
  } catch (...) {
    kept.front().reset();  // abandoned: bound afresh next time
    throw;
  }
}

}  // namespace

namespace internal {

MPI_Aint set_pack_limit(MPI_Aint bytes) {
  return std::exchange(pack_limit, bytes < 0 ? kPackBytes : bytes);
}

MPI_Aint set_started_limit(MPI_Aint bytes) {
  return std::exchange(started_limit, bytes < 0 ? kStartedBytes : bytes);
}

}  // namespace internal

Request execute(const Comm& comm, std::shared_ptr<const Plan> plan,
                PlanBuffers buffers, Mode mode, const char* function) {
  Comm::State& state = internal::CommAccess::state(comm, function);
  // Topology and inter-communicators have a private context from their
  // constructor; another gets it now (every process of comm is here).
  if (state.private_context == MPI_COMM_NULL) state.add_private_context();
  const int base = tag_base(state.next_operation++);
  if (mode == Mode::blocking && !internal::operations_in_progress()) {
    // Nothing else to move along: no Request, no progress list.
    run_blocking(state, base, std::move(plan), buffers, function);
    return Request();
  }
  auto execution = std::make_unique<Execution>(
      state, base, std::move(plan), buffers,
      mode == Mode::persistent ? Execution::Kind::persistent
                               : Execution::Kind::once,
      function);
  Request request(std::move(execution), comm);
  if (mode == Mode::blocking) wait(request);
  return request;
}

}  // namespace classic
