#include "classic/graph/graph.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "classic/base/internal/agreement.h"
#include "classic/base/internal/transport_error.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/topology/internal/topology_cache.h"

namespace classic {
namespace {

// The error in (index, edges) as a graph for a communicator of `size`
// processes, or nullopt when it is a valid graph.
std::optional<Error> graph_error(std::span<const int> index,
                                 std::span<const int> edges, int size,
                                 const char* function) {
  const std::size_t nnodes = index.size();
  if (nnodes > static_cast<std::size_t>(size)) {
    return Error(ErrorClass::arg, function,
                 "index.size() = " + std::to_string(nnodes) +
                     " nodes exceed comm's size " + std::to_string(size));
  }
  int previous = 0;
  for (std::size_t i = 0; i < nnodes; ++i) {
    if (index[i] < previous) {
      return Error(ErrorClass::arg, function,
                   error_text::entry("index", i, index[i]) + " is " +
                       (index[i] < 0 ? "negative" : "below index[i-1]") +
                       "; index must be non-decreasing from 0");
    }
    previous = index[i];
  }
  if (static_cast<std::size_t>(previous) != edges.size()) {
    return Error(
        ErrorClass::arg, function,
        "edges.size() = " + std::to_string(edges.size()) +
            " differs from index[nnodes-1] = " + std::to_string(previous));
  }
  for (std::size_t j = 0; j < edges.size(); ++j) {
    if (edges[j] < 0 || static_cast<std::size_t>(edges[j]) >= nnodes) {
      return Error(
          ErrorClass::rank, function,
          error_text::entry("edges", j, edges[j]) +
              error_text::outside(0, static_cast<std::int64_t>(nnodes)));
    }
  }
  return std::nullopt;
}

void check_graph(std::span<const int> index, std::span<const int> edges,
                 int size, const char* function) {
  if (auto error = graph_error(index, edges, size, function)) {
    throw Error(*error);
  }
}

// FNV-1a over the lengths and entries: equal graphs hash alike.
std::uint64_t graph_hash(std::span<const int> index,
                         std::span<const int> edges) {
  std::uint64_t hash = 14695981039346656037ull;
  auto mix = [&hash](std::uint64_t value) {
    hash ^= value;
    hash *= 1099511628211ull;
  };
  mix(index.size());
  for (int value : index) mix(static_cast<std::uint32_t>(value));
  mix(edges.size());
  for (int value : edges) mix(static_cast<std::uint32_t>(value));
  return hash;
}

// Raises the local error, if any, on this process, and an ErrorClass::arg on
// every process when some other process's graph is invalid or differs: all
// processes leave graph_create together, none waits for the others.
void agree_on_graph(std::span<const int> index, std::span<const int> edges,
                    const Comm::State& state, const char* function) {
  const std::optional<Error> local =
      graph_error(index, edges, state.local.size(), function);
  const std::uint64_t hash = graph_hash(index, edges);
  internal::Agreement agreement;
  const auto valid = agreement.ask_all_true(!local);
  // Equal hashes stay equal as int64 (the cast is a bijection).
  const auto hashes = agreement.ask_range(static_cast<std::int64_t>(hash));
  agreement.run(state.transport, function);
  if (local) throw Error(*local);
  if (!agreement.all_true(valid)) {
    throw Error(ErrorClass::arg, function,
                "another process passed an invalid graph (every process "
                "must pass the same index and edges)");
  }
  if (agreement.range_low(hashes) != agreement.range_high(hashes)) {
    throw Error(ErrorClass::arg, function,
                "processes passed different graphs (every process must pass "
                "the same index and edges)");
  }
}

int node_count(const internal::GraphTopology& graph) {
  return static_cast<int>(graph.index.size());
}

void check_node(const internal::GraphTopology& graph, int rank,
                const char* function) {
  if (rank < 0 || rank >= node_count(graph)) {
    throw Error(ErrorClass::rank, function,
                error_text::named("rank", rank) +
                    error_text::outside(0, node_count(graph)));
  }
}

// Node `rank`'s slice of the edges: [first, last).
struct EdgeRange {
  std::size_t first;
  std::size_t last;
};
EdgeRange edge_range(const internal::GraphTopology& graph, int rank) {
  const auto node = static_cast<std::size_t>(rank);
  return {node == 0 ? 0 : static_cast<std::size_t>(graph.index[node - 1]),
          static_cast<std::size_t>(graph.index[node])};
}

}  // namespace

Comm graph_create(const Comm& comm, std::span<const int> index,
                  std::span<const int> edges, Reorder reorder) {
  constexpr const char* kFunction = "classic::graph_create";
  const Comm::State& state = internal::CommAccess::intra_state(comm, kFunction);
  agree_on_graph(index, edges, state, kFunction);
  // Reorder::yes asks graph_map, which keeps comm's numbering (graph.h).
  const int new_rank =
      reorder == Reorder::yes
          ? graph_map(comm, index, edges)
          : (state.rank < static_cast<int>(index.size()) ? state.rank
                                                         : undefined);
  const int color = new_rank == undefined ? undefined : 0;
  Comm graph = comm.split(color, new_rank);
  return internal::with_topology(
      std::move(graph),
      internal::GraphTopology{std::vector<int>(index.begin(), index.end()),
                              std::vector<int>(edges.begin(), edges.end())});
}

GraphDims graphdims_get(const Comm& comm) {
  const auto& graph = internal::topology_as<internal::GraphTopology>(
      comm, "classic::graphdims_get");
  return {node_count(graph), static_cast<int>(graph.edges.size())};
}

GraphInfo graph_get(const Comm& comm) {
  const auto& graph = internal::topology_as<internal::GraphTopology>(
      comm, "classic::graph_get");
  return {graph.index, graph.edges};
}

int graph_neighbors_count(const Comm& comm, int rank) {
  constexpr const char* kFunction = "classic::graph_neighbors_count";
  const auto& graph =
      internal::topology_as<internal::GraphTopology>(comm, kFunction);
  check_node(graph, rank, kFunction);
  const EdgeRange range = edge_range(graph, rank);
  return static_cast<int>(range.last - range.first);
}

std::vector<int> graph_neighbors(const Comm& comm, int rank) {
  constexpr const char* kFunction = "classic::graph_neighbors";
  const auto& graph =
      internal::topology_as<internal::GraphTopology>(comm, kFunction);
  check_node(graph, rank, kFunction);
  const EdgeRange range = edge_range(graph, rank);
  const auto first =
      graph.edges.begin() + static_cast<std::ptrdiff_t>(range.first);
  const auto last =
      graph.edges.begin() + static_cast<std::ptrdiff_t>(range.last);
  return std::vector<int>(first, last);
}

int graph_map(const Comm& comm, std::span<const int> index,
              std::span<const int> edges) {
  constexpr const char* kFunction = "classic::graph_map";
  const Comm::State& state = internal::CommAccess::intra_state(comm, kFunction);
  check_graph(index, edges, state.local.size(), kFunction);
  return state.rank < static_cast<int>(index.size()) ? state.rank : undefined;
}

}  // namespace classic
