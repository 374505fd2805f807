// The graph operations other than the exchanges (graph_plans.h) take raw
// arguments: counts in elements of the datatype. A typed call (spans)
// becomes a raw one here, its blocks checked against its spans; and the
// checks of an allreduce's operand, which direct and node_aware share.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_RAW_CALL_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_RAW_CALL_H_

#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/graph_plans.h"
#include "ortho/call.h"
#include "ortho/internal/inside_ortho.h"

namespace ortho::algorithms {

// Fills the counts a typed call leaves to its spans; raises
// classic::Error (through `check`) where a block does not lie inside its
// span.
Call raw_from_typed(const Call& typed, const Neighbourhood& n,
                    const Checks& check);

// A raw allreduce's operand (count and datatype), checked: a valid count,
// datatype and op, and a receive buffer that is not MPI_IN_PLACE.
Elements allreduce_operand(const Call& raw, const Checks& check);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_RAW_CALL_H_
