#include "ortho/subgraph.h"

#include <span>
#include <utility>
#include <vector>

#include "classic/base/constants.h"
#include "classic/base/error.h"
#include "classic/graph/dist_graph.h"
#include "classic/topology/topology.h"
#include "ortho/internal/structured.h"
#include "ortho/internal/table.h"
#include "ortho/strict.h"
#include "ortho/structure.h"

namespace ortho {
namespace {

// One side of a process's edges, ranks and weights in parallel.
struct Edges {
  std::vector<int> ranks;
  std::vector<int> weights;
};

// The edges of `edges` whose other end is in `sub` (ranks as `translated`
// gives them: undefined for processes outside), in order.
Edges induced(const Edges& edges, const std::vector<int>& translated) {
  Edges kept;
  for (std::size_t i = 0; i < translated.size(); ++i) {
    if (translated[i] == classic::undefined) continue;
    kept.ranks.push_back(translated[i]);
    if (!edges.weights.empty()) kept.weights.push_back(edges.weights[i]);
  }
  return kept;
}

std::vector<int> translate(const classic::Comm& from,
                           const std::vector<int>& ranks,
                           const classic::Comm& to) {
  std::vector<int> known;  // proc_null (Cartesian borders) is no process
  std::vector<int> translated(ranks.size(), classic::undefined);
  for (int rank : ranks) {
    if (rank != classic::proc_null) known.push_back(rank);
  }
  const std::vector<int> mapped =
      from.group().translate_ranks(known, to.group());
  for (std::size_t i = 0, j = 0; i < ranks.size(); ++i) {
    if (ranks[i] != classic::proc_null) translated[i] = mapped[j++];
  }
  return translated;
}

// The subgraph of graph induced on sub's processes, as a new ortho
// communicator over `sub`'s processes with base `base` (null: made).
classic::Comm induce(const classic::Comm& graph, const classic::Comm& sub,
                     classic::Comm base) {
  Edges in;
  Edges out;
  bool weighted = false;
  if (classic::topo_test(graph) == classic::TopologyKind::dist_graph) {
    classic::DistGraphNeighbors n = classic::dist_graph_neighbors(graph);
    weighted = classic::dist_graph_neighbors_count(graph).weighted;
    in = {std::move(n.sources), std::move(n.source_weights)};
    out = {std::move(n.destinations), std::move(n.destination_weights)};
  } else {
    internal::read_neighbours(graph, in.ranks, out.ranks);
  }
  const Edges sub_in = induced(in, translate(graph, in.ranks, sub));
  const Edges sub_out = induced(out, translate(graph, out.ranks, sub));
  classic::Comm made = weighted ? classic::dist_graph_create_adjacent(
                                      sub, sub_in.ranks, sub_in.weights,
                                      sub_out.ranks, sub_out.weights)
                                : classic::dist_graph_create_adjacent(
                                      sub, sub_in.ranks, classic::unweighted,
                                      sub_out.ranks, classic::unweighted);
  return internal::structured(std::move(made), std::move(base));
}

// split and create: classic's result, made a subgraph on directed graphs.
classic::Comm subgraph_of(const classic::Comm& comm, classic::Comm sub) {
  if (sub.is_null() || ortho::topo_test(comm) != Structure::directed_graph) {
    return sub;
  }
  return induce(comm, sub, sub);  // sub has no topology: it is the base
}

}  // namespace

classic::Comm comm_split(const classic::Comm& comm, int color, int key) {
  return subgraph_of(comm, comm.split(color, key));
}

classic::Comm comm_create(const classic::Comm& comm,
                          const classic::Group& group) {
  return subgraph_of(comm, comm.create(group));
}

classic::Comm comm_dup(const classic::Comm& comm) {
  classic::Comm copy = comm.dup();
  if (ortho::strict(comm)) ortho::set_strict(copy, true);
  return copy;
}

classic::Comm comm_subgraph(const classic::Comm& graphcomm,
                            const classic::Comm& subcomm) {
  const char* function = "ortho::comm_subgraph";
  if (ortho::topo_test(graphcomm) != Structure::directed_graph) {
    throw classic::Error(classic::ErrorClass::topology, function,
                         "graphcomm is not a directed-graph communicator");
  }
  const classic::Group members = subcomm.group();
  std::vector<int> ranks(static_cast<std::size_t>(members.size()));
  for (std::size_t i = 0; i < ranks.size(); ++i) ranks[i] = static_cast<int>(i);
  const std::vector<int> in_graph =
      members.translate_ranks(ranks, graphcomm.group());
  for (std::size_t i = 0; i < in_graph.size(); ++i) {
    if (in_graph[i] == classic::undefined) {
      throw classic::Error(classic::ErrorClass::group, function,
                           "subcomm's rank " + std::to_string(i) +
                               " is not a process of graphcomm");
    }
  }
  return induce(graphcomm, subcomm, {});
}

}  // namespace ortho
