// What ortho finds out about a directed graph when it first meets it, with
// the collective steps that needs, so that every process selects the same
// algorithms: whether neighbours repeat, and whether the graph is a
// Cartesian stencil (then the compiled combining schedules).
#ifndef ORTHOCOMM_ORTHO_GRAPH_FACTS_H_
#define ORTHOCOMM_ORTHO_GRAPH_FACTS_H_

#include <memory>

#include "classic/comm/comm.h"

namespace ortho {

namespace algorithms {
struct Combining;
}  // namespace algorithms

struct GraphFacts {
  // Non-null where every process has the same stencil on a Cartesian grid.
  std::shared_ptr<const algorithms::Combining> combining;
  // On some process, two edges of one side reach one peer (a repeated
  // edge, offsets that wrap onto one process, a self loop).
  bool peers_repeat = false;
  // The most distinct peers (other than itself) any process sends to.
  int most_peers = 0;
};

namespace internal {

// Collective over `graph` (a directed-graph communicator). `named`: the
// communicator graph was made from (same processes, same order), whose
// Cartesian naming, if every process has the same one, is the grid of the
// stencil detection; null when there is none to look at.
GraphFacts analyse_graph(const classic::Comm& graph,
                         const classic::Comm* named);

}  // namespace internal
}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_GRAPH_FACTS_H_
