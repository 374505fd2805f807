// The node-aware algorithm (node_aware.cc) as the table holds it: every
// process's view of the whole graph and the hosts (made with the table
// where the graph spans several hosts, otherwise at the algorithm's first
// call), the cost model's crossovers, and its routes per payload, made
// once.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_NODE_AWARE_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_NODE_AWARE_H_

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "ortho/algorithms/node_aware/node_aware_routes.h"
#include "ortho/algorithms/node_aware_model.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"
#include "ortho/operation.h"

namespace ortho::algorithms {

class NodeAware {
 public:
  // `sources_of_rank[r]`: rank r's in-neighbours in its order (what a
  // reverse's routes take as every process's destinations).
  NodeAware(node_routes::HostGraph graph, int rank, std::vector<int> sources,
            std::vector<std::vector<int>> sources_of_rank);

  // The same view of the graph with every edge turned around (a reverse's:
  // every process's in-neighbours become its out-neighbours, in its
  // order), with the same prices. Local.
  NodeAware reversed() const;

  // What `operation`'s blocks are to the routes: one per source
  // (allgather(v, w), allreduce) or one per edge (alltoall(v, w)).
  static node_routes::Payload payload_of(Operation operation);

  // The whole graph and the hosts, the same on every process.
  const node_routes::HostGraph& graph() const { return graph_; }
  // This process's rank and in-neighbours, in its order.
  int rank() const { return rank_; }
  const std::vector<int>& sources() const { return sources_; }

  // This process's routes for `operation` (allgather(v, w) and allreduce:
  // one block per source; alltoall(v, w): one per edge), computed on first use
  // (calls on one communicator are not concurrent).
  const node_routes::Routes& routes(Operation operation) const;

  // Whether some edge joins two hosts, so that some process relays blocks
  // (the same on every process).
  bool relays() const;

  // The prices the table's analysis agreed on (several hosts); none where
  // the view was made by a call.
  const std::optional<HostPrices>& prices() const { return prices_; }
  void set_prices(const HostPrices& prices) { prices_ = prices; }

  // Whether a call of `operation` learns its relayed blocks' sizes first
  // (the v and w forms); allgather, alltoall and allreduce know them.
  static bool exchanges_sizes(Operation operation) {
    return operation != Operation::allgather &&
           operation != Operation::alltoall &&
           operation != Operation::allreduce;
  }

 private:
  node_routes::HostGraph graph_;
  int rank_ = 0;
  std::vector<int> sources_;
  std::vector<std::vector<int>> sources_of_rank_;
  mutable std::optional<node_routes::Routes> per_edge_;
  mutable std::optional<node_routes::Routes> per_source_;
  mutable std::optional<bool> relays_;
  std::optional<HostPrices> prices_;
};

// The table's view of the whole graph: made with the table where the graph
// spans several hosts (node_aware's analysis; a reverse's table turns its
// graph's around), otherwise by the first call that needs it (collective
// then: an algorithm forced on one host). Other algorithms on general
// graphs share it.
const NodeAware& node_aware_of(const classic::Comm& comm, const Table& table);

// That view where it has been made, otherwise null. Local.
std::shared_ptr<NodeAware> node_aware_state(const Table& table);

// "node_aware": allgather(v, w), alltoall(v, w) and allreduce on directed
// graphs.
const Algorithm& node_aware();

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_NODE_AWARE_H_
