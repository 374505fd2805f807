#include "experiments/simulate/exchange.h"

#include <algorithm>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "experiments/simulate/sized_flows.h"
#include "ortho/algorithms/combining/combining_loads.h"
#include "ortho/algorithms/common_neighbours/common_neighbours_routes.h"
#include "ortho/algorithms/node_aware/node_aware_routes.h"
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
          rounds, std::vector<RoundLoad>(workload.graph.destinations.size())),
      .messages = std::vector<std::vector<Message>>(rounds),
      .multiply_adds = {}};
}

// One message per edge, in one round (an edge to itself too, as ortho's
// direct plan counts it; it never leaves the node); on a halo, each of its
// block's entries.
Exchange direct(const Workload& workload, std::size_t block_bytes) {
  Exchange result = empty_rounds(1, workload);
  const std::vector<int>& node = workload.graph.host_of_rank;
  for (std::size_t p = 0; p < workload.graph.destinations.size(); ++p) {
    const std::vector<int>& destinations = workload.graph.destinations[p];
    for (std::size_t k = 0; k < destinations.size(); ++k) {
      const int to = destinations[k];
      const std::int64_t bytes =
          workload.entries.empty()
              ? bytes_of(1, block_bytes)
              : bytes_of(workload.entries[p][k], block_bytes);
      result.add_bytes(0, static_cast<int>(p), to, 1, bytes,
                       node[at(to)] != node[p]);
    }
  }
  return result;
}

// The messages of combining's `rounds`, from round `first` of `into` on,
// each of `block_bytes` blocks, a message split as the plans split it
// where `split_eager_bytes` is given (the uniform forms).
void add_combined(const combining_loads::Rounds& messages, std::size_t first,
                  std::size_t block_bytes,
                  std::optional<std::size_t> split_eager_bytes,
                  Exchange& into) {
  for (std::size_t r = 0; r < messages.size(); ++r) {
    for (std::size_t p = 0; p < messages[r].size(); ++p) {
      for (const combining_loads::Message& message : messages[r][p]) {
        const int from = static_cast<int>(p);
        const int whole = message.blocks;
        const int part = split_eager_bytes
                             ? stencils::first_part_blocks(whole, block_bytes,
                                                           *split_eager_bytes)
                             : whole;
        into.add(first + r, from, message.to, part, block_bytes,
                 message.between_hosts);
        if (part < whole) {
          into.add(first + r, from, message.to, whole - part, block_bytes,
                   message.between_hosts);
        }
      }
    }
  }
}

// Combining's schedules; alltoallv first runs alltoall's over the sizes (8
// bytes a block), and the v forms keep a message whole.
std::optional<Exchange> combining(const Workload& workload, Operation operation,
                                  std::size_t block_bytes,
                                  std::size_t split_eager_bytes) {
  if (!workload.grid) return std::nullopt;
  const auto& rounds = per_source(operation) ? workload.grid->allgather.rounds
                                             : workload.grid->alltoall.rounds;
  const combining_loads::Rounds messages = combining_loads::messages_of(
      rounds, workload.grid->geometry, workload.graph.host_of_rank);
  const bool sizes_first = operation == Operation::alltoallv;
  Exchange result =
      empty_rounds((sizes_first ? 2 : 1) * messages.size(), workload);
  if (sizes_first) {
    add_combined(messages, 0, sizeof(std::int64_t), std::nullopt, result);
  }
  add_combined(messages, sizes_first ? messages.size() : 0, block_bytes,
               sized(operation) ? std::nullopt
                                : std::optional<std::size_t>(split_eager_bytes),
               result);
  return result;
}

node_routes::Payload payload_of(Operation operation) {
  return per_source(operation) ? node_routes::Payload::per_source
                               : node_routes::Payload::per_edge;
}

// A flow's message: blocks of `block_bytes` (the routes' flows, blocks of
// one size) or blocks with their bytes (sized_flows).
Sent sent_of(int blocks, std::size_t block_bytes) {
  return {.blocks = blocks, .bytes = bytes_of(blocks, block_bytes)};
}
Sent sent_of(const Sent& sent, std::size_t /*block_bytes*/) { return sent; }

// What a flow's messages carry: their blocks, or the blocks with their
// sizes in the messages of steps 0 and 1 (a blocking call's relayed v
// forms, 8 bytes a block).
enum class Carry { blocks, described };

// Every message of `flows` (flows[r][step][peer]: blocks, or Sent), step by
// step, from round `first` of `into` on.
template <typename Flow>
void add_flows(const Workload& workload, const std::vector<Flow>& flows,
               std::size_t steps, std::size_t block_bytes, std::size_t first,
               Exchange& into, Carry carry = Carry::blocks) {
  const std::vector<int>& node = workload.graph.host_of_rank;
  for (std::size_t r = 0; r < flows.size(); ++r) {
    for (std::size_t step = 0; step < steps; ++step) {
      for (const auto& [peer, message] : flows[r][step]) {
        Sent sent = sent_of(message, block_bytes);
        if (carry == Carry::described && step < 2) {
          sent.bytes += bytes_of(sent.blocks, sizeof(std::int64_t));
        }
        into.add_bytes(first + step, static_cast<int>(r), peer, sent.blocks,
                       sent.bytes, node[at(peer)] != node[r]);
      }
    }
  }
}

// Whether some edge joins two nodes (so that some process relays blocks).
bool relays(const Workload& workload) {
  const std::vector<int>& node = workload.graph.host_of_rank;
  for (std::size_t p = 0; p < workload.graph.destinations.size(); ++p) {
    for (const int to : workload.graph.destinations[p]) {
      if (node[at(to)] != node[p]) return true;
    }
  }
  return false;
}

// The routes' steps (`flows`) of a blocking call, with the relayed sizes
// inside the messages of steps 0 and 1 where the v forms need them (8
// bytes a block): where some process relays (node_aware, spread_relays:
// the sizes are known within the nodes, `within_nodes`) or always
// (common_neighbours: `along_routes`).
enum class Sizes { within_nodes, along_routes };
template <typename Flow>
Exchange from_flows(const Workload& workload, const std::vector<Flow>& flows,
                    std::size_t steps, Operation operation,
                    std::size_t block_bytes, Sizes sizes) {
  if (!sized(operation) ||
      (sizes == Sizes::within_nodes && !relays(workload))) {
    Exchange result = empty_rounds(steps, workload);
    add_flows(workload, flows, steps, block_bytes, 0, result);
    return result;
  }
  Exchange result = empty_rounds(steps, workload);
  add_flows(workload, flows, steps, block_bytes, 0, result, Carry::described);
  return result;
}

// Steps 0 and 2 stay on the node, step 1 crosses between nodes; on a
// halo, the routes' messages with their bytes.
Exchange node_aware(const Workload& workload, Operation operation,
                    std::size_t block_bytes) {
  if (!workload.entries.empty()) {
    const RoutesOf routes_of = [&](int rank, std::span<const int> sources) {
      return node_routes::routes(workload.graph, rank, sources,
                                 node_routes::Payload::per_edge);
    };
    return from_flows(workload, sized_flows(workload, routes_of, block_bytes),
                      3, operation, block_bytes, Sizes::within_nodes);
  }
  return from_flows(workload,
                    node_routes::flows(workload.graph, payload_of(operation)),
                    3, operation, block_bytes, Sizes::within_nodes);
}

Exchange common_neighbours(const Workload& workload, Operation operation,
                           std::size_t block_bytes) {
  const common_routes::Grouping grouping =
      common_routes::groups(workload.graph);
  if (!workload.entries.empty()) {
    const RoutesOf routes_of = [&](int rank, std::span<const int> sources) {
      return common_routes::routes(workload.graph, grouping, rank, sources,
                                   node_routes::Payload::per_edge);
    };
    return from_flows(workload, sized_flows(workload, routes_of, block_bytes),
                      2, operation, block_bytes, Sizes::along_routes);
  }
  const std::vector<common_routes::Flow> two =
      common_routes::flows(workload.graph, grouping, payload_of(operation));
  std::vector<node_routes::Flow> flows(two.size());
  for (std::size_t r = 0; r < two.size(); ++r) {
    flows[r][0] = two[r][0];
    flows[r][1] = two[r][1];
  }
  return from_flows(workload, flows, 2, operation, block_bytes,
                    Sizes::along_routes);
}

// Step 0 within the node and to another node's relay, step 1 empty, step 2
// handing out on the node.
Exchange spread_relays(const Workload& workload, Operation operation,
                       std::size_t block_bytes) {
  if (!workload.entries.empty()) {
    const RoutesOf routes_of = [&](int rank, std::span<const int> sources) {
      return ortho::algorithms::spread_routes::routes(
          workload.graph, rank, sources, node_routes::Payload::per_edge);
    };
    return from_flows(workload, sized_flows(workload, routes_of, block_bytes),
                      3, operation, block_bytes, Sizes::within_nodes);
  }
  return from_flows(workload,
                    ortho::algorithms::spread_routes::flows(
                        workload.graph, payload_of(operation)),
                    3, operation, block_bytes, Sizes::within_nodes);
}

// Each process's peers in each round: the processes its messages go to,
// each once however many messages it sends there.
void count_peers(Exchange& exchange, std::span<const int> host_of_rank) {
  std::vector<std::pair<int, int>> pairs;
  for (std::size_t round = 0; round < exchange.messages.size(); ++round) {
    pairs.clear();
    for (const Message& message : exchange.messages[round]) {
      pairs.emplace_back(message.from, message.to);
    }
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    for (const auto& [from, to] : pairs) {
      RoundLoad& sender = exchange.rounds[round][at(from)];
      ++(host_of_rank[at(from)] == host_of_rank[at(to)] ? sender.within_peers
                                                        : sender.between_peers);
    }
  }
}

}  // namespace

std::string_view name_of(Operation operation) {
  switch (operation) {
    case Operation::allgather:
      return "allgather";
    case Operation::alltoall:
      return "alltoall";
    case Operation::allgatherv:
      return "allgatherv";
    case Operation::alltoallv:
      return "alltoallv";
  }
  return "?";
}

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
  add_bytes(round, from, to, blocks, bytes_of(blocks, block_bytes), between);
}

void Exchange::add_bytes(std::size_t round, int from, int to, int blocks,
                         std::int64_t bytes, bool between) {
  RoundLoad& sender = rounds[round][at(from)];
  RoundLoad& receiver = rounds[round][at(to)];
  if (messages.size() < rounds.size()) messages.resize(rounds.size());
  messages[round].push_back({.from = from, .to = to, .bytes = bytes});
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
  if (!workload.entries.empty() && operation != Operation::alltoallv) {
    throw std::invalid_argument("simulate::exchange: the halo '" +
                                workload.name +
                                "' runs alltoallv, "
                                "not " +
                                std::string(name_of(operation)));
  }
  std::optional<Exchange> made;
  switch (algorithm) {
    case Algorithm::direct:
      made = direct(workload, block_bytes);
      break;
    case Algorithm::combining:
      made = combining(workload, operation, block_bytes, split_eager_bytes);
      break;
    case Algorithm::node_aware:
      made = node_aware(workload, operation, block_bytes);
      break;
    case Algorithm::common_neighbours:
      made = common_neighbours(workload, operation, block_bytes);
      break;
    case Algorithm::spread_relays:
      made = spread_relays(workload, operation, block_bytes);
      break;
  }
  if (made) {
    count_peers(*made, workload.graph.host_of_rank);
    made->multiply_adds = workload.multiply_adds;
  }
  return made;
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
