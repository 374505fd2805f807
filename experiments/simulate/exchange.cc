#include "experiments/simulate/exchange.h"

#include <algorithm>

#include "ortho/algorithms/combining_loads.h"
#include "ortho/algorithms/common_neighbours_routes.h"
#include "ortho/algorithms/node_aware_routes.h"
#include "ortho/algorithms/spread_relays/spread_relays_routes.h"
#include "stencils/message_split.h"

namespace simulate {
namespace {

namespace node_routes = ortho::algorithms::node_routes;
namespace common_routes = ortho::algorithms::common_routes;
namespace combining_loads = ortho::algorithms::combining_loads;

std::size_t at(int index) { return static_cast<std::size_t>(index); }

std::int64_t bytes_of(int blocks, std::size_t block_bytes) {
  return static_cast<std::int64_t>(blocks) *
         static_cast<std::int64_t>(block_bytes);
}

Exchange empty_rounds(std::size_t rounds, const Workload& workload) {
  return {
      .rounds = std::vector<std::vector<RoundLoad>>(
          rounds, std::vector<RoundLoad>(workload.graph.destinations.size()))};
}

// One message per edge, in one round (an edge to itself too, as ortho's
// direct plan counts it; it never leaves the node).
Exchange direct(const Workload& workload, std::size_t block_bytes) {
  Exchange result = empty_rounds(1, workload);
  const std::vector<int>& node = workload.graph.host_of_rank;
  for (std::size_t p = 0; p < workload.graph.destinations.size(); ++p) {
    for (const int to : workload.graph.destinations[p]) {
      result.add(0, static_cast<int>(p), to, 1, block_bytes,
                 node[at(to)] != node[p]);
    }
  }
  return result;
}

std::optional<Exchange> combining(const Workload& workload, Operation operation,
                                  std::size_t block_bytes,
                                  std::size_t split_eager_bytes) {
  if (!workload.grid) return std::nullopt;
  const auto& rounds = operation == Operation::allgather
                           ? workload.grid->allgather.rounds
                           : workload.grid->alltoall.rounds;
  const combining_loads::Rounds messages = combining_loads::messages_of(
      rounds, workload.grid->geometry, workload.graph.host_of_rank);
  Exchange result = empty_rounds(messages.size(), workload);
  for (std::size_t r = 0; r < messages.size(); ++r) {
    for (std::size_t p = 0; p < messages[r].size(); ++p) {
      for (const combining_loads::Message& message : messages[r][p]) {
        // Split as the plans split it: the first part, then the rest.
        const int first = stencils::first_part_blocks(
            message.blocks, block_bytes, split_eager_bytes);
        const int from = static_cast<int>(p);
        result.add(r, from, message.to, first, block_bytes,
                   message.between_hosts);
        if (first < message.blocks) {
          result.add(r, from, message.to, message.blocks - first, block_bytes,
                     message.between_hosts);
        }
      }
    }
  }
  return result;
}

node_routes::Payload payload_of(Operation operation) {
  return operation == Operation::allgather ? node_routes::Payload::per_source
                                           : node_routes::Payload::per_edge;
}

// Every message of `flows` (flows[r][step][peer]: blocks), step by step.
template <typename Flow>
Exchange from_flows(const Workload& workload, const std::vector<Flow>& flows,
                    std::size_t steps, std::size_t block_bytes) {
  Exchange result = empty_rounds(steps, workload);
  const std::vector<int>& node = workload.graph.host_of_rank;
  for (std::size_t r = 0; r < flows.size(); ++r) {
    for (std::size_t step = 0; step < steps; ++step) {
      for (const auto& [peer, blocks] : flows[r][step]) {
        result.add(step, static_cast<int>(r), peer, blocks, block_bytes,
                   node[at(peer)] != node[r]);
      }
    }
  }
  return result;
}

// Steps 0 and 2 stay on the node, step 1 crosses between nodes.
Exchange node_aware(const Workload& workload, Operation operation,
                    std::size_t block_bytes) {
  return from_flows(workload,
                    node_routes::flows(workload.graph, payload_of(operation)),
                    3, block_bytes);
}

Exchange common_neighbours(const Workload& workload, Operation operation,
                           std::size_t block_bytes) {
  const common_routes::Grouping grouping =
      common_routes::groups(workload.graph);
  return from_flows(
      workload,
      common_routes::flows(workload.graph, grouping, payload_of(operation)), 2,
      block_bytes);
}

// Step 0 within the node and to another node's relay, step 1 empty, step 2
// handing out on the node.
Exchange spread_relays(const Workload& workload, Operation operation,
                       std::size_t block_bytes) {
  return from_flows(workload,
                    ortho::algorithms::spread_routes::flows(
                        workload.graph, payload_of(operation)),
                    3, block_bytes);
}

}  // namespace

std::string_view name_of(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::direct:
      return "direct";
    case Algorithm::combining:
      return "combining";
    case Algorithm::node_aware:
      return "node_aware";
    case Algorithm::common_neighbours:
      return "common_neighbours";
    case Algorithm::spread_relays:
      return "spread_relays";
  }
  return "?";
}

void Exchange::add(std::size_t round, int from, int to, int blocks,
                   std::size_t block_bytes, bool between) {
  const std::int64_t bytes = bytes_of(blocks, block_bytes);
  RoundLoad& sender = rounds[round][at(from)];
  RoundLoad& receiver = rounds[round][at(to)];
  if (blocks > 1) sender.packed_bytes += bytes;
  if (between) {
    ++sender.between_messages;
    sender.between_bytes += bytes;
    sender.largest_between = std::max(sender.largest_between, bytes);
    ++receiver.received_between;
    receiver.received_between_bytes += bytes;
  } else {
    ++sender.within_messages;
    sender.within_bytes += bytes;
    sender.largest_within = std::max(sender.largest_within, bytes);
    ++receiver.received_within;
    receiver.received_within_bytes += bytes;
  }
}

std::optional<Exchange> exchange(const Workload& workload, Algorithm algorithm,
                                 Operation operation, std::size_t block_bytes,
                                 std::size_t split_eager_bytes) {
  switch (algorithm) {
    case Algorithm::direct:
      return direct(workload, block_bytes);
    case Algorithm::combining:
      return combining(workload, operation, block_bytes, split_eager_bytes);
    case Algorithm::node_aware:
      return node_aware(workload, operation, block_bytes);
    case Algorithm::common_neighbours:
      return common_neighbours(workload, operation, block_bytes);
    case Algorithm::spread_relays:
      return spread_relays(workload, operation, block_bytes);
  }
  return std::nullopt;
}

Counts counts_of(const Exchange& exchange, int rank) {
  Counts counts;
  for (const std::vector<RoundLoad>& round : exchange.rounds) {
    const RoundLoad& sent = round[at(rank)];
    if (sent.messages() == 0) continue;
    ++counts.rounds;
    counts.messages += sent.messages();
    counts.bytes += sent.within_bytes + sent.between_bytes;
    counts.messages_between += sent.between_messages;
    counts.bytes_between += sent.between_bytes;
  }
  return counts;
}

}  // namespace simulate
