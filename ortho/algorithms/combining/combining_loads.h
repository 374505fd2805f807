// Where message combining's messages go on a grid whose processes sit on
// several hosts: for each round of a schedule (stencils/schedule.h) and each
// process, the block count of every message it sends and whether it leaves
// the host. The node-aware cost model (node_aware_model.h) prices them on
// the scale on which it prices direct and node_aware, so that the three are
// chosen between by one measure. MPI-free.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_COMBINING_COMBINING_LOADS_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_COMBINING_COMBINING_LOADS_H_

#include <span>
#include <vector>

#include "naming/geometry.h"
#include "ortho/internal/inside_ortho.h"
#include "stencils/schedule.h"

namespace ortho::algorithms::combining_loads {

struct Message {
  int blocks = 0;
  bool between_hosts = false;
  int to = 0;  // the receiving rank
  friend bool operator==(const Message&, const Message&) = default;
};

// rounds[r][p]: the messages process p sends in round r.
using Rounds = std::vector<std::vector<std::vector<Message>>>;

// The messages of `rounds` for every process of `geometry`'s grid (ranks
// 0 .. size - 1), host_of_rank[p] the host of rank p. A message that carries
// no block (its moves leave a non-periodic grid) is not sent and not
// counted; neither is one that reaches its sender.
Rounds messages_of(std::span<const stencils::Round> rounds,
                   const naming::Geometry& geometry,
                   std::span<const int> host_of_rank);

}  // namespace ortho::algorithms::combining_loads

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_COMBINING_COMBINING_LOADS_H_
