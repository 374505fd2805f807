// Shared by the neighbourhood-collective tests: topologies described for
// the whole world (so that every process knows what every other sends),
// computed here independently of classic, and the oracle that says where
// each received block comes from.
#ifndef ORTHOCOMM_TESTS_CLASSIC_TESTING_NEIGHBOR_TESTING_H_
#define ORTHOCOMM_TESTS_CLASSIC_TESTING_NEIGHBOR_TESTING_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "classic/base/constants.h"
#include "classic/comm/comm.h"
#include "classic/topology/internal/topology_cache.h"

namespace classic::testing_neighbor {

using Random = std::mt19937;

inline int uniform(Random& random, int low, int high) {
  return std::uniform_int_distribution<int>(low, high)(random);
}

enum class Kind { cartesian, graph, dist_graph };

// Every process's neighbours, in the order the standard gives them.
struct WorldTopology {
  Kind kind = Kind::dist_graph;
  std::vector<std::vector<int>> sources;       // per rank
  std::vector<std::vector<int>> destinations;  // per rank
  // The arguments the constructors take.
  std::vector<int> dims;
  std::vector<bool> periods;
  std::vector<int> index;  // graph
  std::vector<int> edges;  // graph
  std::string name;
};

inline std::string describe_grid(const std::vector<int>& dims,
                                 const std::vector<bool>& periods) {
  std::string text = "grid";
  for (std::size_t d = 0; d < dims.size(); ++d) {
    text += (d == 0 ? " " : " x ") + std::to_string(dims[d]) +
            (periods[d] ? "P" : "N");
  }
  return text;
}

// Row-major coordinates and the neighbour at `step` (+1 or -1) in dimension
// d; proc_null off a non-periodic border.
inline int grid_neighbor(const std::vector<int>& dims,
                         const std::vector<bool>& periods, int rank, int d,
                         int step) {
  std::vector<int> coords(dims.size());
  int rest = rank;
  for (std::size_t i = dims.size(); i-- > 0;) {
    coords[i] = rest % dims[i];
    rest /= dims[i];
  }
  const auto dim = static_cast<std::size_t>(d);
  int moved = coords[dim] + step;
  if (moved < 0 || moved >= dims[dim]) {
    if (!periods[dim]) return proc_null;
    moved = (moved + dims[dim]) % dims[dim];
  }
  coords[dim] = moved;
  int result = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    result = result * dims[i] + coords[i];
  }
  return result;
}

inline WorldTopology cartesian(const std::vector<int>& dims,
                               const std::vector<bool>& periods) {
  WorldTopology world;
  world.kind = Kind::cartesian;
  world.dims = dims;
  world.periods = periods;
  world.name = describe_grid(dims, periods);
  const int size =
      std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<>());
  for (int rank = 0; rank < size; ++rank) {
    std::vector<int> neighbors;
    for (int d = 0; d < static_cast<int>(dims.size()); ++d) {
      neighbors.push_back(grid_neighbor(dims, periods, rank, d, -1));
      neighbors.push_back(grid_neighbor(dims, periods, rank, d, +1));
    }
    world.sources.push_back(neighbors);
    world.destinations.push_back(neighbors);
  }
  return world;
}

// An MPI-1 graph from each node's neighbour list (symmetric multiplicities
// are the caller's business).
inline WorldTopology graph(const std::vector<std::vector<int>>& neighbors,
                           std::string name) {
  WorldTopology world;
  world.kind = Kind::graph;
  world.sources = neighbors;
  world.destinations = neighbors;
  world.name = std::move(name);
  for (const std::vector<int>& list : neighbors) {
    world.edges.insert(world.edges.end(), list.begin(), list.end());
    world.index.push_back(static_cast<int>(world.edges.size()));
  }
  return world;
}

// A random symmetric multigraph on `size` nodes: each unordered pair gets
// 0-2 edges, each node 0-2 self-loops, lists shuffled.
inline WorldTopology random_graph(Random& random, int size) {
  std::vector<std::vector<int>> lists(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) {
    for (int j = i; j < size; ++j) {
      const int edges = uniform(random, 0, 5) < 3 ? 0 : uniform(random, 1, 2);
      for (int e = 0; e < edges; ++e) {
        lists[static_cast<std::size_t>(i)].push_back(j);
        if (i != j) lists[static_cast<std::size_t>(j)].push_back(i);
      }
    }
  }
  for (std::vector<int>& list : lists) {
    std::shuffle(list.begin(), list.end(), random);
  }
  return graph(lists, "random graph");
}

inline WorldTopology dist_graph(std::vector<std::vector<int>> sources,
                                std::vector<std::vector<int>> destinations,
                                std::string name) {
  WorldTopology world;
  world.kind = Kind::dist_graph;
  world.sources = std::move(sources);
  world.destinations = std::move(destinations);
  world.name = std::move(name);
  return world;
}

// A random directed multigraph: each ordered pair (self-loops included)
// gets 0-2 edges; both ends' lists shuffled independently.
inline WorldTopology random_dist_graph(Random& random, int size) {
  std::vector<std::vector<int>> sources(static_cast<std::size_t>(size));
  std::vector<std::vector<int>> destinations(static_cast<std::size_t>(size));
  for (int from = 0; from < size; ++from) {
    for (int to = 0; to < size; ++to) {
      const int edges = uniform(random, 0, 5) < 3 ? 0 : uniform(random, 1, 2);
      for (int e = 0; e < edges; ++e) {
        destinations[static_cast<std::size_t>(from)].push_back(to);
        sources[static_cast<std::size_t>(to)].push_back(from);
      }
    }
  }
  for (auto* lists : {&sources, &destinations}) {
    for (std::vector<int>& list : *lists) {
      std::shuffle(list.begin(), list.end(), random);
    }
  }
  return dist_graph(std::move(sources), std::move(destinations),
                    "random distributed graph");
}

// The classic topology communicator of `world` over a duplicate of the
// world (what the constructors make, with reorder off).
inline Comm make_comm(const WorldTopology& world) {
  Comm base = Comm::world().dup();
  switch (world.kind) {
    case Kind::cartesian:
      return internal::with_topology(
          base, internal::CartTopology{world.dims, world.periods});
    case Kind::graph:
      return internal::with_topology(
          base, internal::GraphTopology{world.index, world.edges});
    default: {
      const auto rank = static_cast<std::size_t>(base.rank());
      return internal::with_topology(
          base,
          internal::DistGraphTopology{
              world.sources[rank], {}, world.destinations[rank], {}, false});
    }
  }
}

// Where receive block `slot` of a process gets its data: send block
// `block` of `sender` (sender proc_null: nothing arrives).
struct Origin {
  int sender = proc_null;
  int block = -1;
};

// The standard's pairing, computed from the world description alone.
//  - Cartesian (MPI-4.1 8.6): block 2d comes from the neighbour at -1,
//    which sent it as its block 2d + 1 (to its +1 neighbour); block 2d + 1
//    comes from the +1 neighbour's block 2d.
//  - graphs: the k-th time `sender` appears among my sources pairs with
//    the k-th time I appear among its destinations.
inline std::vector<Origin> origins(const WorldTopology& world, int rank) {
  const std::vector<int>& sources =
      world.sources[static_cast<std::size_t>(rank)];
  std::vector<Origin> result(sources.size());
  for (std::size_t slot = 0; slot < sources.size(); ++slot) {
    const int sender = sources[slot];
    if (sender == proc_null) continue;
    if (world.kind == Kind::cartesian) {
      result[slot] = {sender,
                      static_cast<int>(slot % 2 == 0 ? slot + 1 : slot - 1)};
      continue;
    }
    const auto k =
        std::count(sources.begin(),
                   sources.begin() + static_cast<std::ptrdiff_t>(slot), sender);
    const std::vector<int>& theirs =
        world.destinations[static_cast<std::size_t>(sender)];
    std::ptrdiff_t seen = 0;
    for (std::size_t block = 0; block < theirs.size(); ++block) {
      if (theirs[block] != rank) continue;
      if (seen++ == k) {
        result[slot] = {sender, static_cast<int>(block)};
        break;
      }
    }
  }
  return result;
}

// Blocks of the given sizes in a buffer, in a random order with random gaps
// (0-2 units) before each and at the end; extent is the buffer size.
struct Layout {
  std::vector<int> sizes;
  std::vector<int> displs;
  int extent = 0;
};

inline Layout scattered(Random& random, std::vector<int> sizes) {
  Layout layout{std::move(sizes), {}, 0};
  layout.displs.resize(layout.sizes.size());
  std::vector<std::size_t> order(layout.sizes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), random);
  for (const std::size_t block : order) {
    layout.extent += uniform(random, 0, 2);
    layout.displs[block] = layout.extent;
    layout.extent += layout.sizes[block];
  }
  layout.extent += uniform(random, 0, 2);
  return layout;
}

// Ordered factorisations of n into `parts` factors >= 1.
inline void factorisations(int n, int parts, std::vector<int>& prefix,
                           std::vector<std::vector<int>>& out) {
  if (parts == 1) {
    prefix.push_back(n);
    out.push_back(prefix);
    prefix.pop_back();
    return;
  }
  for (int f = 1; f <= n; ++f) {
    if (n % f != 0) continue;
    prefix.push_back(f);
    factorisations(n / f, parts - 1, prefix, out);
    prefix.pop_back();
  }
}

inline std::vector<std::vector<int>> all_grids(int size, int max_dims) {
  std::vector<std::vector<int>> grids;
  std::vector<int> prefix;
  for (int parts = 1; parts <= max_dims; ++parts) {
    factorisations(size, parts, prefix, grids);
  }
  return grids;
}

inline std::vector<bool> periods_of(unsigned bits, std::size_t ndims) {
  std::vector<bool> periods(ndims);
  for (std::size_t d = 0; d < ndims; ++d) periods[d] = ((bits >> d) & 1u) != 0;
  return periods;
}

}  // namespace classic::testing_neighbor

#endif  // ORTHOCOMM_TESTS_CLASSIC_TESTING_NEIGHBOR_TESTING_H_
