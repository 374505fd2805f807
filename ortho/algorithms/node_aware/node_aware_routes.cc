#include "ortho/algorithms/node_aware/node_aware_routes.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "ortho/algorithms/route_parts.h"

namespace ortho::algorithms::node_routes {
namespace {

// A block that crosses from one host to another: its source, the edge
// whose send block it is, and where it ends.
struct Item {
  int source = 0;
  int edge = 0;
  std::vector<Target> targets;
};

// The blocks from host `from` to host `to`, in canonical order (source,
// then edge), and the pair's two relays.
struct HostPair {
  int from = 0;
  int to = 0;
  std::vector<Item> items;
  int sending_relay = 0;
  int receiving_relay = 0;
};

using PairKey = std::pair<int, int>;  // (from, to)

std::map<PairKey, HostPair> crossing_blocks(const HostGraph& graph,
                                            Payload payload) {
  const int size = static_cast<int>(graph.host_of_rank.size());
  std::map<PairKey, HostPair> pairs;
  for (int s = 0; s < size; ++s) {
    const std::vector<int>& out =
        graph.destinations[static_cast<std::size_t>(s)];
    std::map<int, int> seen;  // destination -> edges to it so far
    for (std::size_t k = 0; k < out.size(); ++k) {
      const int d = out[k];
      if (d < 0 || d >= size) {
        throw std::invalid_argument("rank " + std::to_string(s) +
                                    " has destination " + std::to_string(d) +
                                    " outside the communicator");
      }
      const Target target{d, seen[d]++};
      const int from = graph.host_of_rank[static_cast<std::size_t>(s)];
      const int to = graph.host_of_rank[static_cast<std::size_t>(d)];
      if (from == to) continue;
      HostPair& pair = pairs[{from, to}];
      pair.from = from;
      pair.to = to;
      if (payload == Payload::per_source && !pair.items.empty() &&
          pair.items.back().source == s) {
        pair.items.back().targets.push_back(target);
      } else {
        pair.items.push_back({s, static_cast<int>(k), {target}});
      }
    }
  }
  return pairs;
}

// Picks, among `candidates`, the rank with the most `own` blocks less the
// blocks it already relays (`load`), the lowest rank on ties; charges it
// the blocks it relays for others and one message.
template <class Own>
int pick_relay(const std::vector<int>& candidates, std::vector<int>& load,
               int blocks, Own own) {
  int best = candidates.front();
  int best_own = 0;
  int best_score = 0;
  bool first = true;
  for (const int p : candidates) {
    const int mine = own(p);
    const int score = mine - load[static_cast<std::size_t>(p)];
    if (first || score > best_score) {
      best = p;
      best_own = mine;
      best_score = score;
      first = false;
    }
  }
  load[static_cast<std::size_t>(best)] += blocks - best_own + 1;
  return best;
}

// Chooses the relays of every pair, largest pairs first, balancing the
// blocks each process relays, sending and receiving together (so that the
// two directions between two hosts tend to have four different relays).
void choose_relays(std::map<PairKey, HostPair>& pairs,
                   const std::map<int, std::vector<int>>& hosts, int size) {
  std::vector<HostPair*> order;
  order.reserve(pairs.size());
  for (auto& [key, pair] : pairs) order.push_back(&pair);
  std::stable_sort(order.begin(), order.end(),
                   [](const HostPair* a, const HostPair* b) {
                     return a->items.size() > b->items.size();
                   });
  std::vector<int> load(static_cast<std::size_t>(size), 0);  // by rank
  for (HostPair* pair : order) {
    const auto blocks = static_cast<int>(pair->items.size());
    pair->sending_relay =
        pick_relay(hosts.at(pair->from), load, blocks, [&](int p) {
          return static_cast<int>(std::count_if(
              pair->items.begin(), pair->items.end(),
              [p](const Item& item) { return item.source == p; }));
        });
    int targets = 0;
    for (const Item& item : pair->items) {
      targets += static_cast<int>(item.targets.size());
    }
    pair->receiving_relay =
        pick_relay(hosts.at(pair->to), load, targets, [&](int p) {
          int own = 0;
          for (const Item& item : pair->items) {
            own += static_cast<int>(
                std::count_if(item.targets.begin(), item.targets.end(),
                              [p](const Target& t) { return t.rank == p; }));
          }
          return own;
        });
  }
}

}  // namespace

Routes routes(const HostGraph& graph, int rank, std::span<const int> sources,
              Payload payload) {
  const ReceiveBlocks blocks(graph, rank, sources);
  std::map<PairKey, HostPair> pairs = crossing_blocks(graph, payload);
  choose_relays(pairs, relay_candidates(graph),
                static_cast<int>(graph.host_of_rank.size()));
  const int host = graph.host_of_rank[static_cast<std::size_t>(rank)];

  Routes routes;
  routes.steps.resize(3);
  Step& gather = routes.steps[0];
  Step& cross = routes.steps[1];
  Step& hand_out = routes.steps[2];
  direct_blocks(graph, rank, sources, blocks, gather);

  // Pairs leaving this host, by destination host (the map's order).
  for (auto& [key, pair] : pairs) {
    if (pair.from != host) continue;
    const bool relay = pair.sending_relay == rank;
    std::vector<Slot> crossing;
    for (const Item& item : pair.items) {
      if (item.source == rank) {
        if (relay) {
          crossing.push_back(send_slot(item.edge));
        } else {
          add(gather.sends, pair.sending_relay, kGatherTag,
              send_slot(item.edge));
        }
      } else if (relay) {
        const Slot slot = scratch_slot(routes.scratch_slots++);
        routes.lands_in.push_back(-1);
        add(gather.receives, item.source, kGatherTag, slot);
        crossing.push_back(slot);
      }
    }
    if (relay) {
      cross.sends.push_back({pair.receiving_relay, kCrossTag, crossing});
    }
  }

  // Pairs arriving at this host, by source host.
  std::vector<std::pair<const HostPair*, int>> arriving;  // pair, first slot
  for (const auto& [key, pair] : pairs) {
    if (pair.to != host || pair.receiving_relay != rank) continue;
    arriving.emplace_back(&pair, routes.scratch_slots);
    Transfer transfer{pair.sending_relay, kCrossTag, {}};
    for (const Item& item : pair.items) {
      const int t = routes.scratch_slots++;
      transfer.slots.push_back(scratch_slot(t));
      int lands = -1;
      for (const Target& target : item.targets) {
        if (target.rank != rank) continue;
        const int j = blocks.at(item.source, target.occurrence);
        cross.copies.push_back({scratch_slot(t), j});
        if (lands < 0) lands = j;
      }
      routes.lands_in.push_back(lands);
    }
    cross.receives.push_back(std::move(transfer));
  }
  for (const auto& [pair, first] : arriving) {
    for (std::size_t i = 0; i < pair->items.size(); ++i) {
      for (const Target& target : pair->items[i].targets) {
        if (target.rank == rank) continue;
        add(hand_out.sends, target.rank, kHandOutTag,
            scratch_slot(first + static_cast<int>(i)));
      }
    }
  }
  for (const auto& [key, pair] : pairs) {
    if (pair.to != host || pair.receiving_relay == rank) continue;
    for (const Item& item : pair.items) {
      for (const Target& target : item.targets) {
        if (target.rank != rank) continue;
        add(hand_out.receives, pair.receiving_relay, kHandOutTag,
            recv_slot(blocks.at(item.source, target.occurrence)));
      }
    }
  }
  routes.messages_between_hosts = static_cast<int>(cross.sends.size());
  return routes;
}

std::vector<Flow> flows(const HostGraph& graph, Payload payload) {
  std::map<PairKey, HostPair> pairs = crossing_blocks(graph, payload);
  choose_relays(pairs, relay_candidates(graph),
                static_cast<int>(graph.host_of_rank.size()));
  const std::size_t size = graph.host_of_rank.size();
  std::vector<Flow> flows(size);
  for (std::size_t s = 0; s < size; ++s) {  // step 0's blocks within a host
    for (const int d : graph.destinations[s]) {
      if (d != static_cast<int>(s) &&
          graph.host_of_rank[static_cast<std::size_t>(d)] ==
              graph.host_of_rank[s]) {
        ++flows[s][0][d];
      }
    }
  }
  for (const auto& [key, pair] : pairs) {
    for (const Item& item : pair.items) {
      if (item.source != pair.sending_relay) {
        ++flows[static_cast<std::size_t>(item.source)][0][pair.sending_relay];
      }
      for (const Target& target : item.targets) {
        if (target.rank != pair.receiving_relay) {
          ++flows[static_cast<std::size_t>(pair.receiving_relay)][2]
                 [target.rank];
        }
      }
    }
    flows[static_cast<std::size_t>(pair.sending_relay)][1]
         [pair.receiving_relay] = static_cast<int>(pair.items.size());
  }
  return flows;
}

std::vector<Load> loads(const HostGraph& graph, Payload payload) {
  const std::vector<Flow> all = flows(graph, payload);
  std::vector<Load> loads(all.size());
  for (std::size_t r = 0; r < all.size(); ++r) {
    for (std::size_t step = 0; step < 3; ++step) {
      loads[r][step] = counted(all[r][step]);
    }
  }
  return loads;
}

}  // namespace ortho::algorithms::node_routes
