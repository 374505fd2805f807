#include "ortho/internal/mapping.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "classic/collectives/collectives.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/point_to_point.h"
#include "naming/cart_name.h"
#include "ortho/internal/structured.h"
#include "ortho/internal/table.h"
#include "stencils/cartesian_detection.h"
#include "stencils/placement.h"

namespace ortho::internal {
namespace {

// The hosts' process counts; empty where they differ (no block partition).
std::vector<int> equal_slots(std::span<const int> host_of_rank) {
  std::vector<int> slots;
  for (const int host : host_of_rank) {
    if (static_cast<std::size_t>(host) >= slots.size()) {
      slots.resize(static_cast<std::size_t>(host) + 1, 0);
    }
    ++slots[static_cast<std::size_t>(host)];
  }
  const bool equal = std::adjacent_find(slots.begin(), slots.end(),
                                        std::not_equal_to<>()) == slots.end();
  return equal ? slots : std::vector<int>{};
}

// The weight of each offset of the common stencil: the largest any process
// gives it (1 when unweighted). Collective.
std::vector<std::int64_t> offset_weights(
    const classic::Comm& comm, const stencils::CartesianNeighborhood& common,
    const Adjacency& adjacency) {
  std::vector<std::int64_t> mine(common.targets.size(), 1);
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const int slot = common.target_slots[i];
    if (adjacency.weighted && slot >= 0) {
      mine[i] = adjacency.destination_weights[static_cast<std::size_t>(slot)];
    }
  }
  std::vector<std::int64_t> weights(mine.size(), 1);
  classic::allreduce(comm, mine.data(), weights.data(),
                     static_cast<int>(mine.size()), MPI_INT64_T, MPI_MAX);
  return weights;
}

HostTraffic traffic_of(const stencils::CrossingCost& cost) {
  return {cost.edges, cost.weight, cost.max_host_weight};
}

// This process's adjacency, flattened: counts, then the lists.
std::vector<int> flatten(const Adjacency& a) {
  std::vector<int> flat = {static_cast<int>(a.sources.size()),
                           static_cast<int>(a.destinations.size())};
  for (const auto* list : {&a.sources, &a.source_weights, &a.destinations,
                           &a.destination_weights}) {
    flat.insert(flat.end(), list->begin(), list->end());
  }
  return flat;
}

Adjacency unflatten(const std::vector<int>& flat, bool weighted) {
  const auto in = static_cast<std::size_t>(flat[0]);
  const auto out = static_cast<std::size_t>(flat[1]);
  const auto at = [&flat](std::size_t first, std::size_t n) {
    return std::vector<int>(
        flat.begin() + static_cast<std::ptrdiff_t>(first),
        flat.begin() + static_cast<std::ptrdiff_t>(first + n));
  };
  Adjacency a;
  a.weighted = weighted;
  std::size_t next = 2;
  a.sources = at(next, in);
  next += in;
  if (weighted) {
    a.source_weights = at(next, in);
    next += in;
  }
  a.destinations = at(next, out);
  next += out;
  if (weighted) a.destination_weights = at(next, out);
  return a;
}

// Sends this process's adjacency to rank `to` and returns rank `from`'s,
// on a duplicate of comm: no receive of the application on comm (any
// source, any tag) can take these messages. Collective.
Adjacency exchange_adjacency(const classic::Comm& comm, const Adjacency& mine,
                             int to, int from) {
  constexpr int kTag = 0;
  const classic::Comm own = comm.dup();
  const std::vector<int> flat = flatten(mine);
  int length = static_cast<int>(flat.size());
  int incoming = 0;
  (void)classic::sendrecv(own, &length, 1, MPI_INT, to, kTag, &incoming, 1,
                          MPI_INT, from, kTag);
  std::vector<int> theirs(static_cast<std::size_t>(incoming));
  (void)classic::sendrecv(own, flat.data(), length, MPI_INT, to, kTag + 1,
                          theirs.data(), incoming, MPI_INT, from, kTag + 1);
  return unflatten(theirs, mine.weighted);
}

classic::Comm make_graph(const classic::Comm& base, const Adjacency& a,
                         const classic::Info& info) {
  if (a.weighted) {
    return classic::dist_graph_create_adjacent(base, a.sources,
                                               a.source_weights, a.destinations,
                                               a.destination_weights, info);
  }
  return classic::dist_graph_create_adjacent(
      base, a.sources, classic::unweighted, a.destinations, classic::unweighted,
      info);
}

}  // namespace

Mapping map_graph(const classic::Comm& comm, const Adjacency& adjacency,
                  const classic::Info& info,
                  std::span<const int> host_of_rank) {
  // Every decision below is the same on every process: each input is
  // either agreed (naming, stencil, weights) or the same everywhere
  // (host_of_rank).
  if (!naming::cart_testall(comm)) return {};
  const naming::Geometry geometry = naming::cart_get(comm);
  if (geometry.size() != comm.size()) return {};
  const std::vector<int> slots = equal_slots(host_of_rank);
  if (slots.size() < 2) return {};
  const std::optional<stencils::CartesianNeighborhood> common =
      stencils::detect_cartesian(comm, geometry, adjacency.destinations,
                                 adjacency.sources);
  if (!common) return {};
  const std::vector<std::int64_t> weights =
      offset_weights(comm, *common, adjacency);
  // Cell c is rank c of the named communicator: the current placement is
  // where the ranks run.
  const stencils::PlacementChoice choice = stencils::choose_placement(
      geometry, common->targets, weights, slots, host_of_rank);
  Mapping mapping;
  mapping.facts.identity = traffic_of(choice.current_cost);
  if (choice.block_cost) {
    mapping.facts.best_blocks = traffic_of(*choice.block_cost);
  }
  if (choice.chosen != stencils::Chosen::block) return mapping;
  mapping.facts.mapped = true;
  // taker[c]: the rank of comm that takes cell c (its new rank is c).
  const std::vector<int> taker =
      stencils::assign_ranks(choice.host_of_cell, host_of_rank);
  const int me = comm.rank();
  const int cell = static_cast<int>(std::find(taker.begin(), taker.end(), me) -
                                    taker.begin());
  // My cell's adjacency goes to the process that takes it; I take `cell`,
  // whose adjacency rank `cell` holds.
  const Adjacency taken = exchange_adjacency(
      comm, adjacency, taker[static_cast<std::size_t>(me)], cell);
  classic::Comm base = comm.split(0, cell);
  (void)naming::cart_name(base, geometry);
  classic::Comm graph = make_graph(base, taken, info);
  mapping.graph = structured(std::move(graph), base, &base, mapping.facts);
  return mapping;
}

}  // namespace ortho::internal
