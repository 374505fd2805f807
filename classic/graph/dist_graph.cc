// The distributed graph constructors (dist_graph_create_adjacent,
// dist_graph_create) and their queries; their argument checks are in
// internal/dist_graph_checks.cc.
#include "classic/graph/dist_graph.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

#include "classic/base/error.h"
#include "classic/base/internal/transport.h"
#include "classic/base/internal/transport_error.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/graph/internal/dist_graph_checks.h"
#include "classic/graph/internal/dist_graph_exchange.h"
#include "classic/topology/internal/topology_cache.h"

namespace classic {
namespace {

using internal::agree_on_arguments;
using internal::agree_on_consistency;
using internal::degrees_error;
using internal::first_error;
using internal::rank_error;
using internal::Weighting;
using internal::weights_error;

constexpr const char* kAdjacent = "classic::dist_graph_create_adjacent";
constexpr const char* kGeneral = "classic::dist_graph_create";

// ---- construction ---------------------------------------------------------

// A communicator of comm's processes in comm's order, with fresh contexts
// (the private one included) and no attributes. Collective; O(1) memory
// beyond the contexts, unlike split or create.
Comm congruent_communicator(const Comm::State& state) {
  Comm copy = internal::CommAccess::make(std::make_shared<Comm::State>(
      transport::new_private_context(state.transport), state.local));
  internal::CommAccess::state(copy, "classic::dist_graph")
      .add_private_context();
  return copy;
}

std::vector<int> copy_of(std::span<const int> values) {
  return std::vector<int>(values.begin(), values.end());
}

// A record of N ints for the process `target`.
template <std::size_t N>
struct Record {
  int target;
  std::array<int, N> values;
};

// The messages of `records`, one per target: the records sorted by target,
// keeping their order within a target.
template <std::size_t N>
std::vector<internal::SparseMessage> group_by_target(
    std::vector<Record<N>> records) {
  std::stable_sort(
      records.begin(), records.end(),
      [](const auto& a, const auto& b) { return a.target < b.target; });
  std::vector<internal::SparseMessage> messages;
  for (const Record<N>& record : records) {
    if (messages.empty() || messages.back().peer != record.target) {
      messages.push_back({record.target, {}});
    }
    std::vector<int>& data = messages.back().data;
    data.insert(data.end(), record.values.begin(), record.values.end());
  }
  return messages;
}

// Adjacent: does every process's source list match what the others list as
// destinations towards it? Each process sends each out-neighbour the weights
// (0 when unweighted) of its edges to it; the receiver compares multisets
// of (source, weight).
bool adjacency_consistent(const Comm::State& state,
                          const internal::DistGraphTopology& mine) {
  std::vector<Record<1>> records;
  records.reserve(mine.destinations.size());
  for (std::size_t i = 0; i < mine.destinations.size(); ++i) {
    records.push_back({mine.destinations[i],
                       {mine.weighted ? mine.destination_weights[i] : 0}});
  }
  const auto messages = group_by_target(std::move(records));
  std::vector<std::pair<int, int>> claimed;
  for (const auto& message :
       internal::sparse_exchange(state.private_context, messages, kAdjacent)) {
    for (int weight : message.data) claimed.push_back({message.peer, weight});
  }
  std::vector<std::pair<int, int>> listed;
  for (std::size_t i = 0; i < mine.sources.size(); ++i) {
    listed.push_back(
        {mine.sources[i], mine.weighted ? mine.source_weights[i] : 0});
  }
  std::sort(claimed.begin(), claimed.end());
  std::sort(listed.begin(), listed.end());
  return claimed == listed;
}

// One edge as one of its endpoints receives it: where it was given (the
// giver's rank, its position in the giver's destinations), which orders the
// lists; the process at the other end; the weight.
struct RoutedEdge {
  int giver;
  int position;
  int peer;
  int weight;
};
enum EdgeEnd : int { kOutEdge = 0, kInEdge = 1 };
constexpr std::size_t kRecordWidth = 4;  // end, position, peer, weight

// General form: the records every edge sends to its source (an out-edge to
// its destination) and to its destination (an in-edge from its source).
std::vector<internal::SparseMessage> edge_messages(
    std::span<const int> sources, std::span<const int> degrees,
    std::span<const int> destinations, std::span<const int> weights) {
  std::vector<Record<kRecordWidth>> records;
  records.reserve(2 * destinations.size());
  std::size_t position = 0;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    for (int j = 0; j < degrees[i]; ++j, ++position) {
      const int from = sources[i];
      const int to = destinations[position];
      const int weight = weights.empty() ? 0 : weights[position];
      const int at = static_cast<int>(position);
      records.push_back({from, {kOutEdge, at, to, weight}});
      records.push_back({to, {kInEdge, at, from, weight}});
    }
  }
  return group_by_target(std::move(records));
}

internal::DistGraphTopology assemble(
    const std::vector<internal::SparseMessage>& received, Weighting weighting) {
  std::vector<RoutedEdge> ends[2];
  for (const auto& message : received) {
    for (std::size_t k = 0; k + kRecordWidth <= message.data.size();
         k += kRecordWidth) {
      const int* record = message.data.data() + k;
      ends[record[0]].push_back(
          {message.peer, record[1], record[2], record[3]});
    }
  }
  internal::DistGraphTopology topology;
  topology.weighted = weighting == Weighting::weighted;
  auto fill = [&](std::vector<RoutedEdge>& edges, std::vector<int>& peers,
                  std::vector<int>& weights) {
    std::sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) {
      return std::tie(a.giver, a.position) < std::tie(b.giver, b.position);
    });
    for (const RoutedEdge& edge : edges) {
      peers.push_back(edge.peer);
      if (topology.weighted) weights.push_back(edge.weight);
    }
  };
  fill(ends[kInEdge], topology.sources, topology.source_weights);
  fill(ends[kOutEdge], topology.destinations, topology.destination_weights);
  return topology;
}

// ---- the two constructors, after the overloads ----------------------------

Comm create_adjacent(const Comm& comm, std::span<const int> sources,
                     std::span<const int> sourceweights,
                     std::span<const int> destinations,
                     std::span<const int> destweights, Weighting weighting) {
  const Comm::State& state = internal::CommAccess::intra_state(comm, kAdjacent);
  const int size = state.local.size();
  const bool weighted = weighting == Weighting::weighted;
  const std::optional<Error> local = first_error(
      [&] { return rank_error(sources, "sources", size, kAdjacent); },
      [&] {
        return weighted ? weights_error(sourceweights, "sourceweights",
                                        sources.size(), "sources", kAdjacent)
                        : std::nullopt;
      },
      [&] { return rank_error(destinations, "destinations", size, kAdjacent); },
      [&] {
        return weighted ? weights_error(destweights, "destweights",
                                        destinations.size(), "destinations",
                                        kAdjacent)
                        : std::nullopt;
      });
  agree_on_arguments(state, local, weighting, kAdjacent);

  internal::DistGraphTopology topology{
      copy_of(sources), weighted ? copy_of(sourceweights) : std::vector<int>{},
      copy_of(destinations),
      weighted ? copy_of(destweights) : std::vector<int>{}, weighted};
  Comm graph = congruent_communicator(state);
  const Comm::State& graph_state =
      internal::CommAccess::state(graph, kAdjacent);
  agree_on_consistency(graph_state, adjacency_consistent(graph_state, topology),
                       kAdjacent);
  return internal::with_topology(std::move(graph), std::move(topology));
}

Comm create_general(const Comm& comm, std::span<const int> sources,
                    std::span<const int> degrees,
                    std::span<const int> destinations,
                    std::span<const int> weights, Weighting weighting) {
  const Comm::State& state = internal::CommAccess::intra_state(comm, kGeneral);
  const int size = state.local.size();
  const bool weighted = weighting == Weighting::weighted;
  const std::optional<Error> local = first_error(
      [&] {
        return degrees_error(sources, degrees, destinations.size(), kGeneral);
      },
      [&] { return rank_error(sources, "sources", size, kGeneral); },
      [&] { return rank_error(destinations, "destinations", size, kGeneral); },
      [&] {
        return weighted ? weights_error(weights, "weights", destinations.size(),
                                        "destinations", kGeneral)
                        : std::nullopt;
      });
  agree_on_arguments(state, local, weighting, kGeneral);

  Comm graph = congruent_communicator(state);
  const auto received = internal::sparse_exchange(
      internal::CommAccess::state(graph, kGeneral).private_context,
      edge_messages(sources, degrees, destinations,
                    weighted ? weights : std::span<const int>{}),
      kGeneral);
  return internal::with_topology(std::move(graph),
                                 assemble(received, weighting));
}

}  // namespace

Comm dist_graph_create_adjacent(const Comm& comm, std::span<const int> sources,
                                std::span<const int> sourceweights,
                                std::span<const int> destinations,
                                std::span<const int> destweights,
                                const Info& /*info: hints, ignored*/,
                                Reorder /*reorder: numbering kept*/) {
  return create_adjacent(comm, sources, sourceweights, destinations,
                         destweights, Weighting::weighted);
}

Comm dist_graph_create_adjacent(const Comm& comm, std::span<const int> sources,
                                Unweighted, std::span<const int> destinations,
                                Unweighted, const Info& /*info*/,
                                Reorder /*reorder*/) {
  return create_adjacent(comm, sources, {}, destinations, {},
                         Weighting::unweighted);
}

Comm dist_graph_create(const Comm& comm, std::span<const int> sources,
                       std::span<const int> degrees,
                       std::span<const int> destinations,
                       std::span<const int> weights, const Info& /*info*/,
                       Reorder /*reorder*/) {
  return create_general(comm, sources, degrees, destinations, weights,
                        Weighting::weighted);
}

Comm dist_graph_create(const Comm& comm, std::span<const int> sources,
                       std::span<const int> degrees,
                       std::span<const int> destinations, Unweighted,
                       const Info& /*info*/, Reorder /*reorder*/) {
  return create_general(comm, sources, degrees, destinations, {},
                        Weighting::unweighted);
}

DistGraphCounts dist_graph_neighbors_count(const Comm& comm) {
  const auto& topology = internal::topology_as<internal::DistGraphTopology>(
      comm, "classic::dist_graph_neighbors_count");
  return {static_cast<int>(topology.sources.size()),
          static_cast<int>(topology.destinations.size()), topology.weighted};
}

DistGraphNeighbors dist_graph_neighbors(const Comm& comm) {
  const auto& topology = internal::topology_as<internal::DistGraphTopology>(
      comm, "classic::dist_graph_neighbors");
  return {topology.sources, topology.source_weights, topology.destinations,
          topology.destination_weights};
}

}  // namespace classic
