#include "stencils/cart_neighbors.h"

#include "classic/base/error.h"
#include "naming/cart_name.h"

namespace stencils {
namespace {

// The naming of `cart`; its errors name `function`, the user's call.
naming::Geometry naming_for(const classic::Comm& cart, const char* function) {
  try {
    return naming::cart_get(cart);
  } catch (const classic::Error& error) {
    throw error.raised_by(function);
  }
}

}  // namespace

Stencil cart_neighbors(const classic::Comm& cart, int rank, Metric metric,
                       int shadow, int depth) {
  return cart_neighbors(naming_for(cart, "stencils::cart_neighbors"), rank,
                        metric, shadow, depth);
}

int cart_neighbors_count(const classic::Comm& cart, int rank, Metric metric,
                         int shadow, int depth) {
  return cart_neighbors_count(
      naming_for(cart, "stencils::cart_neighbors_count"), rank, metric, shadow,
      depth);
}

std::vector<int> cart_neighbor_ranks(const classic::Comm& cart, int rank,
                                     Metric metric, int shadow, int depth) {
  return cart_neighbor_ranks(naming_for(cart, "stencils::cart_neighbor_ranks"),
                             rank, metric, shadow, depth);
}

}  // namespace stencils
