// The paper's Listing 6 on a Cartesian-named communicator: stencil
// neighbourhoods of a rank, as relative offsets or as ranks.
#ifndef ORTHOCOMM_STENCILS_CART_NEIGHBORS_H_
#define ORTHOCOMM_STENCILS_CART_NEIGHBORS_H_

#include <vector>

#include "classic/comm/comm.h"
#include "stencils/neighborhood.h"
#include "stencils/stencil.h"

namespace stencils {

// Cart_neighbors: the offsets o with shadow <= distance(o) <= depth around
// `rank` of the naming of `cart`, dropping those that leave a non-periodic
// dimension (see neighborhood.h for order and wrapped duplicates). Feed them
// to naming::cart_allranks_relative for the ranks.
// Throws classic::Error: topology if cart carries no naming; rank unless
// 0 <= rank < the grid's size; arg for a bad shadow or depth.
Stencil cart_neighbors(const classic::Comm& cart, int rank, Metric metric,
                       int shadow, int depth);

// Cart_neighbors_count: cart_neighbors(...).size(), without the list.
int cart_neighbors_count(const classic::Comm& cart, int rank, Metric metric,
                         int shadow, int depth);

// The neighbours' ranks in cart, in cart_neighbors' order: what
// dist_graph_create_adjacent takes.
std::vector<int> cart_neighbor_ranks(const classic::Comm& cart, int rank,
                                     Metric metric, int shadow, int depth);

}  // namespace stencils

#endif  // ORTHOCOMM_STENCILS_CART_NEIGHBORS_H_
