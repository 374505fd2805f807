#include "stencils/cart_neighbors.h"

#include "naming/cart_name.h"

namespace stencils {

Stencil cart_neighbors(const classic::Comm& cart, int rank, Metric metric,
                       int shadow, int depth) {
  return cart_neighbors(naming::cart_get(cart), rank, metric, shadow, depth);
}

int cart_neighbors_count(const classic::Comm& cart, int rank, Metric metric,
                         int shadow, int depth) {
  return cart_neighbors_count(naming::cart_get(cart), rank, metric, shadow,
                              depth);
}

std::vector<int> cart_neighbor_ranks(const classic::Comm& cart, int rank,
                                     Metric metric, int shadow, int depth) {
  return cart_neighbor_ranks(naming::cart_get(cart), rank, metric, shadow,
                             depth);
}

}  // namespace stencils
