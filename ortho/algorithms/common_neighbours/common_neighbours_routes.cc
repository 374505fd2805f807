#include "ortho/algorithms/common_neighbours/common_neighbours_routes.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "ortho/algorithms/route_parts.h"

namespace ortho::algorithms::common_routes {
namespace {

using node_routes::add;
using node_routes::kCrossTag;
using node_routes::kGatherTag;
using node_routes::ReceiveBlocks;
using node_routes::recv_slot;
using node_routes::scratch_slot;
using node_routes::send_slot;
using node_routes::Slot;
using node_routes::Step;
using node_routes::Transfer;

const std::vector<int>& out_of(const HostGraph& graph, int rank) {
  return graph.destinations[static_cast<std::size_t>(rank)];
}

// The distinct out-neighbours of each process, itself left out, ascending.
std::vector<std::vector<int>> neighbourhoods(const HostGraph& graph) {
  std::vector<std::vector<int>> sets(graph.destinations.size());
  for (std::size_t r = 0; r < sets.size(); ++r) {
    for (const int d : graph.destinations[r]) {
      if (d != static_cast<int>(r)) sets[r].push_back(d);
    }
    std::sort(sets[r].begin(), sets[r].end());
    sets[r].erase(std::unique(sets[r].begin(), sets[r].end()), sets[r].end());
  }
  return sets;
}

bool contains(const std::vector<int>& ascending, int value) {
  return std::binary_search(ascending.begin(), ascending.end(), value);
}

// One block of a message: the send block `edge` of `source` (its
// `occurrence`-th edge to the message's destination, which that
// destination receives), or a block its partner forwards (`relayed`).
struct Item {
  int source = 0;
  int edge = 0;
  int occurrence = 0;
  bool relayed = false;
};

// Step 0's message from `member` to its partner: the blocks of its edges
// to the partner, then those the partner forwards for it (alltoall: one
// per edge, in edge order; allgather: its one block, which the partner
// also copies to its receive blocks of `member`).
std::vector<Item> exchange_items(const HostGraph& graph,
                                 const Grouping& grouping, int member,
                                 Payload payload) {
  const int partner = grouping.partner[static_cast<std::size_t>(member)];
  const std::vector<int>& forwarded =
      grouping.forwards[static_cast<std::size_t>(partner)];
  const std::vector<int>& out = out_of(graph, member);
  std::vector<Item> items;
  if (payload == Payload::per_source) {
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (contains(forwarded, out[k])) {
        return {{member, static_cast<int>(k), 0, true}};
      }
    }
  }
  int occurrence = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (out[k] == partner) {
      items.push_back({member, static_cast<int>(k), occurrence++, false});
    }
  }
  if (payload == Payload::per_edge) {
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (contains(forwarded, out[k])) {
        items.push_back({member, static_cast<int>(k), 0, true});
      }
    }
  }
  return items;
}

// Step 1's message from `sender` to `destination`: its own blocks for it
// and, where it forwards for its pair there, its partner's, by source
// rank, then edge order (one block per edge in both payloads).
std::vector<Item> combined_items(const HostGraph& graph,
                                 const Grouping& grouping, int sender,
                                 int destination) {
  const int partner = grouping.partner[static_cast<std::size_t>(sender)];
  std::vector<int> sources{sender};
  if (contains(grouping.forwards[static_cast<std::size_t>(sender)],
               destination)) {
    sources.push_back(partner);
    std::sort(sources.begin(), sources.end());
  }
  std::vector<Item> items;
  for (const int s : sources) {
    const std::vector<int>& out = out_of(graph, s);
    int occurrence = 0;
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (out[k] == destination) {
        items.push_back({s, static_cast<int>(k), occurrence++, s != sender});
      }
    }
  }
  return items;
}

// Who sends `source`'s blocks to `destination` in step 1: its partner
// where the partner forwards for the pair there, otherwise itself; -1
// where they travel in step 0 (a self loop, or to the partner).
int step1_sender(const Grouping& grouping, int source, int destination) {
  const int partner = grouping.partner[static_cast<std::size_t>(source)];
  if (source == destination || partner == destination) return -1;
  if (partner >= 0 &&
      contains(grouping.forwards[static_cast<std::size_t>(partner)],
               destination)) {
    return partner;
  }
  return source;
}

// The destinations `rank` sends to in step 1, in the order they first
// appear in its list.
std::vector<int> step1_destinations(const HostGraph& graph,
                                    const Grouping& grouping, int rank) {
  std::vector<int> destinations;
  std::set<int> seen;
  for (const int d : out_of(graph, rank)) {
    if (step1_sender(grouping, rank, d) == rank && seen.insert(d).second) {
      destinations.push_back(d);
    }
  }
  return destinations;
}

}  // namespace

Grouping groups(const HostGraph& graph, int least_common) {
  node_routes::check_graph(graph);
  const std::vector<std::vector<int>> out = neighbourhoods(graph);
  const std::size_t size = out.size();
  std::vector<std::vector<int>> in(size);  // distinct sources, ascending
  for (std::size_t s = 0; s < size; ++s) {
    for (const int d : out[s]) {
      in[static_cast<std::size_t>(d)].push_back(static_cast<int>(s));
    }
  }
  std::map<std::pair<int, int>, int> common;  // (a, b), a < b: how many
  for (const std::vector<int>& sources : in) {
    for (std::size_t i = 0; i < sources.size(); ++i) {
      for (std::size_t j = i + 1; j < sources.size(); ++j) {
        if (graph.host_of_rank[static_cast<std::size_t>(sources[i])] ==
            graph.host_of_rank[static_cast<std::size_t>(sources[j])]) {
          ++common[{sources[i], sources[j]}];
        }
      }
    }
  }
  std::vector<std::tuple<int, int, int>> candidates;  // (-common, a, b)
  for (const auto& [pair, count] : common) {
    if (count >= least_common) {
      candidates.emplace_back(-count, pair.first, pair.second);
    }
  }
  std::sort(candidates.begin(), candidates.end());
  Grouping grouping;
  grouping.partner.assign(size, -1);
  grouping.forwards.resize(size);
  for (const auto& [minus_count, a, b] : candidates) {
    const auto ua = static_cast<std::size_t>(a);
    const auto ub = static_cast<std::size_t>(b);
    if (grouping.partner[ua] >= 0 || grouping.partner[ub] >= 0) continue;
    grouping.partner[ua] = b;
    grouping.partner[ub] = a;
    std::vector<int> shared;
    std::set_intersection(out[ua].begin(), out[ua].end(), out[ub].begin(),
                          out[ub].end(), std::back_inserter(shared));
    // Step 1's messages of each besides the shared ones; each common
    // neighbour goes to the one with fewer so far (a on ties).
    auto messages = [&](std::size_t self, int other) {
      return static_cast<int>(out[self].size() - shared.size()) -
             (contains(out[self], other) ? 1 : 0);
    };
    int of_a = messages(ua, b);
    int of_b = messages(ub, a);
    for (const int d : shared) {
      if (of_a <= of_b) {
        grouping.forwards[ua].push_back(d);
        ++of_a;
      } else {
        grouping.forwards[ub].push_back(d);
        ++of_b;
      }
    }
  }
  return grouping;
}

Routes routes(const HostGraph& graph, const Grouping& grouping, int rank,
              std::span<const int> sources, Payload payload) {
  const ReceiveBlocks blocks(graph, rank, sources);
  Routes routes;
  routes.steps.resize(3);
  Step& exchange = routes.steps[0];
  Step& combine = routes.steps[1];
  const std::vector<int>& out = out_of(graph, rank);
  int to_itself = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (out[k] == rank) {
      exchange.copies.push_back(
          {send_slot(static_cast<int>(k)), blocks.at(rank, to_itself++)});
    }
  }

  const int partner = grouping.partner[static_cast<std::size_t>(rank)];
  std::map<int, int> relayed;  // partner's edge (allgather: -1) -> scratch
  if (partner >= 0) {
    for (const Item& item : exchange_items(graph, grouping, rank, payload)) {
      add(exchange.sends, partner, kGatherTag, send_slot(item.edge));
    }
    Transfer from_partner{partner, kGatherTag, {}};
    for (const Item& item : exchange_items(graph, grouping, partner, payload)) {
      if (!item.relayed) {
        from_partner.slots.push_back(
            recv_slot(blocks.at(partner, item.occurrence)));
        continue;
      }
      const int slot = routes.scratch_slots++;
      from_partner.slots.push_back(scratch_slot(slot));
      int lands = -1;
      if (payload == Payload::per_source) {
        relayed[-1] = slot;
        const auto edges = std::count(out_of(graph, partner).begin(),
                                      out_of(graph, partner).end(), rank);
        for (int o = 0; o < edges; ++o) {
          const int j = blocks.at(partner, o);
          exchange.copies.push_back({scratch_slot(slot), j});
          if (lands < 0) lands = j;
        }
      } else {
        relayed[item.edge] = slot;
      }
      routes.lands_in.push_back(lands);
    }
    if (!from_partner.slots.empty()) {
      exchange.receives.push_back(std::move(from_partner));
    }
  }

  const int host = graph.host_of_rank[static_cast<std::size_t>(rank)];
  for (const int d : step1_destinations(graph, grouping, rank)) {
    for (const Item& item : combined_items(graph, grouping, rank, d)) {
      const Slot slot =
          item.relayed ? scratch_slot(relayed.at(
                             payload == Payload::per_source ? -1 : item.edge))
                       : send_slot(item.edge);
      add(combine.sends, d, kCrossTag, slot);
    }
    if (graph.host_of_rank[static_cast<std::size_t>(d)] != host) {
      ++routes.messages_between_hosts;
    }
  }
  std::set<int> senders;
  for (const int s : sources) {
    const int sender = step1_sender(grouping, s, rank);
    if (sender < 0 || !senders.insert(sender).second) continue;
    Transfer transfer{sender, kCrossTag, {}};
    for (const Item& item : combined_items(graph, grouping, sender, rank)) {
      transfer.slots.push_back(
          recv_slot(blocks.at(item.source, item.occurrence)));
    }
    combine.receives.push_back(std::move(transfer));
  }
  return routes;
}

std::vector<Flow> flows(const HostGraph& graph, const Grouping& grouping,
                        Payload payload) {
  const std::size_t size = graph.destinations.size();
  std::vector<Flow> flows(size);
  for (std::size_t r = 0; r < size; ++r) {
    const int rank = static_cast<int>(r);
    const int partner = grouping.partner[r];
    if (partner >= 0) {
      const auto blocks = static_cast<int>(
          exchange_items(graph, grouping, rank, payload).size());
      if (blocks > 0) flows[r][0][partner] = blocks;  // pairs share a host
    }
    for (const int d : step1_destinations(graph, grouping, rank)) {
      flows[r][1][d] =
          static_cast<int>(combined_items(graph, grouping, rank, d).size());
    }
  }
  return flows;
}

std::vector<Load> loads(const HostGraph& graph, const Grouping& grouping,
                        Payload payload) {
  const std::vector<Flow> all = flows(graph, grouping, payload);
  std::vector<Load> loads(all.size());
  for (std::size_t r = 0; r < all.size(); ++r) {
    const int host = graph.host_of_rank[r];
    for (std::size_t step = 0; step < 2; ++step) {
      node_routes::Messages within;
      node_routes::Messages between;
      for (const auto& [peer, blocks] : all[r][step]) {
        (graph.host_of_rank[static_cast<std::size_t>(peer)] == host
             ? within
             : between)[peer] = blocks;
      }
      loads[r][step] = {node_routes::counted(within),
                        node_routes::counted(between)};
    }
  }
  return loads;
}

}  // namespace ortho::algorithms::common_routes
