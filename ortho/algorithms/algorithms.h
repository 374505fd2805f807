// The algorithms of ortho's tables. One file under ortho/algorithms/ per
// algorithm; ortho/table.cc decides which operation uses which.
#ifndef ORTHOCOMM_ORTHO_ALGORITHMS_ALGORITHMS_H_
#define ORTHOCOMM_ORTHO_ALGORITHMS_ALGORITHMS_H_

#include <span>
#include <string_view>

#include "ortho/table.h"

namespace ortho::algorithms {

// Fully connected and bipartite communicators: classic's collectives
// (native.cc).
const Algorithm& native();

// Directed graphs: one message per edge, in one round (direct.cc):
// classic's neighbourhood collectives for allgather(v) and alltoall(v, w),
// plans of its own for the rest.
const Algorithm& direct();

// One message per distinct peer, edges to itself as local copies
// (per_peer.cc): allgather(v, w) and alltoall(v, w).
const Algorithm& per_peer();
// Makes per_peer an algorithm an override may force for those operations
// (any directed graph; it differs from direct where peers repeat). Not the
// default: on shared memory it measured
// slower than one message per edge (experiments/combining_benchmark: von
// Neumann allgather on a 2 x 2 torus, 4 B blocks, 8.0 against 6.6 us; 4 KB,
// 29 against 19 us): fewer, larger messages lose the pipelining of many
// small ones; it is there for networks where a message costs more.
void offer_per_peer(Table& table);

// Cartesian stencils: message combining (combining.h).
const Algorithm& combining();

// Every algorithm name a table may hold, for the override's errors.
std::span<const std::string_view> known_names();

}  // namespace ortho::algorithms

#endif  // ORTHOCOMM_ORTHO_ALGORITHMS_ALGORITHMS_H_
