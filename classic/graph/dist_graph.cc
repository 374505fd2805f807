#include "classic/graph/dist_graph.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "classic/base/internal/agreement.h"
#include "classic/base/internal/transport.h"
#include "classic/base/internal/transport_error.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/graph/internal/dist_graph_exchange.h"
#include "classic/topology/internal/topology_cache.h"

namespace classic {
namespace {

constexpr const char* kAdjacent = "classic::dist_graph_create_adjacent";
constexpr const char* kGeneral = "classic::dist_graph_create";

enum class Weighting { weighted, unweighted };

// ---- argument checks (local) ----------------------------------------------

std::optional<Error> rank_error(std::span<const int> ranks, const char* name,
                                int size, const char* function) {
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i] < 0 || ranks[i] >= size) {
      return Error(
          ErrorClass::rank, function,
          error_text::entry(name, i, ranks[i]) + error_text::outside(0, size));
    }
  }
  return std::nullopt;
}

std::optional<Error> weights_error(std::span<const int> weights,
                                   const char* name, std::size_t expected,
                                   const char* ranks_name,
                                   const char* function) {
  if (weights.size() != expected) {
    return Error(ErrorClass::arg, function,
                 std::string(name) + ".size() = " +
                     std::to_string(weights.size()) + " differs from " +
                     ranks_name + ".size() = " + std::to_string(expected));
  }
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] < 0) {
      return Error(ErrorClass::arg, function,
                   error_text::entry(name, i, weights[i]) + " is negative");
    }
  }
  return std::nullopt;
}

// The first error among `checks`, evaluated in order.
template <class... Checks>
std::optional<Error> first_error(Checks&&... checks) {
  std::optional<Error> error;
  ((error ? void() : void(error = checks())), ...);
  return error;
}

std::optional<Error> degrees_error(std::span<const int> sources,
                                   std::span<const int> degrees,
                                   std::size_t destination_count) {
  if (degrees.size() != sources.size()) {
    return Error(
        ErrorClass::arg, kGeneral,
        "degrees.size() = " + std::to_string(degrees.size()) +
            " differs from sources.size() = " + std::to_string(sources.size()));
  }
  std::size_t total = 0;
  for (std::size_t i = 0; i < degrees.size(); ++i) {
    if (degrees[i] < 0) {
      return Error(
          ErrorClass::arg, kGeneral,
          error_text::entry("degrees", i, degrees[i]) + " is negative");
    }
    total += static_cast<std::size_t>(degrees[i]);
  }
  if (total != destination_count) {
    return Error(ErrorClass::arg, kGeneral,
                 "destinations.size() = " + std::to_string(destination_count) +
                     " differs from the sum of degrees, " +
                     std::to_string(total));
  }
  if (total > static_cast<std::size_t>(INT_MAX)) {
    return Error(ErrorClass::arg, kGeneral,
                 "more than INT_MAX edges (" + std::to_string(total) + ")");
  }
  return std::nullopt;
}

// ---- agreement (collective) -----------------------------------------------

// Raises on every process when any process's arguments are erroneous (the
// class of the lowest such rank, and its own message there) or when the
// processes disagree on weighting. One MIN allreduce over comm's context.
void agree_on_arguments(const Comm::State& state,
                        const std::optional<Error>& local, Weighting weighting,
                        const char* function) {
  // The lowest erroneous rank and its error class, in one value.
  constexpr std::int64_t kNoError = INT64_MAX;
  constexpr std::int64_t kClasses = 64;  // more than ErrorClass has
  internal::Agreement agreement;
  const auto first_error = agreement.ask_minimum(
      local ? std::int64_t{state.rank} * kClasses +
                  static_cast<std::int64_t>(local->error_class())
            : kNoError);
  const auto weighted =
      agreement.ask_range(weighting == Weighting::weighted ? 1 : 0);
  agreement.run(state.transport, function);
  if (local) throw Error(*local);
  if (const std::int64_t lowest = agreement.minimum(first_error);
      lowest != kNoError) {
    const auto error_class = static_cast<ErrorClass>(lowest % kClasses);
    throw Error(error_class, function,
                "the arguments of comm rank " +
                    std::to_string(lowest / kClasses) + " are erroneous (" +
                    std::string(to_string(error_class)) + ")");
  }
  if (agreement.range_low(weighted) != agreement.range_high(weighted)) {
    throw Error(ErrorClass::arg, function,
                "some processes pass weights and others unweighted; all "
                "must do the same");
  }
}

// Raises ErrorClass::topology on every process when `consistent` is false on
// any, naming the lowest such rank.
void agree_on_consistency(const Comm::State& state, bool consistent,
                          const char* function) {
  internal::Agreement agreement;
  const auto inconsistent =
      agreement.ask_lowest_rank_where(!consistent, state.rank);
  agreement.run(state.private_context, function);
  const std::optional<int> lowest = agreement.lowest_rank_where(inconsistent);
  if (!lowest) return;
  throw Error(ErrorClass::topology, function,
              "the processes' lists disagree: comm rank " +
                  std::to_string(*lowest) +
                  "'s sources (with weights) differ from the destinations "
                  "other processes list for it");
}

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
      [&] { return degrees_error(sources, degrees, destinations.size()); },
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
