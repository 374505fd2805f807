#include "ortho/algorithms/spread_relays/spread_relays_routes.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <utility>

#include "ortho/algorithms/route_parts.h"

namespace ortho::algorithms::spread_routes {
namespace {

using node_routes::recv_slot;
using node_routes::scratch_slot;
using node_routes::send_slot;
using node_routes::Step;
using node_routes::Target;

// One block for another host: the source's send block (`edge`; per source,
// its first edge there) and where it ends on that host.
struct Item {
  int edge = 0;
  std::vector<Target> targets;
};

// What one source sends to one other host, in one message, and the relay
// there that receives it.
struct Bundle {
  int source = 0;
  int host = 0;
  std::vector<Item> items;
  int targets = 0;  // over the items
  int relay = 0;
};

// Every source's bundles, by source and then destination host: the same
// order on every process, which both ends of a message list blocks in.
std::vector<Bundle> bundles_of(const HostGraph& graph, Payload payload) {
  node_routes::check_graph(graph);
  std::vector<Bundle> all;
  for (std::size_t s = 0; s < graph.destinations.size(); ++s) {
    const std::vector<int>& out = graph.destinations[s];
    const int from = graph.host_of_rank[s];
    std::map<int, Bundle> by_host;
    std::map<int, int> seen;  // destination -> edges to it so far
    for (std::size_t k = 0; k < out.size(); ++k) {
      const int d = out[k];
      const Target target{d, seen[d]++};
      const int to = graph.host_of_rank[static_cast<std::size_t>(d)];
      if (to == from) continue;
      Bundle& bundle = by_host[to];
      bundle.source = static_cast<int>(s);
      bundle.host = to;
      ++bundle.targets;
      if (payload == Payload::per_source && !bundle.items.empty()) {
        bundle.items.front().targets.push_back(target);
      } else {
        bundle.items.push_back({static_cast<int>(k), {target}});
      }
    }
    for (auto& [host, bundle] : by_host) all.push_back(std::move(bundle));
  }
  return all;
}

// Chooses each bundle's relay, bundles with the most blocks to hand out
// first: on the bundle's host, the candidate that receives most of the
// bundle's blocks itself less what it already relays (the lowest rank on
// ties); it is charged one message and the blocks it hands on.
void choose_relays(std::vector<Bundle>& bundles, const HostGraph& graph) {
  const std::map<int, std::vector<int>> candidates =
      node_routes::relay_candidates(graph);
  std::vector<Bundle*> order;
  order.reserve(bundles.size());
  for (Bundle& bundle : bundles) order.push_back(&bundle);
  std::stable_sort(
      order.begin(), order.end(),
      [](const Bundle* a, const Bundle* b) { return a->targets > b->targets; });
  std::vector<int> load(graph.host_of_rank.size(), 0);  // by rank
  for (Bundle* bundle : order) {
    std::map<int, int> own;  // blocks each target receives
    for (const Item& item : bundle->items) {
      for (const Target& target : item.targets) ++own[target.rank];
    }
    int best = -1;
    int best_score = 0;
    for (const int p : candidates.at(bundle->host)) {
      const auto mine = own.find(p);
      const int score = (mine == own.end() ? 0 : mine->second) -
                        load[static_cast<std::size_t>(p)];
      if (best < 0 || score > best_score) {
        best = p;
        best_score = score;
      }
    }
    bundle->relay = best;
    const auto kept = own.find(best);
    load[static_cast<std::size_t>(best)] +=
        bundle->targets - (kept == own.end() ? 0 : kept->second) + 1;
  }
}

std::vector<Bundle> relayed_bundles(const HostGraph& graph, Payload payload) {
  std::vector<Bundle> bundles = bundles_of(graph, payload);
  choose_relays(bundles, graph);
  return bundles;
}

// A bundle arriving at its relay `rank`: one message into fresh scratch
// slots; the relay's own blocks copied out of them, the others handed out
// in step 2.
void receive_as_relay(const Bundle& bundle, int rank,
                      const node_routes::ReceiveBlocks& blocks,
                      Routes& routes) {
  Step& first = routes.steps[0];
  node_routes::Transfer transfer{bundle.source, node_routes::kCrossTag, {}};
  for (const Item& item : bundle.items) {
    const int t = routes.scratch_slots++;
    transfer.slots.push_back(scratch_slot(t));
    int lands = -1;
    for (const Target& target : item.targets) {
      if (target.rank == rank) {
        const int j = blocks.at(bundle.source, target.occurrence);
        first.copies.push_back({scratch_slot(t), j});
        if (lands < 0) lands = j;
      } else {
        node_routes::add(routes.steps[2].sends, target.rank,
                         node_routes::kHandOutTag, scratch_slot(t));
      }
    }
    routes.lands_in.push_back(lands);
  }
  first.receives.push_back(std::move(transfer));
}

}  // namespace

Routes routes(const HostGraph& graph, int rank, std::span<const int> sources,
              Payload payload) {
  const std::vector<Bundle> bundles = relayed_bundles(graph, payload);
  const node_routes::ReceiveBlocks blocks(graph, rank, sources);
  Routes routes;
  routes.steps.resize(3);
  node_routes::direct_blocks(graph, rank, sources, blocks, routes.steps[0]);
  for (const Bundle& bundle : bundles) {
    if (bundle.source == rank) {
      node_routes::Transfer& out = routes.steps[0].sends.emplace_back();
      out.peer = bundle.relay;
      out.tag = node_routes::kCrossTag;
      for (const Item& item : bundle.items) {
        out.slots.push_back(send_slot(item.edge));
      }
      ++routes.messages_between_hosts;
    }
    if (bundle.relay == rank) {
      receive_as_relay(bundle, rank, blocks, routes);
      continue;
    }
    for (const Item& item : bundle.items) {
      for (const Target& target : item.targets) {
        if (target.rank != rank) continue;
        node_routes::add(
            routes.steps[2].receives, bundle.relay, node_routes::kHandOutTag,
            recv_slot(blocks.at(bundle.source, target.occurrence)));
      }
    }
  }
  return routes;
}

std::vector<Flow> flows(const HostGraph& graph, Payload payload) {
  const std::vector<Bundle> bundles = relayed_bundles(graph, payload);
  std::vector<Flow> flows(graph.host_of_rank.size());
  for (std::size_t s = 0; s < flows.size(); ++s) {
    for (const int d : graph.destinations[s]) {
      if (d != static_cast<int>(s) &&
          graph.host_of_rank[static_cast<std::size_t>(d)] ==
              graph.host_of_rank[s]) {
        ++flows[s][0][d];
      }
    }
  }
  for (const Bundle& bundle : bundles) {
    flows[static_cast<std::size_t>(bundle.source)][0][bundle.relay] =
        static_cast<int>(bundle.items.size());
    for (const Item& item : bundle.items) {
      for (const Target& target : item.targets) {
        if (target.rank != bundle.relay) {
          ++flows[static_cast<std::size_t>(bundle.relay)][2][target.rank];
        }
      }
    }
  }
  return flows;
}

std::vector<std::vector<SplitLoad>> loads(const HostGraph& graph,
                                          Payload payload) {
  const std::vector<Flow> all = spread_routes::flows(graph, payload);
  std::vector<std::vector<SplitLoad>> rounds(
      2, std::vector<SplitLoad>(all.size()));
  for (std::size_t r = 0; r < all.size(); ++r) {
    for (const auto& [round, step] :
         {std::pair<std::size_t, std::size_t>{0, 0},
          std::pair<std::size_t, std::size_t>{1, 2}}) {
      node_routes::Messages within;
      node_routes::Messages between;
      for (const auto& [peer, blocks] : all[r][step]) {
        const bool same = graph.host_of_rank[static_cast<std::size_t>(peer)] ==
                          graph.host_of_rank[r];
        (same ? within : between)[peer] = blocks;
      }
      rounds[round][r] = {node_routes::counted(within),
                          node_routes::counted(between)};
    }
  }
  return rounds;
}

}  // namespace ortho::algorithms::spread_routes
