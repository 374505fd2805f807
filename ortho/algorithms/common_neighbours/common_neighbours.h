// The common-neighbours algorithm (common_neighbours.cc) as the table holds
// it: the pairs of processes with common out-neighbours
// (common_neighbours_routes.h), found on the whole graph the table shares
// with node_aware (node_aware.h), and this process's routes per payload,
// made once.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_COMMON_NEIGHBOURS_COMMON_NEIGHBOURS_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_COMMON_NEIGHBOURS_COMMON_NEIGHBOURS_H_

#include <array>
#include <cstddef>
#include <memory>
#include <optional>

#include "ortho/algorithms/common_neighbours/common_neighbours_routes.h"
#include "ortho/algorithms/node_aware/node_aware.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"
#include "ortho/operation.h"

namespace ortho::algorithms {

class CommonNeighbours {
 public:
  explicit CommonNeighbours(std::shared_ptr<const NodeAware> whole);

  const common_routes::Grouping& grouping() const { return grouping_; }

  // This process's routes for `operation` (allgather(v, w): one block per
  // source; alltoall(v, w): one per edge), computed on first use.
  const node_routes::Routes& routes(Operation operation) const;

 private:
  std::shared_ptr<const NodeAware> whole_;
  common_routes::Grouping grouping_;
  mutable std::array<std::optional<node_routes::Routes>, 2> routes_;
};

// "common_neighbours": allgather(v, w) and alltoall(v, w) on directed
// graphs.
const Algorithm& common_neighbours();

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_COMMON_NEIGHBOURS_COMMON_NEIGHBOURS_H_
