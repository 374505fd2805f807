#include "ortho/algorithms/route_parts.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>

namespace ortho::algorithms::node_routes {

ReceiveBlocks::ReceiveBlocks(const HostGraph& graph, int rank,
                             std::span<const int> sources) {
  for (std::size_t j = 0; j < sources.size(); ++j) {
    by_source_[sources[j]].push_back(static_cast<int>(j));
  }
  std::map<int, int> edges_in;
  for (std::size_t s = 0; s < graph.destinations.size(); ++s) {
    for (const int d : graph.destinations[s]) {
      if (d == rank) ++edges_in[static_cast<int>(s)];
    }
  }
  std::map<int, int> listed;
  for (const auto& [s, blocks] : by_source_) {
    listed[s] = static_cast<int>(blocks.size());
  }
  if (edges_in != listed) {
    throw std::invalid_argument(
        "rank " + std::to_string(rank) +
        "'s sources disagree with the other processes' destinations");
  }
}

void add(std::vector<Transfer>& transfers, int peer, int tag, Slot slot) {
  auto it = std::find_if(transfers.begin(), transfers.end(),
                         [peer](const Transfer& t) { return t.peer == peer; });
  if (it == transfers.end()) {
    transfers.push_back({peer, tag, {}});
    it = std::prev(transfers.end());
  }
  it->slots.push_back(slot);
}

StepLoad counted(const Messages& messages) {
  StepLoad load;
  for (const auto& [peer, blocks] : messages) {
    ++load.messages;
    load.blocks += blocks;
    if (blocks > 1) load.packed_blocks += blocks;
    load.largest_message_blocks = std::max(load.largest_message_blocks, blocks);
  }
  return load;
}

void check_graph(const HostGraph& graph) {
  const std::size_t size = graph.host_of_rank.size();
  if (graph.destinations.size() != size) {
    throw std::invalid_argument(
        "the graph lists " + std::to_string(graph.destinations.size()) +
        " processes' destinations, not " + std::to_string(size));
  }
  for (std::size_t s = 0; s < size; ++s) {
    for (const int d : graph.destinations[s]) {
      if (d < 0 || static_cast<std::size_t>(d) >= size) {
        throw std::invalid_argument("rank " + std::to_string(s) +
                                    " has destination " + std::to_string(d) +
                                    " outside the communicator");
      }
    }
  }
}

}  // namespace ortho::algorithms::node_routes
