// The complete directed graph over the world (every other process, in
// ascending order, both ways), made by ortho's constructor: the graph
// several ortho tests run the relaying algorithms on over planned hosts.
#ifndef ORTHOCOMM_TESTS_ORTHO_TESTING_COMPLETE_GRAPH_H_
#define ORTHOCOMM_TESTS_ORTHO_TESTING_COMPLETE_GRAPH_H_

#include <vector>

#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "ortho/dist_graph.h"

namespace ortho_testing {

// Collective over the world.
inline classic::Comm complete_graph() {
  const classic::Comm world = classic::Comm::world();
  std::vector<int> others;
  for (int r = 0; r < world.size(); ++r) {
    if (r != world.rank()) others.push_back(r);
  }
  return ortho::dist_graph_create_adjacent(world, others, classic::unweighted,
                                           others, classic::unweighted);
}

}  // namespace ortho_testing

#endif  // ORTHOCOMM_TESTS_ORTHO_TESTING_COMPLETE_GRAPH_H_
