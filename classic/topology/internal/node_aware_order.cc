#include "classic/topology/internal/node_aware_order.h"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <numeric>
#include <vector>

namespace classic::internal {
namespace {

// Row-major coordinates of `cell`.
std::vector<int> coordinates(std::span<const int> dims, int cell) {
  std::vector<int> x(dims.size());
  for (std::size_t i = dims.size(); i-- > 0;) {
    x[i] = cell % dims[i];
    cell /= dims[i];
  }
  return x;
}

int cell_at(std::span<const int> dims, std::span<const int> x) {
  int cell = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) cell = cell * dims[i] + x[i];
  return cell;
}

// Every factorisation of `hosts` into per-dimension factors dividing dims.
void factorisations(std::span<const int> dims, std::size_t dim, int hosts,
                    std::vector<int>& current,
                    std::vector<std::vector<int>>& all) {
  if (dim == dims.size()) {
    if (hosts == 1) all.push_back(current);
    return;
  }
  for (int h = 1; h <= dims[dim] && h <= hosts; ++h) {
    if (dims[dim] % h != 0 || hosts % h != 0) continue;
    current[dim] = h;
    factorisations(dims, dim + 1, hosts / h, current, all);
  }
}

// Host of each cell when host b (row-major over the block grid `blocks`)
// owns block b.
std::vector<int> block_hosts(std::span<const int> dims,
                             std::span<const int> blocks, int cells) {
  std::vector<int> host(static_cast<std::size_t>(cells));
  for (int c = 0; c < cells; ++c) {
    std::vector<int> x = coordinates(dims, c);
    for (std::size_t i = 0; i < dims.size(); ++i) {
      x[i] /= dims[i] / blocks[i];
    }
    host[static_cast<std::size_t>(c)] = cell_at(blocks, x);
  }
  return host;
}

}  // namespace

std::int64_t cartesian_edges_between_hosts(std::span<const int> dims,
                                           std::span<const bool> periods,
                                           std::span<const int> host_of_cell) {
  std::int64_t edges = 0;
  for (int c = 0; c < static_cast<int>(host_of_cell.size()); ++c) {
    const std::vector<int> x = coordinates(dims, c);
    for (std::size_t i = 0; i < dims.size(); ++i) {
      for (const int step : {-1, 1}) {
        std::vector<int> y = x;
        y[i] += step;
        if (y[i] < 0 || y[i] >= dims[i]) {
          if (!periods[i]) continue;
          y[i] = (y[i] + dims[i]) % dims[i];
        }
        edges += host_of_cell[static_cast<std::size_t>(c)] !=
                 host_of_cell[static_cast<std::size_t>(cell_at(dims, y))];
      }
    }
  }
  return edges;
}

std::vector<int> node_aware_ranks(std::span<const int> dims,
                                  std::span<const bool> periods,
                                  std::span<const int> host_of_rank) {
  const int cells = static_cast<int>(host_of_rank.size());
  std::vector<int> identity(host_of_rank.size());
  std::iota(identity.begin(), identity.end(), 0);
  const int hosts =
      host_of_rank.empty()
          ? 0
          : *std::max_element(host_of_rank.begin(), host_of_rank.end()) + 1;
  std::vector<int> per_host(static_cast<std::size_t>(hosts), 0);
  for (const int h : host_of_rank) ++per_host[static_cast<std::size_t>(h)];
  if (hosts < 2 ||
      std::adjacent_find(per_host.begin(), per_host.end(),
                         std::not_equal_to<>()) != per_host.end()) {
    return identity;
  }
  std::vector<std::vector<int>> candidates;
  std::vector<int> current(dims.size(), 1);
  factorisations(dims, 0, hosts, current, candidates);
  std::int64_t best =
      cartesian_edges_between_hosts(dims, periods, host_of_rank);
  std::vector<int> best_hosts;
  for (const std::vector<int>& blocks : candidates) {
    std::vector<int> host = block_hosts(dims, blocks, cells);
    const std::int64_t cut = cartesian_edges_between_hosts(dims, periods, host);
    if (cut < best) {
      best = cut;
      best_hosts = std::move(host);
    }
  }
  if (best_hosts.empty()) return identity;
  // Cell c goes to the lowest rank not yet placed on its host.
  std::vector<std::vector<int>> free_ranks(static_cast<std::size_t>(hosts));
  for (int r = cells; r-- > 0;) {
    free_ranks[static_cast<std::size_t>(
                   host_of_rank[static_cast<std::size_t>(r)])]
        .push_back(r);
  }
  std::vector<int> new_rank(host_of_rank.size());
  for (int c = 0; c < cells; ++c) {
    std::vector<int>& ranks = free_ranks[static_cast<std::size_t>(
        best_hosts[static_cast<std::size_t>(c)])];
    new_rank[static_cast<std::size_t>(ranks.back())] = c;
    ranks.pop_back();
  }
  return new_rank;
}

}  // namespace classic::internal
