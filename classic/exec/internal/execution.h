// One operation of the executor (classic/exec/executor.h) on its way: a
// plan bound to buffers, its messages posted round after round, its local
// work, and what is left behind when it is abandoned. Internal to classic.
#ifndef ORTHOCOMM_CLASSIC_EXEC_INTERNAL_EXECUTION_H_
#define ORTHOCOMM_CLASSIC_EXEC_INTERNAL_EXECUTION_H_

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "classic/base/datatype_layout.h"
#include "classic/base/internal/inside_classic.h"
#include "classic/base/internal/transport.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/exec/executor.h"
#include "classic/exec/internal/leftovers.h"
#include "classic/exec/internal/posting_list.h"
#include "classic/exec/internal/small_vector.h"
#include "classic/exec/plan.h"
#include "classic/p2p/request.h"

namespace classic::internal {

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
  // Packed messages: where their blocks' byte counts start in the
  // execution's packed_blocks_ (one entry per block, made at binding).
  std::size_t first_block = 0;
};

// Messages of several blocks up to this many bytes are packed into
// scratch; larger ones go as a derived datatype over their blocks. On the
// development machine (Open MPI 4.1, vader) making, committing and freeing
// a struct datatype costs about 1.5 us a message, which packing a few KiB
// (memcpy for contiguous blocks) undercuts; above that the extra copy
// costs more than the one-off type (docs/design.md, "One executor").
inline constexpr MPI_Aint kPackBytes = MPI_Aint{16} * 1024;
extern MPI_Aint pack_limit;  // internal::set_pack_limit (tests)

// A persistent operation keeps a transport persistent request
// (MPI_Send_init, MPI_Recv_init) for each of its messages of at least this
// many bytes and starts it (MPI_Start) where it would post one. Smaller
// messages are posted afresh at every start: Open MPI's shared-memory
// transport sends a small MPI_Isend inline, which a started request does
// not (docs/call-path.md, "Persistent requests: when they pay").
inline constexpr MPI_Aint kStartedBytes = 256;
extern MPI_Aint started_limit;  // internal::set_started_limit

// A datatype whose elements lie one after the other from offset 0, with
// no gaps: its data is count * size plain bytes.
bool contiguous(const DatatypeLayout& layout);

// The bytes of copying `from_count` elements of `from_type` onto
// `to_count` of `to_type` where that is one plain memmove (0: nothing to
// copy), -1 where the transport must copy.
MPI_Aint plain_copy_bytes(int from_count, MPI_Datatype from_type, int to_count,
                          MPI_Datatype to_type, const char* function);

class Execution final : public Request::Operation {
 public:
  // The communicator stays alive while this exists: the caller holds it
  // during a blocking run, the Request holding this otherwise. The
  // communicator may be freed meanwhile (MPI-1 5.4.3: pending operations
  // complete normally, and a persistent request may start again): an
  // execution held by a Request keeps the context from being given back
  // until it goes. A repeatable one goes with its communicator.
  // once: a blocking or non-blocking run, bound for it alone; repeatable:
  // a blocking run that stays bound, to be run again (run_again) on the
  // same buffers; persistent: a persistent operation.
  enum class Kind { once, repeatable, persistent };

  Execution(const Comm::State& state, int tag_base,
            std::shared_ptr<const Plan> plan, PlanBuffers buffers, Kind kind,
            const char* function)
      : context_hold_(kind == Kind::repeatable ? MPI_COMM_NULL
                                               : state.private_context),
        context_(state.private_context),
        peer_offset_(state.peer_offset),
        local_offset_(state.local_offset()),
        tag_base_(tag_base),
        plan_(std::move(plan)),
        postings_(&postings_of(*plan_)),
        buffers_(buffers),
        persistent_(kind == Kind::persistent),
        keep_bound_(kind != Kind::once),
        function_(function) {
    make_scratch();
  }
  // A non-blocking operation on the communicator `before` runs on, which
  // may have been freed since (`before` holds its context): the second
  // operation of execute_followed.
  Execution(const Execution& before, int tag_base,
            std::shared_ptr<const Plan> plan, PlanBuffers buffers,
            const char* function)
      : context_hold_(before.context_),
        context_(before.context_),
        peer_offset_(before.peer_offset_),
        local_offset_(before.local_offset_),
        tag_base_(tag_base),
        plan_(std::move(plan)),
        postings_(&postings_of(*plan_)),
        buffers_(buffers),
        persistent_(false),
        keep_bound_(false),
        function_(function) {
    make_scratch();
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
      run_local(round_);
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
  void run_again(int tag_base, const char* function,
                 std::span<const UnsizedReceive> unsized = {}) {
    tag_base_ = tag_base;
    function_ = function;
    run_to_completion(unsized);
  }

  void abandon() noexcept override;

  // Runs the whole operation here, blocking in the transport: for a
  // blocking call while no other operation needs moving along. Receives
  // `unsized` (execute_receiving_unsized) once the first round is posted.
  void run_to_completion(std::span<const UnsizedReceive> unsized = {});

  // Matches and receives `unsized` on this operation's tags (blocking in
  // the transport), once each has arrived, in the order they arrive.
  void receive_unsized(std::span<const UnsizedReceive> unsized);

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

  void make_scratch() {
    if (plan_->scratch_bytes > 0) {
      scratch_ = std::shared_ptr<std::byte[]>(
          new std::byte[static_cast<std::size_t>(plan_->scratch_bytes)]);
    }
  }
  Bound bind(const Plan::Message& message, MPI_Aint& staging);
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
  // post()'s common case, where the binding is kept: every message one
  // block at an address resolved once, none a persistent request.
  void post_resolved(const PostingList::Round& list, MPI_Request* posted);
  // The persistent requests of a persistent operation (bind() makes them).
  void make_started();
  MPI_Request started(std::size_t round, bool receive, std::size_t i) const {
    const auto& side = receive ? started_receives_ : started_sends_;
    return side.empty() ? MPI_REQUEST_NULL : side[round][i];
  }
  // The local work of round `round`, once its messages are done.
  void run_local(std::size_t round);
  // local_bytes_, once: it depends on the plan alone.
  void bind_local_copies();
  void free_types() noexcept;
  int expected_bytes(const Bound& bound) const noexcept;
  [[noreturn]] void fail(int code);

  // First, so that it goes last: after free_types() has freed the
  // transport's persistent requests on the context.
  transport::ContextHold context_hold_;
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
  // The bytes of each block of each packed message, in binding order (a
  // contiguous block copied with memcpy), or -1 - bytes for a block that
  // goes through MPI_Pack: found once, at binding, so that a run queries
  // no datatype.
  std::vector<int> packed_blocks_;
  // Per round and local step, found at the first binding: the bytes of a
  // copy that is one plain memmove (plain_copy_bytes), or -1 where the
  // transport copies or the step reduces, so that a run of a kept plan
  // queries no datatype for its copies either.
  std::vector<std::vector<MPI_Aint>> local_bytes_;
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
};

}  // namespace classic::internal

#endif  // ORTHOCOMM_CLASSIC_EXEC_INTERNAL_EXECUTION_H_
