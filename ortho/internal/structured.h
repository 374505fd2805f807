// Where ortho's graph constructors (dist_graph.h, subgraph.h and the
// mapping step) give a directed-graph communicator made by classic its base
// and its table: the one place where they select algorithms.
#ifndef ORTHOCOMM_ORTHO_INTERNAL_STRUCTURED_H_
#define ORTHOCOMM_ORTHO_INTERNAL_STRUCTURED_H_

#include "classic/comm/comm.h"
#include "ortho/internal/inside_ortho.h"
#include "ortho/internal/table.h"

namespace ortho::internal {

// Gives graph its base and table. Where `named` (the communicator graph was
// made from, with the same processes in the same order) carries the same
// Cartesian naming on every process, the stencil detection runs and may
// select message combining. Collective over graph.
classic::Comm structured(classic::Comm graph, classic::Comm base,
                         const classic::Comm* named = nullptr);
// The same, recording what Reorder::yes found (internal/mapping.h).
classic::Comm structured(classic::Comm graph, classic::Comm base,
                         const classic::Comm* named,
                         const MappingFacts& mapping);

}  // namespace ortho::internal

#endif  // ORTHOCOMM_ORTHO_INTERNAL_STRUCTURED_H_
