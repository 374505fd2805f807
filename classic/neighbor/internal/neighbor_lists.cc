#include "classic/neighbor/internal/neighbor_lists.h"

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <variant>

#include "classic/base/error.h"
#include "classic/comm/internal/comm_state.h"
#include "classic/comm/typed_keyval.h"
#include "classic/topology/internal/cart_arithmetic.h"

namespace classic::internal {
namespace {

// Node `node`'s neighbours: edges[index[node-1] .. index[node]).
std::pair<std::size_t, std::size_t> edge_range(const GraphTopology& graph,
                                               int node) {
  const auto at = static_cast<std::size_t>(node);
  const std::size_t begin =
      at == 0 ? 0 : static_cast<std::size_t>(graph.index[at - 1]);
  return {begin, static_cast<std::size_t>(graph.index[at])};
}

std::ptrdiff_t edges_between(const GraphTopology& graph, int from, int to) {
  const auto [begin, end] = edge_range(graph, from);
  return std::count(graph.edges.begin() + static_cast<std::ptrdiff_t>(begin),
                    graph.edges.begin() + static_cast<std::ptrdiff_t>(end), to);
}

void check_symmetric(const GraphTopology& graph, int rank,
                     std::span<const int> neighbors, const char* function) {
  for (const int neighbor : neighbors) {
    const std::ptrdiff_t out = edges_between(graph, rank, neighbor);
    const std::ptrdiff_t back = edges_between(graph, neighbor, rank);
    if (out != back) [[unlikely]] {
      throw Error(ErrorClass::topology, function,
                  "the graph is not symmetric: rank " + std::to_string(rank) +
                      " lists " + std::to_string(neighbor) + " " +
                      std::to_string(out) + " time(s), but " +
                      std::to_string(neighbor) + " lists " +
                      std::to_string(rank) + " " + std::to_string(back) +
                      " time(s); neighbourhood collectives need a "
                      "symmetric adjacency");
    }
  }
}

}  // namespace

NeighborLists cart_neighbor_lists(const CartTopology& grid, int rank,
                                  const char* function) {
  NeighborLists lists;
  lists.pairing = Pairing::by_direction;
  const int ndims = static_cast<int>(grid.dims.size());
  lists.sources.reserve(2 * grid.dims.size());
  for (int d = 0; d < ndims; ++d) {
    const ShiftRanks shift = shift_of(grid, rank, d, 1, function);
    lists.sources.push_back(shift.source);
    lists.sources.push_back(shift.destination);
  }
  lists.destinations = lists.sources;
  return lists;
}

NeighborLists graph_neighbor_lists(const GraphTopology& graph, int rank,
                                   const char* function) {
  if (rank < 0 || static_cast<std::size_t>(rank) >= graph.index.size())
      [[unlikely]] {
    throw Error(ErrorClass::topology, function,
                "rank " + std::to_string(rank) + " is not a node of the " +
                    std::to_string(graph.index.size()) + "-node graph");
  }
  const auto [begin, end] = edge_range(graph, rank);
  NeighborLists lists;
  lists.pairing = Pairing::by_order;
  lists.sources.assign(graph.edges.begin() + static_cast<std::ptrdiff_t>(begin),
                       graph.edges.begin() + static_cast<std::ptrdiff_t>(end));
  check_symmetric(graph, rank, lists.sources, function);
  lists.destinations = lists.sources;
  return lists;
}

NeighborLists dist_graph_neighbor_lists(const DistGraphTopology& graph) {
  NeighborLists lists;
  lists.sources = graph.sources;
  lists.destinations = graph.destinations;
  lists.pairing = Pairing::by_order;
  return lists;
}

NeighborLists neighbor_lists(const Comm& comm, const char* function) {
  const Comm::State& state = internal::CommAccess::state(comm, function);
  if (!state.remote.is_null()) [[unlikely]] {
    throw Error(ErrorClass::comm, function,
                "comm is an inter-communicator; neighbourhood collectives "
                "need a topology intra-communicator");
  }
  const Topology* topology = find_topology(comm);
  if (topology == nullptr) [[unlikely]] {
    throw Error(ErrorClass::topology, function,
                "comm has no topology (Cartesian, graph or distributed "
                "graph)");
  }
  if (const auto* grid = std::get_if<CartTopology>(topology)) {
    return cart_neighbor_lists(*grid, state.rank, function);
  }
  if (const auto* graph = std::get_if<GraphTopology>(topology)) {
    return graph_neighbor_lists(*graph, state.rank, function);
  }
  return dist_graph_neighbor_lists(std::get<DistGraphTopology>(*topology));
}

const NeighborLists& cached_neighbor_lists(const Comm& comm,
                                           const char* function) {
  // Local and fixed for the communicator's life: topology and rank do not
  // change, so the lists are computed once (checks included).
  static const Keyval<NeighborLists> keyval(OnDup::drop);
  (void)internal::CommAccess::state(
      comm, function);  // a null or freed comm: its error, first
  if (const NeighborLists* lists = keyval.get(comm)) return *lists;
  Comm handle = comm;
  keyval.set(handle, neighbor_lists(comm, function));
  return *keyval.get(comm);
}

}  // namespace classic::internal
