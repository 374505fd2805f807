#include "ortho/algorithms/traffic_counts.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "ortho/algorithms/node_aware/node_aware.h"
#include "ortho/internal/table.h"

namespace ortho::algorithms {

ortho::Traffic counted(const Traffic& schedule, std::size_t block_bytes) {
  return {.messages = schedule.messages,
          .bytes = static_cast<std::int64_t>(schedule.blocks) *
                   static_cast<std::int64_t>(block_bytes),
          .rounds = schedule.rounds,
          .messages_between_hosts = std::nullopt,
          .bytes_between_hosts = std::nullopt};
}

ortho::Traffic routes_traffic(const node_routes::Routes& routes,
                              const Table& table, int rank, Operation operation,
                              std::size_t block_bytes, classic::Mode mode,
                              SizesLearnt sizes) {
  ortho::Traffic traffic{.messages = 0,
                         .bytes = 0,
                         .rounds = 0,
                         .messages_between_hosts = 0,
                         .bytes_between_hosts = 0};
  const int host = table.host_of_rank.empty()
                       ? 0
                       : table.host_of_rank[static_cast<std::size_t>(rank)];
  std::int64_t blocks_sent = 0;
  std::int64_t blocks_between = 0;
  // The blocks of steps 0 and 1, whose messages a blocking call's relayed
  // v forms open with the blocks' sizes.
  std::int64_t blocks_described = 0;
  std::int64_t blocks_described_between = 0;
  for (std::size_t s = 0; s < routes.steps.size(); ++s) {
    const auto& step = routes.steps[s];
    if (!step.sends.empty()) ++traffic.rounds;
    for (const auto& send : step.sends) {
      const auto blocks = static_cast<std::int64_t>(send.slots.size());
      const std::int64_t bytes =
          blocks * static_cast<std::int64_t>(block_bytes);
      const bool described = s < 2;
      ++traffic.messages;
      traffic.bytes += bytes;
      blocks_sent += blocks;
      if (described) blocks_described += blocks;
      if (!table.host_of_rank.empty() &&
          table.host_of_rank[static_cast<std::size_t>(send.peer)] != host) {
        ++*traffic.messages_between_hosts;
        *traffic.bytes_between_hosts += bytes;
        blocks_between += blocks;
        if (described) blocks_described_between += blocks;
      }
    }
  }
  const bool sized = NodeAware::exchanges_sizes(operation) &&
                     mode != classic::Mode::persistent &&
                     sizes != SizesLearnt::not_needed;
  constexpr auto kSize = static_cast<std::int64_t>(sizeof(std::int64_t));
  if (sized && mode == classic::Mode::blocking) {
    // The sizes inside steps 0 and 1's messages, 8 bytes a block.
    traffic.bytes += blocks_described * kSize;
    *traffic.bytes_between_hosts += blocks_described_between * kSize;
  } else if (sized && sizes == SizesLearnt::within_hosts) {
    // One round: step 0's messages as they go, step 2's turned around,
    // one message per peer.
    std::set<int> peers;
    std::int64_t blocks = 0;
    for (const auto& send : routes.steps[0].sends) {
      if (send.tag == node_routes::kCrossTag) continue;  // no sizes cross
      peers.insert(send.peer);
      blocks += static_cast<std::int64_t>(send.slots.size());
    }
    for (const auto& receive : routes.steps[2].receives) {
      peers.insert(receive.peer);
      blocks += static_cast<std::int64_t>(receive.slots.size());
    }
    const auto messages = static_cast<int>(peers.size());
    if (messages > 0) ++traffic.rounds;
    traffic.messages += messages;
    traffic.bytes += blocks * static_cast<std::int64_t>(sizeof(std::int64_t));
  } else if (sized) {  // the same messages again, 8 bytes a block
    traffic.messages *= 2;
    traffic.rounds *= 2;
    *traffic.messages_between_hosts *= 2;
    traffic.bytes += blocks_sent * kSize;
    *traffic.bytes_between_hosts += blocks_between * kSize;
  }
  return traffic;
}

}  // namespace ortho::algorithms
