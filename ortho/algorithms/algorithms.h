// The algorithms of ortho's tables, by name, for the algorithms that refer
// to each other and for tests. One file under ortho/algorithms/ per
// algorithm; which operation uses which is each algorithm's registration
// (registry.h), not this list's.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_ALGORITHMS_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_ALGORITHMS_H_

#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"

namespace ortho::algorithms {

// Fully connected and bipartite communicators: classic's collectives
// (native.cc). The default there.
const Algorithm& native();

// Directed graphs: one message per edge, in one round (direct.cc):
// classic's neighbourhood collectives for allgather(v) and alltoall(v, w),
// plans of its own for the rest. The default there.
const Algorithm& direct();

// One message per distinct peer, edges to itself as local copies
// (per_peer.cc): allgather(v, w) and alltoall(v, w) on directed graphs.
// Offered, not the default: on shared memory it measured slower than one
// message per edge (experiments/combining_benchmark: von Neumann allgather
// on a 2 x 2 torus, 4 B blocks, 8.0 against 6.6 us; 4 KB, 29 against
// 19 us): fewer, larger messages lose the pipelining of many small ones;
// it is there for networks where a message costs more.
const Algorithm& per_peer();

// Cartesian stencils: message combining (combining.h).
const Algorithm& combining();

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_ALGORITHMS_H_
