#include "ortho/algorithms/pricing.h"

#include "ortho/algorithms/node_aware.h"

namespace ortho::algorithms {

Scale scale_of(const Table& table) {
  if (table.hosts() >= 2 && table.node_aware != nullptr &&
      table.node_aware->prices()) {
    return Scale::hosts;
  }
  return table.combining ? Scale::one_host : Scale::unpriced;
}

}  // namespace ortho::algorithms
