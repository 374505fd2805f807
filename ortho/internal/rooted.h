// The normalisation of the directed-graph collectives other than the
// exchanges: barrier, bcast, gather(v), scatter(v), reduce and allreduce
// (the rooted operations and the two that reduce over in-neighbours or
// wait for them). A typed call's counts follow from its spans, and every
// argument is checked against the neighbourhood, naming the caller's
// function. ortho's dispatch runs it before the choice of algorithm, so an
// error is raised on the process that made it before any message; the
// algorithms that run these operations (direct, box_allreduce, node_aware's
// allreduce) take the raw call it returns and check nothing again. The
// exchanges' normalisation: internal/exchange.h.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_ROOTED_H_
#define ORTHOCOMM_ORTHO_INTERNAL_ROOTED_H_

#include "ortho/algorithms/checks.h"
#include "ortho/algorithms/graph_plans.h"
#include "ortho/call.h"
#include "ortho/internal/exchange.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/operation.h"

namespace ortho::algorithms {

// Whether normalise_rooted() takes `operation`, one defined on a directed
// graph (ortho::defined_on): every one but the exchanges.
inline bool is_rooted(Operation operation) { return !is_exchange(operation); }

// The call in raw form (counts in elements of the datatype), every argument
// checked: raises classic::Error (through `check`) for the first that does
// not fit `n`. Only what the operation reads on the caller is checked (a
// non-root's receive arguments of gather are not).
Call normalise_rooted(const Neighbourhood& n, const Call& call,
                      const Checks& check);

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_INTERNAL_ROOTED_H_
