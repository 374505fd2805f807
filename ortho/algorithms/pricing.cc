#include "ortho/algorithms/pricing.h"

#include <memory>

#include "ortho/algorithms/combining/combining.h"
#include "ortho/algorithms/node_aware/node_aware.h"

namespace ortho::algorithms {

Scale scale_of(const Table& table) {
  if (table.hosts() >= 2) {
    const std::shared_ptr<const NodeAware> whole = node_aware_state(table);
    if (whole != nullptr && whole->prices()) return Scale::hosts;
  }
  return combining_of(table) != nullptr ? Scale::one_host : Scale::unpriced;
}

}  // namespace ortho::algorithms
