// Strict mode (the paper, section 2.3): on a directed-graph communicator,
// point-to-point restricted to the graph's neighbours, so that a stencil
// code cannot talk past its declared neighbourhood by mistake.
#ifndef ORTHOCOMM_ORTHO_STRICT_H_
#define ORTHOCOMM_ORTHO_STRICT_H_

#include "classic/comm/comm.h"

namespace ortho {

// Turns strict mode on or off for this process on `graph` (a
// directed-graph communicator: ortho::topo_test says so): while on, a send
// to a process that is not an out-neighbour, a receive or probe from one
// that is not an in-neighbour, and a receive from any_source that matches
// a message from a process that is not an in-neighbour raise
// classic::Error (ErrorClass::rank) naming both ranks
// (classic/p2p/peer_restriction.h says what is checked). Collectives are
// not affected. Off by default; ORTHO_STRICT=1 in the environment turns it
// on for every graph ortho makes (ortho::dist_graph_create(_adjacent),
// comm_split, comm_create, comm_subgraph) and ortho::comm_dup keeps it.
// Local. ErrorClass::topology where graph is no directed graph.
void set_strict(const classic::Comm& graph, bool on);

// Whether strict mode is on for this process on `comm`. Local.
bool strict(const classic::Comm& comm);

namespace internal {

// Strict mode on `graph` where ORTHO_STRICT=1 (ortho's graph constructors).
void apply_strict_environment(const classic::Comm& graph);

}  // namespace internal
}  // namespace ortho

#endif  // ORTHOCOMM_ORTHO_STRICT_H_
