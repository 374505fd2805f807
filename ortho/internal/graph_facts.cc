#include "ortho/internal/graph_facts.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "classic/base/error.h"
#include "classic/comm/locality.h"
#include "classic/topology/cartesian.h"
#include "naming/cart_name.h"
#include "ortho/algorithms/combining.h"
#include "ortho/internal/table.h"

namespace ortho::internal {

GraphFacts analyse_cartesian(const classic::Comm& cart) {
  const classic::CartInfo grid = classic::cart_get(cart);
  // (std::vector<bool> has no span.)
  const std::size_t ndims = grid.periods.size();
  const auto periods = std::make_unique<bool[]>(ndims);
  std::copy(grid.periods.begin(), grid.periods.end(), periods.get());
  // MPI numbers a Cartesian grid row-major.
  const naming::Geometry geometry(grid.dims,
                                  std::span<const bool>(periods.get(), ndims),
                                  naming::Order::row_major);
  std::vector<int> sources;
  std::vector<int> destinations;
  read_neighbours(cart, sources, destinations);
  // Sources 2d and 2d + 1 are the neighbours at -1 and +1 in dimension d;
  // where they are one process (a periodic dimension of size 1 or 2), the
  // block sent towards -1 arrives in the +1 source's slot (MPI-4.1).
  std::vector<int> order(sources.size());
  for (std::size_t j = 0; j < order.size(); ++j) {
    order[j] = static_cast<int>(j);
  }
  for (std::size_t d = 0; d < ndims; ++d) {
    if (grid.periods[d] && grid.dims[d] <= 2) {
      std::swap(order[2 * d], order[2 * d + 1]);
    }
  }
  GraphFacts facts;
  facts.combining = algorithms::detect_combining(cart, geometry, destinations,
                                                 sources, order);
  return facts;
}

std::vector<int> host_layout(const classic::Comm& comm) {
  const char* value = std::getenv("ORTHO_HOSTS");
  if (value == nullptr) return classic::locality(comm).host_of_rank;
  char* end = nullptr;
  const std::int64_t hosts = std::strtoll(value, &end, 10);
  if (end == value || *end != '\0' || hosts < 1 || hosts > 1 << 20) {
    throw classic::Error(classic::ErrorClass::arg, "ortho (environment)",
                         std::string("ORTHO_HOSTS = '") + value +
                             "' is no positive number of hosts");
  }
  const int size = comm.size();
  const int count = static_cast<int>(std::min<std::int64_t>(hosts, size));
  std::vector<int> host_of_rank(static_cast<std::size_t>(size));
  // Host h holds size / count ranks, the first size % count one more.
  int rank = 0;
  for (int h = 0; h < count; ++h) {
    const int holds = size / count + (h < size % count ? 1 : 0);
    for (int i = 0; i < holds; ++i) {
      host_of_rank[static_cast<std::size_t>(rank++)] = h;
    }
  }
  return host_of_rank;
}

GraphFacts analyse_graph(const classic::Comm& graph,
                         const classic::Comm* named) {
  GraphFacts facts;
  facts.host_of_rank = host_layout(graph);
  if (named != nullptr && naming::cart_testall(*named)) {
    std::vector<int> sources;
    std::vector<int> destinations;
    read_neighbours(graph, sources, destinations);
    facts.combining = algorithms::detect_combining(
        graph, naming::cart_get(*named), destinations, sources);
  }
  return facts;
}

}  // namespace ortho::internal
