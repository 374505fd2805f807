// The node-aware algorithm (node_aware.cc) as the table holds it: every
// process's view of the whole graph and the hosts, made at the algorithm's
// first call on a communicator, and its routes per payload, made once.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_H_

#include <optional>
#include <vector>

#include "ortho/algorithms/node_aware_routes.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"
#include "ortho/operation.h"

namespace ortho::algorithms {

class NodeAware {
 public:
  NodeAware(node_routes::HostGraph graph, int rank, std::vector<int> sources);

  // This process's routes for `operation` (allgather(v, w) and allreduce:
  // one block per source; alltoall(v, w): one per edge), computed on first use
  // (calls on one communicator are not concurrent).
  const node_routes::Routes& routes(Operation operation) const;

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
  mutable std::optional<node_routes::Routes> per_edge_;
  mutable std::optional<node_routes::Routes> per_source_;
};

// "node_aware": allgather(v, w), alltoall(v, w) and allreduce on directed
// graphs.
const Algorithm& node_aware();

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_NODE_AWARE_H_
