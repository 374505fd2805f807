#include "ortho/internal/mapping.h"

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "classic/base/environment_flag.h"
#include "classic/collectives/collectives.h"
#include "classic/graph/dist_graph.h"
#include "classic/p2p/point_to_point.h"
#include "naming/cart_name.h"
#include "ortho/internal/graph_facts.h"
#include "ortho/internal/graph_placement.h"
#include "ortho/internal/structured.h"
#include "ortho/internal/table.h"
#include "stencils/cartesian_detection.h"
#include "stencils/placement.h"

namespace ortho::internal {
namespace {

// The process count of each host (numbered densely).
std::vector<int> slots_of(std::span<const int> host_of_rank) {
  std::vector<int> slots;
  for (const int host : host_of_rank) {
    if (static_cast<std::size_t>(host) >= slots.size()) {
      slots.resize(static_cast<std::size_t>(host) + 1, 0);
    }
    ++slots[static_cast<std::size_t>(host)];
  }
  return slots;
}

// The same; empty where they differ (no block partition).
std::vector<int> equal_slots(std::span<const int> host_of_rank) {
  std::vector<int> slots = slots_of(host_of_rank);
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

// The graph made on the processes of host_of_vertex: vertex q's adjacency
// moves to the process that becomes rank q. Collective.
Mapping placed(const classic::Comm& comm, const Adjacency& adjacency,
               const classic::Info& info, std::span<const int> host_of_vertex,
               std::span<const int> host_of_rank,
               const std::optional<naming::Geometry>& naming,
               MappingFacts facts) {
  facts.kept_because = KeptBecause::placed;
  // taker[q]: the rank of comm that takes vertex q (its new rank is q).
  const std::vector<int> taker =
      stencils::assign_ranks(host_of_vertex, host_of_rank);
  const int me = comm.rank();
  const int vertex = static_cast<int>(
      std::find(taker.begin(), taker.end(), me) - taker.begin());
  // My vertex's adjacency goes to the process that takes it; I take
  // `vertex`, whose adjacency rank `vertex` holds.
  const Adjacency taken = exchange_adjacency(
      comm, adjacency, taker[static_cast<std::size_t>(me)], vertex);
  facts.old_rank = taker;
  classic::Comm base = comm.split(0, vertex);
  if (naming) (void)naming::cart_name(base, *naming);
  classic::Comm graph = make_graph(base, taken, info);
  Mapping mapping;
  mapping.graph = structured(std::move(graph), base, &base, facts);
  mapping.facts = std::move(facts);
  return mapping;
}

// The grid's placement where comm carries a Cartesian naming, the graph is
// one stencil and a block partition fits the hosts; std::nullopt (on
// every process alike) where not. Collective.
std::optional<Mapping> map_grid(const classic::Comm& comm,
                                const Adjacency& adjacency,
                                const classic::Info& info,
                                std::span<const int> host_of_rank) {
  // Every decision below is the same on every process: each input is
  // either agreed (naming, stencil, weights) or the same everywhere
  // (host_of_rank).
  if (!naming::cart_testall(comm)) return std::nullopt;
  const naming::Geometry geometry = naming::cart_get(comm);
  if (geometry.size() != comm.size()) return std::nullopt;
  const std::vector<int> slots = equal_slots(host_of_rank);
  if (slots.size() < 2) return std::nullopt;
  const std::optional<stencils::CartesianNeighborhood> common =
      stencils::detect_cartesian(comm, geometry, adjacency.destinations,
                                 adjacency.sources);
  if (!common) return std::nullopt;
  const std::vector<std::int64_t> weights =
      offset_weights(comm, *common, adjacency);
  // Cell c is rank c of the named communicator: the current placement is
  // where the ranks run.
  const stencils::PlacementChoice choice = stencils::choose_placement(
      geometry, common->targets, weights, slots, host_of_rank);
  if (!choice.block_cost) return std::nullopt;
  MappingFacts facts;
  facts.identity = traffic_of(choice.current_cost);
  facts.best_blocks = traffic_of(*choice.block_cost);
  if (choice.chosen != stencils::Chosen::block) {
    facts.kept_because = KeptBecause::no_gain;
    return Mapping{std::nullopt, facts};
  }
  facts.placement = Placement::grid_blocks;
  return placed(comm, adjacency, info, choice.host_of_cell, host_of_rank,
                geometry, facts);
}

// The whole graph at rank 0: every process's out-edges with their weights
// (1 where unweighted), in rank order. Collective; empty elsewhere.
DirectedGraph gather_graph(const classic::Comm& comm,
                           const Adjacency& adjacency) {
  std::vector<std::int64_t> mine;  // target, weight, target, weight, ...
  for (std::size_t i = 0; i < adjacency.destinations.size(); ++i) {
    mine.push_back(adjacency.destinations[i]);
    mine.push_back(adjacency.weighted ? adjacency.destination_weights[i] : 1);
  }
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(comm.size()));
  classic::allgather(comm, &count, 1, MPI_INT, counts.data(), 1, MPI_INT);
  std::vector<int> displs(counts.size(), 0);
  std::exclusive_scan(counts.begin(), counts.end(), displs.begin(), 0);
  constexpr int kRoot = 0;
  std::vector<std::int64_t> all(
      comm.rank() == kRoot
          ? static_cast<std::size_t>(displs.back() + counts.back())
          : 0);
  classic::gatherv(comm, mine.data(), count, MPI_INT64_T, all.data(), counts,
                   displs, MPI_INT64_T, kRoot);
  DirectedGraph graph;
  if (comm.rank() != kRoot) return graph;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    for (int i = 0; i < counts[r]; i += 2) {
      const std::size_t at =
          static_cast<std::size_t>(displs[r]) + static_cast<std::size_t>(i);
      graph.targets.push_back(static_cast<int>(all[at]));
      graph.weights.push_back(all[at + 1]);
    }
    graph.offsets.push_back(static_cast<std::int64_t>(graph.targets.size()));
  }
  return graph;
}

// Rank 0's decision for a general graph, the same on every process after
// one broadcast: the reason, the two costs (-1: none), and the placement.
struct GeneralDecision {
  KeptBecause kept_because = KeptBecause::no_scotch;
  std::optional<HostTraffic> identity;
  std::optional<HostTraffic> scotch;
  std::vector<int> host_of_vertex;
};

GeneralDecision decide_general(const DirectedGraph& graph,
                               std::span<const int> host_of_rank,
                               bool use_scotch) {
  GraphPlacementChoice choice = choose_graph_placement(
      graph, slots_of(host_of_rank), host_of_rank, use_scotch);
  GeneralDecision decision;
  decision.identity = traffic_of(choice.current_cost);
  if (!choice.scotch_cost) return decision;  // no Scotch
  decision.scotch = traffic_of(*choice.scotch_cost);
  if (choice.placed) {
    decision.kept_because = KeptBecause::placed;
    decision.host_of_vertex = std::move(choice.host_of_vertex);
  } else {
    decision.kept_because = KeptBecause::no_gain;
  }
  return decision;
}

void put(std::vector<std::int64_t>& to, const std::optional<HostTraffic>& t) {
  to.push_back(t ? t->edges : -1);
  to.push_back(t ? t->weight : -1);
  to.push_back(t ? t->max_host_weight : -1);
}

std::optional<HostTraffic> take(const std::vector<std::int64_t>& from,
                                std::size_t at) {
  if (from[at] < 0) return std::nullopt;
  return HostTraffic{from[at], from[at + 1], from[at + 2]};
}

// Broadcasts rank 0's decision: reason, identity, scotch, then the hosts.
GeneralDecision broadcast(const classic::Comm& comm,
                          const GeneralDecision& root) {
  std::vector<std::int64_t> flat = {
      static_cast<std::int64_t>(root.kept_because)};
  put(flat, root.identity);
  put(flat, root.scotch);
  flat.insert(flat.end(), root.host_of_vertex.begin(),
              root.host_of_vertex.end());
  const std::size_t length = 7 + static_cast<std::size_t>(comm.size());
  flat.resize(length, 0);
  classic::bcast(comm, flat.data(), static_cast<int>(length), MPI_INT64_T, 0);
  GeneralDecision decision;
  decision.kept_because = static_cast<KeptBecause>(flat[0]);
  decision.identity = take(flat, 1);
  decision.scotch = take(flat, 4);
  if (decision.kept_because == KeptBecause::placed) {
    decision.host_of_vertex.assign(flat.begin() + 7, flat.end());
  }
  return decision;
}

// Scotch's placement of any directed graph. Collective.
Mapping map_general(const classic::Comm& comm, const Adjacency& adjacency,
                    const classic::Info& info,
                    std::span<const int> host_of_rank) {
  // Read on every process, so that a bad value raises everywhere before
  // any message; rank 0's decides.
  const bool turned_off =
      std::getenv("ORTHO_SCOTCH") != nullptr &&
      !classic::environment_flag(
          "ORTHO_SCOTCH", "ortho::dist_graph_create(_adjacent) (ORTHO_SCOTCH)");
  const bool use_scotch = scotch_built_in() && !turned_off;
  const DirectedGraph graph = gather_graph(comm, adjacency);
  const GeneralDecision decision = broadcast(
      comm, comm.rank() == 0 ? decide_general(graph, host_of_rank, use_scotch)
                             : GeneralDecision{});
  MappingFacts facts;
  facts.kept_because = decision.kept_because;
  facts.identity = decision.identity;
  facts.scotch = decision.scotch;
  if (decision.kept_because != KeptBecause::placed) {
    return {std::nullopt, facts};
  }
  facts.placement = Placement::scotch;
  std::optional<naming::Geometry> naming;
  if (naming::cart_testall(comm)) naming = naming::cart_get(comm);
  if (naming && naming->size() != comm.size()) naming.reset();
  return placed(comm, adjacency, info, decision.host_of_vertex, host_of_rank,
                naming, facts);
}

}  // namespace

Mapping map_graph(const classic::Comm& comm, const Adjacency& adjacency,
                  const classic::Info& info,
                  std::span<const int> any_host_of_rank) {
  const std::vector<int> host_of_rank = numbered_by_lowest_rank(
      {any_host_of_rank.begin(), any_host_of_rank.end()});
  if (slots_of(host_of_rank).size() < 2) {
    MappingFacts facts;
    facts.kept_because = KeptBecause::one_host;
    return {std::nullopt, facts};
  }
  if (std::optional<Mapping> grid =
          map_grid(comm, adjacency, info, host_of_rank)) {
    return std::move(*grid);
  }
  return map_general(comm, adjacency, info, host_of_rank);
}

}  // namespace ortho::internal
