#include "experiments/simulate/exchange.h"

#include <algorithm>

#include "ortho/algorithms/combining_loads.h"
#include "ortho/algorithms/common_neighbours_routes.h"
#include "ortho/algorithms/node_aware_routes.h"
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
  return {.rounds = std::vector<std::vector<Sent>>(
              rounds, std::vector<Sent>(workload.graph.destinations.size()))};
}

// One message per edge, in one round (an edge to itself too, as ortho's
// direct plan counts it; it never leaves the node).
Exchange direct(const Workload& workload, std::size_t block_bytes) {
  Exchange result = empty_rounds(1, workload);
  const std::vector<int>& node = workload.graph.host_of_rank;
  for (std::size_t p = 0; p < workload.graph.destinations.size(); ++p) {
    for (const int to : workload.graph.destinations[p]) {
      result.rounds[0][p].add(bytes_of(1, block_bytes),
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
        const int first = stencils::first_part_blocks(
            message.blocks, block_bytes, split_eager_bytes);
        Sent& sent = result.rounds[r][p];
        sent.add(bytes_of(first, block_bytes), message.between_hosts);
        if (first < message.blocks) {
          sent.add(bytes_of(message.blocks - first, block_bytes),
                   message.between_hosts);
        }
        if (message.blocks > 1) {
          sent.packed_bytes += bytes_of(message.blocks, block_bytes);
        }
      }
    }
  }
  return result;
}

void add_step(Sent& sent, const node_routes::StepLoad& load,
              std::size_t block_bytes, bool between) {
  if (load.messages == 0) return;
  // The step's messages in aggregate: the largest is known, the others'
  // bytes summed.
  std::int64_t& messages_bytes =
      between ? sent.between_bytes : sent.within_bytes;
  int& messages = between ? sent.between_messages : sent.within_messages;
  std::int64_t& largest = between ? sent.largest_between : sent.largest_within;
  messages += load.messages;
  messages_bytes += bytes_of(load.blocks, block_bytes);
  sent.packed_bytes += bytes_of(load.packed_blocks, block_bytes);
  largest =
      std::max(largest, bytes_of(load.largest_message_blocks, block_bytes));
}

node_routes::Payload payload_of(Operation operation) {
  return operation == Operation::allgather ? node_routes::Payload::per_source
                                           : node_routes::Payload::per_edge;
}

// Steps 0 and 2 stay on the node, step 1 crosses between nodes.
Exchange node_aware(const Workload& workload, Operation operation,
                    std::size_t block_bytes) {
  const std::vector<node_routes::Load> loads =
      node_routes::loads(workload.graph, payload_of(operation));
  Exchange result = empty_rounds(3, workload);
  for (std::size_t p = 0; p < loads.size(); ++p) {
    for (std::size_t step = 0; step < 3; ++step) {
      add_step(result.rounds[step][p], loads[p][step], block_bytes, step == 1);
    }
  }
  return result;
}

Exchange common_neighbours(const Workload& workload, Operation operation,
                           std::size_t block_bytes) {
  const common_routes::Grouping grouping =
      common_routes::groups(workload.graph);
  const std::vector<common_routes::Load> loads =
      common_routes::loads(workload.graph, grouping, payload_of(operation));
  Exchange result = empty_rounds(2, workload);
  for (std::size_t p = 0; p < loads.size(); ++p) {
    for (std::size_t step = 0; step < 2; ++step) {
      add_step(result.rounds[step][p], loads[p][step].within, block_bytes,
               false);
      add_step(result.rounds[step][p], loads[p][step].between, block_bytes,
               true);
    }
  }
  return result;
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
  }
  return "?";
}

void Sent::add(std::int64_t bytes, bool between) {
  if (between) {
    ++between_messages;
    between_bytes += bytes;
    largest_between = std::max(largest_between, bytes);
  } else {
    ++within_messages;
    within_bytes += bytes;
    largest_within = std::max(largest_within, bytes);
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
  }
  return std::nullopt;
}

Counts counts_of(const Exchange& exchange, int rank) {
  Counts counts;
  for (const std::vector<Sent>& round : exchange.rounds) {
    const Sent& sent = round[at(rank)];
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
