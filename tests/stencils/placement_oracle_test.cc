// best_block_placement, choose_placement and assign_ranks against oracles
// written without the code under test: every balanced placement of tiny
// grids, and random grids, stencils, weights and slots (fixed seed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "naming/geometry.h"
#include "stencils/placement.h"
#include "stencils/stencil.h"
#include "tests/stencils/testing.h"

namespace stencils {
namespace {

using Weights = std::vector<std::int64_t>;

// A row-major grid and its stencil edges, numbered by hand.
struct Grid {
  std::vector<int> dims;
  std::vector<bool> periods;

  int size() const {
    return std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<>());
  }
  std::vector<int> coords(int cell) const {
    std::vector<int> x(dims.size());
    for (int i = static_cast<int>(dims.size()) - 1; i >= 0; --i) {
      x[i] = cell % dims[i];
      cell /= dims[i];
    }
    return x;
  }
  // The cell at coords(cell) + offset, or -1 off a non-periodic border.
  int neighbor(int cell, const std::vector<int>& offset) const {
    std::vector<int> x = coords(cell);
    int result = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      int y = x[i] + offset[i];
      if (periods[i]) y = ((y % dims[i]) + dims[i]) % dims[i];
      if (y < 0 || y >= dims[i]) return -1;
      result = result * dims[i] + y;
    }
    return result;
  }
  naming::Geometry geometry() const { return testing::grid(dims, periods); }
};

// The depth-1 von Neumann (L1 = 1) or Moore (L-infinity = 1) offsets.
std::vector<std::vector<int>> shell(int ndims, bool von_neumann) {
  std::vector<std::vector<int>> offsets;
  for (const auto& o : testing::box(ndims, 1)) {
    if (testing::linf(o) == 1 && (!von_neumann || testing::l1(o) == 1)) {
      offsets.push_back(o);
    }
  }
  return offsets;
}

// Moore weights: a face 4, a corner (all components nonzero) 1, else 2.
Weights moore_weights(const std::vector<std::vector<int>>& offsets) {
  Weights weights;
  for (const auto& o : offsets) {
    const auto nonzero =
        std::count_if(o.begin(), o.end(), [](int v) { return v != 0; });
    weights.push_back(nonzero == 1 ? 4 : nonzero == std::ssize(o) ? 1 : 2);
  }
  return weights;
}

// One directed edge: {from, to, weight}.
struct Edge {
  int from;
  int to;
  std::int64_t weight;
};

std::vector<Edge> edge_list(const Grid& grid,
                            const std::vector<std::vector<int>>& offsets,
                            const Weights& weights) {
  std::vector<Edge> edges;
  for (int c = 0; c < grid.size(); ++c) {
    for (std::size_t k = 0; k < offsets.size(); ++k) {
      const int to = grid.neighbor(c, offsets[k]);
      if (to >= 0) edges.push_back({c, to, weights.empty() ? 1 : weights[k]});
    }
  }
  return edges;
}

std::int64_t brute_weight(const std::vector<Edge>& edges,
                          const std::vector<int>& hosts) {
  std::int64_t weight = 0;
  for (const Edge& e : edges) {
    if (hosts[e.from] != hosts[e.to]) weight += e.weight;
  }
  return weight;
}

CrossingCost brute_cost(const Grid& grid,
                        const std::vector<std::vector<int>>& offsets,
                        const Weights& weights, const std::vector<int>& hosts) {
  CrossingCost cost;
  std::vector<std::int64_t> leaving(grid.size(), 0);
  for (const Edge& e : edge_list(grid, offsets, weights)) {
    if (hosts[e.from] == hosts[e.to]) continue;
    cost.weight += e.weight;
    ++cost.edges;
    leaving[hosts[e.from]] += e.weight;
  }
  cost.max_host_weight = *std::max_element(leaving.begin(), leaving.end());
  return cost;
}

// Every placement with host h exactly slots[h] times.
void for_each_balanced(std::vector<int>& slots, std::vector<int>& hosts,
                       std::size_t cell, const std::function<void()>& visit) {
  if (cell == hosts.size()) {
    visit();
    return;
  }
  for (std::size_t h = 0; h < slots.size(); ++h) {
    if (slots[h] == 0) continue;
    --slots[h];
    hosts[cell] = static_cast<int>(h);
    for_each_balanced(slots, hosts, cell + 1, visit);
    ++slots[h];
  }
}

// The least weight over every axis-aligned partition into `count` blocks.
std::int64_t axis_aligned_min(const Grid& grid,
                              const std::vector<std::vector<int>>& offsets,
                              const Weights& weights, int count) {
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  const int d = static_cast<int>(grid.dims.size());
  std::vector<int> blocks(d, 1);
  std::function<void(int, int)> recurse = [&](int dim, int remaining) {
    if (dim == d) {
      if (remaining != 1) return;
      std::vector<int> hosts(grid.size());
      for (int c = 0; c < grid.size(); ++c) {
        const std::vector<int> x = grid.coords(c);
        int host = 0;
        for (int i = 0; i < d; ++i) {
          host = host * blocks[i] + x[i] / (grid.dims[i] / blocks[i]);
        }
        hosts[c] = host;
      }
      best = std::min(best, brute_cost(grid, offsets, weights, hosts).weight);
      return;
    }
    for (int b = 1; b <= grid.dims[dim]; ++b) {
      if (grid.dims[dim] % b != 0 || remaining % b != 0) continue;
      blocks[dim] = b;
      recurse(dim + 1, remaining / b);
    }
  };
  recurse(0, count);
  return best;
}

bool is_balanced(const std::vector<int>& hosts, const std::vector<int>& slots) {
  std::vector<int> count(slots.size(), 0);
  for (const int h : hosts) {
    if (h < 0 || h >= std::ssize(slots)) return false;
    ++count[h];
  }
  return count == slots;
}

// ---- Exhaustive comparison with every balanced placement. ----

struct TinyCase {
  std::vector<int> dims;
  int hosts;
};

// On the 2 x 2 x 2 torus the unweighted Moore stencil reaches each other
// cell several times (+1 and -1 wrap to the same cell), and the split by
// x0 xor x1 (not axis-aligned) cuts only the 12 offsets with exactly one of
// o0, o1 nonzero, against the 18 with o0 nonzero of a cut along dimension 0.
bool axis_aligned_is_optimal(const TinyCase& tiny, int kind, int periodic) {
  return !(tiny.dims == std::vector<int>{2, 2, 2} && kind == 1 &&
           periodic == 1);
}

TEST(PlacementOracleTest,
     BestBlockIsTheAxisAlignedMinimumAndBoundedByBruteForce) {
  const std::vector<TinyCase> cases = {
      {{2, 4}, 2},    {{4, 2}, 2}, {{3, 4}, 2}, {{2, 2, 2}, 2},
      {{2, 2, 2}, 4}, {{4, 4}, 2}, {{2, 6}, 3}};
  for (const TinyCase& tiny : cases) {
    const int d = static_cast<int>(tiny.dims.size());
    for (const int kind : {0, 1, 2}) {  // von Neumann, Moore, weighted Moore
      const auto offsets = shell(d, kind == 0);
      const Weights weights = kind == 2 ? moore_weights(offsets) : Weights{};
      for (const int periodic : {0, 1, 2}) {  // none, all, the first only
        Grid grid{tiny.dims, std::vector<bool>(d, periodic == 1)};
        if (periodic == 2) grid.periods[0] = true;
        SCOPED_TRACE(::testing::Message()
                     << "dims[0] = " << tiny.dims[0] << ", ndims = " << d
                     << ", hosts = " << tiny.hosts << ", stencil " << kind
                     << ", periodic " << periodic);
        std::vector<int> slots(tiny.hosts, grid.size() / tiny.hosts);
        const std::vector<Edge> edges = edge_list(grid, offsets, weights);
        std::vector<int> hosts(grid.size());
        std::int64_t global = std::numeric_limits<std::int64_t>::max();
        for_each_balanced(slots, hosts, 0, [&] {
          global = std::min(global, brute_weight(edges, hosts));
        });
        const auto best = best_block_placement(
            grid.geometry(), testing::from_vectors(d, offsets), weights, slots);
        ASSERT_TRUE(best.has_value());
        EXPECT_TRUE(is_balanced(best->host_of_cell, slots));
        EXPECT_EQ(best->cost,
                  brute_cost(grid, offsets, weights, best->host_of_cell));
        EXPECT_EQ(best->cost.weight,
                  axis_aligned_min(grid, offsets, weights, tiny.hosts));
        EXPECT_LE(best->cost.weight,
                  brute_weight(edges, identity_placement(slots)));
        if (axis_aligned_is_optimal(tiny, kind, periodic)) {
          EXPECT_EQ(best->cost.weight, global);
        } else {
          EXPECT_LT(global, best->cost.weight);
        }
      }
    }
  }
}

// ---- Randomized checks (fixed seed). ----

struct RandomCase {
  Grid grid;
  std::vector<std::vector<int>> offsets;
  Weights weights;
  std::vector<int> slots;
  std::vector<int> current;  // a random balanced placement
};

RandomCase random_case(std::mt19937& random) {
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  RandomCase c;
  const int d = uniform(1, 3);
  for (int i = 0; i < d; ++i) {
    c.grid.dims.push_back(uniform(1, 5));
    c.grid.periods.push_back(uniform(0, 1) == 1);
  }
  const int kind = uniform(0, 2);  // von Neumann, Moore, random offsets
  c.offsets = shell(d, kind == 0);
  if (kind == 2) {
    for (auto& o : c.offsets) {
      for (int& v : o) v = uniform(-3, 3);
    }
  }
  if (uniform(0, 1) == 1) {
    for (std::size_t k = 0; k < c.offsets.size(); ++k) {
      c.weights.push_back(uniform(0, 9));
    }
  }
  const int n = c.grid.size();
  // Equal slots half of the time (a divisor of n), else a random split.
  std::vector<int> divisors;
  for (int h = 1; h <= n; ++h) {
    if (n % h == 0) divisors.push_back(h);
  }
  if (uniform(0, 1) == 1) {
    const int hosts =
        divisors[uniform(0, static_cast<int>(divisors.size()) - 1)];
    c.slots.assign(hosts, n / hosts);
  } else {
    for (int left = n; left > 0;) {
      c.slots.push_back(uniform(1, left));
      left -= c.slots.back();
    }
  }
  for (std::size_t h = 0; h < c.slots.size(); ++h) {
    c.current.insert(c.current.end(), c.slots[h], static_cast<int>(h));
  }
  std::shuffle(c.current.begin(), c.current.end(), random);
  return c;
}

TEST(PlacementOracleTest, RandomPlacementsAreBalancedAndNeverCostMore) {
  std::mt19937 random(20240611);
  int blocks_found = 0;
  int moved = 0;
  for (int trial = 0; trial < 400; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const RandomCase c = random_case(random);
    const naming::Geometry geometry = c.grid.geometry();
    const Stencil stencil =
        testing::from_vectors(static_cast<int>(c.grid.dims.size()), c.offsets);
    const CrossingCost current_cost =
        brute_cost(c.grid, c.offsets, c.weights, c.current);
    EXPECT_EQ(crossing_cost(geometry, stencil, c.weights, c.current),
              current_cost);
    EXPECT_TRUE(is_balanced(identity_placement(c.slots), c.slots));
    const auto best =
        best_block_placement(geometry, stencil, c.weights, c.slots);
    const PlacementChoice choice =
        choose_placement(geometry, stencil, c.weights, c.slots, c.current);
    EXPECT_EQ(choice.current_cost, current_cost);
    EXPECT_TRUE(is_balanced(choice.host_of_cell, c.slots));
    const CrossingCost chosen_cost =
        brute_cost(c.grid, c.offsets, c.weights, choice.host_of_cell);
    EXPECT_LE(chosen_cost.weight, current_cost.weight);
    ASSERT_EQ(best.has_value(), choice.block_cost.has_value());
    if (best) {
      ++blocks_found;
      EXPECT_TRUE(is_balanced(best->host_of_cell, c.slots));
      EXPECT_EQ(best->cost,
                brute_cost(c.grid, c.offsets, c.weights, best->host_of_cell));
      EXPECT_EQ(*choice.block_cost, best->cost);
      EXPECT_EQ(choice.chosen == Chosen::block,
                best->cost.weight < current_cost.weight);
    }
    if (choice.chosen == Chosen::current) {
      EXPECT_EQ(choice.host_of_cell, c.current);
    } else {
      ++moved;
    }
    // Old ranks sit where c.current puts them; new rank c takes cell c.
    const std::vector<int> old_rank =
        assign_ranks(choice.host_of_cell, c.current);
    std::vector<int> sorted = old_rank;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> all(old_rank.size());
    std::iota(all.begin(), all.end(), 0);
    EXPECT_EQ(sorted, all);
    std::vector<int> last(c.slots.size(), -1);
    for (std::size_t cell = 0; cell < old_rank.size(); ++cell) {
      const int host = choice.host_of_cell[cell];
      EXPECT_EQ(c.current[old_rank[cell]], host);
      EXPECT_GT(old_rank[cell], last[host]);  // Ascending on each host.
      last[host] = old_rank[cell];
    }
  }
  // The seed must exercise both outcomes.
  EXPECT_GT(blocks_found, 100);
  EXPECT_GT(moved, 20);
}

}  // namespace
}  // namespace stencils
