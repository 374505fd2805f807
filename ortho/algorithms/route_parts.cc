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

std::map<int, std::vector<int>> relay_candidates(const HostGraph& graph) {
  std::vector<char> has_edge(graph.host_of_rank.size(), 0);
  for (std::size_t r = 0; r < graph.destinations.size(); ++r) {
    for (const int d : graph.destinations[r]) {
      has_edge[r] = 1;
      has_edge[static_cast<std::size_t>(d)] = 1;
    }
  }
  std::map<int, std::vector<int>> hosts;
  for (std::size_t r = 0; r < graph.host_of_rank.size(); ++r) {
    if (has_edge[r] != 0) {
      hosts[graph.host_of_rank[r]].push_back(static_cast<int>(r));
    }
  }
  return hosts;
}

void direct_blocks(const HostGraph& graph, int rank,
                   std::span<const int> sources, const ReceiveBlocks& blocks,
                   Step& step) {
  const std::vector<int>& out =
      graph.destinations[static_cast<std::size_t>(rank)];
  const int host = graph.host_of_rank[static_cast<std::size_t>(rank)];
  int to_itself = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const int d = out[k];
    if (d == rank) {
      step.copies.push_back(
          {send_slot(static_cast<int>(k)), blocks.at(rank, to_itself++)});
    } else if (graph.host_of_rank[static_cast<std::size_t>(d)] == host) {
      add(step.sends, d, kGatherTag, send_slot(static_cast<int>(k)));
    }
  }
  for (std::size_t j = 0; j < sources.size(); ++j) {
    const int s = sources[j];
    if (s != rank && graph.host_of_rank[static_cast<std::size_t>(s)] == host) {
      add(step.receives, s, kGatherTag, recv_slot(static_cast<int>(j)));
    }
  }
}

}  // namespace ortho::algorithms::node_routes
