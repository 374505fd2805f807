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
#include "classic/groups/group.h"
#include "classic/topology/cartesian.h"
#include "naming/cart_name.h"
#include "ortho/internal/table.h"

namespace ortho::internal {

GraphFacts analyse_cartesian(const classic::Comm& cart) {
  const classic::CartInfo grid = classic::cart_get(cart);
  // (std::vector<bool> has no span.)
  const std::size_t ndims = grid.periods.size();
  const auto periods = std::make_unique<bool[]>(ndims);
  std::copy(grid.periods.begin(), grid.periods.end(), periods.get());
  // MPI numbers a Cartesian grid row-major. Sources 2d and 2d + 1 are the
  // neighbours at -1 and +1 in dimension d; where they are one process (a
  // periodic dimension of size 1 or 2), the block sent towards -1 arrives
  // in the +1 source's slot (MPI-4.1).
  CartesianGrid found{
      .geometry = naming::Geometry(grid.dims,
                                   std::span<const bool>(periods.get(), ndims),
                                   naming::Order::row_major),
      .source_order = std::vector<int>(2 * ndims)};
  std::vector<int>& order = found.source_order;
  for (std::size_t j = 0; j < order.size(); ++j) {
    order[j] = static_cast<int>(j);
  }
  for (std::size_t d = 0; d < ndims; ++d) {
    if (grid.periods[d] && grid.dims[d] <= 2) {
      std::swap(order[2 * d], order[2 * d + 1]);
    }
  }
  GraphFacts facts;
  facts.grid = std::move(found);
  return facts;
}

namespace {

// The host of the process with world rank `world_rank` when `hosts` hosts
// hold the world's `world_size` processes in blocks of consecutive ranks as
// equal as they come (the first world_size % hosts one more).
int simulated_host_of(int world_rank, int world_size, int hosts) {
  const int small = world_size / hosts;
  const int large_hosts = world_size % hosts;
  const int in_large = large_hosts * (small + 1);
  return world_rank < in_large ? world_rank / (small + 1)
                               : large_hosts + (world_rank - in_large) / small;
}

int simulated_hosts_from_environment(const char* value) {
  char* end = nullptr;
  const std::int64_t hosts = std::strtoll(value, &end, 10);
  if (end == value || *end != '\0' || hosts < 1 || hosts > 1 << 20) {
    throw classic::Error(classic::ErrorClass::arg, "ortho (environment)",
                         std::string("ORTHO_HOSTS = '") + value +
                             "' is no positive number of hosts");
  }
  return static_cast<int>(hosts);
}

}  // namespace

std::vector<int> numbered_by_lowest_rank(std::vector<int> host_of_rank) {
  std::vector<int> number_of;  // number_of[host]: its number, or -1
  for (int& host : host_of_rank) {
    if (static_cast<std::size_t>(host) >= number_of.size()) {
      number_of.resize(static_cast<std::size_t>(host) + 1, -1);
    }
    int& number = number_of[static_cast<std::size_t>(host)];
    if (number < 0) {
      number = static_cast<int>(std::count_if(
          number_of.begin(), number_of.end(), [](int n) { return n >= 0; }));
    }
    host = number;
  }
  return host_of_rank;
}

std::vector<int> host_layout(const classic::Comm& comm) {
  const char* value = std::getenv("ORTHO_HOSTS");
  if (value == nullptr) return classic::locality(comm).host_of_rank;
  const int world_size = classic::Comm::world().size();
  const int hosts =
      std::min(simulated_hosts_from_environment(value), world_size);
  // A simulated host belongs to the process (its world rank), as a real
  // one does: a communicator in another order, such as a remapped graph,
  // finds its processes where they are.
  const classic::Group group = comm.group();
  std::vector<int> host_of_rank(static_cast<std::size_t>(comm.size()));
  for (int rank = 0; rank < comm.size(); ++rank) {
    host_of_rank[static_cast<std::size_t>(rank)] =
        simulated_host_of(group.world_rank_of(rank), world_size, hosts);
  }
  return numbered_by_lowest_rank(std::move(host_of_rank));
}

GraphFacts analyse_graph(const classic::Comm& graph,
                         const classic::Comm* named) {
  GraphFacts facts;
  facts.host_of_rank = host_layout(graph);
  if (named != nullptr && naming::cart_testall(*named)) {
    facts.grid =
        CartesianGrid{.geometry = naming::cart_get(*named), .source_order = {}};
  }
  return facts;
}

}  // namespace ortho::internal
