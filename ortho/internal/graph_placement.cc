#include "ortho/internal/graph_placement.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>  // scotch.h needs FILE
#include <limits>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "classic/base/error.h"
#include "have_scotch.h"
#if ORTHOCOMM_HAVE_SCOTCH
#include <scotch.h>
#endif

namespace ortho::internal {
namespace {

using classic::ErrorClass;

std::int64_t weight_of(const DirectedGraph& graph, std::int64_t edge) {
  if (graph.weights.empty()) return 1;
  return std::max<std::int64_t>(0,
                                graph.weights[static_cast<std::size_t>(edge)]);
}

// The graph with each pair of vertices once, both ways: the weight of
// {u, v} is w(u -> v) + w(v -> u), without self loops or weightless pairs.
// Compressed rows, as Scotch takes them.
struct Undirected {
  std::vector<std::int64_t> offsets;
  std::vector<int> targets;
  std::vector<std::int64_t> weights;
};

Undirected undirected(const DirectedGraph& graph) {
  std::vector<std::tuple<int, int, std::int64_t>> arcs;
  for (int v = 0; v < graph.vertices(); ++v) {
    const auto first = graph.offsets[static_cast<std::size_t>(v)];
    const auto last = graph.offsets[static_cast<std::size_t>(v) + 1];
    for (std::int64_t e = first; e < last; ++e) {
      const int to = graph.targets[static_cast<std::size_t>(e)];
      const std::int64_t w = weight_of(graph, e);
      if (to == v || w == 0) continue;
      arcs.emplace_back(v, to, w);
      arcs.emplace_back(to, v, w);
    }
  }
  std::sort(arcs.begin(), arcs.end());
  Undirected result;
  result.offsets.assign(static_cast<std::size_t>(graph.vertices()) + 1, 0);
  std::tuple<int, int> last = {-1, -1};
  for (const auto& [from, to, w] : arcs) {
    if (last == std::tuple<int, int>{from, to}) {
      result.weights.back() += w;  // a duplicate edge, or the other way
      continue;
    }
    last = {from, to};
    result.targets.push_back(to);
    result.weights.push_back(w);
    ++result.offsets[static_cast<std::size_t>(from) + 1];
  }
  std::partial_sum(result.offsets.begin(), result.offsets.end(),
                   result.offsets.begin());
  return result;
}

void check_slots(std::span<const int> slots, int vertices) {
  constexpr const char* kFunction = "ortho::internal::scotch_placement";
  std::int64_t total = 0;
  for (std::size_t h = 0; h < slots.size(); ++h) {
    if (slots[h] < 1) {
      throw classic::Error(ErrorClass::arg, kFunction,
                           "slots[" + std::to_string(h) + "] = " +
                               std::to_string(slots[h]) + " is below 1");
    }
    total += slots[h];
  }
  if (total != vertices) {
    throw classic::Error(ErrorClass::count, kFunction,
                         "the slots add up to " + std::to_string(total) +
                             " but the graph has " + std::to_string(vertices) +
                             " vertices");
  }
}

// Moves vertices from hosts over their slots to hosts under them, each
// time the one whose move adds the least weight between hosts.
void make_exact(const Undirected& graph, std::span<const int> slots,
                std::vector<int>& host_of_vertex) {
  std::vector<int> load(slots.size(), 0);
  for (const int h : host_of_vertex) ++load[static_cast<std::size_t>(h)];
  const auto weight_to = [&](int v, int host) {
    std::int64_t sum = 0;
    for (auto e = graph.offsets[static_cast<std::size_t>(v)];
         e < graph.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      const int u = graph.targets[static_cast<std::size_t>(e)];
      if (host_of_vertex[static_cast<std::size_t>(u)] == host) {
        sum += graph.weights[static_cast<std::size_t>(e)];
      }
    }
    return sum;
  };
  for (std::size_t over = 0; over < slots.size(); ++over) {
    while (load[over] > slots[over]) {
      std::size_t under = 0;
      while (load[under] >= slots[under]) ++under;
      int best = -1;
      std::int64_t best_gain = std::numeric_limits<std::int64_t>::min();
      for (int v = 0; v < static_cast<int>(host_of_vertex.size()); ++v) {
        if (host_of_vertex[static_cast<std::size_t>(v)] !=
            static_cast<int>(over)) {
          continue;
        }
        const std::int64_t gain = weight_to(v, static_cast<int>(under)) -
                                  weight_to(v, static_cast<int>(over));
        if (gain > best_gain) {
          best_gain = gain;
          best = v;
        }
      }
      host_of_vertex[static_cast<std::size_t>(best)] = static_cast<int>(under);
      --load[over];
      ++load[under];
    }
  }
}

#if ORTHOCOMM_HAVE_SCOTCH
// Scotch's objects, freed on every path.
struct ScotchMapping {
  SCOTCH_Graph graph;
  SCOTCH_Arch arch;
  SCOTCH_Strat strat;
  ScotchMapping() {
    SCOTCH_graphInit(&graph);
    SCOTCH_archInit(&arch);
    SCOTCH_stratInit(&strat);
  }
  ~ScotchMapping() {
    SCOTCH_stratExit(&strat);
    SCOTCH_archExit(&arch);
    SCOTCH_graphExit(&graph);
  }
  ScotchMapping(const ScotchMapping&) = delete;
  ScotchMapping& operator=(const ScotchMapping&) = delete;
};

// Scotch's hosts of the vertices, within its balance tolerance.
std::optional<std::vector<int>> scotch_map(const Undirected& graph,
                                           std::span<const int> slots) {
  const auto vertices = static_cast<SCOTCH_Num>(graph.offsets.size() - 1);
  // Scotch's loads are 32-bit and it adds them up: scale the weights so
  // that all of them together stay below 2^30 (each at least 1).
  const std::int64_t total = std::accumulate(
      graph.weights.begin(), graph.weights.end(), std::int64_t{0});
  const std::int64_t divisor = std::max<std::int64_t>(1, total >> 30);
  std::vector<SCOTCH_Num> offsets(graph.offsets.begin(), graph.offsets.end());
  std::vector<SCOTCH_Num> targets(graph.targets.begin(), graph.targets.end());
  std::vector<SCOTCH_Num> loads;
  loads.reserve(graph.weights.size());
  for (const std::int64_t w : graph.weights) {
    loads.push_back(
        static_cast<SCOTCH_Num>(std::max<std::int64_t>(1, w / divisor)));
  }
  const std::vector<SCOTCH_Num> places(slots.begin(), slots.end());
  std::vector<SCOTCH_Num> parts(static_cast<std::size_t>(vertices), 0);
  ScotchMapping scotch;
  SCOTCH_randomReset();
  if (SCOTCH_graphBuild(&scotch.graph, 0, vertices, offsets.data(),
                        offsets.data() + 1, nullptr, nullptr,
                        static_cast<SCOTCH_Num>(targets.size()), targets.data(),
                        loads.data()) != 0 ||
      SCOTCH_archCmpltw(&scotch.arch, static_cast<SCOTCH_Num>(places.size()),
                        places.data()) != 0 ||
      SCOTCH_stratGraphMapBuild(&scotch.strat, SCOTCH_STRATQUALITY,
                                static_cast<SCOTCH_Num>(places.size()),
                                0.01) != 0 ||
      SCOTCH_graphMap(&scotch.graph, &scotch.arch, &scotch.strat,
                      parts.data()) != 0) {
    return std::nullopt;
  }
  return std::vector<int>(parts.begin(), parts.end());
}
#else
std::optional<std::vector<int>> scotch_map(const Undirected&,
                                           std::span<const int>) {
  return std::nullopt;
}
#endif

}  // namespace

stencils::CrossingCost graph_crossing_cost(
    const DirectedGraph& graph, std::span<const int> host_of_vertex) {
  if (host_of_vertex.size() != static_cast<std::size_t>(graph.vertices())) {
    throw classic::Error(
        ErrorClass::count, "ortho::internal::graph_crossing_cost",
        "host_of_vertex has " + std::to_string(host_of_vertex.size()) +
            " elements but the graph has " + std::to_string(graph.vertices()) +
            " vertices");
  }
  stencils::CrossingCost cost;
  std::vector<std::int64_t> leaving;
  for (int v = 0; v < graph.vertices(); ++v) {
    const int host = host_of_vertex[static_cast<std::size_t>(v)];
    for (auto e = graph.offsets[static_cast<std::size_t>(v)];
         e < graph.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      const int to = graph.targets[static_cast<std::size_t>(e)];
      if (host_of_vertex[static_cast<std::size_t>(to)] == host) continue;
      const std::int64_t w = weight_of(graph, e);
      ++cost.edges;
      cost.weight += w;
      if (leaving.size() <= static_cast<std::size_t>(host)) {
        leaving.resize(static_cast<std::size_t>(host) + 1, 0);
      }
      leaving[static_cast<std::size_t>(host)] += w;
    }
  }
  for (const std::int64_t w : leaving) {
    cost.max_host_weight = std::max(cost.max_host_weight, w);
  }
  return cost;
}

bool scotch_built_in() { return ORTHOCOMM_HAVE_SCOTCH != 0; }

std::optional<std::vector<int>> scotch_placement(const DirectedGraph& graph,
                                                 std::span<const int> slots) {
  check_slots(slots, graph.vertices());
  const Undirected both_ways = undirected(graph);
  std::optional<std::vector<int>> placement = scotch_map(both_ways, slots);
  if (!placement) return std::nullopt;
  for (const int host : *placement) {
    if (host < 0 || host >= static_cast<int>(slots.size())) return std::nullopt;
  }
  make_exact(both_ways, slots, *placement);
  return placement;
}

GraphPlacementChoice choose_graph_placement(const DirectedGraph& graph,
                                            std::span<const int> slots,
                                            std::span<const int> current,
                                            bool use_scotch) {
  GraphPlacementChoice choice;
  choice.current_cost = graph_crossing_cost(graph, current);
  choice.host_of_vertex.assign(current.begin(), current.end());
  if (!use_scotch) return choice;
  std::optional<std::vector<int>> placement = scotch_placement(graph, slots);
  if (!placement) return choice;
  choice.scotch_cost = graph_crossing_cost(graph, *placement);
  if (choice.scotch_cost->weight < choice.current_cost.weight) {
    choice.placed = true;
    choice.host_of_vertex = std::move(*placement);
  }
  return choice;
}

}  // namespace ortho::internal
