// What each algorithm sends and receives in one call, process by process
// and round by round, built from the same MPI-free cores ortho's plans are
// built from: direct one message per edge; message combining its
// schedules (stencils/schedule.h) where each message goes
// (combining_loads.h), a message split in two at the eager limit as
// ortho's plans split it; node_aware its routes' flows
// (node_aware_routes.h); common_neighbours its pairs and routes' flows
// (common_neighbours_routes.h); spread_relays its routes' flows
// (spread_relays_routes.h). allgather and alltoall, blocks of one size;
// and their v forms in a blocking call (blocks of one size still, but sent
// as ortho sends the v forms: first the relayed blocks' sizes, as each
// algorithm learns them, then the blocks, no message split). On a halo
// (Workload::entries) alltoallv alone, each block its entries of the
// block size: the routes' messages with their bytes (sized_flows.h).
#ifndef ORTHOCOMM_EXPERIMENTS_SIMULATE_EXCHANGE_H_
#define ORTHOCOMM_EXPERIMENTS_SIMULATE_EXCHANGE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "experiments/simulate/workload.h"

namespace simulate {

enum class Algorithm {
  direct,
  combining,
  node_aware,
  common_neighbours,
  spread_relays
};
inline constexpr Algorithm kAlgorithms[] = {
    Algorithm::direct, Algorithm::combining, Algorithm::node_aware,
    Algorithm::common_neighbours, Algorithm::spread_relays};
// ortho's name of it ("direct", "combining", ...).
std::string_view name_of(Algorithm algorithm);

enum class Operation { allgather, alltoall, allgatherv, alltoallv };
// Its name, as ortho spells it.
std::string_view name_of(Operation operation);
// allgather(v): one block per source, the same to every destination.
inline bool per_source(Operation operation) {
  return operation == Operation::allgather ||
         operation == Operation::allgatherv;
}
// The v forms: blocks whose sizes only their two ends know.
inline bool sized(Operation operation) {
  return operation == Operation::allgatherv ||
         operation == Operation::alltoallv;
}

// What one process sends and receives in one round: messages and bytes to
// (from) processes of its own node and of other nodes, the largest message
// it sends of each kind, and the bytes of its messages of several blocks.
struct RoundLoad {
  int within_messages = 0;
  int between_messages = 0;
  std::int64_t within_bytes = 0;
  std::int64_t between_bytes = 0;
  std::int64_t largest_within = 0;
  std::int64_t largest_between = 0;
  // Bytes in messages of several blocks (packed and unpacked).
  std::int64_t packed_bytes = 0;
  // The processes it sends to (of its own node, of other nodes).
  int within_peers = 0;
  int between_peers = 0;
  int received_within = 0;
  int received_between = 0;
  std::int64_t received_within_bytes = 0;
  std::int64_t received_between_bytes = 0;
  int messages() const { return within_messages + between_messages; }
  int received() const { return received_within + received_between; }
};

// One message of a round: its two ends and its bytes.
struct Message {
  int from = 0;
  int to = 0;
  std::int64_t bytes = 0;
};

// rounds[r][p]: what process p sends and receives in round r;
// messages[r]: round r's messages (who waits for whom, loop.h);
// multiply_adds[p]: the local work process p does after each exchange
// (an SpMV halo's product: its rows' nonzeros; empty: none).
struct Exchange {
  std::vector<std::vector<RoundLoad>> rounds;
  std::vector<std::vector<Message>> messages;
  std::vector<std::int64_t> multiply_adds;
  // Records a message of `blocks` blocks of `block_bytes` from `from` to
  // `to` in round `round`; `between` where they sit on different nodes.
  void add(std::size_t round, int from, int to, int blocks,
           std::size_t block_bytes, bool between);
  // The same with the message's bytes (blocks of different sizes).
  void add_bytes(std::size_t round, int from, int to, int blocks,
                 std::int64_t bytes, bool between);
};

// One call of `operation` with blocks of `block_bytes` bytes run by
// `algorithm` on `workload`; combining splits a message as ortho's plans do
// at `split_eager_bytes` (the job's transport's eager limit). nullopt where
// the algorithm does not run there (combining off a stencil). Throws
// std::invalid_argument for another operation than alltoallv on a halo.
std::optional<Exchange> exchange(const Workload& workload, Algorithm algorithm,
                                 Operation operation, std::size_t block_bytes,
                                 std::size_t split_eager_bytes);

// One process's counts over the call, as ortho::traffic gives them.
struct Counts {
  int messages = 0;
  std::int64_t bytes = 0;
  int rounds = 0;  // rounds in which it sends
  int messages_between = 0;
  std::int64_t bytes_between = 0;
  friend bool operator==(const Counts&, const Counts&) = default;
};
Counts counts_of(const Exchange& exchange, int rank);

}  // namespace simulate

#endif  // ORTHOCOMM_EXPERIMENTS_SIMULATE_EXCHANGE_H_
