#include "ortho/graph_facts.h"

#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "classic/base/constants.h"
#include "classic/collectives/collectives.h"
#include "naming/cart_name.h"
#include "ortho/algorithms/combining.h"
#include "ortho/table.h"

namespace ortho::internal {
namespace {

// The distinct peers other than `rank` of one side, and whether any peer
// (itself included) appears twice.
struct Peers {
  int distinct = 0;
  bool repeat = false;
};

Peers peers_of(std::vector<int> ranks, int rank) {
  std::erase(ranks, classic::proc_null);
  std::sort(ranks.begin(), ranks.end());
  Peers peers;
  peers.repeat = std::adjacent_find(ranks.begin(), ranks.end()) != ranks.end();
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  peers.distinct = static_cast<int>(ranks.size());
  if (std::binary_search(ranks.begin(), ranks.end(), rank)) {
    --peers.distinct;
    peers.repeat = true;  // a self loop: a local copy, not a message
  }
  return peers;
}

}  // namespace

GraphFacts analyse_graph(const classic::Comm& graph,
                         const classic::Comm* named) {
  std::vector<int> sources;
  std::vector<int> destinations;
  read_neighbours(graph, sources, destinations);
  const Peers out = peers_of(destinations, graph.rank());
  const Peers in = peers_of(sources, graph.rank());
  const std::array<int, 2> mine{out.repeat || in.repeat ? 1 : 0,
                                std::max(out.distinct, in.distinct)};
  std::array<int, 2> all{};
  classic::allreduce(graph, std::span<const int>(mine), std::span(all),
                     MPI_MAX);
  GraphFacts facts;
  facts.peers_repeat = all[0] == 1;
  facts.most_peers = all[1];
  if (named != nullptr && naming::cart_testall(*named)) {
    facts.combining = algorithms::detect_combining(
        graph, naming::cart_get(*named), destinations, sources);
  }
  return facts;
}

}  // namespace ortho::internal
