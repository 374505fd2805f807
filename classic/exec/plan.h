// A communication plan: rounds of messages and the local copies and
// reductions that follow each round. Blocks name positions in the
// operation's buffers, never addresses, so one plan serves every call with
// any buffers; classic/exec/executor.h runs it.
#ifndef ORTHOCOMM_CLASSIC_EXEC_PLAN_H_
#define ORTHOCOMM_CLASSIC_EXEC_PLAN_H_

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace classic {

namespace internal {
struct PostingList;  // classic/exec/executor.cc
}  // namespace internal

struct Plan {
  // Distinct tags a plan may give its messages: [0, kMaxTags).
  static constexpr int kMaxTags = 64;

  // The buffers of an operation: the caller's send and receive buffers, and
  // scratch space of scratch_bytes that the executor provides.
  enum class Space : std::uint8_t { send, recv, scratch };

  // `count` elements of `datatype` at `displacement` bytes into `space`.
  struct Block {
    Space space = Space::send;
    MPI_Aint displacement = 0;
    int count = 0;
    MPI_Datatype datatype = MPI_DATATYPE_NULL;
    friend bool operator==(const Block&, const Block&) = default;
  };

  // The group a message's peer is ranked in: the one point-to-point names
  // (the communicator's group; an inter-communicator's remote group), or
  // the local group, which only an inter-communicator's plans need (their
  // local phases: gathering at a leader, spreading its result).
  enum class Group : std::uint8_t { peers, local };

  // One transport message between this process and `peer` (a rank of
  // `group`; classic::proc_null: none). Its
  // blocks travel together, in order, as one message: the receiver's blocks
  // must have the same type signature, taken together. Between two
  // processes, messages with the same tag pair up in the order they are
  // posted, so a plan gives messages that may be outstanding at once either
  // different tags or the same order on both sides.
  struct Message {
    int peer = 0;
    int tag = 0;
    std::vector<Block> blocks;
    Group group = Group::peers;
  };

  // Local work after a round's messages have completed, in order.
  //  - copy:   `to` = `from` (same type signature).
  //  - reduce: `to` = `from` op `to` (from_first) or `to` op `from`
  //            (to_first), as MPI_Reduce_local; the order matters for
  //            non-commutative operations. Same count and datatype.
  struct Local {
    enum class Kind : std::uint8_t { copy, reduce };
    enum class Order : std::uint8_t { from_first, to_first };
    Kind kind = Kind::copy;
    Block from;
    Block to;
    MPI_Op op = MPI_OP_NULL;
    Order order = Order::from_first;
  };

  // Receives are posted before sends; then, once all have completed, the
  // local work runs and the next round begins.
  struct Round {
    std::vector<Message> receives;
    std::vector<Message> sends;
    std::vector<Local> local;
  };

  std::vector<Round> rounds;
  MPI_Aint scratch_bytes = 0;

  // The executor's flattened form of the plan (what it posts, message by
  // message), made when the plan first runs and kept for its later runs.
  // A copy of a plan starts without one: it may be changed before it runs.
  class ExecutorCache {
   public:
    ExecutorCache() = default;
    ExecutorCache(const ExecutorCache&) noexcept {}
    ExecutorCache& operator=(const ExecutorCache& other) noexcept {
      if (this != &other) postings.reset();
      return *this;
    }
    ~ExecutorCache() = default;
    mutable std::shared_ptr<const internal::PostingList> postings;
  };
  ExecutorCache executor_cache;
};

}  // namespace classic

#endif  // ORTHOCOMM_CLASSIC_EXEC_PLAN_H_
