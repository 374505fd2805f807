// The scale every algorithm prices its calls on for one table, so that the
// chooser (internal/choose.h) compares like with like: where the graph
// spans several hosts and the table's analysis gathered it, the host model
// (node_aware_model.h: shared memory within a host, the network between
// hosts); on one host, on a Cartesian stencil, the single-host cost model
// (cost_model.h) with the prices agreed when the stencil was detected;
// otherwise no model (only the baseline competes).
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_PRICING_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_PRICING_H_

#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"

namespace ortho::algorithms {

enum class Scale { unpriced, one_host, hosts };

Scale scale_of(const Table& table);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_PRICING_H_
