#include "experiments/simulate/workload.h"

#include <array>
#include <charconv>
#include <climits>
#include <span>
#include <stdexcept>
#include <utility>

#include "classic/topology/dims_create.h"
#include "experiments/sparse_graphs.h"
#include "ortho/internal/graph_placement.h"
#include "stencils/placement.h"

namespace simulate {
namespace {

std::string placed_text(Placement placement) {
  return placement == Placement::round_robin ? "round robin" : "by slot";
}

// The stencil's grid mapped as ortho maps it: the cheapest block partition
// where it sends less between nodes than by slot.
void map_grid(Workload& workload, const stencils::Stencil& targets,
              const Shape& shape) {
  const std::vector<int> slots(static_cast<std::size_t>(shape.nodes),
                               shape.processes_per_node);
  const stencils::PlacementChoice choice = stencils::choose_placement(
      workload.grid->geometry, targets, {}, slots, workload.graph.host_of_rank);
  if (choice.chosen == stencils::Chosen::block) {
    workload.graph.host_of_rank = choice.host_of_cell;
    workload.placed = "mapped (block partition)";
  } else {
    workload.placed = choice.block_cost ? "by slot (mapping kept it: no gain)"
                                        : "by slot (mapping kept it: no "
                                          "block partition fits)";
  }
}

}  // namespace

void map_graph(Workload& workload, const Shape& shape) {
  ortho::internal::DirectedGraph graph;
  for (std::size_t p = 0; p < workload.graph.destinations.size(); ++p) {
    for (std::size_t k = 0; k < workload.graph.destinations[p].size(); ++k) {
      graph.targets.push_back(workload.graph.destinations[p][k]);
      if (!workload.entries.empty()) {
        graph.weights.push_back(workload.entries[p][k]);
      }
    }
    graph.offsets.push_back(static_cast<std::int64_t>(graph.targets.size()));
  }
  const std::vector<int> slots(static_cast<std::size_t>(shape.nodes),
                               shape.processes_per_node);
  const ortho::internal::GraphPlacementChoice choice =
      ortho::internal::choose_graph_placement(
          graph, slots, workload.graph.host_of_rank,
          ortho::internal::scotch_built_in());
  if (choice.placed) {
    workload.graph.host_of_rank = choice.host_of_vertex;
    workload.placed = "mapped (Scotch)";
  } else {
    workload.placed = choice.scotch_cost
                          ? "by slot (mapping kept it: no gain)"
                          : "by slot (mapping kept it: no Scotch)";
  }
}

std::vector<int> nodes_of_ranks(const Shape& shape) {
  if (shape.nodes < 1 || shape.processes_per_node < 1 ||
      shape.nodes > INT_MAX / shape.processes_per_node) {
    throw std::invalid_argument(
        "simulate::nodes_of_ranks: " + std::to_string(shape.nodes) +
        " nodes x " + std::to_string(shape.processes_per_node) +
        " processes is not a job");
  }
  std::vector<int> nodes(static_cast<std::size_t>(shape.processes()));
  for (int r = 0; r < shape.processes(); ++r) {
    nodes[static_cast<std::size_t>(r)] =
        shape.placement == Placement::round_robin
            ? r % shape.nodes
            : r / shape.processes_per_node;
  }
  return nodes;
}

std::optional<StencilSpec> parse_stencil(std::string_view name) {
  StencilSpec spec;
  if (name.starts_with("moore")) {
    name.remove_prefix(5);
  } else if (name.starts_with("vonneumann")) {
    spec.metric = stencils::Metric::manhattan;
    name.remove_prefix(10);
  } else {
    return std::nullopt;
  }
  if (name.starts_with("2d")) {
    spec.ndims = 2;
  } else if (name.starts_with("3d")) {
    spec.ndims = 3;
  } else {
    return std::nullopt;
  }
  name.remove_prefix(2);
  if (name.empty()) return spec;
  if (name.front() != '_') return std::nullopt;
  name.remove_prefix(1);
  const auto [end, error] =
      std::from_chars(name.data(), name.data() + name.size(), spec.depth);
  if (error != std::errc{} || end != name.data() + name.size() ||
      spec.depth < 1) {
    return std::nullopt;
  }
  return spec;
}

Workload stencil_workload(const StencilSpec& stencil, const Shape& shape) {
  const std::vector<int> dims = classic::dims_create(
      shape.processes(),
      std::vector<int>(static_cast<std::size_t>(stencil.ndims), 0));
  // Periodic in every dimension (2 or 3).
  const std::array<bool, 3> periods = {true, true, true};
  const naming::Geometry geometry(
      dims, std::span<const bool>(periods.data(), dims.size()),
      naming::Order::row_major);
  Workload workload;
  workload.name =
      (stencil.metric == stencils::Metric::chebyshev ? "moore" : "vonneumann") +
      std::to_string(stencil.ndims) + "d_" + std::to_string(stencil.depth);
  workload.graph.host_of_rank = nodes_of_ranks(shape);
  workload.graph.destinations.reserve(
      static_cast<std::size_t>(shape.processes()));
  for (int r = 0; r < shape.processes(); ++r) {
    workload.graph.destinations.push_back(stencils::cart_neighbor_ranks(
        geometry, r, stencil.metric, 1, stencil.depth));
  }
  const stencils::Stencil targets =
      stencils::cart_stencil(stencil.ndims, stencil.metric, 1, stencil.depth);
  std::vector<int> negated(targets.flat().begin(), targets.flat().end());
  for (int& x : negated) x = -x;
  const stencils::Stencil sources(stencil.ndims, std::move(negated));
  workload.grid.emplace(Workload::Grid{
      .geometry = geometry,
      .allgather = stencils::allgather_schedule(geometry, targets, sources),
      .alltoall = stencils::alltoall_schedule(geometry, targets, sources)});
  workload.placed = placed_text(shape.placement);
  if (shape.placement == Placement::mapped) map_grid(workload, targets, shape);
  return workload;
}

Workload graph_workload(std::string_view name, const Shape& shape) {
  const std::optional<experiments::GraphSpec> spec =
      experiments::parse_graph_spec(name);
  if (!spec) {
    throw std::invalid_argument("simulate::graph_workload: graph '" +
                                std::string(name) + "' is not one it knows");
  }
  Workload workload;
  workload.name = std::string(name);
  workload.graph.host_of_rank = nodes_of_ranks(shape);
  workload.graph.destinations =
      experiments::make_graph(*spec, shape.processes());
  workload.placed = placed_text(shape.placement);
  if (shape.placement == Placement::mapped) map_graph(workload, shape);
  return workload;
}

}  // namespace simulate
