// A graph communicator several ortho tests run on: the 2-d Moore stencil
// (8 neighbours, depth 1) over a periodic Cartesian naming of a duplicate
// of the world, made by ortho's constructor (so it has ortho's table and,
// where the stencil allows, message combining).
#ifndef ORTHOCOMM_TESTS_ORTHO_TESTING_MOORE_TORUS_H_
#define ORTHOCOMM_TESTS_ORTHO_TESTING_MOORE_TORUS_H_

#include <span>
#include <vector>

#include "classic/comm/comm.h"
#include "classic/graph/dist_graph.h"
#include "classic/topology/dims_create.h"
#include "naming/cart_name.h"
#include "ortho/dist_graph.h"
#include "stencils/cart_neighbors.h"
#include "stencils/neighborhood.h"

namespace ortho_testing {

// Collective over the world.
inline classic::Comm moore_torus() {
  classic::Comm comm = classic::Comm::world().dup();
  const std::vector<int> zeros = {0, 0};
  const std::vector<int> dims = classic::dims_create(comm.size(), zeros);
  const bool periods[2] = {true, true};
  naming::cart_name(comm, dims, std::span<const bool>(periods, 2),
                    naming::Order::row_major);
  const std::vector<int> ranks = stencils::cart_neighbor_ranks(
      comm, comm.rank(), stencils::Metric::chebyshev, 1, 1);
  return ortho::dist_graph_create_adjacent(comm, ranks, classic::unweighted,
                                           ranks, classic::unweighted);
}

}  // namespace ortho_testing

#endif  // ORTHOCOMM_TESTS_ORTHO_TESTING_MOORE_TORUS_H_
