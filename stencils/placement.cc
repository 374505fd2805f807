#include "stencils/placement.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/base/error_text.h"
#include "stencils/checks.h"

namespace stencils {
namespace {

using classic::ErrorClass;
namespace error_text = classic::error_text;

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

// One directed stencil edge between two different cells.
struct Edge {
  int from;
  int to;
  std::int64_t weight;
};

[[noreturn]] void fail(ErrorClass error_class, std::string_view function,
                       const std::string& detail) {
  throw classic::Error(error_class, function, detail);
}

void check_length(std::size_t length, std::string_view name,
                  std::int64_t expected, std::string_view expected_name,
                  std::string_view function) {
  if (static_cast<std::int64_t>(length) == expected) return;
  fail(ErrorClass::count, function,
       std::string(name) + " has " + std::to_string(length) + " elements but " +
           std::string(expected_name) + " = " + error_text::text(expected));
}

// Throws unless every weight is non-negative and all of them, sent by each of
// `cells` cells, add up to at most INT64_MAX (so no cost overflows).
void check_weights(const Stencil& stencil,
                   std::span<const std::int64_t> weights, int cells,
                   std::string_view function) {
  if (!weights.empty() &&
      weights.size() != static_cast<std::size_t>(stencil.size())) {
    fail(ErrorClass::arg, function,
         "weights has " + std::to_string(weights.size()) +
             " elements but stencil.size() = " +
             error_text::text(stencil.size()) + " (or 0 for unweighted)");
  }
  std::int64_t sum = weights.empty() ? stencil.size() : 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] < 0) {
      fail(ErrorClass::arg, function,
           error_text::entry("weights", i, weights[i]) + " is negative");
    }
    sum = weights[i] > kInt64Max - sum ? kInt64Max : sum + weights[i];
  }
  if (sum > kInt64Max / cells) {
    fail(ErrorClass::count, function,
         "the weights add up to more than INT64_MAX over " +
             error_text::text(cells) + " cells");
  }
}

// The stencil's edges between different cells, after validating it.
std::vector<Edge> edges_of(const naming::Geometry& geometry,
                           const Stencil& stencil,
                           std::span<const std::int64_t> weights,
                           std::string_view function) {
  internal::check_ndims(geometry, stencil.ndims(), "stencil", function);
  check_weights(stencil, weights, geometry.size(), function);
  std::vector<Edge> edges;
  edges.reserve(static_cast<std::size_t>(geometry.size()) * stencil.size());
  for (int cell = 0; cell < geometry.size(); ++cell) {
    for (int i = 0; i < stencil.size(); ++i) {
      const int to = geometry.relative_rank(cell, stencil.offset(i));
      if (to == classic::proc_null || to == cell) continue;
      edges.push_back({cell, to, weights.empty() ? 1 : weights[i]});
    }
  }
  return edges;
}

// Throws unless `hosts` has `cells` elements, each in [0, cells).
void check_hosts(std::span<const int> hosts, std::string_view name, int cells,
                 std::string_view cells_name, std::string_view function) {
  check_length(hosts.size(), name, cells, cells_name, function);
  for (std::size_t c = 0; c < hosts.size(); ++c) {
    if (hosts[c] < 0 || hosts[c] >= cells) {
      fail(
          ErrorClass::arg, function,
          error_text::entry(name, c, hosts[c]) + error_text::outside(0, cells));
    }
  }
}

void check_slot_values(std::span<const int> slots, std::string_view function) {
  for (std::size_t h = 0; h < slots.size(); ++h) {
    if (slots[h] < 1) {
      fail(ErrorClass::arg, function,
           error_text::entry("slots", h, slots[h]) + " is below 1");
    }
  }
}

void check_slots(std::span<const int> slots, int cells,
                 std::string_view function) {
  check_slot_values(slots, function);
  std::int64_t sum = 0;
  for (const int slot : slots) sum += slot;  // Cannot overflow std::int64_t.
  if (sum != cells) {
    fail(ErrorClass::count, function,
         "the slots add up to " + error_text::text(sum) +
             " but geometry.size() = " + error_text::text(cells));
  }
}

// Throws unless `placement` has `cells` elements and host h appears in it
// exactly slots[h] times.
void check_balanced(std::span<const int> placement, std::string_view name,
                    int cells, std::span<const int> slots,
                    std::string_view function) {
  check_length(placement.size(), name, cells, "geometry.size()", function);
  const auto hosts = static_cast<std::int64_t>(slots.size());
  std::vector<std::int64_t> count(slots.size(), 0);
  for (std::size_t c = 0; c < placement.size(); ++c) {
    if (placement[c] < 0 || placement[c] >= hosts) {
      fail(ErrorClass::arg, function,
           error_text::entry(name, c, placement[c]) +
               error_text::outside(0, hosts));
    }
    ++count[placement[c]];
  }
  for (std::size_t h = 0; h < slots.size(); ++h) {
    if (count[h] == slots[h]) continue;
    fail(ErrorClass::arg, function,
         std::string(name) + " places " + error_text::text(count[h]) +
             " cells on host " + std::to_string(h) + " but " +
             error_text::entry("slots", h, slots[h]));
  }
}

// The cost of a placement whose host indices are known to be in [0, hosts).
CrossingCost price(std::span<const Edge> edges,
                   std::span<const int> host_of_cell, int hosts) {
  CrossingCost cost;
  std::vector<std::int64_t> leaving(hosts, 0);
  for (const Edge& edge : edges) {
    const int from = host_of_cell[edge.from];
    if (from == host_of_cell[edge.to]) continue;
    cost.weight += edge.weight;
    ++cost.edges;
    leaving[from] += edge.weight;
  }
  if (!leaving.empty()) {
    cost.max_host_weight = *std::max_element(leaving.begin(), leaving.end());
  }
  return cost;
}

// The order best_block_placement ranks costs in.
bool cheaper(const CrossingCost& a, const CrossingCost& b) {
  return std::tie(a.weight, a.max_host_weight, a.edges) <
         std::tie(b.weight, b.max_host_weight, b.edges);
}

// Calls `visit` with every `blocks` (from dimension `dim` on) whose product
// is `remaining` and whose entries divide the dims, in lexicographic order.
void for_each_factorization(std::span<const int> dims, std::size_t dim,
                            int remaining, std::vector<int>& blocks,
                            const std::function<void()>& visit) {
  if (dim == dims.size()) {
    if (remaining == 1) visit();
    return;
  }
  for (int count = 1; count <= dims[dim]; ++count) {
    if (dims[dim] % count != 0 || remaining % count != 0) continue;
    blocks[dim] = count;
    for_each_factorization(dims, dim + 1, remaining / count, blocks, visit);
  }
}

// The host of each cell when the grid is cut into blocks[i] equal parts
// along each dimension i.
std::vector<int> block_hosts(const naming::Geometry& geometry,
                             std::span<const int> blocks) {
  const naming::Geometry block_grid(blocks, geometry.periods(),
                                    geometry.dimension_order());
  std::vector<int> extent(blocks.size());
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    extent[i] = geometry.dims()[i] / blocks[i];
  }
  std::vector<int> coords(blocks.size());
  std::vector<int> hosts(geometry.size());
  for (int cell = 0; cell < geometry.size(); ++cell) {
    geometry.coordinates(cell, coords);
    for (std::size_t i = 0; i < coords.size(); ++i) coords[i] /= extent[i];
    hosts[cell] = block_grid.rank(coords);
  }
  return hosts;
}

// best_block_placement on validated arguments.
std::optional<BlockPlacement> best_block(const naming::Geometry& geometry,
                                         std::span<const Edge> edges,
                                         std::span<const int> slots) {
  if (std::adjacent_find(slots.begin(), slots.end(), std::not_equal_to<>()) !=
      slots.end()) {
    return std::nullopt;
  }
  const int hosts = static_cast<int>(slots.size());
  std::optional<BlockPlacement> best;
  std::vector<int> blocks(geometry.ndims());
  for_each_factorization(geometry.dims(), 0, hosts, blocks, [&] {
    std::vector<int> host_of_cell = block_hosts(geometry, blocks);
    const CrossingCost cost = price(edges, host_of_cell, hosts);
    if (best && !cheaper(cost, best->cost)) return;
    best = BlockPlacement{blocks, std::move(host_of_cell), cost};
  });
  return best;
}

}  // namespace

CrossingCost crossing_cost(const naming::Geometry& geometry,
                           const Stencil& stencil,
                           std::span<const std::int64_t> weights,
                           std::span<const int> host_of_cell) {
  constexpr const char* kFunction = "stencils::crossing_cost";
  const std::vector<Edge> edges =
      edges_of(geometry, stencil, weights, kFunction);
  check_hosts(host_of_cell, "host_of_cell", geometry.size(), "geometry.size()",
              kFunction);
  return price(edges, host_of_cell, geometry.size());
}

std::vector<int> identity_placement(std::span<const int> slots) {
  check_slot_values(slots, "stencils::identity_placement");
  std::vector<int> placement;
  for (std::size_t h = 0; h < slots.size(); ++h) {
    placement.insert(placement.end(), slots[h], static_cast<int>(h));
  }
  return placement;
}

std::optional<BlockPlacement> best_block_placement(
    const naming::Geometry& geometry, const Stencil& stencil,
    std::span<const std::int64_t> weights, std::span<const int> slots) {
  constexpr const char* kFunction = "stencils::best_block_placement";
  const std::vector<Edge> edges =
      edges_of(geometry, stencil, weights, kFunction);
  check_slots(slots, geometry.size(), kFunction);
  return best_block(geometry, edges, slots);
}

PlacementChoice choose_placement(const naming::Geometry& geometry,
                                 const Stencil& stencil,
                                 std::span<const std::int64_t> weights,
                                 std::span<const int> slots,
                                 std::span<const int> current) {
  constexpr const char* kFunction = "stencils::choose_placement";
  const std::vector<Edge> edges =
      edges_of(geometry, stencil, weights, kFunction);
  check_slots(slots, geometry.size(), kFunction);
  check_balanced(current, "current", geometry.size(), slots, kFunction);
  PlacementChoice choice;
  choice.current_cost = price(edges, current, static_cast<int>(slots.size()));
  std::optional<BlockPlacement> block = best_block(geometry, edges, slots);
  if (block) choice.block_cost = block->cost;
  if (block && block->cost.weight < choice.current_cost.weight) {
    choice.chosen = Chosen::block;
    choice.host_of_cell = std::move(block->host_of_cell);
  } else {
    choice.host_of_cell.assign(current.begin(), current.end());
  }
  return choice;
}

std::vector<int> assign_ranks(std::span<const int> host_of_cell,
                              std::span<const int> host_of_old_rank) {
  constexpr const char* kFunction = "stencils::assign_ranks";
  const int n = static_cast<int>(host_of_old_rank.size());
  check_length(host_of_cell.size(), "host_of_cell", n,
               "host_of_old_rank.size()", kFunction);
  check_hosts(host_of_old_rank, "host_of_old_rank", n,
              "host_of_old_rank.size()", kFunction);
  check_hosts(host_of_cell, "host_of_cell", n, "host_of_old_rank.size()",
              kFunction);
  // Old ranks grouped by host, ascending within each: ranks_on[first[h] ..].
  std::vector<int> first(n + 1, 0);
  for (const int host : host_of_old_rank) ++first[host + 1];
  std::vector<int> cells_on(n, 0);
  for (const int host : host_of_cell) ++cells_on[host];
  for (int h = 0; h < n; ++h) {
    if (cells_on[h] != first[h + 1]) {
      fail(ErrorClass::arg, kFunction,
           "host " + error_text::text(h) + " holds " +
               error_text::text(cells_on[h]) + " cells in host_of_cell but " +
               error_text::text(first[h + 1]) + " ranks in host_of_old_rank");
    }
    first[h + 1] += first[h];
  }
  std::vector<int> ranks_on(n);
  std::vector<int> next(first.begin(), first.end() - 1);
  for (int rank = 0; rank < n; ++rank) {
    ranks_on[next[host_of_old_rank[rank]]++] = rank;
  }
  std::copy(first.begin(), first.end() - 1, next.begin());
  std::vector<int> old_rank_of_cell(n);
  for (int cell = 0; cell < n; ++cell) {
    old_rank_of_cell[cell] = ranks_on[next[host_of_cell[cell]]++];
  }
  return old_rank_of_cell;
}

}  // namespace stencils
